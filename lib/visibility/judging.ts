// Judging a queued visibility analysis (decisions.md "Judged visibility"): the steps of the
// judge-visibility job (./jobs/judge-visibility.ts).
//
// judgeRuns: every counted run without a verdict yet is put to the judge engine once, with
// structured output through its SDK's own mechanism (lib/engines/structured.ts, as questions
// are). A reply without the requested structure, or whose content cannot be read, is asked for
// once more; a second unusable reply (or an engine failure after its retries) makes the run
// `not_judged`, with its reason. Each verdict, checked against the answer (./judge.ts), is written
// once (ON CONFLICT DO NOTHING); the analysis's progress (judge.runs_done) at most once a second.
// The answers are read 200 runs at a time as the calls reach them, so a job judging 20,000 runs
// holds two parts of its answers, not all of them.
//
// finishJudgedAnalysis: the figures of the verdicts, the hold captured for the runs judged (the
// rest released: a partial capture), and the analysis completed, in one transaction, only while
// it is unfinished.
import { captureHold, releaseHold } from "../billing/holds";
import { presentRunCharge } from "../billing/present";
import { findHold } from "../billing/store";
import { finishJudgement, insertJudgement, judgedAnalysis, judgedRunIds, judgementsOf, markJudgeRunning, writeJudgeProgress } from "../analyses/store";
import { notifyChanged } from "../changes/wait";
import { engineConfig } from "../config/engines";
import { currentDb } from "../db/client";
import { defineStatement, int, text } from "../db/statement";
import { standalone, textTransaction, type SqlSession } from "../db/sql";
import { isStructuredEngineId, prepareEngineConfig, type StructuredEngineId } from "../engines";
import type { EngineConfig } from "../engines/config";
import { runStructured } from "../engines/structured";
import { log } from "../log";
import { runsToJudge } from "../runs/analysis-reads";
import { MAX_ENGINE_ATTEMPTS } from "../runs/lifecycle";
import type { RunError } from "../schemas/results";
import { backoffMs } from "../work/job";
import type { StoredJudgement } from "./analysis";
import type { Entity } from "./entities";
import {
  JUDGE_SCHEMA, UnusableJudgement, agreementFigures, discoveredFigures, judgePrompt, sentimentFigures, verifyJudgement, type JudgedRun, type Verdict,
} from "./judge";

/** Unusable replies before a run counts as not judged: the first and one retry. */
export const MAX_UNUSABLE_JUDGEMENTS = 2;
/** Judge calls one job makes at once. */
const CALLS_AT_ONCE = 4;
/** Answers read at once (an analysis may name 20,000 runs): the job holds at most two such parts. */
const READ_AT_ONCE = 200;
/** How often the analysis's progress (judge.runs_done) is written while judging. */
const PROGRESS_EVERY_MS = 1000;

/** The rules' counted mentions per run: bit e of `counted` for entity e. */
const RULE_MASKS = defineStatement({
  label: "judge_rule_masks",
  params: ["analysis"],
  columns: { runId: text("m.run_id"), counted: int("m.counted") },
  sql: ({ select, p }) => `SELECT ${select} FROM analysis_mentions m WHERE m.analysis_id = ${p.analysis}`,
});

type RunToJudge = { id: string; engine: string | null; prompt: string; answer: string };
type Outcome = { status: "judged"; verdict: Verdict; model: string | null; attempts: number } | { status: "not_judged"; error: string; model: string | null; attempts: number };

/** The runs the analysis counts (run_ids less excluded_runs), once each, in order. */
function countedRunIds(runIds: readonly string[], excluded: readonly { run_id: string }[]): string[] {
  const out = new Set(excluded.map((x) => x.run_id));
  const seen = new Set<string>();
  return runIds.filter((id) => !out.has(id) && !seen.has(id) && (seen.add(id), true));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Asks the judge about one run: at most one more time after an unusable reply; engine failures retried with backoff. */
async function judgeOne(engine: StructuredEngineId, config: EngineConfig, run: RunToJudge, entities: readonly Entity[], judge: StoredJudgement["judge"]): Promise<Outcome> {
  const prompt = judgePrompt({ question: run.prompt, answer: run.answer, entities, discover: judge.discover });
  let unusable = 0;
  let model: string | null = null;
  for (let attempt = 1; ; attempt++) {
    const outcome = await runStructured(engine, { prompt, schema: JUDGE_SCHEMA }, { config });
    let problem: string;
    if (outcome.ok) {
      model = outcome.model;
      try {
        return { status: "judged", verdict: verifyJudgement(outcome.value, { answer: run.answer, prompt: run.prompt, entities, sentiment: judge.sentiment, discover: judge.discover }), model, attempts: attempt };
      } catch (error) {
        if (!(error instanceof UnusableJudgement)) throw error;
        problem = error.message;
      }
    } else if (outcome.error.code === "engine_malformed_response") {
      problem = outcome.error.message;
    } else {
      if (!outcome.error.retryable || attempt >= MAX_ENGINE_ATTEMPTS) {
        return { status: "not_judged", error: `${engine} failed: ${outcome.error.message}`.slice(0, 500), model, attempts: attempt };
      }
      await sleep(backoffMs(attempt, outcome.retry_after_ms));
      continue;
    }
    unusable += 1;
    if (unusable >= MAX_UNUSABLE_JUDGEMENTS || attempt >= MAX_ENGINE_ATTEMPTS) {
      return { status: "not_judged", error: `the judge's reply was unusable ${unusable} times (asked once more after the first): ${problem}`.slice(0, 500), model, attempts: attempt };
    }
    log.info("judge reply unusable; asking once more", { run_id: run.id, engine, problem });
  }
}

/**
 * The first step: every counted run without a verdict judged and its verdict stored. Answers
 * "finished" when the analysis is no longer to be judged (finished already, or not a judged one).
 */
export async function judgeRuns(analysisId: string, readAtOnce = READ_AT_ONCE): Promise<"judged" | "finished"> {
  const analysis = await judgedAnalysis(standalone(), analysisId);
  if (!analysis || (analysis.status !== "queued" && analysis.status !== "running")) return "finished";
  await markJudgeRunning(analysisId);
  notifyChanged(analysisId);
  const judge = analysis.judged.judge;
  const done = new Set(await judgedRunIds(analysisId));
  const todo = countedRunIds(analysis.runIds, analysis.excluded).filter((id) => !done.has(id));
  if (todo.length === 0) return "judged";
  // The answers, read a part of `readAtOnce` runs at a time as the calls reach it, each part
  // dropped once the calls have taken all its runs: they take the runs in order, so at most two
  // parts are held (and the answers the calls are judging).
  type Row = Awaited<ReturnType<typeof runsToJudge>>[number];
  const parts = new Map<number, { rows: Promise<Map<string, Row>>; left: number }>();
  const rowAt = async (i: number): Promise<Row | undefined> => {
    const at = Math.floor(i / readAtOnce);
    let part = parts.get(at);
    if (!part) {
      const ids = todo.slice(at * readAtOnce, (at + 1) * readAtOnce);
      part = { rows: runsToJudge(ids).then((rs) => new Map(rs.map((r) => [r.id, r]))), left: ids.length };
      parts.set(at, part);
    }
    const row = (await part.rows).get(todo[i]!);
    if (--part.left === 0) parts.delete(at);
    return row;
  };
  const engine = judge.engine;
  if (!isStructuredEngineId(engine)) throw new Error(`analysis ${analysisId}: unknown judge engine ${engine}`);
  const config = await prepareEngineConfig(engineConfig());
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const i = next++;
      const id = todo[i]!;
      const row = await rowAt(i);
      const outcome: Outcome = row?.answer
        ? await judgeOne(engine, config, { id, engine: row.engine, prompt: row.prompt, answer: row.answer }, analysis.entities, judge)
        : { status: "not_judged", error: "the run has no answer", model: null, attempts: 0 };
      await insertJudgement({
        analysis: analysisId, run: id, status: outcome.status, verdict: outcome.status === "judged" ? JSON.stringify(outcome.verdict) : null,
        error: outcome.status === "not_judged" ? outcome.error : null, model: outcome.model, attempts: outcome.attempts,
      });
      await progress(false);
    }
  };
  // The progress rewrites the analysis row (its figures can be megabytes): at most once a second, and at the end.
  let shown = 0;
  const progress = async (last: boolean) => {
    if (!last && Date.now() - shown < PROGRESS_EVERY_MS) return;
    shown = Date.now();
    await writeJudgeProgress(analysisId);
    notifyChanged(analysisId);
  };
  await Promise.all(Array.from({ length: Math.min(CALLS_AT_ONCE, todo.length) }, worker));
  await progress(true);
  return "judged";
}

/** The judged part of the figures from the stored verdicts and the rules' mentions. */
async function judgedFigures(sql: SqlSession, analysisId: string, stored: StoredJudgement, entities: number, counted: readonly string[]): Promise<{ judged: StoredJudgement; runs: JudgedRun[] }> {
  const judgements = new Map((await judgementsOf(sql, analysisId)).map((j) => [j.runId, j]));
  const masks = new Map((await RULE_MASKS.query(sql, { analysis: analysisId })).map((m) => [m.runId, m.counted]));
  const judged: JudgedRun[] = [];
  const notJudged: { run_id: string; reason: string }[] = [];
  let quotesRejected = 0;
  let namesDropped = 0;
  let model: string | null = null;
  for (const runId of counted) {
    const j = judgements.get(runId);
    if (!j || j.status !== "judged" || !j.verdict) {
      notJudged.push({ run_id: runId, reason: j?.error ?? "not judged" });
      continue;
    }
    model ??= j.model;
    quotesRejected += j.verdict.quotes_rejected;
    namesDropped += j.verdict.names_dropped;
    const mask = masks.get(runId) ?? 0;
    judged.push({ run_id: runId, engine: j.engine, verdict: j.verdict, rulesMentioned: Array.from({ length: entities }, (_, e) => Math.floor(mask / 2 ** e) % 2 === 1) });
  }
  const figures: StoredJudgement = {
    ...stored,
    judge: {
      ...stored.judge,
      model,
      runs_done: counted.length,
      runs_judged: judged.length,
      runs_not_judged: notJudged,
      quotes_rejected: quotesRejected,
      names_dropped: namesDropped,
    },
    sentiment: stored.judge.sentiment ? sentimentFigures(judged, entities) : null,
    discovered: stored.judge.discover ? discoveredFigures(judged) : null,
    agreement: agreementFigures(judged, entities),
  };
  return { judged: figures, runs: judged };
}

/**
 * What a caller judging an analysis itself (a monitor's tick) writes in the finish's transaction:
 * the judged figures and the judged runs (their verdicts, with each run's engine).
 */
export type FinishHook = (sql: SqlSession, judged: StoredJudgement, runs: readonly JudgedRun[]) => Promise<void>;

/** The second step: figures, charge and completion in one transaction (nothing when already finished). */
export async function finishJudgedAnalysis(analysisId: string, after?: FinishHook): Promise<"completed" | "skipped"> {
  const finished = await textTransaction(currentDb(), async (sql) => {
    const analysis = await judgedAnalysis(sql, analysisId);
    if (!analysis || (analysis.status !== "queued" && analysis.status !== "running")) return false;
    const counted = countedRunIds(analysis.runIds, analysis.excluded);
    const { judged, runs } = await judgedFigures(sql, analysisId, analysis.judged, analysis.entities.length, counted);
    judged.charge = await settle(sql, analysis.workspaceId, analysis.judged.hold_id ?? null, judged.judge.runs_judged);
    const [row] = await finishJudgement(sql, { analysis: analysisId, status: "completed", judged: JSON.stringify(judged), error: null, at: new Date() });
    if (row !== undefined) await after?.(sql, judged, runs);
    return row !== undefined;
  });
  notifyChanged(analysisId);
  return finished ? "completed" : "skipped";
}

/** Captures the hold for the runs judged (the rest of it released), or releases it all when none was; answers the charge to show. */
async function settle(sql: SqlSession, workspaceId: string, holdId: string | null, judged: number): Promise<StoredJudgement["charge"]> {
  if (!holdId) return null;
  if (judged > 0) await captureHold({ holdId }, { tx: sql, workspaceId, actualUnits: judged });
  else await releaseHold({ holdId }, { tx: sql, workspaceId });
  return presentRunCharge(await findHold(sql, { holdId }, workspaceId), true);
}

/** Fails an unfinished judged analysis (the job failed for good): the hold released, the rule-based figures kept. */
export async function failJudgedAnalysis(analysisId: string, error: RunError): Promise<void> {
  await textTransaction(currentDb(), async (sql) => {
    const analysis = await judgedAnalysis(sql, analysisId);
    if (!analysis || (analysis.status !== "queued" && analysis.status !== "running")) return;
    const judged = { ...analysis.judged, charge: await settle(sql, analysis.workspaceId, analysis.judged.hold_id ?? null, 0) };
    await finishJudgement(sql, { analysis: analysisId, status: "failed", judged: JSON.stringify(judged), error: JSON.stringify(error), at: new Date() });
  });
  notifyChanged(analysisId);
}
