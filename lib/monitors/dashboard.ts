// What a monitor's dashboard draws (its signed-in page and its share page): per metric every
// entity's series over all engines, and visibility per engine, for its current version or an
// earlier one that has figures (the signed-in page's `?version=`). The
// series are GET /monitors/{id}/series's own (lib/monitors/series.ts: the ticks' stored figures,
// each point with its n, interval and change), read in one statement for every cell and metric.
//
// No access check: the caller has read the monitor through a credential or a working share.
import { defineStatement, int } from "../db/statement";
import { standalone, type SqlSession } from "../db/sql";
import { SERIES_METRICS } from "../schemas/monitors";
import { monitorRow } from "./read";
import { pointsOf, sentimentCountsOf, SERIES_FIGURES, type FigureRow, type Metric, type SeriesPoint } from "./series";

export type { Metric } from "./series";
/** The metrics every monitor's dashboard draws; sentiment is drawn apart, only for a judged monitor. */
export const METRICS: readonly Metric[] = SERIES_METRICS.filter((m) => m !== "sentiment");

export type EntitySeries = { entity: string; points: SeriesPoint[] };

export type Dashboard = {
  /** The version drawn. */
  version: number;
  /** The monitor's version now. */
  current: number;
  /** Every version with figures and the current one, newest first. */
  versions: number[];
  metrics: Array<{ metric: Metric; series: EntitySeries[] }>;
  byEngine: Array<{ engine: string; series: EntitySeries[] }>;
  /**
   * Each entity's sentiment over the judged ticks (all engines), with each point's counts; null
   * when the monitor does not judge and no tick of the version drawn was judged.
   */
  sentiment: Array<EntitySeries & { counts: SentimentCounts }> | null;
};

export type SentimentCounts = ReturnType<typeof sentimentCountsOf>;

/** A page's `?version=`: a version number, or undefined (absent, or not a number: the current is drawn). */
export function versionAsked(value: string | undefined): number | undefined {
  return value !== undefined && /^[1-9][0-9]{0,8}$/.test(value) ? Number(value) : undefined;
}

/** The versions of a monitor that have figures. */
const FIGURE_VERSIONS = defineStatement({
  label: "monitor_figure_versions",
  params: ["monitor"],
  columns: { version: int("f.version") },
  sql: ({ select, p }) => `SELECT ${select} FROM monitor_tick_figures f WHERE f.monitor_id = ${p.monitor} AND f.counted GROUP BY f.version ORDER BY f.version DESC`,
});

/**
 * The dashboard of a monitor's current version (its entities and engines as it measures them now,
 * its alerts' min_change), or of `version` when that is an earlier one with figures (its entities
 * and engines as its figures name them, in the order they were tracked); null when there is no
 * such monitor. Any other `version` draws the current one.
 */
export async function monitorDashboard(monitorId: string, version?: number, session: SqlSession = standalone()): Promise<Dashboard | null> {
  const monitor = await monitorRow(session, monitorId);
  if (!monitor) return null;
  const withFigures = (await FIGURE_VERSIONS.query(session, { monitor: monitor.id })).map((r) => r.version);
  const versions = [...new Set([monitor.version, ...withFigures])].sort((a, b) => b - a);
  const drawn = version !== undefined && withFigures.includes(version) ? version : monitor.version;
  const rows = await SERIES_FIGURES.query(session, { monitor: monitor.id, version: drawn });
  const cells = new Map<string, FigureRow[]>();
  for (const row of rows) {
    const key = `${row.entity}\u0000${row.engine}`;
    (cells.get(key) ?? cells.set(key, []).get(key)!).push(row);
  }
  const minChange = monitor.alerts.min_change ?? 10;
  const names =
    drawn === monitor.version
      ? monitor.entities.map((e) => e.name)
      : [...new Map([...rows].sort((a, b) => a.entityIndex - b.entityIndex).map((r) => [r.entity, r.entity])).keys()];
  const engines = drawn === monitor.version ? monitor.engines : [...new Set(rows.map((r) => r.engine).filter((e) => e !== "all"))].sort();
  const all = (metric: Metric, engine: string) => names.map((entity) => ({ entity, points: pointsOf(metric, cells.get(`${entity}\u0000${engine}`) ?? [], minChange) }));
  const judged = rows.some((r) => r.sentimentRunsJudged !== null);
  return {
    version: drawn,
    current: monitor.version,
    versions,
    metrics: METRICS.map((metric) => ({ metric, series: all(metric, "all") })),
    byEngine: engines.map((engine) => ({ engine, series: all("visibility", engine) })),
    sentiment:
      monitor.judge || judged
        ? names.map((entity) => {
            const cell = cells.get(`${entity}\u0000all`) ?? [];
            return { entity, points: pointsOf("sentiment", cell, minChange), counts: sentimentCountsOf(cell) };
          })
        : null,
  };
}
