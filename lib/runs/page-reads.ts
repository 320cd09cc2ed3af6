// The reads of runs that the app's pages and their helpers make outside the run's own reads
// (./read.ts): a project's audit runs a page at a time (the project feed), how far a run, a batch
// or a fanout has got (the live pages' progress), the status of a batch's or fanout's runs (to
// share it), and whether a credential reaches a run (a mentions page filtered by run).
import type { Principal } from "../auth/principal";
import { db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { arrayParam, date, defineStatement, int, standalone, text } from "../db/statement";
import type { RunStatus } from "../schemas/runs";
import { reachableSql, reachOf } from "../workspaces/access";

/** The ids of a project's audit runs, newest first, older than `beforeId` when given, at most `take`. */
export function auditRunIdsOfProject(projectId: string, options: { beforeId?: string; take: number }) {
  const where: Prisma.RunWhereInput = { projectId, kind: "audit" };
  if (options.beforeId !== undefined) where.id = { lt: options.beforeId };
  return db().run.findMany({ where, orderBy: { id: "desc" }, take: options.take, select: { id: true } });
}

/** The runs of a batch or a fanout counted by status, with the engine attempts they are at (the live pages' progress). */
export function runAttemptsByStatus(where: { batchId: string } | { fanoutId: string }) {
  return db().run.groupBy({ by: ["status"], where, _count: { _all: true }, _sum: { engineAttempt: true } });
}

/** The runs of a batch or a fanout counted by status, with when the last of each started (its status, to share it). */
export function runStartsByStatus(where: { batchId: string } | { fanoutId: string }) {
  return db().run.groupBy({ by: ["status"], where, _count: { _all: true }, _max: { startedAt: true } });
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
