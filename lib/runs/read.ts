// The hot read of a run (GET /runs/{id}, and the run pages of GET /batches/{id}): one prepared
// statement (lib/db/sql.ts) that checks access, reads the run, its creator and its hold, and a
// body assembled as text, byte for byte what JSON.stringify(presentRun(row)) gives.
//
// A run's JSON columns (input, result, error, usage: the result alone is often 10 KB or more)
// are parsed and serialised once per version of the row, not per request: the compact text of
// each is remembered under the row's version (its xmin, which every UPDATE changes), and the
// statement sends the columns only when the version it is given is not the row's. So the cache
// can never serve a stale result: the database says on every read whether it is current.
import type { z } from "zod";
import { presentRunCharge, type HoldRow } from "../billing/present";
import { billingSettings } from "../billing/settings";
import type { Principal } from "../auth/principal";
import { currentDb } from "../db/client";
import { FilteredStatement, isoText as iso, queryText, type Statement, type TextRow } from "../db/sql";
import { VersionCache } from "../db/version-cache";
import { encodeCursor } from "../http/pagination";
import type { Run } from "../schemas/runs";
import { inReachableWorkspaceSql, reachableSql as reachable } from "../workspaces/access";
import { deriveBatchStatus, isFinished } from "./status";

/**
 * The columns of one run as the body needs them. `v`: the parameter holding the row version the
 * caller has the JSON of (the JSON columns are sent only when the row's is another), or null to
 * send no JSON (the caller gets it with RUN_JSON).
 */
function runColumns(v: string | null): string {
  const unlessCurrent = (column: string) => (v === null ? "NULL" : `CASE WHEN r.xmin = ${v}::xid THEN NULL ELSE r.${column}::text END`);
  return [
    "r.xmin::text", "r.id", "r.kind::text", "r.status::text", "r.engine", "r.model",
    unlessCurrent("input"), unlessCurrent("result"), unlessCurrent("error"), unlessCurrent("usage"),
    "r.batch_id", "r.fanout_id", "r.project_id", "r.duration_ms::text",
    iso("r.created_at"), iso("r.started_at"), iso("r.completed_at"), "u.email", HOLD_COLUMNS,
  ].join(", ");
}

/** A run's credit hold (alias h), as holdOf reads it: eight columns. */
export const HOLD_COLUMNS =
  "h.status::text, h.amount_micros::text, h.captured_micros::text, h.unit, h.units::text, h.captured_units::text, h.unit_price_micros::text, h.pricing_version";

/** jsonb's text (spaced, `{"a": 1}`) as the API writes it: what Prisma's parse and the route's JSON.stringify made of it. */
const compact = (text: string | null, whenNull: string) => (text === null ? whenNull : JSON.stringify(JSON.parse(text)));

const str = (value: string | null | undefined = null) => (value === null ? "null" : JSON.stringify(value));
const num = (value: string | null | undefined = null) => (value === null ? "null" : String(Number(value)));
const big = (value: string | null | undefined = null) => (value === null ? null : BigInt(value));

/** The hold in HOLD_COLUMNS at `at` in the row, or null (no hold). */
export function holdOf(row: TextRow, at: number): HoldRow | null {
  if (row[at] === null) return null;
  return {
    status: row[at] as HoldRow["status"],
    amountMicros: big(row[at + 1])!,
    capturedMicros: big(row[at + 2]),
    unit: row[at + 3]!,
    units: Number(row[at + 4]),
    capturedUnits: row[at + 5] === null ? null : Number(row[at + 5]),
    unitPriceMicros: big(row[at + 6])!,
    pricingVersion: row[at + 7]!,
  };
}

/** A run's `charge` as JSON text, from HOLD_COLUMNS at `at` in the row. */
function chargeText(row: TextRow, at: number, billingEnabled: boolean): string {
  return JSON.stringify(presentRunCharge(holdOf(row, at), billingEnabled));
}

const RUN_JOINS = "LEFT JOIN users u ON u.id = r.created_by_user_id LEFT JOIN credit_holds h ON h.run_id = r.id";

const RUN_BY_ID: Statement = {
  name: "geoscope_run_by_id_v1",
  text: `SELECT ${runColumns("$4")} FROM runs r ${RUN_JOINS} WHERE r.id = $1 AND ${reachable("r")}`,
};

/** The JSON columns of some runs ($1: their ids as an array literal), with the version they are of. */
const RUN_JSON: Statement = {
  name: "geoscope_run_json_v1",
  text: "SELECT r.xmin::text, r.id, r.input::text, r.result::text, r.error::text, r.usage::text FROM runs r WHERE r.id = ANY($1::text[])",
};

/** A batch the credential can reach and its runs, one row per run (none: one row of nulls), in id order. */
const BATCH_WITH_RUNS: Statement = {
  name: "geoscope_batch_with_runs_v1",
  text:
    `SELECT b.id, b.kind, b.input::text, ${iso("b.created_at")}, ${iso("b.updated_at")}, b.project_id, bu.email, ` +
    `${runColumns(null)}, ${iso("r.updated_at")} ` +
    `FROM batches b LEFT JOIN users bu ON bu.id = b.created_by_user_id LEFT JOIN runs r ON r.batch_id = b.id ${RUN_JOINS} ` +
    `WHERE b.id = $1 AND ${reachable("b")} ORDER BY r.id`,
};
const BATCH_COLUMNS = 7;

/** JSON texts of one version of a run's JSON columns, compact as JSON.stringify writes them. */
type JsonColumns = { version: string; input: string; result: string; error: string; usage: string; size: number };

/** Runs' JSON texts by row version: 8 Mi characters at most (some hundreds of typical results), each up to 2 Mi. */
const runJson = new VersionCache<JsonColumns>("__geoscopeRunJson", 8 * 2 ** 20, 2 * 2 ** 20);

/** The JSON columns of the row: the texts remembered for its version, or made from the columns sent. */
function jsonColumnsOf(row: TextRow, held: JsonColumns | undefined): JsonColumns {
  const version = row[0]!;
  if (held && held.version === version) return held;
  const input = compact(row[6] ?? null, "{}");
  const result = compact(row[7] ?? null, "null");
  const error = compact(row[8] ?? null, "null");
  const usage = compact(row[9] ?? null, "null");
  const entry = { version, input, result, error, usage, size: input.length + result.length + error.length + usage.length };
  runJson.set(row[1]!, entry);
  return entry;
}

export type RunText = { status: z.input<typeof Run>["status"]; text: string };

/** The body of GET /runs/{id} for a row of runColumns, with keys in presentRun's order. */
function runText(row: TextRow, json: JsonColumns, billingEnabled: boolean): RunText {
  const status = row[3] as RunText["status"];
  const text =
    `{"id":${str(row[1])},"kind":${str(row[2])},"status":${str(status)},"input":${json.input}` +
    `,"created_at":${str(row[14])},"engine":${str(row[4])},"model":${str(row[5])}` +
    `,"batch_id":${str(row[10])},"fanout_id":${str(row[11])},"project_id":${str(row[12])},"created_by":${str(row[17])}` +
    `,"result":${json.result},"error":${json.error},"usage":${json.usage},"charge":${chargeText(row, 18, billingEnabled)}` +
    `,"cost_usd":null,"duration_ms":${num(row[13])},"started_at":${str(row[15])},"completed_at":${str(row[16])}}`;
  return { status, text };
}

/** A run the credential can reach, as the API's JSON text, or null (missing, or not reachable: 404 alike). */
export async function readRunText(principal: Principal, runId: string): Promise<RunText | null> {
  const held = runJson.get(runId);
  const rows = await queryText(currentDb(), RUN_BY_ID, [runId, principal.workspaceId, principal.user.id, held?.version ?? null]);
  const row = rows[0];
  if (!row) return null;
  return runText(row, jsonColumnsOf(row, held), billingSettings().enabled);
}

/** Compact JSON texts for runs of these rows (runColumns(null)), read with RUN_JSON where not remembered; null when a run changed meanwhile. */
async function jsonOfRows(rows: TextRow[]): Promise<Map<string, JsonColumns> | null> {
  const found = new Map<string, JsonColumns>();
  const missing: string[] = [];
  for (const row of rows) {
    const held = runJson.current(row[1]!, row[0]);
    if (held) found.set(row[1]!, held);
    else missing.push(row[1]!);
  }
  if (missing.length === 0) return found;
  const fetched = await queryText(currentDb(), RUN_JSON, [`{${missing.join(",")}}`]);
  const wanted = new Map(rows.map((row) => [row[1]!, row[0]!]));
  for (const f of fetched) {
    // Updated between the two reads: the caller reads again, so that a body is one version.
    if (wanted.get(f[1]!) !== f[0]) return null;
    const json = jsonColumnsOf([f[0]!, f[1]!, null, null, null, null, f[2]!, f[3]!, f[4]!, f[5]!], undefined);
    found.set(f[1]!, json);
  }
  return missing.every((id) => found.has(id)) ? found : null;
}

export type BatchText = { finished: boolean; text: string };

/**
 * GET /batches/{id} as JSON text, byte for byte JSON.stringify(presentPromptBatch(…)), or null when
 * the credential cannot reach the batch.
 */
export async function readBatchText(principal: Principal, batchId: string): Promise<BatchText | null> {
  for (let attempt = 0; ; attempt++) {
    const rows = await queryText(currentDb(), BATCH_WITH_RUNS, [batchId, principal.workspaceId, principal.user.id]);
    const first = rows[0];
    if (!first) return null;
    const runRows = rows.filter((row) => row[BATCH_COLUMNS + 1] !== null).map((row) => row.slice(BATCH_COLUMNS));
    const json = await jsonOfRows(runRows);
    if (!json) {
      if (attempt < 3) continue;
      throw new Error(`the runs of batch ${batchId} kept changing while read`);
    }
    const billingEnabled = billingSettings().enabled;
    const runs = runRows.map((row) => runText(row, json.get(row[1]!)!, billingEnabled));
    let updated = first[4]!;
    for (const row of runRows) if (row[26]! > updated) updated = row[26]!;
    const status = deriveBatchStatus(runRows.map((row) => ({ status: row[3] as RunText["status"], startedAt: row[15] === null ? null : new Date(row[15]!) })));
    const batch =
      `{"id":${str(first[0])},"kind":${str(first[1])},"status":${str(status)},"input":${compact(first[2] ?? null, "{}")}` +
      `,"run_ids":${JSON.stringify(runRows.map((row) => row[1]))},"created_at":${str(first[3])},"updated_at":${str(updated)}` +
      `,"project_id":${str(first[5])},"created_by":${str(first[6])}}`;
    return { finished: runs.every((r) => isFinished(r.status)), text: `{"batch":${batch},"runs":[${runs.map((r) => r.text).join(",")}]}` };
  }
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

/**
 * GET /runs as JSON text, byte for byte JSON.stringify({ items: rows.map(presentRunSummary),
 * next_cursor }), newest first. The filters naming objects must have been checked reachable.
 */
export async function readRunListText(principal: Principal, filter: RunListFilter): Promise<string> {
  const q = new FilteredStatement();
  if (filter.workspaceId) q.where(`r.workspace_id = ${q.param(filter.workspaceId)}`, "w");
  else q.where(inReachableWorkspaceSql("r", q.param(principal.user.id), q.param(principal.workspaceId)));
  const conditions: [string, string | undefined, (p: string) => string][] = [
    ["p", filter.projectId, (p) => `r.project_id = ${p}`],
    ["b", filter.batchId, (p) => `r.batch_id = ${p}`],
    ["f", filter.fanoutId, (p) => `r.fanout_id = ${p}`],
    ["s", filter.status, (p) => `r.status = ${p}::"RunStatus"`],
    ["e", filter.engine, (p) => `r.engine = ${p}`],
    ["n", filter.country, (p) => `r.input -> 'location' ->> 'country' = ${p}`],
    ["c", filter.beforeId, (p) => `r.id < ${p}`],
  ];
  for (const [flag, value, condition] of conditions) if (value !== undefined) q.where(condition(q.param(value)), flag);
  const limit = q.param(String(filter.limit + 1));
  const statement = q.statement(
    "geoscope_runs_v1",
    (where) =>
      `SELECT r.id, r.kind::text, r.status::text, r.subject, ${iso("r.created_at")}, r.engine, r.batch_id, r.fanout_id, r.project_id, ` +
      `u.email, r.source_count::text, r.cited_count::text, ${iso("r.completed_at")} ` +
      `FROM runs r LEFT JOIN users u ON u.id = r.created_by_user_id WHERE ${where} ORDER BY r.id DESC LIMIT ${limit}::int`,
  );
  const rows = await queryText(currentDb(), statement, q.values);
  const items = rows.slice(0, filter.limit).map(
    (row) =>
      `{"id":${str(row[0])},"kind":${str(row[1])},"status":${str(row[2])},"subject":${str(row[3])},"created_at":${str(row[4])}` +
      `,"engine":${str(row[5])},"batch_id":${str(row[6])},"fanout_id":${str(row[7])},"project_id":${str(row[8])},"created_by":${str(row[9])}` +
      `,"source_count":${num(row[10])},"cited_count":${num(row[11])},"completed_at":${str(row[12])}}`,
  );
  const last = rows.length > filter.limit ? rows[filter.limit - 1] : undefined;
  return `{"items":[${items.join(",")}],"next_cursor":${last ? JSON.stringify(encodeCursor(last[0]!)) : "null"}}`;
}

const BATCH_REACHABLE: Statement = {
  name: "geoscope_batch_reachable_v1",
  text: `SELECT b.id FROM batches b WHERE b.id = $1 AND ${reachable("b")}`,
};

/** Whether the credential can reach the batch (getBatchRowOrThrow's rule, without reading the row). */
export async function batchReachable(principal: Principal, batchId: string): Promise<boolean> {
  return (await queryText(currentDb(), BATCH_REACHABLE, [batchId, principal.workspaceId, principal.user.id])).length > 0;
}

const BATCH_OPEN: Statement = {
  name: "geoscope_batch_open_v1",
  text: "SELECT 1 FROM runs r WHERE r.batch_id = $1 AND r.status IN ('queued', 'running') LIMIT 1",
};

/** Whether every run of the batch finished (none queued or running). */
export async function batchRunsFinished(batchId: string): Promise<boolean> {
  return (await queryText(currentDb(), BATCH_OPEN, [batchId])).length === 0;
}
