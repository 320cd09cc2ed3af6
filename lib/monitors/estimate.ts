// POST /monitors/estimate: what a monitor would run each tick, what a tick and a month would cost
// at the current rate card, how precise each tick's rates will be and how large a change between
// two ticks its alerts would catch (decisions.md "Statistics users can plan with"). Creates, holds
// and resolves nothing.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { priceLines } from "../billing/holds";
import { formatUsd, parseUsd } from "../billing/money";
import { billingSettings, currentRateCard } from "../billing/settings";
import { engineConfig } from "../config/engines";
import { config } from "../config/env";
import { db } from "../db/client";
import { checkSources, marginOf } from "../fanouts/create";
import { ApiError } from "../http/errors";
import { getProjectOrThrow } from "../projects/read";
import { resolveEngines } from "../runs/create";
import { checkJudgeEngine } from "./create";
import { MONITOR_LIMITS, type MonitorEstimate, type MonitorRequest } from "../schemas/monitors";
import { detectableChange } from "../stats";
import { entitiesFromContext, type EntityContext } from "../visibility/entities";
import { detectableSummary } from "../words/plan";

type Body = z.output<typeof MonitorRequest>;

/** The most ticks a month holds: every day, 31; every week, 5. */
const TICKS_PER_MONTH = { day: 31, week: 5 } as const;

export async function estimateMonitor(principal: Principal, body: Body): Promise<z.input<typeof MonitorEstimate>> {
  const project = await getProjectOrThrow(principal, body.project);
  const engines = resolveEngines(body.engines, engineConfig().enabled);
  const runs = body.runs ?? MONITOR_LIMITS.runs.fallback;
  await checkSources(db(), project.workspaceId, { project: project.id, prompts: body.prompts });
  const m = body.entities ? body.entities.length : entitiesFromContext((project.context ?? {}) as EntityContext).length;
  if (m === 0) {
    throw new ApiError("invalid_request", "entities: the project's context names no brand or competitor; give entities, or add brands and competitors to the project.");
  }
  const card = currentRateCard();
  const perEngine = body.prompts.length * runs;
  const { lines, totalMicros: runsMicros } = priceLines(engines.map((engine) => ({ product: "prompt" as const, engine, units: perEngine })), card);
  // A judge is its own line: one unit per run of the tick (held at its start, paid per run judged).
  const executions = body.prompts.length * engines.length * runs;
  const judgeEngine = body.judge ? checkJudgeEngine(body.judge.engine) : null;
  const judgeLine = judgeEngine ? priceLines([{ product: "judge", engine: judgeEngine, units: executions }], card).lines[0]! : null;
  const totalMicros = runsMicros + (judgeLine?.amountMicros ?? 0n);
  const ticksPerMonth = TICKS_PER_MONTH[(body.schedule ?? MONITOR_LIMITS.schedule).every];
  const budget = body.monthly_budget_usd ? parseUsd(body.monthly_budget_usd) : null;

  const margin = await marginOf(project.id, perEngine);
  const minChange = body.alerts?.min_change ?? MONITOR_LIMITS.minChange.fallback;
  const atLeastFloor = (delta: number | null) => (delta === null ? null : Math.max(delta, minChange / 100));
  const change = {
    entities: m,
    min_change: minChange,
    at_half: atLeastFloor(detectableChange(0.5, perEngine, m)),
    at_last_rate: margin.last_rate ? atLeastFloor(detectableChange(margin.last_rate.visibility, perEngine, m)) : null,
  };
  return {
    prompts: body.prompts.length,
    engines: engines as z.input<typeof MonitorEstimate>["engines"],
    runs,
    executions_per_tick: executions,
    max_executions: config().FANOUT_MAX_EXECUTIONS,
    ticks_per_month: ticksPerMonth,
    lines: lines.map((l) => ({
      engine: l.engine as z.input<typeof MonitorEstimate>["lines"][number]["engine"],
      executions: l.units,
      unit_price_usd: formatUsd(l.unitPriceMicros),
      amount_usd: formatUsd(l.amountMicros),
    })),
    judge: judgeLine
      ? { engine: judgeLine.engine as NonNullable<z.input<typeof MonitorEstimate>["judge"]>["engine"], runs: executions, unit_price_usd: formatUsd(judgeLine.unitPriceMicros), amount_usd: formatUsd(judgeLine.amountMicros) }
      : null,
    per_tick_usd: formatUsd(totalMicros),
    per_month_usd: formatUsd(totalMicros * BigInt(ticksPerMonth)),
    monthly_budget_usd: budget === null ? null : formatUsd(budget),
    ticks_within_budget: budget === null ? null : totalMicros === 0n ? ticksPerMonth : Math.min(ticksPerMonth, Number(budget / totalMicros)),
    pricing_version: card.version,
    billing_enabled: billingSettings().enabled,
    margin,
    detectable_change: { ...change, summary: detectableSummary({ ...change, last_rate: margin.last_rate }) },
  };
}
