// The reads of runs that the app's pages and their helpers make outside the run's own reads
// (./read.ts): a project's audit runs a page at a time (the project feed), how far a run, a batch
// or a fanout has got (the live pages' progress), the status of a batch's or fanout's runs (to
// share it), and whether a credential reaches a run (a mentions page filtered by run).
import type { Principal } from "../auth/principal";
import { arrayParam, date, defineStatement, int, standalone, text } from "../db/statement";
import type { RunStatus } from "../schemas/runs";
import { reachableSql, reachOf } from "../workspaces/access";

const AUDIT_RUN_IDS = defineStatement({
  label: "feed_audit_run_ids",
  params: ["project", "before", "take"],
  columns: { id: text("id") },
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM runs WHERE project_id = ${p.project} AND kind = 'audit'${given.before ? ` AND id < ${p.before}` : ""} ORDER BY id DESC LIMIT ${p.take}::int`,
});

/** The ids of a project's audit runs, newest first, older than `beforeId` when given, at most `take`. */
export function auditRunIdsOfProject(projectId: string, options: { beforeId?: string; take: number }) {
  return AUDIT_RUN_IDS.query(standalone(), { project: projectId, before: options.beforeId, take: options.take });
}

/** The runs of a batch or of a fanout (whichever is given), grouped by status. */
const runsOfSql = (p: { batch: string; fanout: string }, given: { batch: boolean }) => (given.batch ? `batch_id = ${p.batch}` : `fanout_id = ${p.fanout}`);

const RUN_ATTEMPTS_BY_STATUS = defineStatement({
  label: "progress_runs_by_status",
  params: ["batch", "fanout"],
  columns: { status: text<RunStatus>("status"), count: int("count(*)"), engineAttempts: int("COALESCE(sum(engine_attempt), 0)") },
  sql: ({ select, p, given }) => `SELECT ${select} FROM runs WHERE ${runsOfSql(p, given)} GROUP BY status`,
});

const RUN_STARTS_BY_STATUS = defineStatement({
  label: "share_runs_by_status",
  params: ["batch", "fanout"],
  columns: { status: text<RunStatus>("status"), count: int("count(*)"), lastStartedAt: date("max(started_at)").nullable },
  sql: ({ select, p, given }) => `SELECT ${select} FROM runs WHERE ${runsOfSql(p, given)} GROUP BY status`,
});

const ofBatchOrFanout = (where: { batchId: string } | { fanoutId: string }) => ("batchId" in where ? { batch: where.batchId } : { fanout: where.fanoutId });

/** The runs of a batch or a fanout counted by status, with the engine attempts they are at (the live pages' progress). */
export function runAttemptsByStatus(where: { batchId: string } | { fanoutId: string }) {
  return RUN_ATTEMPTS_BY_STATUS.query(standalone(), ofBatchOrFanout(where));
}

/** The runs of a batch or a fanout counted by status, with when the last of each started (its status, to share it). */
export function runStartsByStatus(where: { batchId: string } | { fanoutId: string }) {
  return RUN_STARTS_BY_STATUS.query(standalone(), ofBatchOrFanout(where));
}

const RUN_STATUS = defineStatement({
  label: "progress_run",
  params: ["id", "user", "own"],
  columns: { status: text<RunStatus>("r.status"), engineAttempt: int("r.engine_attempt").nullable },
  sql: ({ select, p }) => `SELECT ${select} FROM runs r WHERE r.id = ${p.id} AND ${reachableSql("r", p)}`,
});

/** A run's status and engine attempt, when the credential reaches it. */
export function reachedRunStatus(principal: Principal, runId: string) {
  return RUN_STATUS.first(standalone(), { id: runId, ...reachOf(principal) });
}

/** The running prompt runs among `runs` that the credential reaches, with where their engine call is. */
const RUNNING_ATTEMPTS = defineStatement({
  label: "progress_attempts",
  params: ["runs", "user", "own"],
  columns: { id: text("r.id"), engineAttempt: int("r.engine_attempt").nullable, engineAttemptAt: date("r.engine_attempt_at").nullable, startedAt: date("r.started_at").nullable },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM runs r WHERE r.id = ANY(${p.runs}::text[]) AND r.status = 'running' AND r.kind = 'prompt' AND ${reachableSql("r", p)}`,
});

/** The running prompt runs among `runIds` that the credential reaches: when each started and which engine attempt it is at since when. */
export function runningAttempts(principal: Principal, runIds: readonly string[]) {
  return RUNNING_ATTEMPTS.query(standalone(), { runs: arrayParam([...runIds]), ...reachOf(principal) });
}

/** Whether the credential can reach the run (a run_id filter naming one it cannot is 404, as reading it would be). */
const RUN_REACHABLE = defineStatement({
  label: "visibility_mention_run",
  params: ["run", "user", "own"],
  sql: ({ p }) => `SELECT 1 FROM runs r WHERE r.id = ${p.run} AND ${reachableSql("r", p)}`,
});

/** Whether the credential can reach the run (without reading it). */
export async function runReachable(principal: Principal, runId: string): Promise<boolean> {
  return (await RUN_REACHABLE.first(standalone(), { run: runId, ...reachOf(principal) })) !== undefined;
}
