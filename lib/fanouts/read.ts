// Reading fanouts: the detail (prompt → engine → run with observed queries), the list of
// summaries, and the observed queries aggregated per prompt × engine. Status, counts and
// money are derived from the runs and their holds, never stored twice.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { presentRunCharge } from "../billing/present";
import { formatUsd } from "../billing/money";
import { billingSettings } from "../billing/settings";
import { waitUntilFinished } from "../changes/wait";
import { db, type Tx } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { notFound } from "../http/errors";
import { decodeCursor, pageOf } from "../http/pagination";
import { getProjectOrThrow } from "../projects/projects";
import { deriveBatchStatus, isFinished, statusOfCounts, type RunCounts } from "../runs/status";
import type { Fanout, FanoutPromptSource, FanoutQueryReport, FanoutsQuery, FanoutSummary } from "../schemas/fanouts";
import type { PromptResult } from "../schemas/results";
import type { RunStatus } from "../schemas/runs";
import { reachableBy, reachableWorkspaceIds, requireWorkspace } from "../workspaces/access";
import { wilsonInterval } from "../stats/wilson";

const RUN_STATUSES: RunStatus[] = ["queued", "running", "completed", "failed"];

const fanoutInclude = { createdBy: { select: { email: true } } } as const;

const observationSelect = {
  id: true, status: true, engine: true, model: true, fanoutPromptIndex: true, runIndex: true, result: true, error: true,
  queryCount: true, createdAt: true, startedAt: true, completedAt: true, hold: true,
} as const satisfies Prisma.RunSelect;

type FanoutRow = Prisma.FanoutGetPayload<{ include: typeof fanoutInclude }>;
type ObservedRun = Prisma.RunGetPayload<{ select: typeof observationSelect }>;
type StoredPrompt = { text: string; source: z.output<typeof FanoutPromptSource> | null };

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

function summaryOf(row: FanoutRow, tally: ReturnType<typeof tallyOf>): z.input<typeof FanoutSummary> {
  const prompts = row.prompts as StoredPrompt[];
  return {
    id: row.id,
    name: row.name,
    status: tally.status,
    engines: row.engines as z.input<typeof FanoutSummary>["engines"],
    runs: row.runsPerPrompt,
    prompt_count: prompts.length,
    execution_count: prompts.length * row.engines.length * row.runsPerPrompt,
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
    ...summaryOf(row, tally),
    prompts: prompts.map((prompt, p) => {
      const engines = row.engines.map((engine) => {
        const engineRuns = [...(grid[p]!.get(engine) ?? [])].sort((a, b) => (a.runIndex ?? 0) - (b.runIndex ?? 0));
        return {
          engine: engine as z.input<typeof Fanout>["engines"][number],
          query_count: engineRuns.reduce((n, r) => n + (r.status === "completed" ? (r.queryCount ?? 0) : 0), 0),
          runs: engineRuns.map((run) => {
            const result = run.status === "completed" ? (run.result as z.output<typeof PromptResult> | null) : null;
            return {
              run_id: run.id,
              run_index: run.runIndex ?? 0,
              status: run.status,
              created_at: run.createdAt.toISOString(),
              model: run.model,
              searched: result?.searched ?? null,
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
        query_count: engines.reduce((n, e) => n + e.query_count, 0),
        engines,
      };
    }),
    held_usd: billingEnabled ? formatUsd(held) : null,
    charged_usd: billingEnabled ? formatUsd(charged) : null,
  };
}

async function loadRuns(fanoutId: string, client: Tx = db()) {
  return client.run.findMany({ where: { fanoutId }, select: observationSelect, orderBy: { id: "asc" } });
}

/** A fanout the service itself is creating, read in its transaction (no access check: the caller made it). */
export async function presentNewFanout(tx: Tx, fanoutId: string) {
  const row = await tx.fanout.findUniqueOrThrow({ where: { id: fanoutId }, include: fanoutInclude });
  return presentFanout(row, await loadRuns(fanoutId, tx));
}

/** A fanout the credential can act on, or 404 (the same answer as a missing one). */
export async function getFanoutRowOrThrow(principal: Principal, fanoutId: string) {
  const row = await db().fanout.findFirst({ where: { id: fanoutId, ...reachableBy(principal) }, include: fanoutInclude });
  if (!row) throw notFound("fanout", fanoutId);
  return row;
}

async function fanoutFinished(fanoutId: string): Promise<boolean> {
  return (await db().run.count({ where: { fanoutId, status: { in: ["queued", "running"] } } })) === 0;
}

export async function getFanout(principal: Principal, fanoutId: string, options: { wait?: number; signal?: AbortSignal } = {}) {
  const row = await getFanoutRowOrThrow(principal, fanoutId);
  if (options.wait && !(await fanoutFinished(fanoutId))) {
    await waitUntilFinished(fanoutId, { seconds: options.wait, signal: options.signal, isFinished: () => fanoutFinished(fanoutId) });
  }
  return presentFanout(row, await loadRuns(fanoutId));
}

export async function listFanouts(principal: Principal, query: z.output<typeof FanoutsQuery>) {
  const where: Prisma.FanoutWhereInput = {};
  // A filter naming something the credential cannot reach answers 404, like reading it would.
  if (query.workspace) where.workspaceId = (await requireWorkspace(principal, query.workspace)).workspace.id;
  else where.workspaceId = { in: await reachableWorkspaceIds(principal) };
  if (query.project) where.projectId = (await getProjectOrThrow(principal, query.project)).id;
  if (query.cursor) where.id = { lt: decodeCursor(query.cursor, "fo") };
  const rows = await db().fanout.findMany({ where, orderBy: { id: "desc" }, take: query.limit + 1, include: fanoutInclude });
  const page = pageOf(rows, query.limit);
  // The page's runs counted by fanout and status in the database: a row per status, not per run.
  const groups = await db().run.groupBy({
    by: ["fanoutId", "status"],
    where: { fanoutId: { in: page.items.map((f) => f.id) } },
    _count: { _all: true },
    _sum: { queryCount: true },
    _max: { startedAt: true, completedAt: true },
  });
  const tallies = new Map<string, ReturnType<typeof tallyOf>>();
  for (const row of page.items) {
    const own = groups.filter((g) => g.fanoutId === row.id);
    const counts = Object.fromEntries(RUN_STATUSES.map((s) => [s, own.find((g) => g.status === s)?._count._all ?? 0])) as RunCounts;
    const lastDone = own.reduce<Date | null>((last, g) => (g._max.completedAt && (!last || g._max.completedAt > last) ? g._max.completedAt : last), null);
    const allDone = own.length > 0 && counts.queued + counts.running === 0;
    tallies.set(row.id, {
      status: statusOfCounts(counts, own.some((g) => g.status !== "queued" || g._max.startedAt !== null)),
      counts,
      queryCount: own.find((g) => g.status === "completed")?._sum.queryCount ?? 0,
      completedAt: allDone ? lastDone : null,
    });
  }
  return { items: page.items.map((row) => summaryOf(row, tallies.get(row.id)!)), next_cursor: page.next_cursor };
}

/** Case and runs of whitespace folded: "Hubspot  Pricing" and "hubspot pricing" are one query. */
export function foldQuery(text: string): string {
  return text.trim().replace(/\s+/g, " ").toLowerCase();
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

export async function getFanoutQueries(principal: Principal, fanoutId: string): Promise<z.input<typeof FanoutQueryReport>> {
  const row = await getFanoutRowOrThrow(principal, fanoutId);
  const runs = await loadRuns(fanoutId);
  const fanout = presentFanout(row, runs);
  const groups = fanout.prompts.flatMap((prompt) =>
    prompt.engines.map((engine) => {
      const completed = engine.runs.filter((r) => r.status === "completed");
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
      const queries = [...tallies.values()]
        .map((t) => {
          const [low, high] = wilsonInterval(t.runs, n);
          return { ...t, share: round4(t.runs / n), share_interval: [round4(low), round4(high)] as [number, number] };
        })
        .sort((a, b) => b.share - a.share || b.occurrences - a.occurrences || a.query.localeCompare(b.query));
      return { prompt_index: prompt.index, prompt: prompt.text, engine: engine.engine, completed_runs: n, queries };
    }),
  );
  return { fanout_id: fanout.id, status: fanout.status, groups };
}
