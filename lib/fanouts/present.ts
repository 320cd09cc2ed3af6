// A fanout's API shapes: the detail from its row and its runs' observed queries, its summary, and the
// query report (distinct queries per prompt × engine with each share's Wilson interval).
import type { z } from "zod";
import { presentRunCharge } from "../billing/present";
import { formatUsd } from "../billing/money";
import { billingSettings } from "../billing/settings";
import { deriveBatchStatus, isFinished, type RunCounts } from "../runs/status";
import type { Fanout, FanoutPromptSource, FanoutQueryReport, FanoutSummary, ShownRate } from "../schemas/fanouts";
import type { Location } from "../schemas/locale";
import type { PromptResult } from "../schemas/results";
import type { RunStatus } from "../schemas/runs";
import { wilsonInterval } from "../stats/wilson";
import type { FanoutRow, ObservedRun } from "./rows";

const RUN_STATUSES: RunStatus[] = ["queued", "running", "completed", "failed"];
/** A fanout's prompt as stored: its market is absent on fanouts made before markets existed. */
type StoredPrompt = { text: string; source: z.output<typeof FanoutPromptSource> | null; location?: z.output<typeof Location> | null; language?: string | null };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

type Tally = { status: RunStatus; startedAt: Date | null; completedAt: Date | null; queryCount: number | null };

/** Status, counts, query count and completion of a set of runs. */
function tallyOf(runs: readonly Tally[]) {
  const counts = Object.fromEntries(RUN_STATUSES.map((s) => [s, 0])) as RunCounts;
  let queryCount = 0;
  let lastDone: Date | null = null;
  for (const run of runs) {
    counts[run.status]++;
    if (run.status === "completed") queryCount += run.queryCount ?? 0;
    if (run.completedAt && (!lastDone || run.completedAt > lastDone)) lastDone = run.completedAt;
  }
  const allDone = runs.length > 0 && runs.every((r) => isFinished(r.status));
  return { status: deriveBatchStatus(runs), counts, queryCount, completedAt: allDone ? lastDone : null };
}

export function summaryOf(row: Omit<FanoutRow, "prompts">, promptCount: number, tally: ReturnType<typeof tallyOf>): z.input<typeof FanoutSummary> {
  return {
    id: row.id,
    name: row.name,
    status: tally.status,
    engines: row.engines as z.input<typeof FanoutSummary>["engines"],
    runs: row.runsPerPrompt,
    prompt_count: promptCount,
    execution_count: promptCount * row.engines.length * row.runsPerPrompt,
    counts: tally.counts,
    query_count: tally.queryCount,
    created_at: row.createdAt.toISOString(),
    project_id: row.projectId,
    created_by: row.createdBy?.email ?? null,
    completed_at: iso(tally.completedAt),
  };
}

function queriesOf(run: ObservedRun) {
  if (run.status !== "completed") return [];
  const result = run.result as z.output<typeof PromptResult> | null;
  return (result?.searches ?? []).map((s) => ({
    text: s.query,
    position: s.position ?? null,
    search_call: s.search_call ?? null,
    provider_search_id: s.provider_search_id ?? null,
  }));
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** Whether a completed run showed an answer: false only where the engine said so (runs before the apps all did). */
const showed = (run: ObservedRun) => (run.result as { shown?: boolean } | null)?.shown !== false;

/** How often these runs' engine showed an answer, over the completed ones, with the rate's Wilson interval. */
export function shownRateOf(runs: readonly ObservedRun[]): z.input<typeof ShownRate> {
  const completed = runs.filter((r) => r.status === "completed");
  const shown = completed.filter(showed).length;
  if (completed.length === 0) return { completed_runs: 0, runs_shown: 0, rate: null, interval: null };
  const [low, high] = wilsonInterval(shown, completed.length);
  return { completed_runs: completed.length, runs_shown: shown, rate: round4(shown / completed.length), interval: [round4(low), round4(high)] };
}

export function presentFanout(row: FanoutRow, runs: readonly ObservedRun[], billingEnabled = billingSettings().enabled): z.input<typeof Fanout> {
  const tally = tallyOf(runs);
  const prompts = row.prompts as StoredPrompt[];
  // prompt index → engine → runs by run_index
  const grid = prompts.map(() => new Map<string, ObservedRun[]>(row.engines.map((e) => [e, []])));
  for (const run of runs) grid[run.fanoutPromptIndex ?? 0]?.get(run.engine ?? "")?.push(run);

  let held = 0n;
  let charged = 0n;
  for (const run of runs) {
    if (run.hold?.status === "held") held += run.hold.amountMicros;
    if (run.hold?.status === "captured") charged += run.hold.capturedMicros ?? 0n;
  }

  return {
    ...summaryOf(row, prompts.length, tally),
    prompts: prompts.map((prompt, p) => {
      const engines = row.engines.map((engine) => {
        const engineRuns = [...(grid[p]!.get(engine) ?? [])].sort((a, b) => (a.runIndex ?? 0) - (b.runIndex ?? 0));
        return {
          engine: engine as z.input<typeof Fanout>["engines"][number],
          query_count: engineRuns.reduce((n, r) => n + (r.status === "completed" ? (r.queryCount ?? 0) : 0), 0),
          shown: shownRateOf(engineRuns),
          runs: engineRuns.map((run) => {
            const result = run.status === "completed" ? (run.result as z.output<typeof PromptResult> | null) : null;
            return {
              run_id: run.id,
              run_index: run.runIndex ?? 0,
              status: run.status,
              created_at: run.createdAt.toISOString(),
              model: run.model,
              searched: result?.searched ?? null,
              shown: run.status === "completed" ? showed(run) : null,
              search_calls: result?.search_calls ?? null,
              queries: queriesOf(run),
              error: (run.error ?? null) as z.input<typeof Fanout>["prompts"][number]["engines"][number]["runs"][number]["error"],
              charge: presentRunCharge(run.hold, billingEnabled),
              started_at: iso(run.startedAt),
              completed_at: iso(run.completedAt),
            };
          }),
        };
      });
      return {
        index: p + 1,
        text: prompt.text,
        source: prompt.source ?? null,
        location: prompt.location ?? null,
        language: prompt.language ?? null,
        query_count: engines.reduce((n, e) => n + e.query_count, 0),
        engines,
      };
    }),
    shown: row.engines.map((engine) => ({
      engine: engine as z.input<typeof Fanout>["engines"][number],
      ...shownRateOf(runs.filter((r) => r.engine === engine)),
    })),
    held_usd: billingEnabled ? formatUsd(held) : null,
    charged_usd: billingEnabled ? formatUsd(charged) : null,
  };
}

/** Case and runs of whitespace folded: "Hubspot  Pricing" and "hubspot pricing" are one query. */
export function foldQuery(text: string): string {
  return text.trim().replace(/\s+/g, " ").toLowerCase();
}

type ReportRun = z.input<typeof Fanout>["prompts"][number]["engines"][number]["runs"][number];

/** How many of these completed runs issued each distinct query, with the share's interval, most issued first. */
function querySharesOf(completed: readonly ReportRun[]) {
  const tallies = new Map<string, { query: string; runs: number; occurrences: number }>();
  for (const run of completed) {
    const seenInRun = new Set<string>();
    for (const q of run.queries ?? []) {
      const key = foldQuery(q.text);
      if (key === "") continue;
      const tally = tallies.get(key) ?? { query: q.text.trim().replace(/\s+/g, " "), runs: 0, occurrences: 0 };
      tally.occurrences++;
      if (!seenInRun.has(key)) tally.runs++;
      seenInRun.add(key);
      tallies.set(key, tally);
    }
  }
  const n = completed.length;
  return [...tallies.values()]
    .map((t) => {
      const [low, high] = wilsonInterval(t.runs, n);
      return { ...t, share: round4(t.runs / n), share_interval: [round4(low), round4(high)] as [number, number] };
    })
    .sort((a, b) => b.share - a.share || b.occurrences - a.occurrences || a.query.localeCompare(b.query));
}

/**
 * A fanout's observed queries per prompt × engine, and per prompt text × engine × country: how
 * many completed runs issued each, with the share's interval.
 */
export function queryReportOf(fanout: z.input<typeof Fanout>): z.input<typeof FanoutQueryReport> {
  const completedOf = (engine: { runs: readonly ReportRun[] }) => engine.runs.filter((r) => r.status === "completed");
  const groups = fanout.prompts.flatMap((prompt) =>
    prompt.engines.map((engine) => {
      const completed = completedOf(engine);
      return { prompt_index: prompt.index, prompt: prompt.text, engine: engine.engine, completed_runs: completed.length, queries: querySharesOf(completed) };
    }),
  );

  // Rows keyed by text, engine and country, in the order of the text's first prompt, then the
  // fanout's engine order, then country (no country last).
  const texts = [...new Set(fanout.prompts.map((p) => p.text))];
  const cells = new Map<string, { country: string | null; prompt: string; engine: ReportEngine; prompt_indexes: number[]; runs: ReportRun[] }>();
  for (const prompt of fanout.prompts) {
    const country = prompt.location?.country ?? null;
    for (const engine of prompt.engines) {
      const key = JSON.stringify([prompt.text, engine.engine, country]);
      const cell = cells.get(key) ?? { country, prompt: prompt.text, engine: engine.engine, prompt_indexes: [], runs: [] };
      cell.prompt_indexes.push(prompt.index);
      cell.runs.push(...completedOf(engine));
      cells.set(key, cell);
    }
  }
  const engineOrder = fanout.engines as string[];
  const byCountry = [...cells.values()]
    .sort(
      (a, b) =>
        texts.indexOf(a.prompt) - texts.indexOf(b.prompt) ||
        engineOrder.indexOf(a.engine) - engineOrder.indexOf(b.engine) ||
        (a.country === null ? 1 : 0) - (b.country === null ? 1 : 0) ||
        (a.country ?? "").localeCompare(b.country ?? ""),
    )
    .map((c) => ({ country: c.country, prompt: c.prompt, engine: c.engine, prompt_indexes: c.prompt_indexes, completed_runs: c.runs.length, queries: querySharesOf(c.runs) }));
  return { fanout_id: fanout.id, status: fanout.status, groups, by_country: byCountry };
}

type ReportEngine = z.input<typeof Fanout>["prompts"][number]["engines"][number]["engine"];
