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
import { db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { isEngineId, prepareEngineConfig, runPrompt, type RunPromptOutcome } from "../engines";
import { notifyChanged } from "../changes/wait";
import { log } from "../log";
import type { RunError, SourceObservation } from "../schemas/results";
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

export type Claim = { id: string; workspaceId: string; batchId: string | null; fanoutId: string | null; engine: string | null; prompt: string; attempts: number; startedAt: Date };

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const claimSelect = { id: true, workspaceId: true, batchId: true, fanoutId: true, engine: true, subject: true, input: true, attempts: true, startedAt: true } as const;

function claimOf(row: { id: string; workspaceId: string; batchId: string | null; fanoutId: string | null; engine: string | null; subject: string; input: unknown; attempts: number }, startedAt: Date): Claim {
  const input = (row.input ?? {}) as { prompt?: unknown };
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    batchId: row.batchId,
    fanoutId: row.fanoutId,
    engine: row.engine,
    prompt: typeof input.prompt === "string" ? input.prompt : row.subject,
    attempts: row.attempts,
    startedAt,
  };
}

/** Takes a run for this worker, or null when it is finished or another worker's lease is live. */
export async function claimRun(runId: string, leaseMs = RUN_LEASE_MS): Promise<Claim | "busy" | null> {
  const now = new Date();
  // The usual case, a queued run never started, in one conditional statement: of two workers
  // claiming at once exactly one gets the row back. Anything else (a lease to take over, a run
  // claimed too often, a finished one) is read first and decided below.
  const [fresh] = await db().run.updateManyAndReturn({
    where: { id: runId, status: "queued", startedAt: null, attempts: { lt: MAX_CLAIMS } },
    data: { status: "running", startedAt: now, attempts: { increment: 1 }, leaseExpiresAt: new Date(now.getTime() + leaseMs) },
    select: claimSelect,
  });
  if (fresh) {
    notifyChanged(fresh.id, fresh.batchId, fresh.fanoutId);
    return claimOf(fresh, now);
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

/** One run_sources row per source of a completed prompt run, in result order. */
export function runSourceRows(
  run: { id: string; workspaceId: string; engine: string | null; prompt: string },
  sources: readonly SourceObservation[],
): Prisma.RunSourceCreateManyInput[] {
  const promptHash = promptHashOf(run.prompt);
  return sources.map((s, position) => ({
    runId: run.id,
    position,
    workspaceId: run.workspaceId,
    engine: run.engine,
    promptHash,
    url: s.url,
    domain: s.domain,
    cited: s.cited,
    searchQueryObserved: s.search_query_observed,
    retrievalObserved: s.retrieval_observed,
    citationCount: s.citation_count ?? 0,
    resolution: s.resolution,
  }));
}

/** SHA-256 hex of a prompt's text (run_sources.prompt_hash). */
export function promptHashOf(prompt: string): string {
  return createHash("sha256").update(prompt, "utf8").digest("hex");
}

/**
 * Stores the outcome and settles the hold in one transaction, only if this worker still holds
 * the run (same attempt, still running). Answers whether it did.
 */
async function finishRun(claim: Claim, finish: Finish, options: { matchStatus?: "queued" | "running" } = {}): Promise<boolean> {
  const completedAt = new Date();
  const common = { completedAt, durationMs: Math.max(0, completedAt.getTime() - claim.startedAt.getTime()), leaseExpiresAt: null };
  let data: Prisma.RunUpdateManyMutationInput;
  if (finish.kind === "completed") {
    const { outcome } = finish;
    data = {
      ...common,
      status: "completed",
      result: outcome.result as Prisma.InputJsonValue,
      usage: outcome.usage as Prisma.InputJsonValue,
      model: outcome.model,
      rawEnvelope: outcome.envelope as unknown as Prisma.InputJsonValue,
      normalizerVersion: Number(outcome.envelope.normalizer_version),
      sourceCount: outcome.result.sources.length,
      citedCount: outcome.result.sources.filter((s) => s.cited === true).length,
      queryCount: outcome.result.searches.length,
      citationsExposed: outcome.result.citations_exposed,
    };
  } else {
    data = {
      ...common,
      status: "failed",
      error: finish.error as Prisma.InputJsonValue,
      ...(finish.envelope ? { rawEnvelope: finish.envelope as Prisma.InputJsonValue } : {}),
    };
  }
  const changed = await db().$transaction(
    async (tx) => {
      const { count } = await tx.run.updateMany({
        where: { id: claim.id, status: options.matchStatus ?? "running", attempts: claim.attempts },
        data,
      });
      if (count !== 1) return false;
      const settle = { tx, workspaceId: claim.workspaceId };
      if (finish.kind === "completed") {
        // The sources citation analyses read (run_sources), stored with the result they come from.
        await tx.runSource.createMany({ data: runSourceRows(claim, finish.outcome.result.sources) });
        await captureHold({ runId: claim.id }, settle);
      }
      else await releaseHold({ runId: claim.id }, settle);
      return true;
    },
    { maxWait: 30_000, timeout: 30_000 },
  );
  notifyChanged(claim.id, claim.batchId, claim.fanoutId);
  return changed;
}

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
    const outcome = await runPrompt(engine, { prompt: claim.prompt }, { config });
    if (outcome.ok) return { kind: "completed", outcome };
    if (!outcome.error.retryable || attempt >= MAX_ENGINE_ATTEMPTS) {
      return { kind: "failed", error: outcome.error, envelope: outcome.envelope };
    }
    const delay = backoffMs(attempt, outcome.retry_after_ms);
    log.info("engine call failed; retrying", { run_id: claim.id, engine, code: outcome.error.code, attempt, delay_ms: delay });
    await sleep(delay);
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
    const stored = await finishRun(claim, finish);
    if (!stored) return "skipped";
    return finish.kind;
  } finally {
    stopHeartbeat();
  }
}
