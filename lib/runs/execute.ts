// Executing one prompt run: the step of the prompt-run job (jobs/prompt-run.ts). Claim the run
// (./lifecycle.ts), call its engine with retries for retryable failures, then store the outcome,
// its sources and the settlement of its credit hold in one transaction.
import { createHash } from "node:crypto";
import { engineConfig } from "../config/engines";
import { atUtc, defineStatement, text } from "../db/statement";
import { standalone } from "../db/sql";
import { isEngineId, prepareEngineConfig, runPrompt, type RunPromptOutcome } from "../engines";
import { notifyChanged } from "../changes/wait";
import { log } from "../log";
import { backoffMs } from "../work/job";
import {
  MAX_ENGINE_ATTEMPTS, claimRun, failure, finishRun, finishedSql, keepLease, stillMineSql,
  type Claim, type ExecuteOptions, type ExecuteOutcome, type Finish,
} from "./lifecycle";

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** SHA-256 hex of a prompt's text (run_sources.prompt_hash). */
export function promptHashOf(prompt: string): string {
  return createHash("sha256").update(prompt, "utf8").digest("hex");
}

// With the run, the sources citation analyses read (run_sources: one row per source, in result
// order), in the same statement (a data-modifying WITH runs whether or not it is read).
const COMPLETE_PROMPT_RUN = defineStatement({
  label: "run_complete_prompt",
  params: [
    "run", "status", "attempts", "at", "duration", "result", "usage", "model", "envelope", "normalizer", "sourceCount", "citedCount",
    "queryCount", "citationsExposed", "promptHash", "sources",
  ],
  columns: { id: text("id") },
  sql: ({ select, p }) =>
    `WITH run AS (
      UPDATE runs SET status = 'completed', ${finishedSql(p)}, result = ${p.result}::jsonb, usage = ${p.usage}::jsonb, model = ${p.model},
        raw_envelope = ${p.envelope}::jsonb, normalizer_version = ${p.normalizer}::int, source_count = ${p.sourceCount}::int,
        cited_count = ${p.citedCount}::int, query_count = ${p.queryCount}::int, citations_exposed = ${p.citationsExposed}::boolean
      WHERE ${stillMineSql(p)} RETURNING id, workspace_id, engine
    ), sources AS (
      INSERT INTO run_sources (run_id, position, workspace_id, engine, prompt_hash, url, domain, cited, search_query_observed,
        retrieval_observed, citation_count, resolution)
      SELECT run.id, (s.n - 1)::int, run.workspace_id, run.engine, ${p.promptHash}, s.v ->> 'url', s.v ->> 'domain', (s.v ->> 'cited')::boolean,
        (s.v ->> 'search_query_observed')::boolean, (s.v ->> 'retrieval_observed')::boolean,
        COALESCE((s.v ->> 'citation_count')::int, 0), s.v ->> 'resolution'
      FROM run CROSS JOIN jsonb_array_elements(${p.sources}::jsonb) WITH ORDINALITY AS s(v, n)
      RETURNING 1
    )
    SELECT ${select} FROM run`,
});

/** A prompt run completed: its normalised result, usage and envelope, and its sources in run_sources. */
function promptCompletion(claim: Claim, outcome: Extract<RunPromptOutcome, { ok: true }>): Finish {
  const { sources } = outcome.result;
  return {
    write: async (sql, values) =>
      (await COMPLETE_PROMPT_RUN.query(sql, {
        ...values,
        result: JSON.stringify(outcome.result),
        usage: outcome.usage === null || outcome.usage === undefined ? null : JSON.stringify(outcome.usage),
        model: outcome.model ?? null,
        envelope: JSON.stringify(outcome.envelope),
        normalizer: Number(outcome.envelope.normalizer_version),
        sourceCount: sources.length,
        citedCount: sources.filter((s) => s.cited === true).length,
        queryCount: outcome.result.searches.length,
        citationsExposed: outcome.result.citations_exposed ?? null,
        promptHash: promptHashOf(claim.prompt),
        sources: JSON.stringify(sources),
      })).length === 1,
    hold: { capture: true },
  };
}

/** Runs the engine for a claimed run, retrying retryable failures with backoff. */
async function callEngine(claim: Claim, sleep: (ms: number) => Promise<void>): Promise<{ kind: "completed" | "failed"; finish: Finish }> {
  const engine = claim.engine;
  if (!isEngineId(engine)) {
    return { kind: "failed", finish: failure({ code: "engine_bad_request", message: `Unknown engine ${engine ?? "(none)"}.`, engine, retryable: false }) };
  }
  const config = await prepareEngineConfig(engineConfig());
  for (let attempt = 1; ; attempt++) {
    const outcome = await runPrompt(engine, { prompt: claim.prompt, location: claim.location, language: claim.language }, { config });
    if (outcome.ok) return { kind: "completed", finish: promptCompletion(claim, outcome) };
    if (!outcome.error.retryable || attempt >= MAX_ENGINE_ATTEMPTS) {
      return { kind: "failed", finish: failure(outcome.error, outcome.envelope) };
    }
    const delay = backoffMs(attempt, outcome.retry_after_ms);
    log.info("engine call failed; retrying", { run_id: claim.id, engine, code: outcome.error.code, attempt, delay_ms: delay });
    await recordNextAttempt(claim, attempt + 1, new Date(Date.now() + delay));
    await sleep(delay);
  }
}

/**
 * Says on the run which engine attempt comes next and when, for its page while it waits and asks
 * (the first attempt is recorded by the claim). Only a retry writes, so a run whose engine
 * answers at once costs no statement more; a failed write only leaves the page less precise.
 */
const RECORD_ENGINE_ATTEMPT = defineStatement({
  label: "run_engine_attempt",
  params: ["run", "attempts", "attempt", "at"],
  sql: ({ p }) =>
    `UPDATE runs SET engine_attempt = ${p.attempt}::int, engine_attempt_at = ${atUtc(p.at)}, updated_at = now() AT TIME ZONE 'UTC'
    WHERE id = ${p.run} AND status = 'running' AND attempts = ${p.attempts}::int`,
});

async function recordNextAttempt(claim: Claim, attempt: number, at: Date): Promise<void> {
  try {
    await RECORD_ENGINE_ATTEMPT.query(standalone(), { run: claim.id, attempts: claim.attempts, attempt, at });
    notifyChanged(claim.id, claim.batchId, claim.fanoutId);
  } catch (error) {
    log.warn("recording a run's next engine attempt failed", { run_id: claim.id, attempt, error });
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

/** The whole step: claim, call, store, settle, notify. Safe to run any number of times. */
export async function executeRun(runId: string, options: ExecuteOptions = {}): Promise<ExecuteOutcome> {
  const claim = await claimRun(runId, options);
  if (claim === null || claim === "busy") {
    options.onEngineDone?.();
    return claim ?? "skipped";
  }
  const stopHeartbeat = keepLease(claim, options);
  try {
    let called: Awaited<ReturnType<typeof callEngine>>;
    try {
      called = await callEngine(claim, options.sleep ?? defaultSleep);
    } finally {
      options.onEngineDone?.();
    }
    const stored = await storeOutcome(claim, called.finish, options.sleep ?? defaultSleep);
    if (!stored) return "skipped";
    options.onStored?.(claim.fanoutId);
    return called.kind;
  } finally {
    stopHeartbeat();
  }
}
