// Generating a questions analysis: the step of the generate-questions job (jobs/generate-questions.ts).
// Claim the analysis's `questions` run (lib/runs/execute.ts claimRun: queued, or running with an
// expired lease), ask the engine for structured output, shape the reply (shape.ts), then store the
// run, the analysis and the charge in one transaction.
//
// Retries: a retryable provider failure (rate limit, overload, timeout) is tried again with
// backoff, up to MAX_ENGINE_ATTEMPTS calls; a reply that does not have the requested structure is
// asked for once more, then the analysis fails with `engine_malformed_response`. Every exchange of
// every attempt is kept in the run's raw envelope.
//
// Idempotent like a prompt run: the claim and the final write are conditional on the run's status
// and attempt number, and the hold is captured or released at most once.
import { captureHold, releaseHold } from "../billing/holds";
import { notifyChanged } from "../changes/wait";
import { engineConfig } from "../config/engines";
import { db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { isEngineId, prepareEngineConfig, type EngineEnvelope } from "../engines";
import { runStructured } from "../engines/structured";
import { log } from "../log";
import { MAX_ENGINE_ATTEMPTS, RUN_LEASE_MS, claimRun, keepLease, type Claim, type ExecuteOptions, type ExecuteOutcome } from "../runs/execute";
import type { RunError, Usage } from "../schemas/results";
import type { QuestionsAnalysis } from "../schemas/questions";
import { backoffMs } from "../work/job";
import { PROMPT_VERSION, QUESTIONS_SCHEMA, STRATEGY, generationPrompt, promptSha } from "./prompt";
import { UnusableReply, shapeQuestions, type Shaped } from "./shape";

/** Replies without the requested structure before the analysis fails: the first and one retry. */
export const MAX_UNUSABLE_REPLIES = 2;

/** What the analysis stores as its result (and fanouts read a prompt's `source` from). */
export type QuestionsResult = Shaped & { provenance: NonNullable<QuestionsAnalysis["provenance"]> };

type Generated =
  | { kind: "completed"; shaped: Shaped; envelope: EngineEnvelope; model: string | null; usage: Usage; prompt: string }
  | { kind: "failed"; error: RunError; envelope: EngineEnvelope | null };

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type AnalysisInput = { topic: string; count: number };

/** Asks the engine, with retries, keeping every attempt's exchanges in one envelope. */
async function generate(claim: Claim, input: AnalysisInput, sleep: (ms: number) => Promise<void>): Promise<Generated> {
  const engine = claim.engine;
  if (!isEngineId(engine)) {
    return { kind: "failed", error: { code: "engine_bad_request", message: `Unknown engine ${engine ?? "(none)"}.`, engine, retryable: false }, envelope: null };
  }
  const config = await prepareEngineConfig(engineConfig());
  const prompt = generationPrompt(input.topic, input.count);
  let earlier: EngineEnvelope["exchanges"] = [];
  let unusable = 0;
  for (let attempt = 1; ; attempt++) {
    const outcome = await runStructured(engine, { prompt, schema: QUESTIONS_SCHEMA }, { config });
    const envelope: EngineEnvelope = { ...outcome.envelope, exchanges: [...earlier, ...outcome.envelope.exchanges] };
    earlier = envelope.exchanges;
    let problem: string;
    if (outcome.ok) {
      try {
        return { kind: "completed", shaped: shapeQuestions(outcome.value, input.count), envelope, model: outcome.model, usage: outcome.usage, prompt };
      } catch (error) {
        if (!(error instanceof UnusableReply)) throw error;
        problem = error.message;
      }
    } else if (outcome.error.code === "engine_malformed_response") {
      problem = outcome.error.message;
    } else {
      if (!outcome.error.retryable || attempt >= MAX_ENGINE_ATTEMPTS) return { kind: "failed", error: outcome.error, envelope };
      const delay = backoffMs(attempt, outcome.retry_after_ms);
      log.info("questions engine call failed; retrying", { run_id: claim.id, engine, code: outcome.error.code, attempt, delay_ms: delay });
      await sleep(delay);
      continue;
    }
    unusable += 1;
    if (unusable >= MAX_UNUSABLE_REPLIES || attempt >= MAX_ENGINE_ATTEMPTS) {
      return {
        kind: "failed",
        error: {
          code: "engine_malformed_response",
          message: `${engine} did not answer with the requested questions structure ${unusable === 1 ? "once" : `${unusable} times`}: ${problem}`.slice(0, 1000),
          engine,
          retryable: true,
        },
        envelope,
      };
    }
    log.info("questions reply unusable; asking once more", { run_id: claim.id, engine, problem });
  }
}

/**
 * Stores the outcome: the run, the analysis and the hold in one transaction, only if this worker
 * still holds the run (same attempt, still running). Answers whether it did.
 */
async function finish(claim: Claim, analysisId: string, generated: Generated): Promise<boolean> {
  const completedAt = new Date();
  const common = { completedAt, durationMs: Math.max(0, completedAt.getTime() - claim.startedAt.getTime()), leaseExpiresAt: null };
  const changed = await db().$transaction(
    async (tx) => {
      const settle = { tx, workspaceId: claim.workspaceId };
      if (generated.kind === "completed") {
        const { count } = await tx.run.updateMany({
          where: { id: claim.id, status: "running", attempts: claim.attempts },
          data: {
            ...common,
            status: "completed",
            model: generated.model,
            usage: generated.usage as Prisma.InputJsonValue,
            rawEnvelope: generated.envelope as unknown as Prisma.InputJsonValue,
          },
        });
        if (count !== 1) return false;
        const result: QuestionsResult = {
          ...generated.shaped,
          provenance: {
            strategy: STRATEGY,
            prompt_version: PROMPT_VERSION,
            prompt_sha: promptSha(generated.prompt),
            prompt_text: generated.prompt,
            run_id: claim.id,
            generated_at: completedAt.toISOString(),
            model: generated.model,
            engine: claim.engine!,
          },
        };
        await tx.analysis.updateMany({
          where: { id: analysisId, status: { in: ["queued", "running"] } },
          data: { status: "completed", result: result as unknown as Prisma.InputJsonValue, completedAt },
        });
        // Paid for the questions returned, never more than held.
        await captureHold({ runId: claim.id }, { ...settle, actualUnits: generated.shaped.questions.length });
        return true;
      }
      const { count } = await tx.run.updateMany({
        where: { id: claim.id, status: "running", attempts: claim.attempts },
        data: {
          ...common,
          status: "failed",
          error: generated.error as Prisma.InputJsonValue,
          ...(generated.envelope ? { rawEnvelope: generated.envelope as unknown as Prisma.InputJsonValue } : {}),
        },
      });
      if (count !== 1) return false;
      await failAnalysis(tx, analysisId, generated.error, completedAt);
      await releaseHold({ runId: claim.id }, settle);
      return true;
    },
    { maxWait: 30_000, timeout: 30_000 },
  );
  notifyChanged(claim.id, analysisId);
  return changed;
}

type Client = Pick<Prisma.TransactionClient, "analysis">;

async function failAnalysis(client: Client, analysisId: string, error: RunError, completedAt: Date): Promise<void> {
  await client.analysis.updateMany({
    where: { id: analysisId, status: { in: ["queued", "running"] } },
    data: { status: "failed", error: error as Prisma.InputJsonValue, completedAt },
  });
}

/**
 * An analysis whose run failed outside this module (claimed too often, or failed for good by the
 * job's onFailure) fails with the run's error. Nothing happens while the run is unfinished.
 */
export async function settleAnalysisWithRun(analysisId: string, runId: string): Promise<void> {
  const run = await db().run.findUnique({ where: { id: runId }, select: { status: true, error: true, completedAt: true } });
  if (run?.status !== "failed") return;
  await failAnalysis(db(), analysisId, run.error as RunError, run.completedAt ?? new Date());
  notifyChanged(analysisId);
}

/** The whole step: claim, generate, store, settle, notify. Safe to run any number of times. */
export async function executeQuestions(analysisId: string, runId: string, options: ExecuteOptions = {}): Promise<ExecuteOutcome> {
  const leaseMs = options.leaseMs ?? RUN_LEASE_MS;
  const claim = await claimRun(runId, leaseMs);
  if (claim === null || claim === "busy") {
    options.onEngineDone?.();
    if (claim === null) await settleAnalysisWithRun(analysisId, runId);
    return claim ?? "skipped";
  }
  const stopLease = keepLease(claim, leaseMs);
  try {
    const analysis = await db().analysis.findUniqueOrThrow({ where: { id: analysisId }, select: { input: true } });
    await db().analysis.updateMany({ where: { id: analysisId, status: "queued" }, data: { status: "running" } });
    notifyChanged(analysisId);
    const input = analysis.input as unknown as AnalysisInput;
    let generated: Generated;
    try {
      generated = await generate(claim, input, options.sleep ?? defaultSleep);
    } finally {
      options.onEngineDone?.();
    }
    const stored = await finish(claim, analysisId, generated);
    if (!stored) return "skipped";
    return generated.kind;
  } finally {
    stopLease();
  }
}
