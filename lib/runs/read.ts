// Reading runs and batches: the columns of a run (the one list every read of a run decodes), the
// statements of GET /runs/{id} (and its include=raw_envelope), GET /runs and GET /batches/{id},
// and the bodies they answer, made by the presenters (./present.ts) and remembered per version;
// then the services over them: GET /runs, GET /runs/{id} and GET /batches/{id}, with long-polling.
//
// A run's body (its result alone is often 10 KB or more) is presented and serialised once per
// version of what it shows: the run row's, its hold's (every UPDATE gives a row a new xmin) and
// its creator's email. GET /runs/{id} gives its statement the version it has the body of, and the
// statement sends the run's columns only when the version is another: so a read of an unchanged
// run is one statement answering the version, and the body remembered; it can never be stale, as
// the database says on every read which version is current.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { holdJoin, holdVersionSql } from "../billing/store";
import { billingSettings } from "../billing/settings";
import { allOf, defineStatement, group, json, optional, packed, text } from "../db/statement";
import { currentDb } from "../db/client";
import { standalone, textTransaction, type SqlSession } from "../db/sql";
import { VersionCache } from "../db/version-cache";
import { pageOf, decodeCursor } from "../http/pagination";
import type { Run, RunList, RunStatus, RunsQuery, PromptBatch } from "../schemas/runs";
import { readableSql, readerOf, type Reader } from "../shares/access";
import { reachableSql, reachOf, requireWorkspace } from "../workspaces/access";
import { presentBatch, presentRun, presentRunSummary, presentRunWithEnvelope, promptBatchText } from "./present";
import { batchColumns, runColumns, runSummaryColumns, type RunRow } from "./rows";
import { isFinished } from "./status";
import { ApiError, notFound } from "../http/errors";
import { JsonText } from "../http/respond";
import { readWaiting, waitUntilFinished } from "../changes/wait";
import { getProjectOrThrow } from "../projects/read";
import { fanoutReachable } from "../fanouts/reach";

/** A run's creator and its hold, as runColumns reads them. */
const RUN_JOINS = `LEFT JOIN users u ON u.id = r.created_by_user_id ${holdJoin("h", "r.id")}`;
const RUN_FROM = `runs r ${RUN_JOINS}`;
/** The version of a run's body (alias v): its row's, its hold's, and its creator's email. */
const RUN_VERSION = `CROSS JOIN LATERAL (SELECT r.xmin::text || ':' || ${holdVersionSql("h")} || ':' || COALESCE(u.email, '') AS version) v`;

/**
 * A run the reader can read (lib/shares/access.ts), with its version; its columns only when that
 * version is not `known` (the caller has the body of it), packed in one column so that the usual
 * answer (unchanged) is a version and two nulls; its raw envelope only when `envelope` is true.
 */
const RUN_BY_ID = defineStatement({
  label: "run_by_id",
  params: ["run", "user", "own", "share", "known", "envelope"],
  columns: (p) => ({
    version: text("v.version"),
    run: packed(runColumns, `v.version IS DISTINCT FROM ${p.known}`),
    rawEnvelope: json(`CASE WHEN ${p.envelope}::boolean THEN r.raw_envelope END`).nullable,
  }),
  sql: ({ select, p, given }) => `SELECT ${select} FROM ${RUN_FROM} ${RUN_VERSION} WHERE r.id = ${p.run} AND ${readableSql("r", p, given)}`,
});

/** Runs by id ($ids: an array literal), whoever asks, with their versions, in id order. */
const RUNS_BY_IDS = defineStatement({
  label: "runs_by_ids",
  params: ["ids"],
  columns: { version: text("v.version"), run: group(runColumns) },
  sql: ({ select, p }) => `SELECT ${select} FROM ${RUN_FROM} ${RUN_VERSION} WHERE r.id = ANY(${p.ids}::text[]) ORDER BY r.id`,
});

const arrayOf = (ids: readonly string[]) => `{${ids.join(",")}}`;

/** Runs by id, whoever asks (the caller checked access, or made them), in id order; in `session` (a transaction's) when given. */
export async function runRowsByIds(ids: readonly string[], session: SqlSession = standalone()): Promise<RunRow[]> {
  if (ids.length === 0) return [];
  return (await RUNS_BY_IDS.query(session, { ids: arrayOf(ids) })).map((row) => row.run);
}

/** A run's body: the presented run as JSON text, with the version it shows and whether billing was on. */
type RunBody = { version: string; billing: boolean; status: RunStatus; text: string; size: number };

/** Run bodies by version: 8 Mi characters at most (some hundreds of typical results), each up to 2 Mi. */
const runBodies = new VersionCache<RunBody>("__geoscopeRunBodies", 8 * 2 ** 20, 2 * 2 ** 20);

function remembered(runId: string, billing: boolean): RunBody | undefined {
  const held = runBodies.get(runId);
  return held?.billing === billing ? held : undefined;
}

function bodyOf(version: string, run: RunRow, billing: boolean): RunBody {
  const text = JSON.stringify(presentRun(run, billing));
  const body = { version, billing, status: run.status, text, size: text.length };
  runBodies.set(run.id, body);
  return body;
}

export type RunText = { finished: boolean; text: string };

/**
 * A run the reader can read as the API's JSON text (with its raw envelope when asked), or null
 * (missing, or not reachable: 404 alike).
 */
export async function readRun(reader: Reader, runId: string, options: { envelope?: boolean } = {}): Promise<RunText | null> {
  const billing = billingSettings().enabled;
  const held = options.envelope ? undefined : remembered(runId, billing);
  const row = await RUN_BY_ID.first(standalone(), { run: runId, ...readerOf(reader), known: held?.version ?? null, envelope: options.envelope === true });
  if (!row) return null;
  // No columns: the version is the one remembered.
  const body = row.run ? bodyOf(row.version, row.run, billing) : held!;
  const finished = isFinished(body.status);
  if (!options.envelope) return { finished, text: body.text };
  return { finished, text: JSON.stringify(presentRunWithEnvelope(row.run!, row.rawEnvelope, billing)) };
}

const RUN_OPEN = defineStatement({
  label: "run_open",
  params: ["run"],
  sql: ({ p }) => `SELECT 1 FROM runs r WHERE r.id = ${p.run} AND r.status IN ('queued', 'running')`,
});

/** Whether the run finished (or is gone). */
export async function runFinished(runId: string): Promise<boolean> {
  return (await RUN_OPEN.query(standalone(), { run: runId })).length === 0;
}

/** What a batch's body needs of each run beside the run's own body. */
const batchRunColumns = { id: text("r.id"), version: text("v.version"), status: runColumns.status, startedAt: runColumns.startedAt, updatedAt: runColumns.updatedAt };

/** A batch the reader can read and its runs, one row per run (none: one row, its run null), in id order. */
const BATCH_WITH_RUNS = defineStatement({
  label: "batch_with_runs",
  params: ["batch", "user", "own", "share"],
  columns: { batch: group(batchColumns), run: optional(batchRunColumns, "r.id IS NOT NULL") },
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM batches b LEFT JOIN users bu ON bu.id = b.created_by_user_id ` +
    `LEFT JOIN runs r ON r.batch_id = b.id ${RUN_JOINS} ${RUN_VERSION} ` +
    `WHERE b.id = ${p.batch} AND ${readableSql("b", p, given)} ORDER BY r.id`,
});

/** The bodies of these runs at these versions: remembered, or read and made (in `session`); null when a run changed meanwhile. */
async function bodiesOf(session: SqlSession, runs: readonly { id: string; version: string }[], billing: boolean): Promise<Map<string, RunBody> | null> {
  const found = new Map<string, RunBody>();
  const missing: string[] = [];
  for (const run of runs) {
    const held = remembered(run.id, billing);
    if (held && held.version === run.version) found.set(run.id, held);
    else missing.push(run.id);
  }
  if (missing.length === 0) return found;
  const wanted = new Map(runs.map((run) => [run.id, run.version]));
  for (const row of await RUNS_BY_IDS.query(session, { ids: arrayOf(missing) })) {
    // Changed between the two reads: the caller reads again, so that a body is one version.
    if (wanted.get(row.run.id) !== row.version) return null;
    found.set(row.run.id, bodyOf(row.version, row.run, billing));
  }
  return missing.every((id) => found.has(id)) ? found : null;
}

/** A batch read once in `session`: its text, null when the reader cannot read it, or CHANGED when a run changed between the two statements. */
const CHANGED = Symbol("changed");
async function readBatchIn(session: SqlSession, reader: Reader, batchId: string): Promise<RunText | null | typeof CHANGED> {
  const rows = await BATCH_WITH_RUNS.query(session, { batch: batchId, ...readerOf(reader) });
  const first = rows[0];
  if (!first) return null;
  const runs = rows.flatMap((row) => (row.run ? [row.run] : []));
  const bodies = await bodiesOf(session, runs, billingSettings().enabled);
  if (!bodies) return CHANGED;
  return {
    finished: runs.every((run) => isFinished(run.status)),
    text: promptBatchText(presentBatch(first.batch, runs), runs.map((run) => bodies.get(run.id)!.text)),
  };
}

/**
 * GET /batches/{id} as JSON text, or null when the reader cannot read the batch. Read on its own
 * first (two statements, the bodies remembered mostly); when a run changed between them (runs
 * finishing, their leases renewed, their holds settled: every write gives a row a new version),
 * read again in one snapshot, where the two statements see the same versions whatever commits
 * meanwhile. Trying again on its own lost to a burst of finishing runs and answered 500.
 */
export async function readBatch(reader: Reader, batchId: string): Promise<RunText | null> {
  const read = await readBatchIn(standalone(), reader, batchId);
  if (read !== CHANGED) return read;
  const again = await textTransaction(currentDb(), (sql) => readBatchIn(sql, reader, batchId), { snapshot: true });
  if (again === CHANGED) throw new Error(`the runs of batch ${batchId} changed within one snapshot`);
  return again;
}

export type RunListFilter = {
  /** Checked reachable by the caller; otherwise every workspace the credential can act in. */
  workspaceId?: string;
  projectId?: string;
  batchId?: string;
  fanoutId?: string;
  status?: string;
  engine?: string;
  /** Only runs for a searcher in this country (input.location.country). */
  country?: string;
  /** The cursor's run: only runs older than it. */
  beforeId?: string;
  limit: number;
};

/** GET /runs, newest first: one statement per combination of filters. */
const RUN_LIST = defineStatement({
  label: "runs",
  params: ["user", "own", "workspace", "project", "batch", "fanout", "status", "engine", "country", "before", "limit"],
  columns: runSummaryColumns,
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM runs r LEFT JOIN users u ON u.id = r.created_by_user_id WHERE ` +
    allOf(
      given.workspace ? `r.workspace_id = ${p.workspace}` : reachableSql("r", p),
      given.project && `r.project_id = ${p.project}`,
      given.batch && `r.batch_id = ${p.batch}`,
      given.fanout && `r.fanout_id = ${p.fanout}`,
      given.status && `r.status = ${p.status}::"RunStatus"`,
      given.engine && `r.engine = ${p.engine}`,
      given.country && `r.input -> 'location' ->> 'country' = ${p.country}`,
      given.before && `r.id < ${p.before}`,
    ) +
    ` ORDER BY r.id DESC LIMIT ${p.limit}::int`,
});

/** GET /runs as JSON text, newest first. The filters naming objects must have been checked reachable. */
export async function readRunList(principal: Principal, filter: RunListFilter): Promise<string> {
  const rows = await RUN_LIST.query(standalone(), {
    ...reachOf(principal),
    workspace: filter.workspaceId, project: filter.projectId, batch: filter.batchId, fanout: filter.fanoutId,
    status: filter.status, engine: filter.engine, country: filter.country, before: filter.beforeId, limit: filter.limit + 1,
  });
  const page = pageOf(rows, filter.limit);
  const list: z.input<typeof RunList> = { items: page.items.map(presentRunSummary), next_cursor: page.next_cursor };
  return JSON.stringify(list);
}

const BATCH_REACHABLE = defineStatement({
  label: "batch_reachable",
  params: ["batch", "user", "own"],
  sql: ({ p }) => `SELECT 1 FROM batches b WHERE b.id = ${p.batch} AND ${reachableSql("b", p)}`,
});

/** Whether the credential can reach the batch (without reading it). */
export async function batchReachable(principal: Principal, batchId: string): Promise<boolean> {
  return (await BATCH_REACHABLE.query(standalone(), { batch: batchId, ...reachOf(principal) })).length > 0;
}

const BATCH_OPEN = defineStatement({
  label: "batch_open",
  params: ["batch"],
  sql: ({ p }) => `SELECT 1 FROM runs r WHERE r.batch_id = ${p.batch} AND r.status IN ('queued', 'running') LIMIT 1`,
});

/** Whether every run of the batch finished (none queued or running). */
export async function batchRunsFinished(batchId: string): Promise<boolean> {
  return (await BATCH_OPEN.query(standalone(), { batch: batchId })).length === 0;
}

// GET /runs and GET /runs/{run_id}: reading runs the credential can reach, with long-polling.
type RunOptions = { wait?: number; signal?: AbortSignal; include?: "raw_envelope" };

/** GET /runs/{run_id} as the API sends it: the presented run as JSON text (./read.ts), with its raw envelope when asked. */
export async function getRunBody(principal: Principal, runId: string, options: RunOptions = {}): Promise<JsonText<z.input<typeof Run>>> {
  const envelope = options.include === "raw_envelope";
  const run = await readWaiting(runId, () => readRun(principal, runId, { envelope }), {
    ...options, isFinished: () => runFinished(runId), missing: () => notFound("run", runId),
  });
  return new JsonText(run.text);
}

/** A run as an object (pages): the API's body, parsed. */
export async function getRun(principal: Principal, runId: string, options: RunOptions = {}): Promise<z.input<typeof Run>> {
  return JSON.parse((await getRunBody(principal, runId, options)).text) as z.input<typeof Run>;
}

/**
 * GET /runs's query checked as the API checks it: a filter naming something the credential cannot
 * reach answers 404, like reading it would; with `wait`, waits for the batch first.
 */
export async function runListFilter(principal: Principal, query: z.output<typeof RunsQuery>, signal?: AbortSignal): Promise<RunListFilter> {
  if (query.wait > 0 && !query.batch) {
    throw new ApiError("invalid_request", "wait: only with batch; GET /runs waits for one batch to finish");
  }
  const filter: RunListFilter = { limit: query.limit };
  if (query.workspace) filter.workspaceId = (await requireWorkspace(principal, query.workspace)).workspace.id;
  if (query.project) filter.projectId = (await getProjectOrThrow(principal, query.project)).id;
  if (query.batch) {
    if (!(await batchReachable(principal, query.batch))) throw notFound("batch", query.batch);
    filter.batchId = query.batch;
    if (query.wait > 0) await waitForBatch(query.batch, query.wait, signal);
  }
  if (query.fanout) {
    if (!(await fanoutReachable(principal, query.fanout))) throw notFound("fanout", query.fanout);
    filter.fanoutId = query.fanout;
  }
  if (query.status) filter.status = query.status;
  if (query.engine) filter.engine = query.engine;
  if (query.country) filter.country = query.country;
  if (query.cursor) filter.beforeId = decodeCursor(query.cursor, "dr");
  return filter;
}

/** GET /runs as the API sends it: one statement and the presented page as JSON text (./read.ts). */
export async function listRunsBody(principal: Principal, query: z.output<typeof RunsQuery>, options: { signal?: AbortSignal } = {}) {
  const filter = await runListFilter(principal, query, options.signal);
  return new JsonText<z.input<typeof RunList>>(await readRunList(principal, filter));
}

// GET /batches/{batch_id}: a batch and its runs, with long-polling until every run finished.
/** Sleeps until every run of the batch finished, or `seconds` passed, or the client left. */
export async function waitForBatch(batchId: string, seconds: number, signal?: AbortSignal): Promise<void> {
  await waitUntilFinished(batchId, { seconds, signal, isFinished: () => batchRunsFinished(batchId) });
}

/** GET /batches/{batch_id} as the API sends it: the batch and its runs' bodies as JSON text (./read.ts). */
export async function getBatchBody(principal: Principal, batchId: string, options: { wait?: number; signal?: AbortSignal } = {}) {
  const batch = await readWaiting(batchId, () => readBatch(principal, batchId), {
    ...options, isFinished: () => batchRunsFinished(batchId), missing: () => notFound("batch", batchId),
  });
  return new JsonText<z.input<typeof PromptBatch>>(batch.text);
}

/** A batch and its runs as an object (pages): the API's body, parsed. */
export async function getBatch(principal: Principal, batchId: string, options: { wait?: number; signal?: AbortSignal } = {}): Promise<z.input<typeof PromptBatch>> {
  return JSON.parse((await getBatchBody(principal, batchId, options)).text) as z.input<typeof PromptBatch>;
}
