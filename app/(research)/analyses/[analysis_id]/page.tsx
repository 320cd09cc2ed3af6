// An analysis, of either kind. Questions: the clusters with their intents and specificity, to
// tick and send to a fanout (estimate first); it updates while the questions are generated.
// Citations: the shared view's charts and figures (domains by engine, coverage, totals, engines,
// domains, pages, mentions, the overlap between engines), and the runs left out.
// Visibility: the shared view's charts, figures and matrix, and the mentions behind them (a page of
// them, and an answer with its mentions marked, as the address asks). Comparison: the two engines
// side by side (lib/comparison). Opportunities: what to do next, with the pages to audit. Each has its share control.
import { OpportunitiesView } from "@/app/s/_components/opportunities-view";
import type { Metadata } from "next";
import type { ReactNode } from "react";
import { cache } from "react";
import type { Principal } from "@/lib/auth/principal";
import { requireSessionPrincipal } from "@/lib/auth/session";
import { getAnalysis } from "@/lib/analyses/read";
import { engineConfig } from "@/lib/config/engines";
import { marketChoices } from "@/lib/locale/codes";
import { getProject } from "@/lib/projects/read";
import { progressOfAll } from "@/lib/research/progress";
import { isFinished } from "@/lib/runs/status";
import { Analysis, type CitationAnalysis } from "@/lib/schemas/analyses";
import type { QuestionsAnalysis } from "@/lib/schemas/questions";
import { fewerQuestions, questionsTally } from "@/lib/words/questions";
import { getShareStatus } from "@/lib/shares/read";
import { Email, Notice, Section } from "../../../_components/ui";
import { ExcludedRuns, Facts, Failure, ShareHeading, Tag, statusTone } from "../../../s/_components/bits";
import { CitationsView } from "../../../s/_components/citations-view";
import { ProvenanceDetails } from "../../../s/_components/questions-view";
import { engineName, when } from "../../../s/_lib/view";
import { ResearchPage, type Crumb } from "../../_components/frame";
import { LiveRefresh } from "../../_components/live";
import { ShareControl } from "../../_components/share-control";
import { orNotFound } from "../../_lib/load";
import { QuestionPicker } from "./question-picker";
import { VisibilityView } from "../../../s/_components/visibility-view";
import { ComparisonView } from "../../../s/_components/comparison-view";
import { JudgedSections } from "../../../s/_components/judged-view";
import { addCompetitorAction } from "../../actions";
import { judgeQuote } from "@/lib/visibility/judge-again";
import { JudgeForm } from "./judge-form";
import { findOpportunitiesAction } from "./actions";
import { AuditPagesForm } from "./audit-pages-form";
import { AUDIT_PAGES_LIMIT, auditQuote } from "@/lib/opportunities/audit";
import type { OpportunityAnalysis } from "@/lib/schemas/opportunities";
import { linksAt, visibilityEvidence } from "../../../s/_lib/visibility";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ analysis_id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const load = cache(async (analysisId: string) => {
  const principal = await requireSessionPrincipal(`/analyses/${analysisId}`);
  const analysis = Analysis.parse(await orNotFound(getAnalysis(principal, analysisId)));
  return { principal, analysis };
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { analysis } = await load((await params).analysis_id);
  const what = analysis.kind === "questions" ? `Questions: ${analysis.topic}` : analysis.kind === "opportunities" ? analysis.subject : `${analysis.kind === "citations" ? "Citations" : analysis.kind === "comparison" ? "Comparison" : "Visibility"}: ${analysis.subject}`;
  return { title: `${what.length > 80 ? `${what.slice(0, 79)}…` : what} · geoscope` };
}

const cutLabel = (s: string) => (s.length > 40 ? `${s.slice(0, 39)}…` : s);

export default async function AnalysisPage({ params, searchParams }: Props) {
  const { analysis_id } = await params;
  const { principal, analysis } = await load(analysis_id);
  const finished = isFinished(analysis.status);
  const [project, share, progress] = await Promise.all([
    analysis.project_id ? orNotFound(getProject(principal, analysis.project_id)) : null,
    getShareStatus(principal, "analysis", analysis.id),
    finished ? null : progressOfAll(principal, [analysis.id]),
  ]);
  const label = analysis.kind === "questions" ? `Questions: ${analysis.topic}` : analysis.kind === "opportunities" ? analysis.subject : `${analysis.kind === "citations" ? "Citations" : analysis.kind === "comparison" ? "Comparison" : "Visibility"}: ${analysis.subject}`;
  const crumbs: Crumb[] = [...(project ? [{ href: `/projects/${project.id}`, label: project.name }] : []), { href: `/analyses/${analysis.id}`, label: cutLabel(label) }];
  const shareControl = <ShareControl kind="analysis" id={analysis.id} finished={finished} initial={{ shared: share.shared, url: share.share?.url ?? null }} />;
  const live = progress ? <LiveRefresh ids={[analysis.id]} since={progress.signature} /> : null;

  return (
    <ResearchPage crumbs={crumbs} wide={analysis.kind !== "questions"}>
      {analysis.kind === "questions" ? (
        <Questions analysis={analysis} project={project?.id ?? null} live={live} selected={selectedOf((await searchParams).q)} />
      ) : analysis.kind === "citations" ? (
        <Citations analysis={analysis} />
      ) : analysis.kind === "comparison" ? (
        <ComparisonView
          analysis={analysis}
          runLink={(id) => `/runs/${id}`}
          lead={
            <p className="-mt-4 mb-6">
              <a href={`/analyses/${analysis.id}/figures.csv`} download className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100" data-testid="comparison-csv">
                Download per-prompt figures (CSV)
              </a>
            </p>
          }
        />
      ) : analysis.kind === "opportunities" ? (
        <>
          <OpportunitiesView analysis={analysis} runLink={(id) => `/runs/${id}`} csv={(section) => `/analyses/${analysis.id}/opportunities.csv?section=${section}`} />
          {project ? <AuditPagesSection principal={principal} list={analysis} /> : null}
        </>
      ) : (
        <>
          <VisibilityView
            analysis={analysis}
            evidence={await visibilityEvidence({ principal }, analysis, await searchParams, `/analyses/${analysis.id}`)}
            links={linksAt(`/analyses/${analysis.id}`)}
            runLink={(id) => `/runs/${id}`}
            lead={
              <>
                <VisibilityActions analysis={analysis.id} judge={!analysis.judge && project !== null} />
                <OpportunitiesForm analysis={analysis.id} entities={analysis.entities} refused={refusedOf((await searchParams).opportunities)} />
                {analysis.judge ? (
                  <JudgedSections
                    analysis={analysis}
                    tracked={project ? [...(project.context?.brands ?? []), ...(project.context?.competitors ?? [])].map((n) => n.toLowerCase()) : null}
                    track={project ? (name) => <TrackCompetitor project={project.id} analysis={analysis.id} name={name} /> : undefined}
                    live={live}
                    added={addedOf(await searchParams)}
                    runLink={(id) => `/runs/${id}`}
                  />
                ) : null}
              </>
            }
          />
          {!analysis.judge && project ? (
            <div className="mt-8">
              <JudgeSection principal={principal} analysis={analysis.id} project={project.id} />
            </div>
          ) : null}
        </>
      )}
      <div className="mt-10">{shareControl}</div>
    </ResearchPage>
  );
}

/** Under a visibility analysis's heading: its figures as CSV, and the way to have its answers judged. */
function VisibilityActions({ analysis, judge }: { analysis: string; judge: boolean }) {
  return (
    <div className="-mt-4 mb-8 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm" data-testid="visibility-actions">
      <a href={`/analyses/${analysis}/figures.csv`} download className="rounded-md border border-slate-300 px-3 py-1.5 hover:bg-slate-100" data-testid="figures-csv">
        Download figures (CSV)
      </a>
      {judge ? (
        <a href="#judge-answers" className="text-indigo-700 hover:underline">
          Judge sentiment and other brands named →
        </a>
      ) : null}
    </div>
  );
}

/** "Audit these pages": the list's citation targets and own pages, priced before anything starts. */
async function AuditPagesSection({ principal, list }: { principal: Principal; list: OpportunityAnalysis }) {
  const pages = [
    ...list.citation_targets.map((t) => ({ url: t.url, why: `${t.owner ? `${t.owner}'s own page, ` : ""}cited in ${t.runs_citing} of ${t.n} answers naming a competitor` })),
    ...list.own_pages.map((o) => ({ url: o.url, why: `yours, cited in ${o.runs_citing} of ${o.n}` })),
  ];
  if (pages.length === 0) return null;
  const quote = await auditQuote(principal, list.id);
  return (
    <Section id="audit-pages" title="Audit these pages" description="Can answer engines reach, read and cite them? A page audit of each page ticked.">
      <AuditPagesForm list={list.id} pages={pages} quote={quote} limit={AUDIT_PAGES_LIMIT} />
    </Section>
  );
}

const refusedOf = (v: string | string[] | undefined) => (typeof v === "string" && v !== "" ? v.slice(0, 300) : null);

/**
 * "Find opportunities": the prompts competitors win, the pages to be cited on, the brand's own
 * pages and the searches on lost prompts, made from this analysis at once and for free (an op_…
 * list), for the brand or any tracked entity.
 */
function OpportunitiesForm({ analysis, entities, refused }: { analysis: string; entities: readonly { name: string; role: string }[]; refused: string | null }) {
  const brand = entities.find((e) => e.role === "brand")?.name ?? entities[0]?.name;
  return (
    <section id="opportunities" aria-label="Opportunities" className="-mt-4 mb-8 rounded-md border border-indigo-100 bg-indigo-50/50 p-3 text-sm" data-testid="opportunities-form">
      {refused ? (
        <div className="mb-2">
          <Notice tone="error">{refused}</Notice>
        </div>
      ) : null}
      <form action={findOpportunitiesAction} className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <input type="hidden" name="analysis_id" value={analysis} />
        <span className="text-slate-700">What to do next: prompts competitors win, pages to be cited on, your own pages cited, the searches run. Free.</span>
        <label className="flex items-center gap-2">
          <span className="text-slate-600">For</span>
          <select name="brand" defaultValue={brand} className="max-w-48 rounded-md border border-slate-300 px-2 py-1">
            {entities.map((e) => (
              <option key={e.name} value={e.name}>
                {e.name}
                {e.role === "brand" ? " (yours)" : ""}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-700">
          Find opportunities
        </button>
      </form>
    </section>
  );
}

/** "Judge these answers": its price on each engine first (nothing is held until it starts). */
async function JudgeSection({ principal, analysis, project }: { principal: Principal; analysis: string; project: string }) {
  const quote = await judgeQuote(principal, analysis);
  return (
    <Section id="judge-answers" title="Judge these answers" description="Sentiment towards each brand and competitor, and the other brands the answers name, read by an answer engine.">
      {quote.runs === 0 ? (
        <p className="text-sm text-slate-600">No answer was counted, so there is nothing to judge.</p>
      ) : quote.engines.length === 0 ? (
        <Notice tone="warn">No engine on this server can judge.</Notice>
      ) : (
        <JudgeForm analysis={analysis} project={project} quote={{ ...quote, engines: quote.engines.map((e) => ({ ...e, name: engineName(e.engine) })) }} />
      )}
    </Section>
  );
}

/** One click: a discovered name becomes one of the project's competitors (addCompetitorAction). */
function TrackCompetitor({ project, analysis, name }: { project: string; analysis: string; name: string }) {
  return (
    <form action={addCompetitorAction}>
      <input type="hidden" name="project_id" value={project} />
      <input type="hidden" name="analysis_id" value={analysis} />
      <input type="hidden" name="name" value={name} />
      <button type="submit" className="rounded border border-indigo-300 px-2 py-1 text-sm text-indigo-700 hover:bg-indigo-50">
        Track as competitor
      </button>
    </form>
  );
}

/** What "Track as competitor" did, as its redirect says. */
function addedOf(query: Record<string, string | string[] | undefined>): { name: string; outcome: string } | null {
  const name = typeof query.competitor === "string" ? query.competitor : null;
  const outcome = typeof query.outcome === "string" && ["added", "tracked", "refused"].includes(query.outcome) ? query.outcome : null;
  return name && outcome ? { name: name.slice(0, 100), outcome } : null;
}

function selectedOf(q: string | string[] | undefined): string[] {
  return (Array.isArray(q) ? q : q ? [q] : []).filter((id) => /^q\d+$/.test(id));
}

function Questions({ analysis, project, live, selected }: { analysis: QuestionsAnalysis; project: string | null; live: ReactNode; selected: string[] }) {
  const provenance = analysis.provenance;
  const engine = provenance?.engine ?? null;
  const facts: Array<[string, ReactNode]> = [
    ["Status", <Tag key="s" tone={statusTone(analysis.status)}>{analysis.status}</Tag>],
    ["Asked", when(analysis.created_at)],
    ...(analysis.created_by ? ([["By", <Email key="b" address={analysis.created_by} />]] as Array<[string, ReactNode]>) : []),
    ...(engine ? ([["Engine", engineName(engine)], ["Model", provenance?.model ?? "—"]] as Array<[string, ReactNode]>) : []),
    ["Questions", questionsTally(analysis)],
    ...(analysis.status === "completed" ? ([["Clusters", String(analysis.clusters.length)]] as Array<[string, ReactNode]>) : []),
    ...(analysis.charge ? ([["Charge", `$${analysis.charge.amount_usd} (${analysis.charge.status})`]] as Array<[string, ReactNode]>) : []),
  ];
  const fewer = fewerQuestions(analysis, analysis.charge !== null);
  return (
    <>
      <ShareHeading kicker="Questions analysis" title={`Questions people ask about ${analysis.topic}`}>
        <Facts items={facts} />
        {fewer ? (
          <p data-testid="fewer-questions" className="mt-3 text-sm text-slate-600">
            {fewer}
          </p>
        ) : null}
        {live ? <div className="mt-4">{live}</div> : null}
      </ShareHeading>

      {analysis.status === "queued" || analysis.status === "running" ? (
        <div data-testid="analysis-pending">
          <Notice tone="info">
            {analysis.status === "queued" ? "Waiting for its turn: " : "Generating: "}
            {analysis.requested_count} questions are being asked for. They appear here when the engine answers, usually within a minute; you can leave this page and
            come back.
          </Notice>
        </div>
      ) : null}

      {analysis.status === "failed" ? (
        <div data-testid="analysis-failed">
          <Failure what="Generating the questions" message={analysis.error?.message} />
          <p className="-mt-6 mb-10 text-sm text-slate-600">
            Nothing was charged for it.
            {project ? (
              <>
                {" "}
                <a href={`/projects/${project}`} className="text-indigo-700 hover:underline">
                  Ask again from the project
                </a>
                {analysis.error?.retryable ? "; asking again may work." : "."}
              </>
            ) : null}
          </p>
        </div>
      ) : null}

      {analysis.status === "completed" ? (
        analysis.questions.length ? (
          <QuestionPicker analysis={analysis} project={project} engines={engineConfig().enabled} markets={marketChoices()} initialSelected={selected} />
        ) : (
          <Notice tone="warn">The engine gave no usable questions. Try again from the project with a broader topic.</Notice>
        )
      ) : null}

      {provenance ? <ProvenanceDetails provenance={provenance} /> : null}
    </>
  );
}

function Citations({ analysis }: { analysis: CitationAnalysis }) {
  return (
    <>
      <CitationsView
        analysis={analysis}
        coverageEmpty={
          <p className="text-sm text-slate-600" data-testid="coverage-empty">
            No domain to cover: give the project its domain (and its competitors&apos;) on the{" "}
            <a href="/account#projects" className="text-indigo-700 hover:underline">
              account page
            </a>
            , then analyse the runs again.
          </p>
        }
      />

      <ExcludedRuns excluded={analysis.excluded_runs} runLink={(id) => `/runs/${id}`} />
    </>
  );
}
