// A project's monitor overview (GET /projects/{id}/monitor-overview, its page and the CLI): every
// monitor of the project with, per entity of its current version over all engines, the latest
// point, the last points as a sparkline and the change since the latest point a week and a month
// older, tested by the series' own changeOf (docs/decisions.md "Project monitor overview").
// Three statements whatever the number of monitors: the project (its access check), its monitors
// (access in the SQL) and every cell's figures (a few index ranges per cell, no analysis read).
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { date, defineStatement, int, json, text } from "../db/statement";
import { standalone, type SqlSession } from "../db/sql";
import { getProjectOrThrow } from "../projects/read";
import type { Entity } from "../schemas/visibility";
import { SINCE_DAYS, SPARKLINE_POINTS, type MonitorOverview, type OverviewChange, type OverviewEntity, type OverviewMonitor } from "../schemas/overview";
import { reachableSql, reachOf } from "../workspaces/access";
import { overviewSummary, type OverviewFacts, type OverviewShift } from "../words/overview";
import type { Tally } from "../words/sentences";
import { changeOf, figureColumns, pointsOf, type FigureRow } from "./series";

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
  const facts: OverviewFacts = { monitors: read.map(({ monitor, entities }) => ({ name: monitor.name, entities: entities.map((e) => e.facts) })) };
  return { project: { id: project.id, name: project.name }, monitors: body, summary: overviewSummary(facts) };
}
