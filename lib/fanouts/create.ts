// POST /fanouts/estimate and POST /fanouts: the plan (prompts × engines × runs), its price on
// the current rate card, and creation of the fanout, every run, every run's hold and every job
// in ONE transaction (all or nothing), then handed to the work driver.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { actorOf, holdCredit, priceLines, type ChargeActor } from "../billing/holds";
import { availableMicros, readBalance } from "../billing/ledger";
import { formatUsd } from "../billing/money";
import { billingSettings, currentRateCard } from "../billing/settings";
import { engineConfig } from "../config/engines";
import { config } from "../config/env";
import { questionIdsOf } from "../analyses/store";
import { currentDb, db } from "../db/client";
import { standalone, textTransaction, type SqlSession } from "../db/sql";
import { arrayParam, atUtc, defineStatement } from "../db/statement";
import { newId } from "../db/ids";
import { ApiError } from "../http/errors";
import { getProjectOrThrow } from "../projects/read";
import { checkRunsInFlight, resolveEngines } from "../runs/create";
import { insertFanoutRuns, type NewFanoutRun } from "../runs/fanout-runs";
import { FANOUT_RUNS, type FanoutEstimate, type FanoutRequest } from "../schemas/fanouts";
import type { PlanMargin } from "../schemas/plan";
import { round4, runsForMargin, wilsonHalfWidth } from "../stats";
import { lastBrandRate } from "../visibility/last-rate";
import { marginSummary } from "../words/plan";
import { dispatch, queueJobs } from "../work/dispatch";
import { jobEvent, runQueued } from "../work/events";
import { readNewFanout } from "./read";

type Request = z.output<typeof FanoutRequest>;

/** Each prompt's market: its own `location` and `language` when it gives them (null: none), else the fanout's. */
function promptMarkets(input: Request) {
  return input.prompts.map((p) => ({
    location: p.location !== undefined ? p.location : (input.location ?? null),
    language: p.language !== undefined ? p.language : (input.language ?? null),
  }));
}

/** What a request would run: the engines (each once), the repeats and the executions. */
export function planOf(input: Request) {
  const engines = resolveEngines(input.engines, engineConfig().enabled);
  const runs = input.runs ?? FANOUT_RUNS.fallback;
  return { engines, runs, executions: input.prompts.length * engines.length * runs };
}

function pricePlan(plan: ReturnType<typeof planOf>, prompts: number) {
  const card = currentRateCard();
  const priced = priceLines(
    plan.engines.map((engine) => ({ product: "prompt" as const, engine, units: prompts * plan.runs })),
    card,
  );
  return { card, ...priced };
}

/**
 * Prompts whose text repeats an earlier prompt's exactly in the same market (they are run all
 * the same); the same text in another country or language is another question.
 */
function identicalPrompts(input: Request): number {
  const markets = promptMarkets(input);
  const seen = new Set<string>();
  let repeats = 0;
  input.prompts.forEach((p, i) => {
    const key = JSON.stringify([p.text, markets[i]]);
    if (seen.has(key)) repeats++;
    seen.add(key);
  });
  return repeats;
}

/**
 * A prompt's `source` must name a questions analysis of the fanout's workspace and one of its
 * questions; anything else is 400 naming the prompt's index (decisions.md "Fanouts").
 */
export async function checkSources(session: SqlSession, workspaceId: string, input: Request): Promise<void> {
  const named = input.prompts.flatMap((p, i) => (p.source ? [{ index: i, source: p.source }] : []));
  if (named.length === 0) return;
  const ids = [...new Set(named.map((n) => n.source.analysis_id))];
  const questions = await questionIdsOf(session, workspaceId, ids);
  const problems = named.flatMap(({ index, source }) => {
    const known = questions.get(source.analysis_id);
    if (!known) return [`prompts[${index}].source: no questions analysis ${source.analysis_id} in this project's workspace`];
    if (!known.has(source.question_id)) {
      return [`prompts[${index}].source: questions analysis ${source.analysis_id} has no question ${JSON.stringify(source.question_id)}`];
    }
    return [];
  });
  if (problems.length > 0) throw new ApiError("invalid_request", problems.join("; "));
}

export async function estimateFanout(principal: Principal, input: Request): Promise<z.input<typeof FanoutEstimate>> {
  const project = await getProjectOrThrow(principal, input.project);
  const plan = planOf(input);
  await checkSources(standalone(), project.workspaceId, input);
  const { card, lines, totalMicros } = pricePlan(plan, input.prompts.length);
  const settings = billingSettings();
  const available = settings.enabled ? availableMicros(await readBalance(db(), project.workspaceId)) : null;
  return {
    prompts: input.prompts.length,
    engines: plan.engines as z.input<typeof FanoutEstimate>["engines"],
    runs: plan.runs,
    executions: plan.executions,
    max_executions: config().FANOUT_MAX_EXECUTIONS,
    identical_prompts: identicalPrompts(input),
    lines: lines.map((line) => ({
      engine: line.engine as z.input<typeof FanoutEstimate>["lines"][number]["engine"],
      executions: line.units,
      unit_price_usd: formatUsd(line.unitPriceMicros),
      amount_usd: formatUsd(line.amountMicros),
    })),
    total_usd: formatUsd(totalMicros),
    pricing_version: card.version,
    billing_enabled: settings.enabled,
    available_usd: available === null ? null : formatUsd(available < 0n ? 0n : available),
    sufficient: available === null ? null : available >= totalMicros,
    margin: await marginOf(project.id, input.prompts.length * plan.runs),
  };
}

/** How precise each engine's visibility rates will be over `runsPerEngine` answers (lib/stats/plan.ts). */
export async function marginOf(projectId: string, runsPerEngine: number): Promise<z.input<typeof PlanMargin>> {
  const last = await lastBrandRate(projectId);
  const n = Math.max(1, runsPerEngine);
  const margin = {
    runs_per_engine: runsPerEngine,
    at_half: round4(wilsonHalfWidth(0.5, n)),
    at_last_rate: last ? round4(wilsonHalfWidth(last.visibility, n)) : null,
    last_rate: last ? { analysis_id: last.analysisId, entity: last.entity, runs: last.runs, runs_mentioning: last.runsMentioning, visibility: last.visibility } : null,
    runs_for_5_points: runsForMargin(0.05),
  };
  return { ...margin, summary: marginSummary(margin) };
}

/**
 * 400 when prompts × engines × runs is more than one fanout may run on this server, naming both
 * numbers (`lead` says whose: "This fanout has", a monitor's "prompts: each tick would run").
 */
export function refuseOverMaxExecutions(lead: string, prompts: number, engines: number, runs: number, outcome = "Nothing was created."): void {
  const executions = prompts * engines * runs;
  const max = config().FANOUT_MAX_EXECUTIONS;
  if (executions > max) {
    throw new ApiError(
      "invalid_request",
      `${lead} ${prompts} prompts × ${engines} engines × ${runs} runs = ${executions} executions; ` +
        `the most one fanout may run on this server is ${max} (max_executions). ${outcome}`,
    );
  }
}

/** Who a fanout is made for and charged to: its workspace and project, and who started it. */
export type FanoutActor = ChargeActor & { workspaceId: string; projectId: string };

/** What a caller adds to the transaction that creates a fanout (a monitor's tick: its row, its budget). */
export type FanoutHooks = {
  /** First in the creating transaction (before the workspace's lock): false creates nothing, and startFanout answers null. */
  before?: (sql: SqlSession) => Promise<boolean>;
  /**
   * Under the workspace's lock, after the in-flight limit (429) and the sources (400), before the
   * credit (402): a check that must be decided one request after another. `totalMicros` is what
   * the fanout's holds will set aside on the rate card it is priced with.
   */
  underLock?: (sql: SqlSession, totalMicros: bigint) => Promise<void>;
  /** Last in the creating transaction, once the fanout and its holds are written: rows that name it. */
  after?: (sql: SqlSession, fanoutId: string) => Promise<void>;
};

const INSERT_FANOUT = defineStatement({
  label: "fanout_insert",
  params: ["id", "workspace", "project", "name", "engines", "runs", "prompts", "user", "key", "now"],
  sql: ({ p }) =>
    `INSERT INTO fanouts (id, workspace_id, project_id, name, engines, runs_per_prompt, prompts, created_by_user_id, api_key_id, created_at)
    VALUES (${p.id}, ${p.workspace}, ${p.project}, ${p.name}, ${p.engines}::text[], ${p.runs}::int, ${p.prompts}::jsonb, ${p.user}, ${p.key}, ${atUtc(p.now)})`,
});

/**
 * Makes a fanout for `actor`: 400 over max_executions before anything is written; then in ONE
 * transaction, under the workspace's lock, the in-flight limit (429), the sources (400), the
 * fanout, its runs, their jobs and a hold per run (402 without the credit), or nothing; then hands
 * the jobs to the work driver. The one way a fanout is made: POST /fanouts (createFanout, as the
 * caller) and a monitor's tick (lib/monitors, as the monitor's creator) both come here.
 */
export async function startFanout(actor: FanoutActor, input: Request, hooks: FanoutHooks = {}) {
  const plan = planOf(input);
  refuseOverMaxExecutions("This fanout has", input.prompts.length, plan.engines.length, plan.runs);
  const { workspaceId, projectId } = actor;
  const fanoutId = newId("fanout");
  const name = input.name ?? [...input.prompts[0]!.text].slice(0, 200).join("");
  const who = { createdByUserId: actor.userId, apiKeyId: actor.apiKeyId };
  const { card, totalMicros } = pricePlan(plan, input.prompts.length);

  const markets = promptMarkets(input);
  // Prompt-major, then engine, then repeat: the order the detail shows them in.
  const runs: NewFanoutRun[] = input.prompts.flatMap((prompt, p) => {
    const location = markets[p]!.location === null ? null : JSON.stringify(markets[p]!.location);
    const language = markets[p]!.language;
    return plan.engines.flatMap((engine) =>
      Array.from({ length: plan.runs }, (_, r) => ({ id: newId("run"), prompt: prompt.text, promptIndex: p, engine, runIndex: r + 1, location, language })),
    );
  });
  const jobs = runs.map((run) => jobEvent(runQueued, run.id, { run_id: run.id, engine: run.engine }));

  const now = new Date();
  const fanout = await textTransaction(currentDb(), async (sql) => {
    if (hooks.before && !(await hooks.before(sql))) return null;
    // One hold line per run, all placed here or none: the fanout holds exactly what its
    // unfinished runs cost, each run capturing or releasing its own line when it ends. Under the
    // workspace's one lock, taken by holdCredit: the in-flight count and the credit check are
    // decided one request after another.
    await holdCredit(
      sql,
      {
        workspaceId,
        operationId: fanoutId,
        actor: { userId: actor.userId, apiKeyId: actor.apiKeyId },
        rateCard: card,
        lines: runs.map((run) => ({ product: "prompt" as const, engine: run.engine, units: 1, runId: run.id })),
      },
      async () => {
        await checkRunsInFlight(sql, workspaceId, runs.length);
        await checkSources(sql, workspaceId, input);
        await hooks.underLock?.(sql, totalMicros);
        await INSERT_FANOUT.query(sql, {
          id: fanoutId, workspace: workspaceId, project: projectId, name, engines: arrayParam(plan.engines), runs: plan.runs,
          prompts: JSON.stringify(input.prompts.map((p, i) => ({ text: p.text, source: p.source ?? null, ...markets[i]! }))),
          user: who.createdByUserId, key: who.apiKeyId, now,
        });
        await insertFanoutRuns(sql, { fanoutId, workspaceId, projectId, ...who, runs });
      },
    );
    await queueJobs(sql, jobs);
    await hooks.after?.(sql, fanoutId);
    return readNewFanout(sql, fanoutId);
  });
  if (!fanout) return null;

  // Committed: the runs and their jobs are durable now. Dispatch failures are recovered by the driver's sweep.
  await dispatch(jobs);
  return fanout;
}

/** POST /fanouts: the caller's fanout in a project it can reach (404 otherwise), charged to the caller. */
export async function createFanout(principal: Principal, input: Request) {
  const project = await getProjectOrThrow(principal, input.project);
  const fanout = await startFanout({ workspaceId: project.workspaceId, projectId: project.id, ...actorOf(principal) }, input);
  return fanout!;
}
