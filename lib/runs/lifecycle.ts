// A run's lifecycle, whatever it runs (a prompt: ./execute.ts; an audit: lib/audits/execute.ts; a
// questions generation: lib/questions/execute.ts): claimed by one worker (queued, or running under
// an expired lease), kept while it works, then finished by one transaction that writes its outcome
// and settles its credit hold, conditional on the claim.
//
// Idempotent: the claim and the final write are conditional on the run's status and attempt
// number, so a second execution (a retried step, a resumed lease, a duplicate dispatch) either
// finds the run finished and does nothing, or loses the final write and stores nothing; and
// capture or release of a hold happens at most once (lib/billing/holds.ts).
//
// The lease: one per run, the run's own (lease_expires_at), whichever driver executes it: taken by
// the claim and renewed by the one heartbeat (lib/work/heartbeat.ts) while the run works. (On the
// local driver the job that executes the run also holds its row's lease: that one says which
// worker runs the job, this one which worker runs the run.)
import { captureHold, releaseHold } from "../billing/holds";
import { notifyChanged } from "../changes/wait";
import { currentDb } from "../db/client";
import { atUtc, date, defineStatement, int, json, text, type Placeholders } from "../db/statement";
import { ASYNC_COMMIT, standalone, textTransaction, type SqlSession } from "../db/sql";
import type { Location } from "../schemas/locale";
import { heartbeat } from "../work/heartbeat";
import type { RunError } from "../schemas/results";
import type { RunStatus } from "../schemas/runs";

/** How long a claimed run belongs to its worker without a heartbeat; renewed every third of it. */
export const RUN_LEASE_MS = 60_000;
/** Claims per run before it is failed rather than tried again (a worker crashing on it each time). */
export const MAX_CLAIMS = 5;
/**
 * Retries of a job that executes a run (executions after the first): one execution per claim,
 * so a run is executed at most MAX_CLAIMS times whatever fails.
 */
export const RUN_JOB_RETRIES = MAX_CLAIMS - 1;

/** How long a claimed run's lease lasts without a heartbeat (tests shorten it). */
export type RunLease = { leaseMs?: number };

/** Engine calls per run (a prompt's, a questions generation's): the first and its retries for retryable failures. */
export const MAX_ENGINE_ATTEMPTS = 3;

/** How an executor runs a claimed run. */
export type ExecuteOptions = RunLease & {
  /** Replaces the wait between engine attempts (tests). */
  sleep?: (ms: number) => Promise<void>;
  /**
   * Called once the engine is done with this run (answered, failed, or was never called), before
   * the outcome is stored: a driver limiting concurrent engine calls frees the slot here, so the
   * next run's engine call does not wait for this run's database writes.
   */
  onEngineDone?: () => void;
  /** Called once this execution stored the run's outcome (completed or failed), with the fanout it belongs to (null for none). */
  onStored?: (fanoutId: string | null) => void;
};

/** `skipped`: already finished (or another execution stored first); `busy`: another worker holds a live lease. */
export type ExecuteOutcome = "completed" | "failed" | "skipped" | "busy";

export type Claim = {
  id: string;
  workspaceId: string;
  batchId: string | null;
  fanoutId: string | null;
  engine: string | null;
  prompt: string;
  /** The searcher's market as the run's input holds it (null when not given). */
  location: Location | null;
  language: string | null;
  attempts: number;
  startedAt: Date;
};

/** A claim's columns: the run, and its prompt and market as its input holds them (else its subject, null). */
const claimColumns = {
  id: text("id"),
  workspaceId: text("workspace_id"),
  batchId: text("batch_id").nullable,
  fanoutId: text("fanout_id").nullable,
  engine: text("engine").nullable,
  prompt: text("CASE WHEN jsonb_typeof(input -> 'prompt') = 'string' THEN input ->> 'prompt' ELSE subject END"),
  location: json<Location>("CASE WHEN jsonb_typeof(input -> 'location') = 'object' THEN input -> 'location' END").nullable,
  language: text("CASE WHEN jsonb_typeof(input -> 'language') = 'string' THEN input ->> 'language' END").nullable,
  attempts: int("attempts"),
};

/** What a claim is made from, and what decides whether a run can be claimed (its status and lease). */
const RUN_TO_CLAIM = defineStatement({
  label: "run_to_claim",
  params: ["run"],
  columns: { ...claimColumns, startedAt: date("started_at").nullable, status: text<RunStatus>("status"), leaseExpiresAt: date("lease_expires_at").nullable },
  sql: ({ select, p }) => `SELECT ${select} FROM runs WHERE id = ${p.run}`,
});

function claimOf(row: Omit<Claim, "startedAt">, startedAt: Date): Claim {
  const { id, workspaceId, batchId, fanoutId, engine, prompt, location, language, attempts } = row;
  return { id, workspaceId, batchId, fanoutId, engine, prompt, location, language, attempts, startedAt };
}

// Committed without waiting for the WAL flush (ASYNC_COMMIT): it is on the way to the engine call,
// and a claim lost to a crash is one that never happened (the run is queued again); the outcome's
// transaction is durable, and with it this claim.
const CLAIM_QUEUED_RUN = defineStatement({
  label: "run_claim_queued",
  params: ["run", "now", "lease", "maxClaims"],
  columns: claimColumns,
  sql: ({ select, p }) =>
    `UPDATE runs SET status = 'running', started_at = ${atUtc(p.now)}, attempts = attempts + 1,
      lease_expires_at = ${atUtc(p.lease)}, updated_at = ${atUtc(p.now)}
    FROM ${ASYNC_COMMIT}
    WHERE id = ${p.run} AND status = 'queued' AND started_at IS NULL AND attempts < ${p.maxClaims}::int
    RETURNING ${select}`,
});

/** When a lease taken now ends. */
function leaseEnd(lease: RunLease, now: Date): Date {
  return new Date(now.getTime() + (lease.leaseMs ?? RUN_LEASE_MS));
}

// Takes a run over (running under an expired lease, or queued after an earlier start), conditional
// on the status and attempts it was read with.
const TAKE_RUN = defineStatement({
  label: "run_take_over",
  params: ["run", "status", "attempts", "startedAt", "lease", "now"],
  columns: { id: text("id") },
  sql: ({ select, p }) =>
    `UPDATE runs SET status = 'running', started_at = ${atUtc(p.startedAt)}, attempts = ${p.attempts}::int + 1,
      lease_expires_at = ${atUtc(p.lease)}, engine_attempt = 1, engine_attempt_at = ${atUtc(p.now)}, updated_at = ${atUtc(p.now)}
    WHERE id = ${p.run} AND status = ${p.status}::text::"RunStatus" AND attempts = ${p.attempts}::int
    RETURNING ${select}`,
});

/** Takes a run for this worker, or null when it is finished or another worker's lease is live. */
export async function claimRun(runId: string, lease: RunLease = {}): Promise<Claim | "busy" | null> {
  const now = new Date();
  // The usual case, a queued run never started, in one conditional statement: of two workers
  // claiming at once exactly one gets the row back. Anything else (a lease to take over, a run
  // claimed too often, a finished one) is read first and decided below.
  const fresh = await CLAIM_QUEUED_RUN.first(standalone(), { run: runId, now, lease: leaseEnd(lease, now), maxClaims: MAX_CLAIMS });
  if (fresh) {
    notifyChanged(fresh.id, fresh.batchId, fresh.fanoutId);
    return { ...fresh, startedAt: now };
  }
  const row = await RUN_TO_CLAIM.first(standalone(), { run: runId });
  if (!row || row.status === "completed" || row.status === "failed") return null;
  if (row.status === "running" && row.leaseExpiresAt && row.leaseExpiresAt > now) return "busy";
  if (row.attempts >= MAX_CLAIMS) {
    await finishRun(claimOf(row, row.startedAt ?? now), failure({ code: "internal_error", message: `The run was started ${row.attempts} times without finishing.`, engine: row.engine, retryable: true }), {
      matchStatus: row.status,
    });
    return null;
  }
  const startedAt = row.startedAt ?? now;
  // Conditional on what was read: of two workers claiming at once, exactly one succeeds.
  const taken = await TAKE_RUN.first(standalone(), { run: runId, status: row.status, attempts: row.attempts, startedAt, lease: leaseEnd(lease, now), now });
  if (!taken) return "busy";
  notifyChanged(row.id, row.batchId, row.fanoutId);
  return claimOf({ ...row, attempts: row.attempts + 1 }, startedAt);
}

const RENEW_LEASE = defineStatement({
  label: "run_renew_lease",
  params: ["run", "attempts", "expires"],
  sql: ({ p }) => `UPDATE runs SET lease_expires_at = ${atUtc(p.expires)} WHERE id = ${p.run} AND status = 'running' AND attempts = ${p.attempts}::int`,
});

/**
 * Keeps a claimed run's lease alive through slow engines and retry waits (a dead worker stops
 * renewing, so another can take the run over). Answers the function that stops it.
 */
export function keepLease(claim: { id: string; attempts: number }, lease: RunLease = {}): () => void {
  return heartbeat({ run_id: claim.id }, lease.leaseMs ?? RUN_LEASE_MS, (expires) => RENEW_LEASE.query(standalone(), { run: claim.id, attempts: claim.attempts, expires }));
}

/** How long another worker's lease on a run still lasts (at least 1 s): when to try a busy run again. */
export async function leaseRemainingMs(runId: string): Promise<number> {
  const row = await RUN_TO_CLAIM.first(standalone(), { run: runId });
  const remaining = (row?.leaseExpiresAt?.getTime() ?? 0) - Date.now();
  return Math.min(Math.max(remaining, 1000), RUN_LEASE_MS);
}

/** The parameters of a final write: the claim it is conditional on, and when it finished. */
export type FinishParams = "run" | "status" | "attempts" | "at" | "duration";

/** The columns every final write sets (`p`: a statement's placeholders of FinishParams). */
export const finishedSql = (p: Placeholders<FinishParams>) =>
  `completed_at = ${atUtc(p.at)}, updated_at = ${atUtc(p.at)}, duration_ms = ${p.duration}::int, lease_expires_at = NULL`;

/** The condition of every final write: this worker still holds the run (same attempt, status as claimed). */
export const stillMineSql = (p: Placeholders<FinishParams>) => `id = ${p.run} AND status = ${p.status}::text::"RunStatus" AND attempts = ${p.attempts}::int`;

/** The values of FinishParams: the claim, and when it finished. */
export type FinishValues = { run: string; status: "queued" | "running"; attempts: number; at: Date; duration: number };

const COMPLETE_RUN = defineStatement({
  label: "run_complete",
  params: ["run", "status", "attempts", "at", "duration", "result", "usage", "model", "envelope"],
  columns: { id: text("id") },
  sql: ({ select, p }) =>
    `UPDATE runs SET status = 'completed', ${finishedSql(p)}, result = ${p.result}::jsonb, usage = ${p.usage}::jsonb, model = ${p.model},
      raw_envelope = COALESCE(${p.envelope}::jsonb, raw_envelope)
    WHERE ${stillMineSql(p)} RETURNING ${select}`,
});

const FAIL_RUN = defineStatement({
  label: "run_fail",
  params: ["run", "status", "attempts", "at", "duration", "error", "envelope"],
  columns: { id: text("id") },
  sql: ({ select, p }) =>
    `UPDATE runs SET status = 'failed', ${finishedSql(p)}, error = ${p.error}::jsonb, raw_envelope = COALESCE(${p.envelope}::jsonb, raw_envelope)
    WHERE ${stillMineSql(p)} RETURNING ${select}`,
});

const jsonOrNull = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

/** A run's final write: in the outcome's transaction, conditional on the claim (`values`); answers whether it wrote. */
export type FinishWrite = (sql: SqlSession, values: FinishValues) => Promise<boolean>;

/** An outcome for finishRun: its write, and whether the run's hold is captured (for `units`, at most those held) or released. */
export type Finish = { write: FinishWrite; hold: { capture: true; units?: number } | { capture: false } };

/** Completed, with its result (null: kept elsewhere, as a questions run's) and what the engine reported. */
export function completion(outcome: { result: unknown; usage?: unknown; model?: string | null; envelope?: unknown }, units?: number): Finish {
  return {
    write: async (sql, values) =>
      (await COMPLETE_RUN.query(sql, {
        ...values,
        result: jsonOrNull(outcome.result), usage: jsonOrNull(outcome.usage), model: outcome.model ?? null, envelope: jsonOrNull(outcome.envelope),
      })).length === 1,
    hold: { capture: true, units },
  };
}

/** Failed with `error` (the engine's exchanges kept when given). */
export function failure(error: RunError, envelope?: unknown): Finish {
  return {
    write: async (sql, values) =>
      (await FAIL_RUN.query(sql, { ...values, error: JSON.stringify(error), envelope: jsonOrNull(envelope) })).length === 1,
    hold: { capture: false },
  };
}

/**
 * Stores the outcome and settles the hold in one transaction, only if this worker still holds the
 * run (same attempt, status as claimed: `matchStatus`); `also` runs in the same transaction after
 * the write succeeded (a questions analysis's row). Answers whether it stored. Notifies the run,
 * its batch or fanout and `notify` either way.
 */
export async function finishRun(
  claim: Claim,
  finish: Finish,
  options: { matchStatus?: "queued" | "running"; also?: (sql: SqlSession, at: Date) => Promise<void>; notify?: string[] } = {},
): Promise<boolean> {
  const at = new Date();
  const values: FinishValues = {
    run: claim.id, status: options.matchStatus ?? "running", attempts: claim.attempts, at, duration: Math.max(0, at.getTime() - claim.startedAt.getTime()),
  };
  const changed = await textTransaction(currentDb(), async (sql) => {
    if (!(await finish.write(sql, values))) return false;
    await options.also?.(sql, at);
    const settle = { tx: sql, workspaceId: claim.workspaceId };
    if (finish.hold.capture) await captureHold({ runId: claim.id }, { ...settle, actualUnits: finish.hold.units });
    else await releaseHold({ runId: claim.id }, settle);
    return true;
  });
  notifyChanged(claim.id, claim.batchId, claim.fanoutId, ...(options.notify ?? []));
  return changed;
}

/** Fails a run that is not finished and releases its hold (a job's onFailure; operators). */
export async function failRun(runId: string, error: RunError): Promise<boolean> {
  const row = await RUN_TO_CLAIM.first(standalone(), { run: runId });
  if (!row || row.status === "completed" || row.status === "failed") return false;
  return finishRun(claimOf(row, row.startedAt ?? new Date()), failure(error), { matchStatus: row.status });
}
