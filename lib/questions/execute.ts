// Generating a questions analysis: the step of the generate-questions job (jobs/generate-questions.ts).
// Claim the analysis's `questions` run (lib/runs/lifecycle.ts: queued, or running with an expired
// lease), ask the engine for structured output, shape the reply (shape.ts), then store the run,
// the analysis and the charge in one transaction.
//
// Retries: a retryable provider failure (rate limit, overload, timeout) is tried again with
// backoff, up to MAX_ENGINE_ATTEMPTS calls; a reply that does not have the requested structure is
// asked for once more, then the analysis fails with `engine_malformed_response`. Every exchange of
// every attempt is kept in the run's raw envelope.
//
// Idempotent like a prompt run: the claim and the final write are conditional on the run's status
// and attempt number, and the hold is captured or released at most once.
import { notifyChanged } from "../changes/wait";
import { engineConfig } from "../config/engines";
import { analysisInputOf, finishAnalysisOnce, markAnalysisRunning } from "../analyses/store";
import { standalone, type SqlSession } from "../db/sql";
import { isStructuredEngineId, prepareEngineConfig, type EngineEnvelope } from "../engines";
import { runStructured } from "../engines/structured";
import { log } from "../log";
import { runOutcome } from "../runs/other-kinds";
import { MAX_ENGINE_ATTEMPTS, claimRun, completion, failure, finishRun, keepLease, type Claim, type ExecuteOptions, type ExecuteOutcome } from "../runs/lifecycle";
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
  if (!isStructuredEngineId(engine)) {
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
  const options = { notify: [analysisId] };
  if (generated.kind === "failed") {
    return finishRun(claim, failure(generated.error, generated.envelope ?? undefined), {
      ...options,
      also: (sql, at) => finishAnalysis(sql, analysisId, { status: "failed", error: generated.error }, at),
    });
  }
  // Paid for the questions returned, never more than held.
  const completed = completion({ result: null, usage: generated.usage, model: generated.model, envelope: generated.envelope }, generated.shaped.questions.length);
  return finishRun(claim, completed, {
    ...options,
    also: (sql, at) => {
      const result: QuestionsResult = {
        ...generated.shaped,
        provenance: {
          strategy: STRATEGY,
          prompt_version: PROMPT_VERSION,
          prompt_sha: promptSha(generated.prompt),
          prompt_text: generated.prompt,
          run_id: claim.id,
          generated_at: at.toISOString(),
          model: generated.model,
          engine: claim.engine!,
        },
      };
      return finishAnalysis(sql, analysisId, { status: "completed", result }, at);
    },
  });
}

async function finishAnalysis(
  sql: SqlSession,
  analysisId: string,
  outcome: { status: "completed"; result: QuestionsResult } | { status: "failed"; error: RunError },
  at: Date,
): Promise<void> {
  await finishAnalysisOnce(sql, {
    analysis: analysisId,
    status: outcome.status,
    result: outcome.status === "completed" ? JSON.stringify(outcome.result) : null,
    error: outcome.status === "failed" ? JSON.stringify(outcome.error) : null,
    at,
  });
}

/**
 * An analysis whose run failed outside this module (claimed too often, or failed for good by the
 * job's onFailure) fails with the run's error. Nothing happens while the run is unfinished.
 */
export async function settleAnalysisWithRun(analysisId: string, runId: string): Promise<void> {
  const run = await runOutcome(runId);
  if (run?.status !== "failed") return;
  await finishAnalysis(standalone(), analysisId, { status: "failed", error: run.error as RunError }, run.completedAt ?? new Date());
  notifyChanged(analysisId);
}

/** The whole step: claim, generate, store, settle, notify. Safe to run any number of times. */
export async function executeQuestions(analysisId: string, runId: string, options: ExecuteOptions = {}): Promise<ExecuteOutcome> {
  const claim = await claimRun(runId, options);
  if (claim === null || claim === "busy") {
    options.onEngineDone?.();
    if (claim === null) await settleAnalysisWithRun(analysisId, runId);
    return claim ?? "skipped";
  }
  const stopLease = keepLease(claim, options);
  try {
    const analysis = await analysisInputOf(analysisId);
    await markAnalysisRunning(analysisId);
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
