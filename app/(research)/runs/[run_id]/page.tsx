// One run, signed in: a prompt's answer with its citation marks numbered as links to the sources
// table (cited, seen in search, read, how each URL was resolved, the raw URL), the searches in
// order, model, usage, duration and charge, the raw envelope to download; or a page audit's
// findings and facts. Shareable once finished; follows progress while unfinished.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { cache, type ReactNode } from "react";
import { requireSessionPrincipal } from "@/lib/auth/session";
import { getProject } from "@/lib/projects/read";
import { engineAttemptsOf, progressOfAll } from "@/lib/research/progress";
import { getRun } from "@/lib/runs/read";
import { isFinished } from "@/lib/runs/status";
import { promptResultOf, type SourceObservation } from "@/lib/schemas/results";
import { Run } from "@/lib/schemas/runs";
import { getShareStatus } from "@/lib/shares/read";
import { Email, Section } from "../../../_components/ui";
import { AuditView } from "../../../s/_components/audit-view";
import { OutLink, ScrollTable, Tag } from "../../../s/_components/bits";
import { RunView, type SourceNumbers } from "../../../s/_components/run-view";
import { auditedUrlOf, engineName, promptOf } from "../../../s/_lib/view";
import { excerpt } from "../../../s/_lib/answer";
import { EngineAttempt } from "../../_components/engine-attempt";
import { ResearchPage, type Crumb } from "../../_components/frame";
import { LiveRefresh } from "../../_components/live";
import { ShareControl } from "../../_components/share-control";
import { orNotFound } from "../../_lib/load";
import { LocaleApplied, marketText } from "../../_components/market";
import { plural } from "@/lib/text";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ run_id: string }> };

async function load(params: Props["params"]) {
  return loadRun((await params).run_id);
}

/** One read per request, shared by generateMetadata and the page. */
const loadRun = cache(async (run_id: string) => {
  const principal = await requireSessionPrincipal(`/runs/${run_id}`);
  const run = Run.parse(await orNotFound(getRun(principal, run_id)));
  return { principal, run };
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { run } = await load(params);
  const title = run.kind === "audit" ? `Audit: ${excerpt(auditedUrlOf(run), 60)}` : `${engineName(run.engine)}: ${excerpt(promptOf(run), 60)}`;
  return { title: `${title} · geoscope` };
}

/** Cited pages first, in the order the answer cites them, then the rest as the engine named them. */
function ordered(sources: readonly SourceObservation[]): SourceObservation[] {
  const first = (s: SourceObservation) => (s.cited === true ? Math.min(...(s.citation_positions?.length ? s.citation_positions : [Infinity])) : Infinity);
  return sources
    .map((s, i) => ({ s, i }))
    .sort((a, b) => Number(b.s.cited === true) - Number(a.s.cited === true) || first(a.s) - first(b.s) || a.i - b.i)
    .map(({ s }) => s);
}

function yesNo(value: boolean | null, engine: string): ReactNode {
  if (value === null) return <span className="text-slate-400" title={`${engine} does not show this`}>n/a</span>;
  return value ? <span className="font-medium text-emerald-700">yes</span> : <span className="text-slate-400">no</span>;
}

function SourcesTable({ sources, engine }: { sources: SourceObservation[]; engine: string }) {
  return (
    <Section id="sources" title="Sources" description={`${sources.length} ${sources.length === 1 ? "page" : "pages"} the engine named; the numbers are those of the marks in the answer.`}>
      {sources.length === 0 ? (
        <p className="text-sm text-slate-500">The engine named no page.</p>
      ) : (
        <ScrollTable
          label="Sources"
          columns={[{ label: "#" }, { label: "Page", text: true }, { label: "Cited" }, { label: "In search" }, { label: "Read" }, { label: "URL", text: true }]}
        >
          {sources.map((s, i) => (
            <tr key={i} data-testid="source-row">
              <td className="tabular-nums text-slate-500">{i + 1}</td>
              <td className="min-w-[12rem]">
                <OutLink href={s.url} className="font-medium break-words text-indigo-700 hover:underline">
                  {s.title ?? s.url.replace(/^https?:\/\//, "")}
                </OutLink>
                <div className="text-xs text-slate-500">{s.domain ?? (s.domain_hint ? `${s.domain_hint}?` : "unknown domain")}</div>
              </td>
              <td className="text-right whitespace-nowrap">
                {s.cited === true ? (
                  <span className="font-medium text-indigo-700" title={s.citation_positions?.length ? `marks ${s.citation_positions.join(", ")}` : undefined}>
                    {s.citation_count || "yes"}
                  </span>
                ) : (
                  yesNo(s.cited, engine)
                )}
              </td>
              <td className="text-right">{yesNo(s.search_query_observed, engine)}</td>
              <td className="text-right">{yesNo(s.retrieval_observed, engine)}</td>
              <td className="min-w-[14rem] text-xs">
                <Tag tone={s.resolution === "unresolved" ? "amber" : s.resolution === "resolved" ? "indigo" : "slate"}>{s.resolution}</Tag>
                {s.raw_url !== s.url ? <div className="mt-0.5 break-all text-slate-500">engine gave: {s.raw_url}</div> : null}
              </td>
            </tr>
          ))}
        </ScrollTable>
      )}
    </Section>
  );
}

/**
 * Tokens and searches. An engine whose usage has no search count (Gemini's) still lists the
 * queries it searched: their number is said instead, as the batch page says it.
 */
function usageLine(run: Run, searches: number | null): string {
  const u = run.usage;
  if (!u) return "—";
  const parts = [
    u.input_tokens !== null ? `${u.input_tokens.toLocaleString("en")} in` : null,
    u.output_tokens !== null ? `${u.output_tokens.toLocaleString("en")} out` : null,
    u.web_searches !== null
      ? plural(u.web_searches, "web search", "web searches")
      : searches !== null
        ? plural(searches, "search", "searches")
        : null,
  ].filter(Boolean);
  return parts.length ? parts.join(" · ") : "—";
}

export default async function RunPage({ params }: Props) {
  const { principal, run } = await load(params);
  // A questions analysis's run is read as its analysis.
  if (run.kind === "questions" && typeof run.input.analysis_id === "string") redirect(`/analyses/${run.input.analysis_id}`);
  const [project, share, progress, attempts] = await Promise.all([
    run.project_id ? orNotFound(getProject(principal, run.project_id)) : null,
    getShareStatus(principal, "run", run.id),
    isFinished(run.status) ? null : progressOfAll(principal, [run.id]),
    engineAttemptsOf(principal, run.status === "running" ? [run.id] : []),
  ]);
  const attempt = attempts.get(run.id);
  const crumbs: Crumb[] = [];
  if (project) crumbs.push({ href: `/projects/${project.id}`, label: project.name });
  if (run.fanout_id) crumbs.push({ href: `/fanouts/${run.fanout_id}`, label: "Fanout" });
  else if (run.batch_id && run.kind === "prompt") crumbs.push({ href: `/batches/${run.batch_id}`, label: "Prompt" });
  crumbs.push({ href: `/runs/${run.id}`, label: run.kind === "audit" ? "Audit" : engineName(run.engine) });

  const result = promptResultOf(run.result);
  const sources = result ? ordered(result.sources) : [];
  const numbers: SourceNumbers = new Map(sources.map((s, i) => [s.url, i + 1]));
  const engine = engineName(run.engine);
  const market = marketText(run.input.location as Parameters<typeof marketText>[0], typeof run.input.language === "string" ? run.input.language : null);
  const facts: Array<[string, ReactNode]> = [
    ...(market
      ? ([["Market", <span key="m" data-testid="market">{market}{result ? <> · <LocaleApplied applied={result.locale_applied} asked={{ location: Boolean(run.input.location), language: typeof run.input.language === "string", city: (run.input.location as { city?: string } | null | undefined)?.city }} engine={engine} /></> : null}</span>]] as Array<[string, ReactNode]>)
      : []),
    ["Duration", run.duration_ms !== null ? `${(run.duration_ms / 1000).toFixed(1)} s` : "—"],
    ["Usage", usageLine(run, result ? result.searches.length : null)],
    ["Charge", run.charge ? `$${run.charge.amount_usd} (${run.charge.status})` : "—"],
    ["Started by", run.created_by ? <Email key="b" address={run.created_by} /> : "—"],
  ];

  return (
    <ResearchPage crumbs={crumbs}>
      {progress ? (
        <div className="mb-4">
          <LiveRefresh ids={[run.id]} since={progress.signature} />
        </div>
      ) : null}
      {run.kind === "audit" ? (
        <AuditView run={run} />
      ) : (
        <RunView
          run={run}
          numbers={numbers}
          facts={facts}
          sources={result ? <SourcesTable sources={sources} engine={engine} /> : undefined}
          unfinished={attempt ? <div className="mb-8"><EngineAttempt view={attempt} engine={engine} renderedAt={new Date().toISOString()} /></div> : undefined}
        />
      )}
      <ShareControl kind="run" id={run.id} finished={isFinished(run.status)} initial={{ shared: share.shared, url: share.shared ? (share.share?.url ?? null) : null }} />
      {run.kind === "prompt" && isFinished(run.status) ? (
        <p className="text-sm text-slate-600">
          <a href={`/runs/${run.id}/envelope.json`} download className="text-indigo-700 underline" data-testid="envelope-download">
            Download the raw envelope (JSON)
          </a>{" "}
          — what was sent to {engine} and what came back, to re-check any figure.
        </p>
      ) : null}
    </ResearchPage>
  );
}
