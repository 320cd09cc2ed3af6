// Monitors: create, change, delete, rotate the webhook secret, run a tick now, and the estimate
// of one before it is made. Every monitor is read through the caller's access (404 outside their
// workspaces, as a missing one); what is measured is kept exactly, so that a change to it starts a
// new series (version + 1) and a change to when or how much does not.
import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";
import { alertTickOutcome } from "../alerts/raise";
import type { Principal } from "../auth/principal";
import { priceLines } from "../billing/holds";
import { formatUsd, parseUsd } from "../billing/money";
import { billingSettings, currentRateCard } from "../billing/settings";
import { engineConfig } from "../config/engines";
import { config } from "../config/env";
import { currentDb } from "../db/client";
import { newId } from "../db/ids";
import { standalone, textTransaction, type SqlSession } from "../db/sql";
import { arrayParam, atUtc, defineStatement, text } from "../db/statement";
import { checkSources, marginOf, refuseOverMaxExecutions } from "../fanouts/create";
import { ApiError } from "../http/errors";
import { log } from "../log";
import { checkTarget, UnsafeUrlError } from "../net/safe-fetch";
import { getProjectOrThrow } from "../projects/read";
import { resolveEngines } from "../runs/create";
import { domainNameOf } from "../schemas/projects";
import { MONITOR_LIMITS, type MonitorEstimate, type MonitorRequest, type MonitorUpdateRequest } from "../schemas/monitors";
import type { EntityInput } from "../schemas/visibility";
import { detectableChange } from "../stats";
import { entitiesFromContext, normalizeEntity, type Entity, type EntityContext } from "../visibility/entities";
import { detectableSummary } from "../words/plan";
import { presentMonitor, presentTick } from "./present";
import { lastTickFiguresOf, monitorPrompts, monitorRow, reachableMonitorRow, tickFiguresOf, tickRow } from "./read";
import type { MonitorRow } from "./rows";
import { nextSlot, storedSchedule } from "./schedule";
import { newWebhookSecret, sealWebhookSecret } from "./secret";
import { runTickNow } from "./ticks";

type CreateBody = z.output<typeof MonitorRequest>;
type UpdateBody = z.output<typeof MonitorUpdateRequest>;
type PromptInput = CreateBody["prompts"][number];

/** A prompt as the monitor keeps it: its text and source, and its own market only when it gave one. */
function storedPrompt(p: PromptInput) {
  return {
    text: p.text,
    source: p.source ?? null,
    ...(p.location !== undefined ? { location: p.location } : {}),
    ...(p.language !== undefined ? { language: p.language } : {}),
  };
}

function storedEntity(e: z.output<typeof EntityInput>): Entity {
  const domains = (e.domains ?? []).map((d) => domainNameOf(d) ?? d);
  return normalizeEntity({ name: e.name, role: e.role, aliases: e.aliases ?? [], domains, case_sensitive: e.case_sensitive ?? false });
}

/**
 * A webhook URL the audit fetcher's address rules let through (http or https, no credentials, no
 * address that is not public unless its host is in WEBHOOK_ALLOW_HOSTS), or 400 naming the field.
 * Checked again at every delivery: a name may resolve elsewhere later.
 */
async function checkWebhookUrl(url: string): Promise<void> {
  const field = "alerts.webhook_url";
  try {
    await checkTarget(url, { allowHosts: config().WEBHOOK_ALLOW_HOSTS });
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw new ApiError("invalid_request", `${field}: ${error.message}`);
    const code = (error as NodeJS.ErrnoException).code;
    throw new ApiError("invalid_request", `${field}: its host could not be resolved${code ? ` (${code})` : ""}`);
  }
}

/** Refuses ticks larger than one fanout may be on this server (400 naming both numbers). */
const checkSize = (prompts: number, engines: number, runs: number, outcome?: string) =>
  refuseOverMaxExecutions("prompts: each tick would run", prompts, engines, runs, outcome);

/** The prompts' sources, checked as POST /fanouts checks them (400 naming the prompt's index). */
async function checkPromptSources(session: SqlSession, workspaceId: string, projectId: string, prompts: PromptInput[]): Promise<void> {
  await checkSources(session, workspaceId, { project: projectId, prompts });
}

/**
 * A monitor's judge as stored, its engine enabled on this server (400 naming judge.engine, as
 * POST /visibility-analyses refuses it); null for none.
 */
function storedJudge(judge: { engine: string } | null | undefined): { engine: string; sentiment: true } | null {
  if (!judge) return null;
  return { engine: checkJudgeEngine(judge.engine), sentiment: true };
}

/** A judge engine enabled on this server, or 400 naming judge.engine. */
export function checkJudgeEngine(engine: string): string {
  const enabled = engineConfig().enabled;
  if (!(enabled as readonly string[]).includes(engine)) {
    throw new ApiError("invalid_request", `judge.engine: ${engine} is not enabled on this server; enabled: ${enabled.join(", ") || "none"}`);
  }
  return engine;
}

const budgetMicros = (value: string | null | undefined) => (value === undefined || value === null ? null : parseUsd(value));

/** The monitor as answered, with its webhook secret (the 201 of POST and of the rotation). */
async function presentWithSecret(monitorId: string, secret: string) {
  const row = (await monitorRow(standalone(), monitorId))!;
  const [prompts, figures] = await Promise.all([monitorPrompts(standalone(), monitorId), lastTickFiguresOf([row])]);
  return { ...presentMonitor(row, prompts, figures), webhook_secret: secret };
}

// The monitors' writes. Every one sets updated_at (`touched`: the moment written, as Prisma's
// @updatedAt did); status and version start at their defaults (active, 1).
const INSERT_MONITOR = defineStatement({
  label: "monitor_insert",
  params: [
    "id", "workspace", "project", "name", "prompts", "engines", "runs", "location", "language", "entities", "every", "minute", "weekday",
    "next", "budget", "alerts", "judge", "secret", "user", "key", "now", "touched",
  ],
  sql: ({ p }) =>
    `INSERT INTO monitors (id, workspace_id, project_id, name, prompts, engines, runs_per_prompt, location, language, entities,
      schedule_every, schedule_minute, schedule_weekday, next_run_at, monthly_budget_micros, alerts, judge, webhook_secret,
      created_by_user_id, api_key_id, created_at, updated_at)
    VALUES (${p.id}, ${p.workspace}, ${p.project}, ${p.name}, ${p.prompts}::jsonb, ${p.engines}::text[], ${p.runs}::int, ${p.location}::jsonb, ${p.language},
      ${p.entities}::jsonb, ${p.every}, ${p.minute}::int, ${p.weekday}::int, ${atUtc(p.next)}, ${p.budget}::bigint, ${p.alerts}::jsonb, ${p.judge}::jsonb,
      ${p.secret}, ${p.user}, ${p.key}, ${atUtc(p.now)}, ${atUtc(p.touched)})`,
});

/** The monitor's row, locked until the caller's transaction ends. */
const LOCK_MONITOR = defineStatement({
  label: "monitor_lock",
  params: ["monitor"],
  columns: { id: text("id") },
  sql: ({ select, p }) => `SELECT ${select} FROM monitors WHERE id = ${p.monitor} FOR UPDATE`,
});

/**
 * PATCH's write: a SET list of the parameters given (one text per combination). The schedule's
 * three columns go together (`every` given: `minute` and `weekday` are), and so do what is
 * measured and its version (`version` given: the rest are).
 */
const UPDATE_MONITOR = defineStatement({
  label: "monitor_update",
  params: ["monitor", "touched", "name", "status", "every", "minute", "weekday", "next", "budget", "alerts", "judge",
    "version", "prompts", "engines", "runs", "location", "language", "entities"],
  sql: ({ p, given }) => {
    const set = [
      `updated_at = ${atUtc(p.touched)}`,
      given.name && `name = ${p.name}`,
      given.status && `status = ${p.status}::text::"MonitorStatus"`,
      given.every && `schedule_every = ${p.every}, schedule_minute = ${p.minute}::int, schedule_weekday = ${p.weekday}::int`,
      given.next && `next_run_at = ${atUtc(p.next)}`,
      given.budget && `monthly_budget_micros = ${p.budget}::bigint`,
      given.alerts && `alerts = ${p.alerts}::jsonb`,
      given.judge && `judge = ${p.judge}::jsonb`,
      given.version &&
        `version = ${p.version}::int, prompts = ${p.prompts}::jsonb, engines = ${p.engines}::text[], runs_per_prompt = ${p.runs}::int, ` +
          `location = ${p.location}::jsonb, language = ${p.language}, entities = ${p.entities}::jsonb`,
    ].filter(Boolean);
    return `UPDATE monitors SET ${set.join(", ")} WHERE id = ${p.monitor}`;
  },
});

/** The monitor; its ticks, alerts, deliveries and digests go with it (ON DELETE CASCADE). */
const DELETE_MONITOR = defineStatement({
  label: "monitor_delete",
  params: ["monitor"],
  sql: ({ p }) => `DELETE FROM monitors WHERE id = ${p.monitor}`,
});

const SET_WEBHOOK_SECRET = defineStatement({
  label: "monitor_webhook_secret",
  params: ["monitor", "secret", "touched"],
  sql: ({ p }) => `UPDATE monitors SET webhook_secret = ${p.secret}, updated_at = ${atUtc(p.touched)} WHERE id = ${p.monitor}`,
});

/** POST /monitors. Nothing runs now: the first tick is due at the schedule's next slot. */
export async function createMonitor(principal: Principal, body: CreateBody, now = new Date()) {
  const project = await getProjectOrThrow(principal, body.project);
  const engines = resolveEngines(body.engines, engineConfig().enabled);
  const runs = body.runs ?? MONITOR_LIMITS.runs.fallback;
  checkSize(body.prompts.length, engines.length, runs);
  await checkPromptSources(standalone(), project.workspaceId, project.id, body.prompts);
  const entities = body.entities ? body.entities.map(storedEntity) : entitiesFromContext((project.context ?? {}) as EntityContext);
  if (entities.length === 0) {
    throw new ApiError(
      "invalid_request",
      "entities: the project's context names no brand or competitor; give entities, or add brands and competitors to the project.",
    );
  }
  const judge = storedJudge(body.judge);
  const alerts = {
    webhook_url: body.alerts?.webhook_url ?? null,
    email: body.alerts?.email ?? false,
    min_change: body.alerts?.min_change ?? MONITOR_LIMITS.minChange.fallback,
    digest: body.alerts?.digest ?? "off",
  };
  if (alerts.webhook_url !== null) await checkWebhookUrl(alerts.webhook_url);
  const schedule = storedSchedule(body.schedule ?? MONITOR_LIMITS.schedule);
  const secret = newWebhookSecret();
  const id = newId("monitor");
  await INSERT_MONITOR.query(standalone(), {
    id,
    workspace: project.workspaceId,
    project: project.id,
    name: body.name ?? [...body.prompts[0]!.text].slice(0, 100).join(""),
    prompts: JSON.stringify(body.prompts.map(storedPrompt)),
    engines: arrayParam(engines),
    runs,
    location: body.location ? JSON.stringify(body.location) : null,
    language: body.language ?? null,
    entities: JSON.stringify(entities),
    every: schedule.every,
    minute: schedule.minute,
    weekday: schedule.weekday,
    next: nextSlot(schedule, now),
    budget: budgetMicros(body.monthly_budget_usd),
    alerts: JSON.stringify(alerts),
    judge: judge ? JSON.stringify(judge) : null,
    secret: sealWebhookSecret(secret),
    user: principal.user.id,
    key: principal.apiKeyId,
    now,
    touched: new Date(),
  });
  return presentWithSecret(id, secret);
}

/** What is measured, as stored: two monitors measuring the same have equal ones. */
function measuredOf(row: MonitorRow, prompts: unknown) {
  return { prompts, engines: row.engines, runs: row.runsPerPrompt, location: row.location ?? null, language: row.language ?? null, entities: row.entities };
}

/** PATCH /monitors/{id}: only the fields given; a change to what is measured is version + 1. */
export async function updateMonitor(principal: Principal, monitorId: string, body: UpdateBody, now = new Date()) {
  const current = await reachableMonitorRow(principal, monitorId);
  if (body.alerts?.webhook_url) await checkWebhookUrl(body.alerts.webhook_url);
  const judge = body.judge === undefined ? undefined : storedJudge(body.judge);
  await textTransaction(currentDb(), async (sql) => {
    // Read again under the monitor's row lock: two changes at once are made one after the other.
    await LOCK_MONITOR.query(sql, { monitor: current.id });
    const row = (await monitorRow(sql, current.id, now))!;
    const storedPrompts = await monitorPrompts(sql, row.id);
    const before = measuredOf(row, storedPrompts);
    const after = {
      prompts: body.prompts ? body.prompts.map(storedPrompt) : storedPrompts,
      engines: body.engines ? resolveEngines(body.engines, engineConfig().enabled) : row.engines,
      runs: body.runs ?? row.runsPerPrompt,
      location: body.location !== undefined ? body.location : (row.location ?? null),
      language: body.language !== undefined ? body.language : (row.language ?? null),
      entities: body.entities ? body.entities.map(storedEntity) : row.entities,
    };
    if (body.prompts) await checkPromptSources(sql, row.workspaceId, row.projectId, body.prompts);
    checkSize(after.prompts.length, after.engines.length, after.runs, "Nothing was changed.");
    const changed = !isDeepStrictEqual(JSON.parse(JSON.stringify(before)), JSON.parse(JSON.stringify(after)));

    const schedule = body.schedule ? storedSchedule(body.schedule) : { every: row.every, minute: row.minute, weekday: row.weekday };
    const status = body.status ?? row.status;
    // A new schedule, or a resumed monitor, runs from its next slot after now: slots missed while
    // paused are not made up.
    const rescheduled = body.schedule !== undefined || (row.status === "paused" && status === "active");
    // Only the fields given are set (undefined leaves a column out; null sets it NULL).
    await UPDATE_MONITOR.query(sql, {
      monitor: row.id,
      touched: new Date(),
      name: body.name,
      status,
      ...(body.schedule ? { every: schedule.every, minute: schedule.minute, weekday: schedule.weekday } : {}),
      next: rescheduled ? nextSlot(schedule, now) : undefined,
      budget: body.monthly_budget_usd !== undefined ? budgetMicros(body.monthly_budget_usd) : undefined,
      alerts: body.alerts ? JSON.stringify({ ...row.alerts, ...body.alerts }) : undefined,
      // A judge adds a figure to the ticks from now on; what is measured is the same: no new version.
      judge: judge === undefined ? undefined : judge === null ? null : JSON.stringify(judge),
      ...(changed
        ? {
            version: row.version + 1,
            prompts: JSON.stringify(after.prompts),
            engines: arrayParam(after.engines),
            runs: after.runs,
            location: after.location === null || after.location === undefined ? null : JSON.stringify(after.location),
            language: after.language,
            entities: JSON.stringify(after.entities),
          }
        : {}),
    });
  });
  const row = (await monitorRow(standalone(), current.id, now))!;
  const [prompts, figures] = await Promise.all([monitorPrompts(standalone(), row.id), lastTickFiguresOf([row])]);
  return presentMonitor(row, prompts, figures);
}

/** DELETE /monitors/{id}: the monitor and its ticks; the fanouts and analyses they made stay. */
export async function deleteMonitor(principal: Principal, monitorId: string): Promise<void> {
  const row = await reachableMonitorRow(principal, monitorId);
  await DELETE_MONITOR.query(standalone(), { monitor: row.id });
}

/** POST /monitors/{id}/webhook-secret/rotate: a new secret, shown once; the old one no longer signs. */
export async function rotateWebhookSecret(principal: Principal, monitorId: string) {
  const row = await reachableMonitorRow(principal, monitorId);
  const secret = newWebhookSecret();
  await SET_WEBHOOK_SECRET.query(standalone(), { monitor: row.id, secret: sealWebhookSecret(secret), touched: new Date() });
  return presentWithSecret(row.id, secret);
}

/** POST /monitors/{id}/run: a tick now, in the caller's name (also while paused). */
export async function runMonitor(principal: Principal, monitorId: string, now = new Date()) {
  const row = await reachableMonitorRow(principal, monitorId);
  const tickId = await runTickNow(row, { userId: principal.user.id, apiKeyId: principal.apiKeyId }, now);
  // A tick skipped now alerts like a scheduled one; the tick stands whatever happens to its alert.
  await alertTickOutcome(tickId).catch((error: unknown) => log.error("a skipped tick's alert could not be raised", { tick_id: tickId, error }));
  const tick = (await tickRow(standalone(), tickId))!;
  return presentTick(tick, await tickFiguresOf([{ tick, monitor: row }]));
}

// ---------------------------------------------------------------------------
// POST /monitors/estimate: what a monitor would run each tick, what a tick and a month would cost
// at the current rate card, how precise each tick's rates will be and how large a change between
// two ticks its alerts would catch (decisions.md "Statistics users can plan with"). Creates, holds
// and resolves nothing.
// ---------------------------------------------------------------------------

/** The most ticks a month holds: every day, 31; every week, 5. */
const TICKS_PER_MONTH = { day: 31, week: 5 } as const;

export async function estimateMonitor(principal: Principal, body: CreateBody): Promise<z.input<typeof MonitorEstimate>> {
  const project = await getProjectOrThrow(principal, body.project);
  const engines = resolveEngines(body.engines, engineConfig().enabled);
  const runs = body.runs ?? MONITOR_LIMITS.runs.fallback;
  await checkSources(standalone(), project.workspaceId, { project: project.id, prompts: body.prompts });
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
