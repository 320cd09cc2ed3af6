// Reading monitors and their ticks: typed statements (lib/db/statement.ts) and the one presenter
// of each. A tick's status and charge are stored once it closes; while its fanout runs they are
// read from the fanout's runs and their holds, so a tick always says what its fanout says.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { formatUsd } from "../billing/money";
import { billingSettings } from "../billing/settings";
import { holdJoin, holdSumsSql } from "../billing/store";
import { allOf, bool, date, defineStatement, group, int, json, micros, optional, text, type RowOf } from "../db/statement";
import { standalone, type SqlSession } from "../db/sql";
import { notFound } from "../http/errors";
import { decodeCursor, pageOf } from "../http/pagination";
import { getProjectOrThrow } from "../projects/read";
import { tickLiveRunsSql } from "../runs/fanout-runs";
import { statusOfCounts } from "../runs/status";
import type { Monitor, MonitorList, MonitorPrompt, MonitorsQuery, MonitorSummary, Tick, TickList, TickSummary } from "../schemas/monitors";
import type { ENGINE_IDS } from "../schemas/common";
import type { Entity } from "../schemas/visibility";
import { readableSql, readerOf, type Reader } from "../shares/access";
import { reachableSql, reachOf, requireWorkspace } from "../workspaces/access";
import { tickSummary } from "../words/ticks";
import { monthStart, scheduleOf, type Every } from "./schedule";
import { seriesOf, tickFigures, type SeriesBody, type TickFigures } from "./series";

/** A timestamp parameter as the project writes them: the UTC wall time of timestamp(3). */
const at = (param: string) => `${param}::timestamptz AT TIME ZONE 'UTC'`;

/**
 * A tick's live figures from its fanout's runs and their holds, only while it is open (a closed
 * tick's are stored): joined as `${a}` for the tick `${t}`.
 */
const liveJoin = (t: string, a: string) => `LEFT JOIN LATERAL ${tickLiveRunsSql(`${t}.fanout_id`, `${t}.completed_at IS NULL`)} ${a} ON true`;

/** One comparison of a tick's fanout, as stored (monitor_ticks.comparisons): the pair of engines (an API and its app) and the comparison's id. */
export type TickComparison = { a: string; b: string; analysis_id: string };

/** A tick's columns (alias t) and its live figures (alias a, from liveJoin). */
export const tickColumns = (t: string, a: string) => ({
  id: text(`${t}.id`),
  monitorId: text(`${t}.monitor_id`),
  version: int(`${t}.version`),
  scheduledFor: date(`${t}.scheduled_for`),
  trigger: text<"schedule" | "manual">(`${t}.trigger`),
  status: text<z.output<typeof Tick>["status"]>(`${t}.status`),
  skipReason: text<"insufficient_credit" | "budget_exhausted">(`${t}.skip_reason`).nullable,
  fanoutId: text(`${t}.fanout_id`).nullable,
  analysisId: text(`${t}.analysis_id`).nullable,
  comparisons: json<TickComparison[]>(`${t}.comparisons`),
  chargedMicros: micros(`${t}.charged_micros`).nullable,
  judgeEngine: text(`${t}.judge_engine`).nullable,
  judgeHoldId: text(`${t}.judge_hold_id`).nullable,
  error: json(`${t}.error`).nullable,
  createdAt: date(`${t}.created_at`),
  completedAt: date(`${t}.completed_at`).nullable,
  live: group({
    queued: int(`${a}.queued`),
    running: int(`${a}.running`),
    completed: int(`${a}.completed`),
    failed: int(`${a}.failed`),
    started: bool(`${a}.started`),
    captured: micros(`${a}.captured`),
  }),
});

export type TickRow = RowOf<ReturnType<typeof tickColumns>>;

/**
 * What a monitor's ticks count against its budget this UTC month (`month`, a timestamp in SQL):
 * the charges of the ticks that finished this month, and what the open ones hold and have paid
 * this month.
 */
export const monitorSpendSql = (m: string, month: string) => {
  const sums = holdSumsSql("h", month);
  return (
    `((SELECT COALESCE(sum(ct.charged_micros), 0) FROM monitor_ticks ct WHERE ct.monitor_id = ${m}.id AND ct.completed_at >= ${month}) + ` +
    `(SELECT ${sums.held} + ${sums.capturedSince} FROM monitor_ticks ot JOIN runs r ON r.fanout_id = ot.fanout_id ${holdJoin("h", "r.id")} ` +
    `WHERE ot.monitor_id = ${m}.id AND ot.completed_at IS NULL) + ` +
    // An open tick's judge hold (judged monitors): what it holds, and what it captured this month.
    `(SELECT ${sums.held} + ${sums.capturedSince} FROM monitor_ticks jt JOIN credit_holds h ON h.id = jt.judge_hold_id ` +
    `WHERE jt.monitor_id = ${m}.id AND jt.completed_at IS NULL))`
  );
};

/**
 * A monitor's columns (alias mo, its creator u, its last tick lt with its live figures la). The
 * alias keeps clear of the access rule's own (`reach`, lib/workspaces/access.ts).
 */
const monitorColumns = (month: string) => ({
  id: text("mo.id"),
  workspaceId: text("mo.workspace_id"),
  projectId: text("mo.project_id"),
  name: text("mo.name"),
  status: text<"active" | "paused">("mo.status"),
  version: int("mo.version"),
  promptCount: int("jsonb_array_length(mo.prompts)"),
  engines: json<string[]>("array_to_json(mo.engines)"),
  runsPerPrompt: int("mo.runs_per_prompt"),
  location: json("mo.location").nullable,
  language: text("mo.language").nullable,
  entities: json<Entity[]>("mo.entities"),
  every: text<Every>("mo.schedule_every"),
  minute: int("mo.schedule_minute"),
  weekday: int("mo.schedule_weekday").nullable,
  nextRunAt: date("mo.next_run_at"),
  budgetMicros: micros("mo.monthly_budget_micros").nullable,
  alerts: json<{ webhook_url: string | null; email: boolean; min_change: number; digest?: "off" | "weekly" }>("mo.alerts"),
  judge: json<{ engine: string; sentiment: true }>("mo.judge").nullable,
  createdAt: date("mo.created_at"),
  createdByUserId: text("mo.created_by_user_id").nullable,
  apiKeyId: text("mo.api_key_id").nullable,
  createdBy: optional({ email: text("u.email") }, "u.id IS NOT NULL"),
  spendMicros: micros(monitorSpendSql("mo", month)),
  lastTick: optional(tickColumns("lt", "la"), "lt.id IS NOT NULL"),
});

export type MonitorRow = RowOf<ReturnType<typeof monitorColumns>>;

const monitorFrom =
  `monitors mo LEFT JOIN users u ON u.id = mo.created_by_user_id ` +
  `LEFT JOIN LATERAL (SELECT * FROM monitor_ticks WHERE monitor_id = mo.id ORDER BY id DESC LIMIT 1) lt ON true ${liveJoin("lt", "la")}`;

/** One monitor; with a credential (`user`) or a working share (`share`), only one the reader may read (lib/shares/access.ts). */
const MONITOR = defineStatement({
  label: "monitor",
  params: ["user", "own", "share", "monitor", "month"],
  columns: (p) => monitorColumns(at(p.month)),
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM ${monitorFrom} WHERE mo.id = ${p.monitor}` + (given.user || given.share ? ` AND ${readableSql("mo", p, given)}` : ""),
});

const MONITOR_LIST = defineStatement({
  label: "monitors",
  params: ["user", "own", "workspace", "project", "before", "limit", "month"],
  columns: (p) => monitorColumns(at(p.month)),
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM ${monitorFrom} WHERE ` +
    allOf(
      given.workspace ? `mo.workspace_id = ${p.workspace}` : reachableSql("mo", p),
      given.project && `mo.project_id = ${p.project}`,
      given.before && `mo.id < ${p.before}`,
    ) +
    ` ORDER BY mo.id DESC LIMIT ${p.limit}::int`,
});

const TICKS = defineStatement({
  label: "monitor_ticks",
  params: ["monitor", "tick", "before", "limit"],
  columns: tickColumns("t", "a"),
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM monitor_ticks t ${liveJoin("t", "a")} WHERE ` +
    allOf(given.monitor && `t.monitor_id = ${p.monitor}`, given.tick && `t.id = ${p.tick}`, given.before && `t.id < ${p.before}`) +
    ` ORDER BY t.id DESC` +
    (given.limit ? ` LIMIT ${p.limit}::int` : ""),
});

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A tick's status: stored once closed; while its fanout runs, the fanout's (running until the tick closes). */
function tickStatus(row: TickRow): z.input<typeof Tick>["status"] {
  if (row.completedAt || !row.fanoutId) return row.status;
  return statusOfCounts(row.live, row.live.started) === "queued" ? "queued" : "running";
}

type EngineIdValue = (typeof ENGINE_IDS)[number];

/** `figures`: what tickFiguresOf read for the tick's summary (a tick not in it has no figures yet). */
export function presentTickSummary(row: TickRow, figures: TickFigures, billingEnabled = billingSettings().enabled): z.input<typeof TickSummary> {
  const charged = row.completedAt ? (row.chargedMicros ?? 0n) : row.live.captured;
  const status = tickStatus(row);
  return {
    id: row.id,
    version: row.version,
    scheduled_for: row.scheduledFor.toISOString(),
    trigger: row.trigger,
    status,
    skip_reason: row.skipReason,
    summary: tickSummary({ status, figures: figures.get(row.id) ?? null }),
    fanout_id: row.fanoutId,
    analysis_id: row.analysisId,
    comparisons: row.comparisons.map((c) => ({ a: c.a as EngineIdValue, b: c.b as EngineIdValue, analysis_id: c.analysis_id })),
    charged_usd: billingEnabled ? formatUsd(charged) : null,
    error: (row.error ?? null) as z.input<typeof Tick>["error"],
    created_at: row.createdAt.toISOString(),
    completed_at: iso(row.completedAt),
  };
}

export function presentTick(row: TickRow, figures: TickFigures, billingEnabled = billingSettings().enabled): z.input<typeof Tick> {
  return { ...presentTickSummary(row, figures, billingEnabled), monitor_id: row.monitorId };
}

type Deciding = Pick<MonitorRow, "alerts" | "entities">;

/** What the summaries of `ticks` read, each tick with the monitor that decides its test (min_change) and its brands: one statement. */
export function tickFiguresOf(ticks: readonly { tick: Pick<TickRow, "id" | "analysisId">; monitor: Deciding }[], session: SqlSession = standalone()): Promise<TickFigures> {
  return tickFigures(
    ticks
      .filter((t) => t.tick.analysisId !== null)
      .map((t) => ({ tickId: t.tick.id, minChange: t.monitor.alerts.min_change ?? 10, brands: t.monitor.entities.filter((e) => e.role === "brand").map((e) => e.name) })),
    session,
  );
}

/** What the last ticks' summaries of `monitors` read. */
export const lastTickFiguresOf = (monitors: readonly MonitorRow[], session: SqlSession = standalone()) =>
  tickFiguresOf(monitors.flatMap((m) => (m.lastTick ? [{ tick: m.lastTick, monitor: m }] : [])), session);

function summaryFieldsOf(row: MonitorRow, figures: TickFigures) {
  return {
    id: row.id,
    project: row.projectId,
    name: row.name,
    status: row.status,
    version: row.version,
    engines: row.engines as z.input<typeof Monitor>["engines"],
    runs: row.runsPerPrompt,
    schedule: scheduleOf({ every: row.every, minute: row.minute, weekday: row.weekday }),
    location: (row.location ?? null) as z.input<typeof Monitor>["location"],
    language: row.language,
    entities: row.entities,
    monthly_budget_usd: row.budgetMicros === null ? null : formatUsd(row.budgetMicros),
    // Monitors made before the digest have no alerts.digest: off.
    alerts: { webhook_url: row.alerts.webhook_url, email: row.alerts.email, min_change: row.alerts.min_change, digest: row.alerts.digest ?? "off" },
    judge: (row.judge ?? null) as z.input<typeof Monitor>["judge"],
    next_run_at: row.nextRunAt.toISOString(),
    last_tick: row.lastTick ? presentTickSummary(row.lastTick, figures) : null,
    spend_month_to_date_usd: formatUsd(row.spendMicros),
    created_at: row.createdAt.toISOString(),
    created_by: row.createdBy?.email ?? null,
  };
}

type StoredPrompt = { text: string; source?: z.input<typeof MonitorPrompt>["source"]; location?: z.input<typeof MonitorPrompt>["location"]; language?: string | null };

/** `figures`: what its last tick's summary reads (lastTickFiguresOf). */
export function presentMonitor(row: MonitorRow, prompts: readonly StoredPrompt[], figures: TickFigures): z.input<typeof Monitor> {
  return {
    ...summaryFieldsOf(row, figures),
    prompts: prompts.map((p) => ({ text: p.text, source: p.source ?? null, location: p.location ?? null, language: p.language ?? null })),
  };
}

function presentMonitorSummary(row: MonitorRow, figures: TickFigures): z.input<typeof MonitorSummary> {
  return { ...summaryFieldsOf(row, figures), prompt_count: row.promptCount };
}

const PROMPTS = defineStatement({
  label: "monitor_prompts",
  params: ["monitor"],
  columns: { prompts: json<StoredPrompt[]>("m.prompts") },
  sql: ({ select, p }) => `SELECT ${select} FROM monitors m WHERE m.id = ${p.monitor}`,
});

/** A monitor as its row (no access check: the caller decided), or null when there is none. */
export async function monitorRow(session: SqlSession, monitorId: string, now = new Date()): Promise<MonitorRow | null> {
  return (await MONITOR.first(session, { monitor: monitorId, month: monthStart(now) })) ?? null;
}

/** A monitor the credential can reach, as its row; 404 otherwise, exactly as a missing one. */
export async function reachableMonitorRow(principal: Principal, monitorId: string, session: SqlSession = standalone()): Promise<MonitorRow> {
  const row = await MONITOR.first(session, { ...reachOf(principal), monitor: monitorId, month: monthStart(new Date()) });
  if (!row) throw notFound("monitor", monitorId);
  return row;
}

/** The monitor's prompts as stored. */
export async function monitorPrompts(session: SqlSession, monitorId: string): Promise<StoredPrompt[]> {
  return (await PROMPTS.first(session, { monitor: monitorId }))?.prompts ?? [];
}

/** GET /monitors/{id}. */
export async function getMonitor(principal: Principal, monitorId: string): Promise<z.input<typeof Monitor>> {
  const row = await reachableMonitorRow(principal, monitorId);
  const [prompts, figures] = await Promise.all([monitorPrompts(standalone(), row.id), lastTickFiguresOf([row])]);
  return presentMonitor(row, prompts, figures);
}

/**
 * GET /monitors/{id} for a credential or a working share link (lib/shares/access.ts), or null
 * when the reader cannot read the monitor (out of reach, revoked, deleted).
 */
export async function readMonitor(reader: Reader, monitorId: string): Promise<z.input<typeof Monitor> | null> {
  const row = await MONITOR.first(standalone(), { ...readerOf(reader), monitor: monitorId, month: monthStart(new Date()) });
  if (!row) return null;
  const [prompts, figures] = await Promise.all([monitorPrompts(standalone(), row.id), lastTickFiguresOf([row])]);
  return presentMonitor(row, prompts, figures);
}

/** GET /monitors. */
export async function listMonitors(principal: Principal, query: z.output<typeof MonitorsQuery>): Promise<z.input<typeof MonitorList>> {
  // A filter naming something the credential cannot reach answers 404, like reading it would.
  const workspace = query.workspace ? (await requireWorkspace(principal, query.workspace)).workspace.id : undefined;
  const project = query.project ? (await getProjectOrThrow(principal, query.project)).id : undefined;
  const rows = await MONITOR_LIST.query(standalone(), {
    ...reachOf(principal),
    workspace,
    project,
    before: query.cursor ? decodeCursor(query.cursor, "mo") : undefined,
    limit: query.limit + 1,
    month: monthStart(new Date()),
  });
  const page = pageOf(rows, query.limit);
  const figures = await lastTickFiguresOf(page.items);
  return { items: page.items.map((row) => presentMonitorSummary(row, figures)), next_cursor: page.next_cursor };
}

/** One tick by its id (no access check), or null. */
export async function tickRow(session: SqlSession, tickId: string): Promise<TickRow | null> {
  return (await TICKS.first(session, { tick: tickId })) ?? null;
}

/** GET /monitors/{id}/ticks: newest first. */
export async function listTicks(principal: Principal, monitorId: string, query: { limit: number; cursor?: string }): Promise<z.input<typeof TickList>> {
  const monitor = await reachableMonitorRow(principal, monitorId);
  const rows = await TICKS.query(standalone(), { monitor: monitor.id, before: query.cursor ? decodeCursor(query.cursor, "mt") : undefined, limit: query.limit + 1 });
  const page = pageOf(rows, query.limit);
  const billingEnabled = billingSettings().enabled;
  const figures = await tickFiguresOf(page.items.map((tick) => ({ tick, monitor })));
  return { items: page.items.map((row) => presentTick(row, figures, billingEnabled)), next_cursor: page.next_cursor };
}

/** GET /monitors/{id}/series: one cell's series of a monitor the caller can read. */
export async function getSeries(principal: Principal, monitorId: string, query: Parameters<typeof seriesOf>[1]): Promise<SeriesBody> {
  return seriesOf(await reachableMonitorRow(principal, monitorId), query);
}
