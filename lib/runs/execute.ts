// Executing one prompt run: the step of the prompt-run job (jobs/prompt-run.ts). Claim the run
// (queued, or running with an expired lease), call its engine with retries for retryable
// failures, then store the outcome and settle its credit hold in one transaction.
//
// Idempotent: the claim and the final write are conditional on the run's status and attempt
// number, so a second execution (a retried step, a resumed lease, a duplicate dispatch) either
// finds the run finished and does nothing, or loses the final write and stores nothing; and
// capture/release of a hold happen at most once (lib/billing/holds.ts).
import { createHash } from "node:crypto";
import { captureHold, releaseHold } from "../billing/holds";
import { engineConfig } from "../config/engines";
import { currentDb, db } from "../db/client";
import { ASYNC_COMMIT, queryText, textTransaction, type Statement } from "../db/sql";
import { isEngineId, prepareEngineConfig, runPrompt, type RunPromptOutcome } from "../engines";
import { notifyChanged } from "../changes/wait";
import { log } from "../log";
import type { Location } from "../schemas/locale";
import type { RunError } from "../schemas/results";
import { backoffMs } from "../work/job";

/** How long a claimed run belongs to its worker without a heartbeat; renewed every third of it. */
export const RUN_LEASE_MS = 60_000;
/** Engine calls per run: the first and its retries for retryable failures. */
export const MAX_ENGINE_ATTEMPTS = 3;
/** Claims per run before it is failed rather than tried again (a worker crashing on it each time). */
export const MAX_CLAIMS = 5;

export type ExecuteOptions = {
  leaseMs?: number;
  /** Replaces the wait between engine attempts (tests). */
  sleep?: (ms: number) => Promise<void>;
  /**
   * Called once the engine is done with this run (answered, failed, or was never called), before
   * the outcome is stored: a driver limiting concurrent engine calls frees the slot here, so the
   * next run's engine call does not wait for this run's database writes.
   */
  onEngineDone?: () => void;
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

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const claimSelect = { id: true, workspaceId: true, batchId: true, fanoutId: true, engine: true, subject: true, input: true, attempts: true, startedAt: true } as const;

function claimOf(row: { id: string; workspaceId: string; batchId: string | null; fanoutId: string | null; engine: string | null; subject: string; input: unknown; attempts: number }, startedAt: Date): Claim {
  const input = (row.input ?? {}) as { prompt?: unknown; location?: unknown; language?: unknown };
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    batchId: row.batchId,
    fanoutId: row.fanoutId,
    engine: row.engine,
    prompt: typeof input.prompt === "string" ? input.prompt : row.subject,
    ...marketOf(input.location ?? null, input.language ?? null),
    attempts: row.attempts,
    startedAt,
  };
}

/** The market of a run's input: its stored location object and language tag, or nulls. */
function marketOf(location: unknown, language: unknown): { location: Location | null; language: string | null } {
  return {
    location: location !== null && typeof location === "object" ? (location as Location) : null,
    language: typeof language === "string" ? language : null,
  };
}

/** Takes a run for this worker, or null when it is finished or another worker's lease is live. */
export async function claimRun(runId: string, leaseMs = RUN_LEASE_MS): Promise<Claim | "busy" | null> {
  const now = new Date();
  // The usual case, a queued run never started, in one conditional statement: of two workers
  // claiming at once exactly one gets the row back. Anything else (a lease to take over, a run
  // claimed too often, a finished one) is read first and decided below.
  const [fresh] = await queryText(currentDb(), CLAIM_QUEUED_RUN, [runId, now.toISOString(), new Date(now.getTime() + leaseMs).toISOString(), String(MAX_CLAIMS)]);
  if (fresh) {
    const [id, workspaceId, batchId, fanoutId, engine, prompt, attempts, location, language] = fresh;
    notifyChanged(id, batchId, fanoutId);
    return {
      id: id!, workspaceId: workspaceId!, batchId: batchId ?? null, fanoutId: fanoutId ?? null, engine: engine ?? null, prompt: prompt!,
      ...marketOf(location == null ? null : JSON.parse(location), language ?? null), attempts: Number(attempts), startedAt: now,
    };
  }
  const row = await db().run.findUnique({
    where: { id: runId },
    select: { ...claimSelect, status: true, leaseExpiresAt: true },
  });
  if (!row || row.status === "completed" || row.status === "failed") return null;
  if (row.status === "running" && row.leaseExpiresAt && row.leaseExpiresAt > now) return "busy";
  if (row.attempts >= MAX_CLAIMS) {
    await finishRun(
      claimOf(row, row.startedAt ?? now),
      { kind: "failed", error: { code: "internal_error", message: `The run was started ${row.attempts} times without finishing.`, engine: row.engine, retryable: true } },
      { matchStatus: row.status },
    );
    return null;
  }
  const startedAt = row.startedAt ?? now;
  // Conditional on what was read: of two workers claiming at once, exactly one succeeds.
  const { count } = await db().run.updateMany({
    where: { id: runId, status: row.status, attempts: row.attempts },
    data: { status: "running", startedAt, attempts: row.attempts + 1, leaseExpiresAt: new Date(now.getTime() + leaseMs) },
  });
  if (count !== 1) return "busy";
  notifyChanged(row.id, row.batchId, row.fanoutId);
  return claimOf({ ...row, attempts: row.attempts + 1 }, startedAt);
}

type Finish =
  | { kind: "completed"; outcome: Extract<RunPromptOutcome, { ok: true }> }
  | { kind: "failed"; error: RunError; envelope?: unknown };

/** SHA-256 hex of a prompt's text (run_sources.prompt_hash). */
export function promptHashOf(prompt: string): string {
  return createHash("sha256").update(prompt, "utf8").digest("hex");
}

/**
 * Stores the outcome and settles the hold in one transaction, only if this worker still holds
 * the run (same attempt, still running). Answers whether it did. Prepared statements on the
 * driver (../db/sql.ts), as this is the write every run makes: through Prisma it cost the
 * local driver about as much CPU as the engine call itself (bench:throughput).
 */
async function finishRun(claim: Claim, finish: Finish, options: { matchStatus?: "queued" | "running" } = {}): Promise<boolean> {
  const completedAt = new Date();
  const where = [claim.id, options.matchStatus ?? "running", String(claim.attempts), completedAt.toISOString(), String(Math.max(0, completedAt.getTime() - claim.startedAt.getTime()))];
  const changed = await textTransaction(currentDb(), async (sql) => {
    const settle = { tx: sql, workspaceId: claim.workspaceId };
    if (finish.kind === "failed") {
      const stored = await sql.query(FAIL_RUN, [...where, JSON.stringify(finish.error), finish.envelope === undefined ? null : JSON.stringify(finish.envelope)]);
      if (stored.length !== 1) return false;
      await releaseHold({ runId: claim.id }, settle);
      return true;
    }
    const { outcome } = finish;
    const { sources } = outcome.result;
    const stored = await sql.query(COMPLETE_RUN, [
      ...where,
      JSON.stringify(outcome.result),
      outcome.usage === null || outcome.usage === undefined ? null : JSON.stringify(outcome.usage),
      outcome.model ?? null,
      JSON.stringify(outcome.envelope),
      String(Number(outcome.envelope.normalizer_version)),
      String(sources.length),
      String(sources.filter((s) => s.cited === true).length),
      String(outcome.result.searches.length),
      outcome.result.citations_exposed === null || outcome.result.citations_exposed === undefined ? null : String(outcome.result.citations_exposed),
      promptHashOf(claim.prompt),
      JSON.stringify(sources),
    ]);
    if (stored.length !== 1) return false;
    await captureHold({ runId: claim.id }, settle);
    return true;
  });
  notifyChanged(claim.id, claim.batchId, claim.fanoutId);
  return changed;
}

// Timestamps are sent as ISO text and stored as UTC, as Prisma stores them (timestamp(3)).
// Committed without waiting for the WAL flush (ASYNC_COMMIT): it is on the way to the engine call,
// and a claim lost to a crash is one that never happened (the run is queued again); the outcome's
// transaction is durable, and with it this claim.
const CLAIM_QUEUED_RUN: Statement = {
  name: "run_claim_queued_v3",
  text: `UPDATE runs SET status = 'running', started_at = $2::timestamptz AT TIME ZONE 'UTC', attempts = attempts + 1,
      lease_expires_at = $3::timestamptz AT TIME ZONE 'UTC', updated_at = $2::timestamptz AT TIME ZONE 'UTC'
    FROM ${ASYNC_COMMIT}
    WHERE id = $1 AND status = 'queued' AND started_at IS NULL AND attempts < $4::int
    RETURNING id, workspace_id, batch_id, fanout_id, engine,
      CASE WHEN jsonb_typeof(input -> 'prompt') = 'string' THEN input ->> 'prompt' ELSE subject END AS prompt, attempts::text AS attempts,
      CASE WHEN jsonb_typeof(input -> 'location') = 'object' THEN (input -> 'location')::text END AS location, input ->> 'language' AS language`,
};

const FINISHED = `completed_at = $4::timestamptz AT TIME ZONE 'UTC', updated_at = $4::timestamptz AT TIME ZONE 'UTC', duration_ms = $5::int, lease_expires_at = NULL`;
const STILL_MINE = `WHERE id = $1 AND status = $2::text::"RunStatus" AND attempts = $3::int RETURNING id`;

// With the run, the sources citation analyses read (run_sources: one row per source, in result
// order; $15 the prompt's hash, $16 result.sources), in the same statement.
const COMPLETE_RUN: Statement = {
  name: "run_complete_v2",
  text: `WITH run AS (
      UPDATE runs SET status = 'completed', ${FINISHED}, result = $6::jsonb, usage = $7::jsonb, model = $8,
        raw_envelope = $9::jsonb, normalizer_version = $10::int, source_count = $11::int, cited_count = $12::int,
        query_count = $13::int, citations_exposed = $14::boolean
      ${STILL_MINE}, workspace_id, engine
    ), sources AS (
      INSERT INTO run_sources (run_id, position, workspace_id, engine, prompt_hash, url, domain, cited, search_query_observed,
        retrieval_observed, citation_count, resolution)
      SELECT run.id, (s.n - 1)::int, run.workspace_id, run.engine, $15, s.v ->> 'url', s.v ->> 'domain', (s.v ->> 'cited')::boolean,
        (s.v ->> 'search_query_observed')::boolean, (s.v ->> 'retrieval_observed')::boolean,
        COALESCE((s.v ->> 'citation_count')::int, 0), s.v ->> 'resolution'
      FROM run CROSS JOIN jsonb_array_elements($16::jsonb) WITH ORDINALITY AS s(v, n)
      RETURNING 1
    )
    SELECT id, (SELECT count(*) FROM sources)::text AS sources FROM run`,
};

const FAIL_RUN: Statement = {
  name: "run_fail_v1",
  text: `UPDATE runs SET status = 'failed', ${FINISHED}, error = $6::jsonb, raw_envelope = COALESCE($7::jsonb, raw_envelope) ${STILL_MINE}`,
};


/** Fails a run that is not finished and releases its hold (Inngest's onFailure; operators). */
export async function failRun(runId: string, error: RunError): Promise<boolean> {
  const row = await db().run.findUnique({ where: { id: runId }, select: { ...claimSelect, status: true } });
  if (!row || row.status === "completed" || row.status === "failed") return false;
  return finishRun(
    claimOf(row, row.startedAt ?? new Date()),
    { kind: "failed", error },
    { matchStatus: row.status },
  );
}

/** How long another worker's lease on a run still lasts (at least 1 s): when to try a busy run again. */
export async function leaseRemainingMs(runId: string): Promise<number> {
  const row = await db().run.findUnique({ where: { id: runId }, select: { leaseExpiresAt: true } });
  const remaining = (row?.leaseExpiresAt?.getTime() ?? 0) - Date.now();
  return Math.min(Math.max(remaining, 1000), RUN_LEASE_MS);
}

/** Runs the engine for a claimed run, retrying retryable failures with backoff. */
async function callEngine(claim: Claim, sleep: (ms: number) => Promise<void>): Promise<Finish> {
  const engine = claim.engine;
  if (!isEngineId(engine)) {
    return { kind: "failed", error: { code: "engine_bad_request", message: `Unknown engine ${engine ?? "(none)"}.`, engine, retryable: false } };
  }
  const config = await prepareEngineConfig(engineConfig());
  for (let attempt = 1; ; attempt++) {
    const outcome = await runPrompt(engine, { prompt: claim.prompt, location: claim.location, language: claim.language }, { config });
    if (outcome.ok) return { kind: "completed", outcome };
    if (!outcome.error.retryable || attempt >= MAX_ENGINE_ATTEMPTS) {
      return { kind: "failed", error: outcome.error, envelope: outcome.envelope };
    }
    const delay = backoffMs(attempt, outcome.retry_after_ms);
    log.info("engine call failed; retrying", { run_id: claim.id, engine, code: outcome.error.code, attempt, delay_ms: delay });
    await sleep(delay);
  }
}

/** Attempts at storing an outcome before the step fails (and the job's retry calls the engine again). */
export const MAX_STORE_ATTEMPTS = 4;

/**
 * Stores the engine's outcome, trying again when the database fails (a dropped connection, a
 * restart): the answer is in hand and was paid for, and a retry of the whole step would ask the
 * engine again. Each attempt is one transaction, rolled back whole when it fails, and conditional
 * on this claim, so an outcome is stored and charged at most once.
 */
async function storeOutcome(claim: Claim, finish: Finish, sleep: (ms: number) => Promise<void>): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await finishRun(claim, finish);
    } catch (error) {
      if (attempt >= MAX_STORE_ATTEMPTS) throw error;
      const delay = backoffMs(attempt);
      log.warn("storing a run's outcome failed; trying again", { run_id: claim.id, attempt, delay_ms: delay, error });
      await sleep(delay);
    }
  }
}

/**
 * Keeps a claimed run's lease alive through slow engines and retry waits (a dead worker stops
 * renewing, so another can take the run over). Answers the function that stops it.
 */
export function keepLease(claim: { id: string; attempts: number }, leaseMs: number): () => void {
  const heartbeat = setInterval(() => {
    db()
      .run.updateMany({
        where: { id: claim.id, status: "running", attempts: claim.attempts },
        data: { leaseExpiresAt: new Date(Date.now() + leaseMs) },
      })
      .catch((error: unknown) => log.warn("run lease renewal failed", { run_id: claim.id, error }));
  }, Math.max(1000, Math.floor(leaseMs / 3)));
  heartbeat.unref?.();
  return () => clearInterval(heartbeat);
}

/** The whole step: claim, call, store, settle, notify. Safe to run any number of times. */
export async function executeRun(runId: string, options: ExecuteOptions = {}): Promise<ExecuteOutcome> {
  const leaseMs = options.leaseMs ?? RUN_LEASE_MS;
  const claim = await claimRun(runId, leaseMs);
  if (claim === null || claim === "busy") {
    options.onEngineDone?.();
    return claim ?? "skipped";
  }
  const stopHeartbeat = keepLease(claim, leaseMs);
  try {
    let finish: Finish;
    try {
      finish = await callEngine(claim, options.sleep ?? defaultSleep);
    } finally {
      options.onEngineDone?.();
    }
    const stored = await storeOutcome(claim, finish, options.sleep ?? defaultSleep);
    if (!stored) return "skipped";
    return finish.kind;
  } finally {
    stopHeartbeat();
  }
}
