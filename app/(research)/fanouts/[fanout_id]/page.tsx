// A fanout: its status, counts and cost; the prompt × engine matrix of run progress and query
// counts; per prompt and engine, the distinct queries the engine searched with how many runs
// issued each; and the same as CSV. Updates as its runs end. Fanouts are not shared.
import type { Metadata } from "next";
import { cache } from "react";
import type { z } from "zod";
import { requireSessionPrincipal } from "@/lib/auth/session";
import { getFanout, queryReportOf } from "@/lib/fanouts/read";
import { getProject } from "@/lib/projects/projects";
import { progressOfAll } from "@/lib/research/progress";
import type { Fanout, FanoutQueryCountryGroup, FanoutQueryGroup } from "@/lib/schemas/fanouts";
import { countryName } from "@/lib/locale/codes";
import { Section } from "../../../_components/ui";
import { Facts, ScrollTable, ShareHeading, Tag, statusTone } from "../../../s/_components/bits";
import { engineName, when } from "../../../s/_lib/view";
import { ResearchPage, type Crumb } from "../../_components/frame";
import { CitationSelection } from "../../_components/start-forms";
import { LiveRefresh } from "../../_components/live";
import { orNotFound } from "../../_lib/load";
import { marketText } from "../../_components/market";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ fanout_id: string }> };
type FanoutBody = z.input<typeof Fanout>;
type EngineCell = FanoutBody["prompts"][number]["engines"][number];
type QueryGroup = z.input<typeof FanoutQueryGroup>;

/** Prompts whose queries are shown open; past this many, each opens on demand. */
const OPEN_PROMPTS = 5;

const load = cache(async (fanoutId: string) => {
  const principal = await requireSessionPrincipal(`/fanouts/${fanoutId}`);
  const fanout = await orNotFound(getFanout(principal, fanoutId));
  return { principal, fanout, report: queryReportOf(fanout) };
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { fanout } = await load((await params).fanout_id);
  return { title: `${fanout.name} · fanout · geoscope` };
}

const FINISHED = new Set(["completed", "partial", "failed"]);
const percent = (rate: number) => `${Math.round(rate * 1000) / 10}%`;
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A group's tone: partial (some runs failed) is a warning, queued is waiting like running. */
function groupTone(status: string) {
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
        {plural(cell.query_count, "query", "queries")}
        {cell.query_count ? `, ${distinct} distinct` : ""}
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

type CountryGroup = z.input<typeof FanoutQueryCountryGroup>;

/**
 * For each prompt text run in more than one country: each engine's queries side by side per
 * country (the query report's by_country rows), so a market's searches compare at a glance.
 */
function QueriesByCountry({ rows }: { rows: CountryGroup[] }) {
  const byText = new Map<string, CountryGroup[]>();
  for (const row of rows) byText.set(row.prompt, [...(byText.get(row.prompt) ?? []), row]);
  const compared = [...byText].filter(([, list]) => new Set(list.map((r) => r.country)).size > 1);
  if (compared.length === 0) return null;
  return (
    <Section id="by-country" title="Queries by country" description="The same prompt's searches in each market: how many of each engine's completed runs there issued each query.">
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
                        <li key={q.query} className="flex items-baseline justify-between gap-3 border-t border-slate-100 py-1 first:border-t-0">
                          <span className="min-w-0 break-words">{q.query}</span>
                          <span className="shrink-0 text-xs whitespace-nowrap text-slate-600 tabular-nums">
                            {q.runs}/{row.completed_runs}
                          </span>
                        </li>
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

function RunLinks({ cell }: { cell: EngineCell }) {
  return (
    <ol className="mt-2 flex flex-wrap gap-x-2 gap-y-1 text-xs" aria-label="Runs">
      {cell.runs.map((run) => (
        <li key={run.run_id}>
          <a
            href={`/runs/${run.run_id}`}
            className={`hover:underline ${run.status === "failed" ? "text-rose-700" : run.status === "completed" ? "text-indigo-700" : "text-slate-500"}`}
            title={run.error?.message ?? run.status}
          >
            run {run.run_index}
            {run.status === "completed" ? "" : ` (${run.status})`}
          </a>
        </li>
      ))}
    </ol>
  );
}

function CellQueries({ cell, group }: { cell: EngineCell; group: QueryGroup | undefined }) {
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
            <li key={q.query} className="flex items-baseline justify-between gap-3 border-t border-slate-100 py-1 first:border-t-0" data-testid="cell-query">
              <span className="min-w-0 break-words">{q.query}</span>
              <span
                className="shrink-0 text-xs whitespace-nowrap text-slate-600 tabular-nums"
                title={`${percent(q.share)} of completed runs (95% interval ${percent(q.share_interval[0])}–${percent(q.share_interval[1])}); issued ${q.occurrences} ${q.occurrences === 1 ? "time" : "times"}`}
              >
                {q.runs}/{completed} {completed === 1 ? "run" : "runs"}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-slate-500">
          {completed ? "Its completed runs searched nothing." : p.finished < p.total ? "Waiting for its runs to finish." : "No run completed, so no queries."}
        </p>
      )}
      <RunLinks cell={cell} />
    </div>
  );
}

export default async function FanoutPage({ params }: Props) {
  const { fanout_id } = await params;
  const { principal, fanout, report } = await load(fanout_id);
  const project = fanout.project_id ? await orNotFound(getProject(principal, fanout.project_id)) : null;
  const finished = FINISHED.has(fanout.status);
  const since = finished ? "" : (await progressOfAll(principal, [fanout.id])).signature;
  const groups = new Map(report.groups.map((g) => [`${g.prompt_index}:${g.engine}`, g]));
  const counts = fanout.counts as Record<string, number>;
  const completedRuns = fanout.prompts.flatMap((p) => p.engines.flatMap((e) => e.runs.filter((r) => r.status === "completed").map((r) => r.run_id)));
  const crumbs: Crumb[] = [...(project ? [{ href: `/projects/${project.id}`, label: project.name }] : []), { href: `/fanouts/${fanout.id}`, label: fanout.name }];

  return (
    <ResearchPage crumbs={crumbs} wide>
      <ShareHeading kicker="Fanout" title={fanout.name}>
        <Facts
          items={[
            ["Status", <Tag key="s" tone={groupTone(fanout.status)}>{fanout.status}</Tag>],
            ["Started", when(fanout.created_at)],
            ...(fanout.created_by ? ([["By", fanout.created_by]] as Array<[string, string]>) : []),
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
        <p className="mt-1 text-sm text-slate-600" data-testid="fanout-cost">
          {fanout.charged_usd === null || fanout.charged_usd === undefined ? (
            "Billing is off on this server: nothing is charged."
          ) : (
            <>
              Charged <span className="font-medium tabular-nums">${fanout.charged_usd}</span>
              {fanout.held_usd && !finished ? (
                <>
                  {" "}
                  · still held for unfinished runs <span className="tabular-nums">${fanout.held_usd}</span>
                </>
              ) : null}
            </>
          )}
        </p>
        <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
          {finished ? <span /> : <LiveRefresh ids={[fanout.id]} since={since} />}
          <a href={`/fanouts/${fanout.id}/queries.csv`} download className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100" data-testid="queries-csv">
            Download queries (CSV)
          </a>
        </div>
      </ShareHeading>

      <Section id="matrix" title="Prompts by engine" description="Runs finished of each prompt on each engine, and the queries its completed runs searched (every query counted, then the distinct ones).">
        <Matrix fanout={fanout} groups={groups} />
      </Section>

      <Section
        id="queries"
        title="Queries by prompt"
        description="Each engine's distinct queries (case and spacing folded), most issued first, with how many of its completed runs issued each. Hover a count for its share and 95% interval."
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
                    <a href={`/analyses/${prompt.source.analysis_id}`} className="text-indigo-700 hover:underline">
                      a questions analysis
                    </a>
                    .
                  </p>
                ) : null}
                <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
                  {prompt.engines.map((cell) => (
                    <CellQueries key={cell.engine} cell={cell} group={groups.get(`${prompt.index}:${cell.engine}`)} />
                  ))}
                </div>
              </div>
            </details>
          ))}
        </div>
      </Section>
      <QueriesByCountry rows={report.by_country} />
      {completedRuns.length > 0 && fanout.project_id ? (
        <Section id="citations" title="What these answers cited, and whom they name">
          <CitationSelection
            project={fanout.project_id}
            disabled={false}
            divided={false}
            label="Analyse citations of this fanout"
            visibilityLabel="Analyse visibility"
            note={`${plural(completedRuns.length, "completed run", "completed runs")}${finished ? "" : " so far"}; free, from stored answers.`}
          >
            {completedRuns.map((id) => (
              <input key={id} type="hidden" name="ids" value={id} />
            ))}
          </CitationSelection>
        </Section>
      ) : null}
    </ResearchPage>
  );
}
