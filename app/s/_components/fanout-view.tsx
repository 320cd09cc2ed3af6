// A fanout, on its signed-in page and on its share page alike: its status and counts, the prompt ×
// engine matrix of run progress and query counts, per prompt and engine the distinct queries the
// engine searched with how many runs issued each and the share's 95% interval, and the same side
// by side per country when a prompt ran in more than one market. What only the signed-in page
// has (cost, live refresh, CSV, links to runs and analyses) comes in by props.
import type { ReactNode } from "react";
import type { z } from "zod";
import { countryName } from "@/lib/locale/codes";
import { reportsQueries } from "@/lib/schemas/engines";
import type { Fanout, FanoutQueryCountryGroup, FanoutQueryGroup, FanoutQueryReport, FanoutQueryShare } from "@/lib/schemas/fanouts";
import { Email, Section } from "../../_components/ui";
import { marketText } from "../../(research)/_components/market";
import { engineName, when } from "../_lib/view";
import { Facts, ScrollTable, ShareHeading, Tag, statusTone } from "./bits";
import { plural } from "@/lib/text";
import { shownSentences } from "@/lib/words/fanouts";
import { percent, percentRange } from "@/lib/words/format";

export type FanoutBody = z.input<typeof Fanout>;
type EngineCell = FanoutBody["prompts"][number]["engines"][number];
type QueryGroup = z.input<typeof FanoutQueryGroup>;
type CountryGroup = z.input<typeof FanoutQueryCountryGroup>;
type QueryShare = z.input<typeof FanoutQueryShare>;

/** Prompts whose queries are shown open; past this many, each opens on demand. */
const OPEN_PROMPTS = 5;

export const FANOUT_FINISHED = new Set(["completed", "partial", "failed"]);

/** A group's tone: partial (some runs failed) is a warning, queued is waiting like running. */
export function groupTone(status: string) {
  return status === "partial" ? "amber" : statusTone(status === "queued" ? "running" : status);
}

function cellProgress(cell: EngineCell) {
  const total = cell.runs.length;
  const completed = cell.runs.filter((r) => r.status === "completed").length;
  const failed = cell.runs.filter((r) => r.status === "failed").length;
  const finished = completed + failed;
  const status = finished < total ? (cell.runs.some((r) => r.status === "running") ? "running" : "queued") : failed === total ? "failed" : failed ? "partial" : "completed";
  return { total, completed, failed, finished, status };
}

function MatrixCell({ cell, group, promptIndex }: { cell: EngineCell; group: QueryGroup | undefined; promptIndex: number }) {
  const p = cellProgress(cell);
  const distinct = group?.queries.length ?? 0;
  return (
    <td className="min-w-[9rem]" data-testid="matrix-cell" data-prompt={promptIndex} data-engine={cell.engine} data-status={p.status}>
      <div className="flex flex-wrap items-center gap-1.5">
        <Tag tone={groupTone(p.status)}>
          {p.finished}/{p.total} runs
        </Tag>
        {p.failed ? <span className="text-xs text-rose-700">{p.failed} failed</span> : null}
      </div>
      <a href={`#prompt-${promptIndex}`} className="mt-1 block text-xs text-indigo-700 hover:underline" data-testid="cell-query-count">
        {cell.query_count === 0 && silentEngine(cell.engine) ? (
          "queries not shown"
        ) : (
          <>
            {plural(cell.query_count, "query", "queries")}
            {cell.query_count ? `, ${distinct} distinct` : ""}
          </>
        )}
      </a>
    </td>
  );
}

function Matrix({ fanout, groups }: { fanout: FanoutBody; groups: Map<string, QueryGroup> }) {
  return (
    <div data-testid="fanout-matrix">
      <ScrollTable label="Prompt by engine" columns={[{ label: "Prompt", text: true }, ...fanout.engines.map((e) => ({ label: engineName(e), text: true })), { label: "Queries" }]}>
        {fanout.prompts.map((prompt) => (
          <tr key={prompt.index} data-testid="matrix-row">
            <th scope="row" className="min-w-[9rem] max-w-[22rem] border-t sm:min-w-[12rem] border-slate-100 py-1.5 pr-4 text-left align-top font-normal">
              <span className="mr-1 text-slate-400 tabular-nums">{prompt.index}.</span>
              <a href={`#prompt-${prompt.index}`} className="break-words hover:underline">
                {prompt.text}
              </a>
              <PromptMarket prompt={prompt} />
            </th>
            {prompt.engines.map((cell) => (
              <MatrixCell key={cell.engine} cell={cell} group={groups.get(`${prompt.index}:${cell.engine}`)} promptIndex={prompt.index} />
            ))}
            <td className="text-right whitespace-nowrap tabular-nums">{prompt.query_count}</td>
          </tr>
        ))}
      </ScrollTable>
    </div>
  );
}

/** A query and how many of `completed` runs issued it, with the share and its 95% interval. */
function QueryItem({ q, completed, testId }: { q: QueryShare; completed: number; testId?: string }) {
  const interval = percentRange(q.share_interval);
  return (
    <li className="flex items-baseline justify-between gap-3 border-t border-slate-100 py-1 first:border-t-0" data-testid={testId}>
      <span className="min-w-0 break-words">{q.query}</span>
      <span
        className="shrink-0 text-right text-xs whitespace-nowrap tabular-nums"
        title={`${percent(q.share)} of completed runs (95% interval ${interval}); issued ${q.occurrences} ${q.occurrences === 1 ? "time" : "times"}`}
      >
        <span className="block text-slate-600">
          {q.runs}/{completed} {completed === 1 ? "run" : "runs"}
        </span>
        <span className="block text-slate-400" data-testid="query-interval">
          {percent(q.share)} ({interval})
        </span>
      </span>
    </li>
  );
}

/**
 * For each prompt text run in more than one country: each engine's queries side by side per
 * country (the query report's by_country rows), so a market's searches compare at a glance.
 */
function QueriesByCountry({ rows }: { rows: readonly CountryGroup[] }) {
  const byText = new Map<string, CountryGroup[]>();
  for (const row of rows) byText.set(row.prompt, [...(byText.get(row.prompt) ?? []), row]);
  const compared = [...byText].filter(([, list]) => new Set(list.map((r) => r.country)).size > 1);
  if (compared.length === 0) return null;
  return (
    <Section
      id="by-country"
      title="Queries by country"
      description="The same prompt's searches in each market: how many of each engine's completed runs there issued each query, with the share and its 95% interval."
    >
      <div className="space-y-4">
        {compared.map(([text, list]) => (
          <div key={text} data-testid="country-comparison">
            <h3 className="font-medium break-words">{text}</h3>
            <div className="mt-2 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
              {list.map((row) => (
                <div key={`${row.engine}:${row.country}`} className="min-w-0 rounded-md border border-slate-200 p-3" data-testid="country-cell" data-engine={row.engine} data-country={row.country ?? ""}>
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <h4 className="font-medium">
                      {engineName(row.engine)} · {row.country ? (countryName(row.country) ?? row.country) : "No location"}
                    </h4>
                    <span className="text-xs text-slate-500">{plural(row.completed_runs, "run", "runs")}</span>
                  </div>
                  {row.queries.length ? (
                    <ul className="mt-2 text-sm">
                      {row.queries.map((q) => (
                        <QueryItem key={q.query} q={q} completed={row.completed_runs} />
                      ))}
                    </ul>
                  ) : (
                    <p className="mt-2 text-sm text-slate-500">No queries yet.</p>
                  )}
                </div>
              ))}
            </div>
          </div>
        ))}
      </div>
    </Section>
  );
}

/** The market a prompt ran in, under its text; nothing when it ran without one. */
function PromptMarket({ prompt }: { prompt: FanoutBody["prompts"][number] }) {
  const text = marketText(prompt.location, prompt.language);
  return text ? (
    <span className="mt-0.5 block text-xs font-normal text-slate-500" data-testid="prompt-market">
      {text}
    </span>
  ) : null;
}

function RunLinks({ cell, runHref }: { cell: EngineCell; runHref?: (runId: string) => string }) {
  return (
    <ol className="mt-2 flex flex-wrap gap-x-2 gap-y-1 text-xs" aria-label="Runs">
      {cell.runs.map((run) => {
        const label = `run ${run.run_index}${run.status === "completed" ? "" : ` (${run.status})`}`;
        const tone = run.status === "failed" ? "text-rose-700" : run.status === "completed" ? "text-indigo-700" : "text-slate-500";
        return (
          <li key={run.run_id}>
            {runHref ? (
              <a href={runHref(run.run_id)} className={`hover:underline ${tone}`} title={run.error?.message ?? run.status}>
                {label}
              </a>
            ) : (
              <span className={run.status === "completed" ? "text-slate-500" : tone} title={run.error?.message ?? run.status}>
                {label}
              </span>
            )}
          </li>
        );
      })}
    </ol>
  );
}

/** An engine that keeps its searches' queries to itself (Gemini's app, Google's AI answers, Sonar): no query is not no search. */
const silentEngine = (engine: string) => !reportsQueries(engine);

function CellQueries({ cell, group, runHref }: { cell: EngineCell; group: QueryGroup | undefined; runHref?: (runId: string) => string }) {
  const p = cellProgress(cell);
  const queries = group?.queries ?? [];
  const completed = group?.completed_runs ?? p.completed;
  return (
    <div className="min-w-0 rounded-md border border-slate-200 p-3" data-testid="cell-queries" data-engine={cell.engine}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h4 className="font-medium">{engineName(cell.engine)}</h4>
        <span className="text-xs text-slate-500">
          {completed} of {p.total} runs completed{p.failed ? `, ${p.failed} failed` : ""}
        </span>
      </div>
      {queries.length ? (
        <ul className="mt-2 text-sm">
          {queries.map((q) => (
            <QueryItem key={q.query} q={q} completed={completed} testId="cell-query" />
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-slate-500">
          {completed
            ? silentEngine(cell.engine)
              ? `${engineName(cell.engine)} does not say which searches it ran.`
              : "Its completed runs searched nothing."
            : p.finished < p.total
              ? "Waiting for its runs to finish."
              : "No run completed, so no queries."}
        </p>
      )}
      <RunLinks cell={cell} runHref={runHref} />
    </div>
  );
}

export function FanoutView({
  fanout,
  report,
  heading,
  lead,
  runHref,
  analysisHref,
}: {
  fanout: FanoutBody;
  report: z.input<typeof FanoutQueryReport>;
  /** Under the heading's facts and counts (the signed-in page: its cost, live refresh and CSV). */
  heading?: ReactNode;
  /** Between the heading and the matrix (the signed-in page's share control). */
  lead?: ReactNode;
  /** Where a run opens; without it the runs are named, not linked (a share page shows no run of its own). */
  runHref?: (runId: string) => string;
  /** Where the questions analysis a prompt came from opens; without it, it is named only. */
  analysisHref?: (analysisId: string) => string;
}) {
  const groups = new Map(report.groups.map((g) => [`${g.prompt_index}:${g.engine}`, g]));
  const counts = fanout.counts as Record<string, number>;
  return (
    <>
      <ShareHeading kicker="Fanout" title={fanout.name}>
        <Facts
          items={[
            ["Status", <Tag key="s" tone={groupTone(fanout.status)}>{fanout.status}</Tag>],
            ["Started", when(fanout.created_at)],
            ...(fanout.created_by ? ([["By", <Email key="b" address={fanout.created_by} />]] as Array<[string, ReactNode]>) : []),
            ["Prompts × engines × runs", `${fanout.prompt_count} × ${fanout.engines.length} × ${fanout.runs} = ${fanout.execution_count}`],
            ["Queries", String(fanout.query_count)],
            ...(fanout.completed_at ? ([["Finished", when(fanout.completed_at)]] as Array<[string, string]>) : []),
          ]}
        />
        <p className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600" data-testid="fanout-counts">
          {(["completed", "failed", "running", "queued"] as const).map((s) => (
            <span key={s} data-status={s} data-count={counts[s] ?? 0}>
              <span className="font-medium tabular-nums">{counts[s] ?? 0}</span> {s}
            </span>
          ))}
        </p>
        {shownSentences(fanout.shown ?? []).map((sentence) => (
          <p key={sentence} className="mt-2 text-sm text-slate-700" data-testid="fanout-shown">
            {sentence}
          </p>
        ))}
        {heading}
      </ShareHeading>
      {lead}

      <Section id="matrix" title="Prompts by engine" description="Runs finished of each prompt on each engine, and the queries its completed runs searched (every query counted, then the distinct ones).">
        <Matrix fanout={fanout} groups={groups} />
      </Section>

      <Section
        id="queries"
        title="Queries by prompt"
        description="Each engine's distinct queries (case and spacing folded), most issued first, with how many of its completed runs issued each: the share, and its 95% interval."
      >
        <div className="space-y-3">
          {fanout.prompts.map((prompt) => (
            <details key={prompt.index} id={`prompt-${prompt.index}`} open={fanout.prompts.length <= OPEN_PROMPTS} className="group rounded-md border border-slate-200" data-testid="prompt-queries">
              <summary className="flex cursor-pointer flex-wrap items-baseline gap-x-2 gap-y-1 p-3">
                <span className="text-slate-400 tabular-nums">{prompt.index}.</span>
                <span className="min-w-0 flex-1 font-medium break-words">
                  {prompt.text}
                  <PromptMarket prompt={prompt} />
                </span>
                <span className="text-xs text-slate-500">{plural(prompt.query_count, "query", "queries")}</span>
              </summary>
              <div className="border-t border-slate-100 p-3">
                {prompt.source ? (
                  <p className="mb-2 text-xs text-slate-500">
                    From question {prompt.source.question_id} of{" "}
                    {analysisHref ? (
                      <a href={analysisHref(prompt.source.analysis_id)} className="text-indigo-700 hover:underline">
                        a questions analysis
                      </a>
                    ) : (
                      "a questions analysis"
                    )}
                    .
                  </p>
                ) : null}
                <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
                  {prompt.engines.map((cell) => (
                    <CellQueries key={cell.engine} cell={cell} group={groups.get(`${prompt.index}:${cell.engine}`)} runHref={runHref} />
                  ))}
                </div>
              </div>
            </details>
          ))}
        </div>
      </Section>
      <QueriesByCountry rows={report.by_country} />
    </>
  );
}
