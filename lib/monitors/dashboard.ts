// What a monitor's dashboard draws (its signed-in page and its share page): per metric every
// entity's series over all engines, and visibility per engine, for its current version. The
// series are GET /monitors/{id}/series's own (lib/monitors/series.ts: the ticks' stored figures,
// each point with its n, interval and change), read in one statement for every cell and metric.
//
// No access check: the caller has read the monitor through a credential or a working share.
import { standalone, type SqlSession } from "../db/sql";
import { SERIES_METRICS } from "../schemas/monitors";
import { monitorRow } from "./read";
import { pointsOf, SERIES_FIGURES, type FigureRow, type Metric, type SeriesPoint } from "./series";

export type { Metric } from "./series";
export const METRICS: readonly Metric[] = SERIES_METRICS;

export type EntitySeries = { entity: string; points: SeriesPoint[] };

export type Dashboard = {
  version: number;
  metrics: Array<{ metric: Metric; series: EntitySeries[] }>;
  byEngine: Array<{ engine: string; series: EntitySeries[] }>;
};

/**
 * The dashboard of a monitor's current version (its entities and engines as it measures them now,
 * its alerts' min_change), or null when there is no such monitor.
 */
export async function monitorDashboard(monitorId: string, session: SqlSession = standalone()): Promise<Dashboard | null> {
  const monitor = await monitorRow(session, monitorId);
  if (!monitor) return null;
  const rows = await SERIES_FIGURES.query(session, { monitor: monitor.id, version: monitor.version });
  const cells = new Map<string, FigureRow[]>();
  for (const row of rows) {
    const key = `${row.entity}\u0000${row.engine}`;
    (cells.get(key) ?? cells.set(key, []).get(key)!).push(row);
  }
  const minChange = monitor.alerts.min_change ?? 10;
  const names = monitor.entities.map((e) => e.name);
  const all = (metric: Metric, engine: string) => names.map((entity) => ({ entity, points: pointsOf(metric, cells.get(`${entity}\u0000${engine}`) ?? [], minChange) }));
  return {
    version: monitor.version,
    metrics: METRICS.map((metric) => ({ metric, series: all(metric, "all") })),
    byEngine: monitor.engines.map((engine) => ({ engine, series: all("visibility", engine) })),
  };
}
