// A project's research: start a prompt, a fanout, a questions analysis, an audit, or a citation or
// visibility analysis of ticked runs; its brands and competitors (with their other names and
// domains) for visibility analyses; and what it holds, newest first, a page at a time, by kind (prompts,
// fanouts, analyses, audits) and engine. Unfinished work on the page updates as it finishes.
import type { Metadata } from "next";
import type { z } from "zod";
import { requireSessionPrincipal } from "@/lib/auth/session";
import { engineConfig } from "@/lib/config/engines";
import { ApiError } from "@/lib/http/errors";
import { getProject } from "@/lib/projects/read";
import { auditRuns, FEED_VIEWS, type FeedBatch, type FeedView, type Glance, promptBatches, projectAnalyses, projectFanouts } from "@/lib/research/feed";
import { progressOfAll } from "@/lib/research/progress";
import { isFinished } from "@/lib/runs/status";
import { auditResultOf, promptResultOf } from "@/lib/schemas/results";
import type { Run } from "@/lib/schemas/runs";
import type { ProjectContext } from "@/lib/schemas/projects";
import { DottedName, Email, Section } from "../../../_components/ui";
import { Tag, statusTone } from "../../../s/_components/bits";
import { engineName, when } from "../../../s/_lib/view";
import { marketChoices } from "@/lib/locale/codes";
import { FanoutForm } from "../../_components/fanout-form";
import { ResearchPage } from "../../_components/frame";
import { LiveRefresh } from "../../_components/live";
import { AuditForm, CitationSelection, PromptForm, QuestionsForm } from "../../_components/start-forms";
import { orNotFound, param } from "../../_lib/load";
import { ProjectMonitors } from "../../monitors/_components/project-monitors";
import { EntitiesForm, type EntityRowValue } from "./entities-form";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ project_id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const VIEW_LABELS: Record<FeedView, string> = { prompts: "Prompts", fanouts: "Fanouts", analyses: "Analyses", audits: "Audits" };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const principal = await requireSessionPrincipal("/projects");
  const project = await orNotFound(getProject(principal, (await params).project_id));
  return { title: `${project.name} · geoscope` };
}

/** The context's brands then competitors as the brands and competitors form shows them. */
function entityRowsOf(context: z.input<typeof ProjectContext> | undefined): EntityRowValue[] {
  const row = (name: string, role: EntityRowValue["role"]): EntityRowValue => ({
    name,
    role,
    aliases: context?.aliases?.[name] ?? [],
    domains: role === "competitor" ? (context?.competitor_domains?.[name] ?? []) : [],
  });
  return [...(context?.brands ?? []).map((b) => row(b, "brand")), ...(context?.competitors ?? []).map((c) => row(c, "competitor"))];
}

function href(projectId: string, query: Record<string, string | undefined>): string {
  const q = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => Boolean(e[1])));
  const s = q.toString();
  return `/projects/${projectId}${s ? `?${s}` : ""}`;
}

function GlanceTags({ glance, watching }: { glance: Glance | null; watching: boolean }) {
  if (!glance || !watching) return null;
  return (
    <span className="flex flex-wrap gap-1" data-testid="glance">
      {glance.ownCited === null ? null : glance.ownCited ? <Tag tone="emerald">your domain cited</Tag> : <Tag>your domain not cited</Tag>}
      {glance.brands.map((b) => (
        <Tag key={`b-${b}`} tone="indigo">
          names {b}
        </Tag>
      ))}
      {glance.competitors.map((c) => (
        <Tag key={`c-${c}`} tone="amber">
          names {c}
        </Tag>
      ))}
    </span>
  );
}

function RunLine({ run, glance, watching }: { run: z.input<typeof Run>; glance: Glance | null; watching: boolean }) {
  const result = promptResultOf(run.result as Run["result"]);
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1 py-1.5 text-sm">
      <input type="checkbox" name="ids" value={run.id} aria-label={`Include the ${engineName(run.engine)} run`} className="h-4 w-4 accent-indigo-600" />
      <a href={`/runs/${run.id}`} className="font-medium text-indigo-700 hover:underline" data-testid="run-link">
        {engineName(run.engine)}
      </a>
      <Tag tone={statusTone(run.status)}>{run.status}</Tag>
      {result ? (
        <span className="text-slate-500">
          {result.sources.filter((s) => s.cited === true).length} cited · {result.sources.length} sources · {result.searches.length} searches
        </span>
      ) : null}
      {run.charge ? <span className="text-slate-500 tabular-nums">${run.charge.amount_usd}</span> : null}
      <GlanceTags glance={glance} watching={watching} />
    </li>
  );
}

/** The prompt a batch was made for (its input's `prompt`). */
function promptOf(batch: FeedBatch): string {
  const prompt = batch.batch.input.prompt;
  return typeof prompt === "string" ? prompt : "";
}

function BatchItem({ batch, watching }: { batch: FeedBatch; watching: boolean }) {
  return (
    <li className="py-3" data-testid="batch-item">
      <div className="flex flex-wrap items-start gap-x-3 gap-y-1">
        <input type="checkbox" name="ids" value={batch.batch.id} aria-label="Include all runs of this prompt" className="mt-1 h-4 w-4 accent-indigo-600" />
        <div className="min-w-0 flex-1">
          <a href={`/batches/${batch.batch.id}`} className="font-medium break-words hover:underline">
            {promptOf(batch) || "(no prompt)"}
          </a>
          <div className="mt-0.5 flex flex-wrap gap-x-3 text-xs text-slate-500">
            <span>{when(batch.batch.created_at)}</span>
            {batch.batch.created_by ? (
              <span data-testid="batch-by">
                by <Email address={batch.batch.created_by} />
              </span>
            ) : null}
            {batch.chargeUsd ? <span className="tabular-nums">${batch.chargeUsd}</span> : null}
          </div>
        </div>
        <Tag tone={groupTone(batch.batch.status)}>{batch.batch.status}</Tag>
      </div>
      <ul className="mt-1 pl-7">
        {batch.runs.map((r) => (
          <RunLine key={r.run.id} run={r.run} glance={r.glance} watching={watching} />
        ))}
      </ul>
    </li>
  );
}

/** A batch's or fanout's status: partial (some runs failed) is a warning, not an error. */
function groupTone(status: string) {
  return status === "partial" ? "amber" : statusTone(status === "queued" ? "running" : status);
}

function Empty({ children }: { children: React.ReactNode }) {
  return <p className="rounded-md border border-dashed border-slate-300 p-4 text-sm text-slate-600">{children}</p>;
}

function Pager({ projectId, view, engine, next, first }: { projectId: string; view: FeedView; engine?: string; next: string | null; first: boolean }) {
  if (!next && first) return null;
  return (
    <nav aria-label="Pages" className="mt-4 flex gap-4 text-sm">
      {!first ? (
        <a className="text-indigo-700 hover:underline" href={href(projectId, { show: view, engine })}>
          ← Newest
        </a>
      ) : null}
      {next ? (
        <a className="text-indigo-700 hover:underline" href={href(projectId, { show: view, engine, cursor: next })} data-testid="older">
          Older →
        </a>
      ) : null}
    </nav>
  );
}

export default async function ProjectPage({ params, searchParams }: Props) {
  const { project_id } = await params;
  const principal = await requireSessionPrincipal(`/projects/${project_id}`);
  const project = await orNotFound(getProject(principal, project_id));
  const query = await searchParams;
  const shown = param(query.show);
  const view: FeedView = FEED_VIEWS.includes(shown as FeedView) ? (shown as FeedView) : "prompts";
  const enabled = engineConfig().enabled;
  const engine = view === "prompts" && enabled.includes(param(query.engine) as never) ? param(query.engine) : undefined;
  const cursor = param(query.cursor);

  // A cursor from another list (or edited by hand) is the API's 400; here it starts from the newest.
  const safely = async <T,>(read: (cursor?: string) => Promise<T>): Promise<T> => {
    try {
      return await read(cursor);
    } catch (error) {
      if (!(cursor && error instanceof ApiError && error.code === "invalid_request")) throw error;
      return read(undefined);
    }
  };

  const prompts = view === "prompts" ? await safely((c) => promptBatches(principal, project.id, { engine, cursor: c })) : null;
  const fanouts = view === "fanouts" ? await safely((c) => projectFanouts(principal, project.id, { cursor: c })) : null;
  const analyses = view === "analyses" ? await safely((c) => projectAnalyses(principal, project.id, { cursor: c })) : null;
  const audits = view === "audits" ? await safely((c) => auditRuns(principal, project.id, { cursor: c })) : null;

  const unfinished = [
    ...(prompts?.items.filter((b) => b.runs.some((r) => !isFinished(r.run.status))).map((b) => b.batch.id) ?? []),
    ...(fanouts?.items.filter((f) => !["completed", "failed", "partial"].includes(f.status)).map((f) => f.id) ?? []),
    ...(analyses?.items.filter((a) => !isFinished(a.status)).map((a) => a.id) ?? []),
    ...(audits?.items.filter((r) => !isFinished(r.status)).map((r) => r.id) ?? []),
  ];
  const since = unfinished.length ? (await progressOfAll(principal, unfinished)).signature : "";
  const watch = prompts?.watch;
  const watching = Boolean(watch && (watch.domains.length || watch.brands.length || watch.competitors.length));
  const next = prompts?.nextCursor ?? fanouts?.nextCursor ?? analyses?.nextCursor ?? audits?.nextCursor ?? null;

  return (
    <ResearchPage crumbs={[{ href: `/projects/${project.id}`, label: project.name }]}>
      <header className="mb-6">
        <h1 className="text-2xl font-semibold tracking-tight break-words">{project.name}</h1>
        <p className="mt-1 text-sm break-words text-slate-600" data-testid="project-workspace">
          In <DottedName name={project.workspace_name} />
          {project.context?.primary_domain ? ` · ${project.context.primary_domain}` : ""}
          {project.context?.brands?.length ? ` · brands: ${project.context.brands.join(", ")}` : ""}
          {project.context?.competitors?.length ? ` · competitors: ${project.context.competitors.join(", ")}` : ""} ·{" "}
          <a href="/account#projects" className="text-indigo-700 hover:underline">
            edit
          </a>
        </p>
      </header>

      <Section id="start" title="Start research">
        <div className="divide-y divide-slate-100">
          <details open className="group py-2 first:pt-0" data-testid="start-prompt-panel">
            <summary className="cursor-pointer py-1 font-medium text-slate-800">A prompt on each engine</summary>
            <div className="mt-2">
              <PromptForm project={project.id} engines={enabled} markets={marketChoices()} />
            </div>
          </details>
          <details className="py-2" data-testid="start-fanout-panel">
            <summary className="cursor-pointer py-1 font-medium text-slate-800">A fanout: many prompts, repeated, to see the searches</summary>
            <div className="mt-2">
              <FanoutForm project={project.id} engines={enabled} markets={marketChoices()} />
            </div>
          </details>
          <details className="py-2" data-testid="start-questions-panel">
            <summary className="cursor-pointer py-1 font-medium text-slate-800">Questions people ask about a topic</summary>
            <div className="mt-2">
              <QuestionsForm project={project.id} engine={engineConfig().questionsEngine} />
            </div>
          </details>
          <details className="py-2 last:pb-0" data-testid="start-audit-panel">
            <summary className="cursor-pointer py-1 font-medium text-slate-800">An audit of a page</summary>
            <div className="mt-2">
              <AuditForm project={project.id} />
            </div>
          </details>
        </div>
      </Section>

      <Section id="entities" title="Brands and competitors" description="What a visibility analysis tracks when you ask it from a fanout, a prompt or the ticked runs: each name and its other names, and the domains that count as citing a competitor.">
        <EntitiesForm projectId={project.id} rows={entityRowsOf(project.context)} />
      </Section>
      <ProjectMonitors principal={principal} project={project.id} />

      <section aria-labelledby="work-title" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <div className="flex flex-wrap items-baseline justify-between gap-3">
          <h2 id="work-title" className="text-lg font-semibold">
            Work
          </h2>
          {unfinished.length ? <LiveRefresh ids={unfinished} since={since} /> : null}
        </div>
        <nav aria-label="Kind" className="mt-3 flex flex-wrap gap-1 border-b border-slate-200 text-sm">
          {FEED_VIEWS.map((v) => (
            <a
              key={v}
              href={href(project.id, { show: v === "prompts" ? undefined : v })}
              aria-current={v === view ? "page" : undefined}
              className={`-mb-px border-b-2 px-3 py-2 ${v === view ? "border-indigo-600 font-medium text-indigo-700" : "border-transparent text-slate-600 hover:text-slate-900"}`}
            >
              {VIEW_LABELS[v]}
            </a>
          ))}
        </nav>
        {view === "prompts" ? (
          <nav aria-label="Engine" className="mt-3 flex flex-wrap items-center gap-2 text-sm">
            <span className="text-slate-500">Engine:</span>
            {[undefined, ...enabled].map((e) => (
              <a
                key={e ?? "all"}
                href={href(project.id, { engine: e })}
                aria-current={e === engine ? "page" : undefined}
                className={`rounded-full px-2.5 py-0.5 ${e === engine ? "bg-indigo-600 text-white" : "bg-slate-100 text-slate-700 hover:bg-slate-200"}`}
              >
                {e ? engineName(e) : "All"}
              </a>
            ))}
          </nav>
        ) : null}

        <div className="mt-3">
          {prompts ? (
            prompts.items.length === 0 ? (
              <Empty>{engine ? `No prompt ran on ${engineName(engine)} yet.` : "No prompts yet. Run one above: it asks each engine and keeps the answer, the pages cited and the searches run."}</Empty>
            ) : (
              <CitationSelection project={project.id} disabled={false}>
                <ul className="divide-y divide-slate-100">
                  {prompts.items.map((b) => (
                    <BatchItem key={b.batch.id} batch={b} watching={watching} />
                  ))}
                </ul>
                {!watching ? (
                  <p className="mt-2 text-xs text-slate-500">
                    Add your domain, brands and competitors to the project (
                    <a href="/account#projects" className="underline">
                      edit
                    </a>
                    ) to see at a glance whether answers cite or name them.
                  </p>
                ) : null}
              </CitationSelection>
            )
          ) : null}

          {fanouts ? (
            fanouts.items.length === 0 ? (
              <Empty>No fanouts yet. Start one above: many prompts on several engines, repeated, to see which searches the engines run.</Empty>
            ) : (
              <ul className="divide-y divide-slate-100">
                {fanouts.items.map((f) => (
                  <li key={f.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-3 text-sm" data-testid="fanout-item">
                    <a href={`/fanouts/${f.id}`} className="min-w-0 flex-1 font-medium break-words text-indigo-700 hover:underline">
                      {f.name}
                    </a>
                    <Tag tone={groupTone(f.status)}>{f.status}</Tag>
                    <span className="text-slate-500">
                      {f.prompt_count} prompts × {f.engines.map(engineName).join(", ")} × {f.runs} · {f.counts.completed + f.counts.failed}/{f.execution_count} done · {f.query_count} queries
                    </span>
                    <span className="text-xs text-slate-500">{when(f.created_at)}</span>
                  </li>
                ))}
              </ul>
            )
          ) : null}

          {analyses ? (
            analyses.items.length === 0 ? (
              <Empty>No analyses yet. Generate questions above, or tick prompts under Prompts and analyse what they cited or whom they name.</Empty>
            ) : (
              <ul className="divide-y divide-slate-100">
                {analyses.items.map((a) => (
                  <li key={a.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-3 text-sm" data-testid="analysis-item">
                    <Tag tone={a.kind === "visibility" ? "emerald" : "indigo"}>{a.kind}</Tag>
                    <a href={`/analyses/${a.id}`} className="min-w-0 flex-1 font-medium break-words text-indigo-700 hover:underline">
                      {a.subject}
                    </a>
                    <Tag tone={statusTone(a.status)}>{a.status}</Tag>
                    <span className="text-xs text-slate-500">{when(a.created_at)}</span>
                  </li>
                ))}
              </ul>
            )
          ) : null}

          {audits ? (
            audits.items.length === 0 ? (
              <Empty>No audits yet. Audit a page above: how well answer engines can read, trust and cite it.</Empty>
            ) : (
              <ul className="divide-y divide-slate-100">
                {audits.items.map((r) => {
                  const audit = auditResultOf(r.result as Run["result"]);
                  const failing = audit?.findings.filter((f) => f.status === "fail").length ?? null;
                  return (
                    <li key={r.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-3 text-sm" data-testid="audit-item">
                      <a href={`/runs/${r.id}`} className="w-full min-w-0 font-medium break-all text-indigo-700 hover:underline sm:w-auto sm:flex-1">
                        {typeof r.input.url === "string" ? r.input.url : r.id}
                      </a>
                      <Tag tone={statusTone(r.status)}>{r.status}</Tag>
                      {failing !== null ? <span className="text-slate-500">{failing} failing</span> : null}
                      {r.charge ? (
                        <span className="text-slate-500 tabular-nums">{r.charge.status === "released" ? "nothing charged" : `$${r.charge.amount_usd}`}</span>
                      ) : null}
                      <span className="text-xs text-slate-500">{when(r.created_at)}</span>
                      {r.status === "failed" && r.error ? (
                        <p className="basis-full break-words text-rose-700" data-testid="audit-error">
                          {r.error.message}
                        </p>
                      ) : null}
                    </li>
                  );
                })}
              </ul>
            )
          ) : null}
          <Pager projectId={project.id} view={view} engine={engine} next={next} first={!cursor} />
        </div>
      </section>
    </ResearchPage>
  );
}
