// Reading monitors and their ticks (typed statements, lib/db/statement.ts; the rows they answer
// are ./rows.ts's, shown by ./present.ts), and a project's monitor overview. A tick's status and
// charge are stored once it closes; while its fanout runs they are read from the fanout's runs and
// their holds, so a tick always says what its fanout says.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { billingSettings } from "../billing/settings";
import { readWaiting } from "../changes/wait";
import { allOf, atUtc, date, defineStatement, int, json, text } from "../db/statement";
import { standalone, type SqlSession } from "../db/sql";
import { notFound } from "../http/errors";
import { decodeCursor, pageOf } from "../http/pagination";
import { getProjectOrThrow } from "../projects/read";
import { tickLiveRunsSql } from "../runs/fanout-runs";
import type { Monitor, MonitorList, MonitorsQuery, Tick, TickList } from "../schemas/monitors";
import { SINCE_DAYS, SPARKLINE_POINTS, type MonitorOverview, type OverviewChange, type OverviewEntity, type OverviewMonitor } from "../schemas/overview";
import type { Entity } from "../schemas/visibility";
import { readableSql, readerOf, type Reader } from "../shares/access";
import { reachableSql, reachOf, requireWorkspace } from "../workspaces/access";
import { overviewSummary, type OverviewFacts, type OverviewShift } from "../words/overview";
import type { Tally } from "../words/sentences";
import { presentMonitor, presentMonitorSummary, presentTick } from "./present";
import { monitorColumns, tickColumns, tickWorkColumns, type MonitorRow, type StoredPrompt, type TickRow, type TickWork } from "./rows";
import { monthStart } from "./schedule";
import { changeOf, figureColumns, pointsOf, seriesOf, tickFigures, type FigureRow, type SeriesBody, type TickFigures } from "./series";

/**
 * A tick's live figures from its fanout's runs and their holds, only while it is open (a closed
 * tick's are stored): joined as `${a}` for the tick `${t}`.
 */
const liveJoin = (t: string, a: string) => `LEFT JOIN LATERAL ${tickLiveRunsSql(`${t}.fanout_id`, `${t}.completed_at IS NULL`)} ${a} ON true`;

const monitorFrom =
  `monitors mo LEFT JOIN users u ON u.id = mo.created_by_user_id ` +
  `LEFT JOIN LATERAL (SELECT * FROM monitor_ticks WHERE monitor_id = mo.id ORDER BY id DESC LIMIT 1) lt ON true ${liveJoin("lt", "la")}`;

/** One monitor; with a credential (`user`) or a working share (`share`), only one the reader may read (lib/shares/access.ts). */
const MONITOR = defineStatement({
  label: "monitor",
  params: ["user", "own", "share", "monitor", "month"],
  columns: (p) => monitorColumns(atUtc(p.month)),
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM ${monitorFrom} WHERE mo.id = ${p.monitor}` + (given.user || given.share ? ` AND ${readableSql("mo", p, given)}` : ""),
});

const MONITOR_LIST = defineStatement({
  label: "monitors",
  params: ["user", "own", "workspace", "project", "before", "limit", "month"],
  columns: (p) => monitorColumns(atUtc(p.month)),
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

const TICK_WORK = defineStatement({
  label: "monitor_tick_work",
  params: ["tick"],
  columns: tickWorkColumns,
  sql: ({ select, p }) =>
    `SELECT ${select} FROM monitor_ticks t LEFT JOIN monitors mo ON mo.id = t.monitor_id LEFT JOIN users u ON u.id = mo.created_by_user_id WHERE t.id = ${p.tick}`,
});

/**
 * One tick by its id (no access check) and its monitor (null when gone), as the tick's background
 * steps read them: one statement without the live figures and spend the pages show; null when the
 * tick is missing.
 */
export async function tickWork(session: SqlSession, tickId: string): Promise<TickWork | null> {
  return (await TICK_WORK.first(session, { tick: tickId })) ?? null;
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

/**
 * GET /monitors/{id}/ticks/{tick_id}: one tick of a monitor the caller can read (404 for a tick of
 * another monitor, as for a missing one); with `wait`, returned once it has closed (its close and
 * an unstarted tick's end notify it: lib/monitors/ticks.ts) or the wait is over.
 */
export async function getTick(principal: Principal, monitorId: string, tickId: string, options: { wait?: number; signal?: AbortSignal } = {}): Promise<z.input<typeof Tick>> {
  const monitor = await reachableMonitorRow(principal, monitorId);
  const ofMonitor = async () => {
    const row = await tickRow(standalone(), tickId);
    return row && row.monitorId === monitor.id ? row : null;
  };
  const read = async () => {
    const row = await ofMonitor();
    return row ? { row, finished: row.completedAt !== null } : null;
  };
  const { row } = await readWaiting(tickId, read, {
    ...options,
    isFinished: async () => ((await ofMonitor())?.completedAt ?? null) !== null,
    missing: () => notFound("tick", tickId),
  });
  const figures = await tickFiguresOf([{ tick: row, monitor }]);
  return presentTick(row, figures, billingSettings().enabled);
}

/** GET /monitors/{id}/series: one cell's series of a monitor the caller can read. */
export async function getSeries(principal: Principal, monitorId: string, query: Parameters<typeof seriesOf>[1]): Promise<SeriesBody> {
  return seriesOf(await reachableMonitorRow(principal, monitorId), query);
}

// ---------------------------------------------------------------------------
// A project's monitor overview (GET /projects/{id}/monitor-overview, its page and the CLI): every
// monitor of the project with, per entity of its current version over all engines, the latest
// point, the last points as a sparkline and the change since the latest point a week and a month
// older, tested by the series' own changeOf (docs/decisions.md "Project monitor overview").
// Three statements whatever the number of monitors: the project (its access check), its monitors
// (access in the SQL) and every cell's figures (a few index ranges per cell, no analysis read).
// ---------------------------------------------------------------------------

export type OverviewBody = z.input<typeof MonitorOverview>;
type ChangeBody = z.input<typeof OverviewChange>;

/** The project's monitors the credential can read, newest first, with what the overview needs. */
const OVERVIEW_MONITORS = defineStatement({
  label: "monitor_overview_monitors",
  params: ["user", "own", "project"],
  columns: {
    id: text("mo.id"),
    name: text("mo.name"),
    status: text<"active" | "paused">("mo.status"),
    version: int("mo.version"),
    engines: json<string[]>("array_to_json(mo.engines)"),
    entities: json<Entity[]>("mo.entities"),
    minChange: int("COALESCE((mo.alerts->>'min_change')::int, 10)"),
    lastTickAt: date("(SELECT t.scheduled_for FROM monitor_ticks t WHERE t.monitor_id = mo.id ORDER BY t.id DESC LIMIT 1)").nullable,
  },
  sql: ({ select, p }) => `SELECT ${select} FROM monitors mo WHERE mo.project_id = ${p.project} AND ${reachableSql("mo", p)} ORDER BY mo.id DESC`,
});

/** One cell's figures of engine "all" of the current version, counted ones, newest first (the index's range read backwards). */
const cellRange = (cell: string) =>
  `FROM monitor_tick_figures g WHERE g.monitor_id = ${cell}.monitor_id AND g.version = ${cell}.version AND g.entity = ${cell}.entity AND g.engine = 'all' AND g.counted`;

/**
 * For every entity of every monitor of the project (its current version, engine "all"): its last
 * SPARKLINE_POINTS points (`recent`), and the latest point at least SINCE_DAYS.week (`week`) and
 * SINCE_DAYS.month (`month`) days older than its latest. Each a LIMIT on the series' index.
 */
export const OVERVIEW_FIGURES = defineStatement({
  label: "monitor_overview_figures",
  params: ["project"],
  columns: { kind: text<"recent" | "week" | "month">("f.kind"), monitorId: text("f.monitor_id"), ...figureColumns },
  sql: ({ select, p }) =>
    `WITH cell AS (SELECT mo.id AS monitor_id, mo.version, e.value->>'name' AS entity FROM monitors mo CROSS JOIN LATERAL jsonb_array_elements(mo.entities) e WHERE mo.project_id = ${p.project}),
    recent AS (SELECT 'recent'::text AS kind, r.* FROM cell CROSS JOIN LATERAL (SELECT g.* ${cellRange("cell")} ORDER BY g.at DESC LIMIT ${SPARKLINE_POINTS}) r),
    latest AS (SELECT DISTINCT ON (r.monitor_id, r.entity) r.monitor_id, r.version, r.entity, r.at FROM recent r ORDER BY r.monitor_id, r.entity, r.at DESC)
    SELECT ${select} FROM (
      SELECT * FROM recent
      UNION ALL SELECT 'week'::text, w.* FROM latest CROSS JOIN LATERAL (SELECT g.* ${cellRange("latest")} AND g.at <= latest.at - interval '${SINCE_DAYS.week} days' ORDER BY g.at DESC LIMIT 1) w
      UNION ALL SELECT 'month'::text, m.* FROM latest CROSS JOIN LATERAL (SELECT g.* ${cellRange("latest")} AND g.at <= latest.at - interval '${SINCE_DAYS.month} days' ORDER BY g.at DESC LIMIT 1) m
    ) f ORDER BY f.monitor_id, f.entity, f.at`,
});

type Cell = { recent: FigureRow[]; week?: FigureRow; month?: FigureRow };

/** A figure's visibility as the summary's sentences count it. */
function tallyOf(f: FigureRow, minChange: number): Tally {
  const [point] = pointsOf("visibility", [f], minChange);
  return { k: f.runsMentioning, n: f.runs, interval: point!.interval ?? [0, 1] };
}

/** The change from `from` to the latest point by the series' own test (changeOf at the monitor's min_change). */
function changeFrom(from: FigureRow | undefined, latest: FigureRow | undefined, minChange: number): { body: ChangeBody; shift: OverviewShift } | null {
  if (!from || !latest) return null;
  const test = changeOf("visibility", from, latest, minChange);
  if (!test) return null;
  const [point] = pointsOf("visibility", [from], minChange);
  return {
    body: { from_tick_at: from.at.toISOString(), from_value: point!.value ?? 0, from_n: point!.n, diff: test.diff, diff_interval: test.interval, significant: test.significant },
    shift: { before: tallyOf(from, minChange), test },
  };
}

type EntityFacts = OverviewFacts["monitors"][number]["entities"][number];

function entityOf(entity: Entity, cell: Cell | undefined, minChange: number): { body: z.input<typeof OverviewEntity>; facts: EntityFacts } {
  const points = pointsOf("visibility", cell?.recent ?? [], minChange);
  const last = points.at(-1);
  const latestRow = cell?.recent.at(-1);
  const week = changeFrom(cell?.week, latestRow, minChange);
  const month = changeFrom(cell?.month, latestRow, minChange);
  return {
    body: {
      name: entity.name,
      role: entity.role,
      latest: last && last.interval ? { value: last.value ?? 0, n: last.n, interval: last.interval, tick_at: last.at } : null,
      sparkline: points.map((p) => ({ tick_at: p.at, value: p.value ?? 0, n: p.n })),
      since_week: week?.body ?? null,
      since_month: month?.body ?? null,
    },
    facts: { name: entity.name, role: entity.role, latest: latestRow ? tallyOf(latestRow, minChange) : null, week: week?.shift ?? null, month: month?.shift ?? null },
  };
}

/** GET /projects/{id}/monitor-overview: 404 for a project the credential cannot reach. */
export async function monitorOverview(principal: Principal, projectId: string, session: SqlSession = standalone()): Promise<OverviewBody> {
  const project = await getProjectOrThrow(principal, projectId);
  const [monitors, figures] = await Promise.all([
    OVERVIEW_MONITORS.query(session, { ...reachOf(principal), project: project.id }),
    OVERVIEW_FIGURES.query(session, { project: project.id }),
  ]);
  const cells = new Map<string, Cell>();
  for (const row of figures) {
    // Rows come oldest first per cell: `recent` in the sparkline's order.
    const key = `${row.monitorId}\u0000${row.entity}`;
    const cell = cells.get(key) ?? cells.set(key, { recent: [] }).get(key)!;
    if (row.kind === "recent") cell.recent.push(row);
    else cell[row.kind] = row;
  }
  const read = monitors.map((m) => ({ monitor: m, entities: m.entities.map((e) => entityOf(e, cells.get(`${m.id}\u0000${e.name}`), m.minChange)) }));
  const body: z.input<typeof OverviewMonitor>[] = read.map(({ monitor: m, entities }) => ({
    id: m.id,
    name: m.name,
    status: m.status,
    engines: m.engines as z.input<typeof OverviewMonitor>["engines"],
    version: m.version,
    last_tick_at: m.lastTickAt ? m.lastTickAt.toISOString() : null,
    entities: entities.map((e) => e.body),
  }));
  const facts: OverviewFacts = { monitors: read.map(({ monitor, entities }) => ({ name: monitor.name, version: monitor.version, entities: entities.map((e) => e.facts) })) };
  return { project: { id: project.id, name: project.name }, monitors: body, summary: overviewSummary(facts) };
}
