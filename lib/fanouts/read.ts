// Reading fanouts: the detail (prompt → engine → run with observed queries), the list of
// summaries, and the observed queries aggregated per prompt × engine. Status, counts and
// money are derived from the runs and their holds, never stored twice.
//
// The detail is read by two prepared statements (lib/db/sql.ts) rather than through Prisma: the
// fanout with the access check and a signature of its runs' and holds' row versions, then the
// runs with only what the detail shows of their results (the searches, not the answers and
// sources: a 1,000-run fanout's results are some 10 MB). The body of GET /fanouts/{id} is
// remembered under that signature, so a finished fanout, which never changes, is sent as
// remembered after one small statement; any change to a run, a hold, the fanout or its
// creator's email gives another signature.
import { createHash } from "node:crypto";
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { presentRunCharge } from "../billing/present";
import { formatUsd } from "../billing/money";
import { billingSettings } from "../billing/settings";
import { holdJoin, holdShape, holdVersionSql } from "../billing/store";
import { readWaiting } from "../changes/wait";
import type { Tx } from "../db/client";
import { allOf, bool, date, defineStatement, group, int, json, optional, text, type RowOf } from "../db/statement";
import { sqlIn, standalone, type SqlSession } from "../db/sql";
import { VersionCache } from "../db/version-cache";
import { notFound } from "../http/errors";
import { JsonText } from "../http/respond";
import { decodeCursor, pageOf } from "../http/pagination";
import { getProjectOrThrow } from "../projects/projects";
import { deriveBatchStatus, isFinished, statusOfCounts, type RunCounts } from "../runs/status";
import type { Fanout, FanoutList, FanoutPromptSource, FanoutQueryReport, FanoutsQuery, FanoutSummary } from "../schemas/fanouts";
import type { Location } from "../schemas/locale";
import type { PromptResult } from "../schemas/results";
import type { RunStatus } from "../schemas/runs";
import { readableSql, readerOf, type Reader } from "../shares/reader";
import { inReachableWorkspaceSql, reachOf, requireWorkspace } from "../workspaces/access";
import { wilsonInterval } from "../stats/wilson";

const RUN_STATUSES: RunStatus[] = ["queued", "running", "completed", "failed"];

/** A fanout's columns (alias f, its creator u): what the presenters read of it. */
const fanoutColumns = {
  id: text("f.id"),
  name: text("f.name"),
  engines: json<string[]>("array_to_json(f.engines)"),
  runsPerPrompt: int("f.runs_per_prompt"),
  prompts: json("f.prompts"),
  createdAt: date("f.created_at"),
  projectId: text("f.project_id"),
  createdBy: optional({ email: text("u.email") }, "u.id IS NOT NULL"),
};

/** What the presenters read of a fanout's row. */
type FanoutRow = RowOf<typeof fanoutColumns>;

/**
 * What the presenters read of a fanout's run (alias r, its hold h): of its `result` only
 * `searched`, `search_calls` and `searches`, extracted in the database.
 */
const observedRunColumns = {
  id: text("r.id"),
  status: text<RunStatus>("r.status"),
  engine: text("r.engine").nullable,
  model: text("r.model").nullable,
  fanoutPromptIndex: int("r.fanout_prompt_index").nullable,
  runIndex: int("r.run_index").nullable,
  queryCount: int("r.query_count").nullable,
  result: json(
    "CASE WHEN r.status = 'completed' THEN jsonb_build_object('searched', r.result->'searched', 'search_calls', r.result->'search_calls', 'searches', r.result->'searches') END",
  ).nullable,
  error: json("r.error").nullable,
  createdAt: date("r.created_at"),
  startedAt: date("r.started_at").nullable,
  completedAt: date("r.completed_at").nullable,
  hold: holdShape("h"),
};

type ObservedRun = RowOf<typeof observedRunColumns>;
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

function summaryOf(row: Omit<FanoutRow, "prompts">, promptCount: number, tally: ReturnType<typeof tallyOf>): z.input<typeof FanoutSummary> {
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
        location: prompt.location ?? null,
        language: prompt.language ?? null,
        query_count: engines.reduce((n, e) => n + e.query_count, 0),
        engines,
      };
    }),
    held_usd: billingEnabled ? formatUsd(held) : null,
    charged_usd: billingEnabled ? formatUsd(charged) : null,
  };
}

/** A fanout's runs in id order: what the detail shows of each, with its row's version and its hold's. */
const FANOUT_RUNS = defineStatement({
  label: "fanout_runs",
  params: ["fanout"],
  columns: { runVersion: text("r.xmin"), holdVersion: text(holdVersionSql("h")), run: group(observedRunColumns) },
  sql: ({ select, p }) => `SELECT ${select} FROM runs r ${holdJoin("h", "r.id")} WHERE r.fanout_id = ${p.fanout} ORDER BY r.id COLLATE "C"`,
});

const fanoutRuns = (session: SqlSession, fanoutId: string) => FANOUT_RUNS.query(session, { fanout: fanoutId });

/** A fanout the service itself is creating, read in its transaction (no access check: the caller made it). */
export async function presentNewFanout(tx: Tx, fanoutId: string) {
  const row = await tx.fanout.findUniqueOrThrow({ where: { id: fanoutId }, include: { createdBy: { select: { email: true } } } });
  return presentFanout(row, (await fanoutRuns(sqlIn(tx), fanoutId)).map((r) => r.run));
}

/**
 * The version of a fanout's detail: the fanout row's, a digest of its runs' and their holds' row
 * versions (every UPDATE gives a row a new xmin) in id order, and its creator's email.
 * fanoutSignature computes the same from the rows FANOUT_RUNS reads.
 */
const SIGNATURE =
  `f.xmin::text || ':' || COALESCE((SELECT md5(string_agg(r.xmin::text || '.' || ${holdVersionSql("h")}, ',' ORDER BY r.id COLLATE "C")) ` +
  `FROM runs r ${holdJoin("h", "r.id")} WHERE r.fanout_id = f.id), '') || ':' || COALESCE(u.email, '')`;

/** A fanout the reader can read (lib/shares/reader.ts), with its signature and its row version; its columns only unless `known` is the signature. */
const FANOUT_HEAD = defineStatement({
  label: "fanout_head",
  params: ["fanout", "user", "own", "share", "known"],
  columns: (p) => ({ signature: text("s.signature"), version: text("f.xmin"), fanout: optional(fanoutColumns, `s.signature IS DISTINCT FROM ${p.known}`) }),
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM fanouts f LEFT JOIN users u ON u.id = f.created_by_user_id CROSS JOIN LATERAL (SELECT ${SIGNATURE} AS signature) s ` +
    `WHERE f.id = ${p.fanout} AND ${readableSql("f", p, given)}`,
});

const FANOUT_OPEN = defineStatement({
  label: "fanout_open",
  params: ["fanout"],
  sql: ({ p }) => `SELECT 1 FROM runs r WHERE r.fanout_id = ${p.fanout} AND r.status IN ('queued', 'running') LIMIT 1`,
});

/** SIGNATURE of the head's fanout row and these FANOUT_RUNS rows. */
function fanoutSignature(fanoutVersion: string, runRows: readonly { runVersion: string; holdVersion: string }[], email: string | null): string {
  const digest = runRows.length ? createHash("md5").update(runRows.map((r) => `${r.runVersion}.${r.holdVersion}`).join(",")).digest("hex") : "";
  return `${fanoutVersion}:${digest}:${email ?? ""}`;
}

/**
 * Detail bodies of fanouts by signature, with whether billing was on when made (their charges
 * and money show it): 8 Mi characters at most, each up to 4 Mi (a finished 1,000-run fanout is
 * some 800 Ki).
 */
const fanoutBodies = new VersionCache<{ version: string; billing: boolean; text: string; finished: boolean; size: number }>("__geoscopeFanoutBodies", 8 * 2 ** 20, 4 * 2 ** 20);

type FanoutText = { finished: boolean; text: string };

/** GET /fanouts/{id} as JSON text (the presented fanout), or null when the reader cannot read the fanout. */
export async function readFanoutText(reader: Reader, fanoutId: string): Promise<FanoutText | null> {
  const billing = billingSettings().enabled;
  const held = fanoutBodies.get(fanoutId);
  const usable = held?.billing === billing ? held : undefined;
  const head = await FANOUT_HEAD.first(standalone(), { fanout: fanoutId, ...readerOf(reader), known: usable?.version ?? null });
  if (!head) return null;
  // No columns: the signature is the one remembered.
  if (!head.fanout) return usable!;
  const runRows = await fanoutRuns(standalone(), fanoutId);
  const runs = runRows.map((r) => r.run);
  const text = JSON.stringify(presentFanout(head.fanout, runs, billing));
  const finished = runs.every((r) => isFinished(r.status));
  // Under the signature of what was read (the runs may have changed since the head was read).
  const version = fanoutSignature(head.version, runRows, head.fanout.createdBy?.email ?? null);
  fanoutBodies.set(fanoutId, { version, billing, text, finished, size: text.length });
  return { finished, text };
}

async function fanoutFinished(fanoutId: string): Promise<boolean> {
  return (await FANOUT_OPEN.query(standalone(), { fanout: fanoutId })).length === 0;
}

/**
 * GET /fanouts/{id} as the API sends it: JSON text, read by prepared statements and remembered
 * per version (above); with `wait`, once the fanout finished or the wait ran out.
 */
export async function getFanoutBody(principal: Principal, fanoutId: string, options: { wait?: number; signal?: AbortSignal } = {}) {
  const read = await readWaiting(fanoutId, () => readFanoutText(principal, fanoutId), {
    ...options, isFinished: () => fanoutFinished(fanoutId), missing: () => notFound("fanout", fanoutId),
  });
  return new JsonText<z.input<typeof Fanout>>(read.text);
}

/** A fanout as an object (pages, the queries report): the API's body, parsed. */
export async function getFanout(principal: Principal, fanoutId: string, options: { wait?: number; signal?: AbortSignal } = {}): Promise<z.input<typeof Fanout>> {
  return JSON.parse((await getFanoutBody(principal, fanoutId, options)).text) as z.input<typeof Fanout>;
}

/** GET /fanouts, newest first, each fanout with its runs counted by status in a lateral aggregate: one statement per combination of filters. */
const FANOUT_LIST = defineStatement({
  label: "fanouts",
  params: ["user", "own", "workspace", "project", "before", "limit"],
  columns: {
    id: fanoutColumns.id,
    name: fanoutColumns.name,
    engines: fanoutColumns.engines,
    runsPerPrompt: fanoutColumns.runsPerPrompt,
    promptCount: int("jsonb_array_length(f.prompts)"),
    createdAt: fanoutColumns.createdAt,
    projectId: fanoutColumns.projectId,
    createdBy: fanoutColumns.createdBy,
    queued: int("t.queued"),
    running: int("t.running"),
    completed: int("t.completed"),
    failed: int("t.failed"),
    queryCount: int("t.query_count"),
    anyStarted: bool("t.any_started"),
    lastDone: date("t.last_done").nullable,
  },
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM fanouts f LEFT JOIN users u ON u.id = f.created_by_user_id CROSS JOIN LATERAL (SELECT ` +
    `count(*) FILTER (WHERE r.status = 'queued') AS queued, count(*) FILTER (WHERE r.status = 'running') AS running, ` +
    `count(*) FILTER (WHERE r.status = 'completed') AS completed, count(*) FILTER (WHERE r.status = 'failed') AS failed, ` +
    `COALESCE(sum(r.query_count) FILTER (WHERE r.status = 'completed'), 0) AS query_count, ` +
    `COALESCE(bool_or(r.status <> 'queued' OR r.started_at IS NOT NULL), false) AS any_started, max(r.completed_at) AS last_done ` +
    `FROM runs r WHERE r.fanout_id = f.id) t WHERE ` +
    allOf(
      given.workspace ? `f.workspace_id = ${p.workspace}` : inReachableWorkspaceSql("f", p),
      given.project && `f.project_id = ${p.project}`,
      given.before && `f.id < ${p.before}`,
    ) +
    ` ORDER BY f.id DESC LIMIT ${p.limit}::int`,
});

/**
 * GET /fanouts: one prepared statement, the page of fanouts newest first each with its runs
 * counted by status in the database (a row per fanout, not per run).
 */
export async function listFanouts(principal: Principal, query: z.output<typeof FanoutsQuery>): Promise<z.input<typeof FanoutList>> {
  // A filter naming something the credential cannot reach answers 404, like reading it would.
  const workspace = query.workspace ? (await requireWorkspace(principal, query.workspace)).workspace.id : undefined;
  const project = query.project ? (await getProjectOrThrow(principal, query.project)).id : undefined;
  const rows = await FANOUT_LIST.query(standalone(), {
    ...reachOf(principal), workspace, project, before: query.cursor ? decodeCursor(query.cursor, "fo") : undefined, limit: query.limit + 1,
  });
  const page = pageOf(rows, query.limit);
  return {
    items: page.items.map((row) => {
      const counts: RunCounts = { queued: row.queued, running: row.running, completed: row.completed, failed: row.failed };
      const total = counts.queued + counts.running + counts.completed + counts.failed;
      return summaryOf(row, row.promptCount, {
        status: statusOfCounts(counts, row.anyStarted),
        counts,
        queryCount: row.queryCount,
        completedAt: total > 0 && counts.queued + counts.running === 0 ? row.lastDone : null,
      });
    }),
    next_cursor: page.next_cursor,
  };
}

/** Case and runs of whitespace folded: "Hubspot  Pricing" and "hubspot pricing" are one query. */
export function foldQuery(text: string): string {
  return text.trim().replace(/\s+/g, " ").toLowerCase();
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** GET /fanouts/{id}/queries: the observed queries of a fanout the credential can reach, per prompt × engine. */
export async function getFanoutQueries(principal: Principal, fanoutId: string): Promise<z.input<typeof FanoutQueryReport>> {
  return queryReportOf(await getFanout(principal, fanoutId));
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
