// What a monitor's dashboard draws (its signed-in page and its share page): per metric every
// entity's series over all engines, and visibility per engine, for one version. Read from the
// completed ticks' visibility analyses (each tick's analysis_id -> its rows), each point with its
// n, interval and the change from the previous completed tick (lib/stats changeTest at 1 - 0.05/m
// over the entity x engine cells, "all" included, and the monitor's min_change).
//
// No access check: the caller has read the monitor through a credential or a working share.
// monitorDashboard is the one function the pages call, so the series read can change behind it.
import { defineStatement, json, text, date } from "../db/statement";
import { standalone, type SqlSession } from "../db/sql";
import { changeTest } from "../stats/change";
import { monitorRow } from "./read";

export type Metric = "visibility" | "share_of_voice" | "cited_rate" | "average_position" | "top3_rate";
export const METRICS: readonly Metric[] = ["visibility", "share_of_voice", "cited_rate", "average_position", "top3_rate"];

export type Point = {
  tick_id: string;
  at: string;
  runs: number;
  value: number | null;
  interval: [number, number] | null;
  change: { diff: number; interval: [number, number]; significant: boolean } | null;
};

export type EntitySeries = { entity: string; points: Point[] };

export type Dashboard = {
  version: number;
  metrics: Array<{ metric: Metric; series: EntitySeries[] }>;
  byEngine: Array<{ engine: string; series: EntitySeries[] }>;
};

/** The figures a stored visibility analysis keeps per entity and per engine (lib/visibility/analysis.ts). */
type Figures = {
  runs: number;
  runs_mentioning: number;
  visibility: number;
  visibility_interval: [number, number];
  share_of_voice: number | null;
  share_of_voice_n: number;
  average_position: number | null;
  average_position_interval: [number, number] | null;
  runs_top3: number;
  top3_rate: number;
  top3_rate_interval: [number, number];
  runs_citing: number;
  cited_rate: number;
  cited_rate_interval: [number, number];
};

type Row = Figures & { name: string; by_engine: Array<Figures & { engine: string }> };

const TICK_FIGURES = defineStatement({
  label: "monitor_dashboard_ticks",
  params: ["monitor", "version"],
  columns: { id: text("t.id"), at: date("t.scheduled_for"), rows: json<Row[] | null>("a.result->'rows'") },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM monitor_ticks t JOIN analyses a ON a.id = t.analysis_id AND a.status = 'completed' ` +
    `WHERE t.monitor_id = ${p.monitor} AND t.version = ${p.version}::int AND t.status IN ('completed', 'partial') ORDER BY t.scheduled_for, t.id`,
});

/** A metric's value, interval and counts (successes over trials, for the change test) in one group's figures. */
function reading(metric: Metric, f: Figures): { value: number | null; interval: [number, number] | null; count: { successes: number; trials: number } | null } {
  switch (metric) {
    case "visibility":
      return { value: f.visibility, interval: f.visibility_interval, count: { successes: f.runs_mentioning, trials: f.runs } };
    case "share_of_voice":
      return { value: f.share_of_voice, interval: null, count: f.share_of_voice_n > 0 ? { successes: f.runs_mentioning, trials: f.share_of_voice_n } : null };
    case "cited_rate":
      return { value: f.cited_rate, interval: f.cited_rate_interval, count: { successes: f.runs_citing, trials: f.runs } };
    case "top3_rate":
      return { value: f.top3_rate, interval: f.top3_rate_interval, count: { successes: f.runs_top3, trials: f.runs } };
    case "average_position":
      return { value: f.average_position, interval: f.average_position_interval, count: null };
  }
}

type Tick = { id: string; at: Date; rows: Row[] };

/** One entity's series of a metric in one group (`engine` null: all engines). */
function seriesOf(ticks: readonly Tick[], entity: string, metric: Metric, engine: string | null, m: number, minChange: number): Point[] {
  const points: Point[] = [];
  let before: ReturnType<typeof reading> | null = null;
  for (const tick of ticks) {
    const row = tick.rows.find((r) => r.name === entity);
    const f = row && (engine === null ? row : row.by_engine.find((g) => g.engine === engine));
    if (!f) continue;
    const now = reading(metric, f);
    const change =
      before?.count && now.count && before.count.trials > 0 && now.count.trials > 0
        ? (({ diff, interval, significant }) => ({ diff, interval, significant }))(changeTest(before.count, now.count, { m, minChange }))
        : null;
    points.push({ tick_id: tick.id, at: tick.at.toISOString(), runs: f.runs, value: now.value, interval: now.interval, change });
    before = now;
  }
  return points;
}

/**
 * The dashboard of a monitor's current version (its entities and engines as it measures them now,
 * its alerts' min_change), or null when there is no such monitor.
 */
export async function monitorDashboard(monitorId: string, session: SqlSession = standalone()): Promise<Dashboard | null> {
  const monitor = await monitorRow(session, monitorId);
  if (!monitor) return null;
  const ticks = (await TICK_FIGURES.query(session, { monitor: monitor.id, version: monitor.version })).map((t) => ({ id: t.id, at: t.at, rows: t.rows ?? [] }));
  const names = monitor.entities.map((e) => e.name);
  // The cells compared at each tick: every entity on every engine and on all of them together.
  const m = Math.max(1, names.length * (monitor.engines.length + 1));
  const minChange = monitor.alerts.min_change;
  const all = (metric: Metric, engine: string | null) => names.map((entity) => ({ entity, points: seriesOf(ticks, entity, metric, engine, m, minChange) }));
  return {
    version: monitor.version,
    metrics: METRICS.map((metric) => ({ metric, series: all(metric, null) })),
    byEngine: monitor.engines.map((engine) => ({ engine, series: all("visibility", engine) })),
  };
}
