// A monitor's series (decisions.md "Monitors", "Statistics"): for one metric, entity and engine,
// a point per completed (or partial) tick of a version, read from the figures its analysis
// step stored (monitor_tick_figures) in one indexed statement, never recomputing an analysis.
// Each point has its n and 95% interval, and its change from the previous point of the same
// cell: Newcombe's interval at 1 - 0.05/m (m the tick's entity × engine cells) for the rates,
// a normal (Welch) interval for the average position (docs/decisions.md "Monitor series").
import type { z } from "zod";
import { arrayParam, date, defineStatement, float, int, text, type RowOf } from "../db/statement";
import { standalone, type SqlSession } from "../db/sql";
import { ApiError } from "../http/errors";
import type { SignificantChange } from "../alerts/words";
import { changeTest, rateOf, round4, sampleVariance, zFor, type ChangeTest } from "../stats";
import type { MonitorSeries, SeriesMetric, SeriesQuery } from "../schemas/monitors";
import type { TickFacts } from "../words/ticks";
import type { MonitorRow } from "./rows";

export type Metric = z.output<typeof SeriesMetric>;
export type SeriesBody = z.input<typeof MonitorSeries>;
export type SeriesPoint = SeriesBody["points"][number];

export const figureColumns = {
  tickId: text("f.tick_id"),
  at: date("f.at"),
  entityIndex: int("f.entity_index"),
  entity: text("f.entity"),
  engine: text("f.engine"),
  cells: int("f.cells"),
  runs: int("f.runs"),
  runsMentioning: int("f.runs_mentioning"),
  shareOfVoiceN: int("f.share_of_voice_n"),
  runsCiting: int("f.runs_citing"),
  runsTop3: int("f.runs_top3"),
  positionSum: int("f.position_sum"),
  positionSumSquares: int("f.position_sum_squares"),
  averagePosition: float("f.average_position").nullable,
  averagePositionLow: float("f.average_position_low").nullable,
  averagePositionHigh: float("f.average_position_high").nullable,
  sentimentRunsJudged: int("f.sentiment_runs_judged").nullable,
  sentimentPositive: int("f.sentiment_positive").nullable,
  sentimentNeutral: int("f.sentiment_neutral").nullable,
  sentimentNegative: int("f.sentiment_negative").nullable,
};

export type FigureRow = RowOf<typeof figureColumns>;

/**
 * One cell's figures (or, without entity and engine, every cell's) of a version's ticks that
 * closed completed or partial (`counted`, set by the close), in order: one range of the
 * (monitor_id, version, entity, engine, at) index, no join.
 */
export const SERIES_FIGURES = defineStatement({
  label: "monitor_series",
  params: ["monitor", "version", "entity", "engine"],
  columns: figureColumns,
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM monitor_tick_figures f WHERE f.monitor_id = ${p.monitor} AND f.version = ${p.version}::int AND f.counted` +
    (given.entity ? ` AND f.entity = ${p.entity} AND f.engine = ${p.engine}` : "") +
    ` ORDER BY f.entity, f.engine, f.at`,
});

/** The cells a version's ticks have figures for (to name them when a request names another). */
const VERSION_CELLS = defineStatement({
  label: "monitor_series_cells",
  params: ["monitor", "version"],
  columns: { entity: text("f.entity"), engine: text("f.engine"), entityIndex: int("min(f.entity_index)") },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM monitor_tick_figures f WHERE f.monitor_id = ${p.monitor} AND f.version = ${p.version}::int AND f.counted GROUP BY f.entity, f.engine ORDER BY 3, 2`,
});

/** The count a rate metric is over, and its successes, in a cell's figures; null for the average position. */
function countOf(metric: Metric, f: FigureRow): { successes: number; trials: number } | null {
  switch (metric) {
    case "visibility":
      return { successes: f.runsMentioning, trials: f.runs };
    case "share_of_voice":
      return { successes: f.runsMentioning, trials: f.shareOfVoiceN };
    case "cited_rate":
      return { successes: f.runsCiting, trials: f.runs };
    case "top3_rate":
      return { successes: f.runsTop3, trials: f.runs };
    case "sentiment":
      // The judge's score: positive over positive and negative (neutral is in no score), as the analysis's rows[].sentiment.
      return { successes: f.sentimentPositive ?? 0, trials: (f.sentimentPositive ?? 0) + (f.sentimentNegative ?? 0) };
    case "average_position":
      return null;
  }
}

/** Whether a cell's figures have a point of this metric: sentiment only on judged ticks. */
const hasPoint = (metric: Metric, f: FigureRow) => metric !== "sentiment" || f.sentimentRunsJudged !== null;

/** A point's value, its n and its 95% interval, as the tick's analysis states them. */
function valueOf(metric: Metric, f: FigureRow): { n: number; value: number | null; interval: [number, number] | null } {
  const count = countOf(metric, f);
  if (count === null) {
    const interval = f.averagePositionLow === null || f.averagePositionHigh === null ? null : ([f.averagePositionLow, f.averagePositionHigh] as [number, number]);
    return { n: f.runsMentioning, value: f.averagePosition, interval };
  }
  // Share of voice is null when no tracked entity was mentioned, as in the analysis; sentiment when no judged run spoke of the entity either way.
  if ((metric === "share_of_voice" || metric === "sentiment") && count.trials === 0) return { n: 0, value: null, interval: null };
  const { rate, interval } = rateOf(count.successes, count.trials);
  return { n: count.trials, value: rate, interval };
}

/** The runs mentioning an entity this side of a change needs, at least, for the normal interval of a mean position to be used. */
export const POSITION_MIN_RUNS = 10;

/**
 * The change of a mean position between two ticks: the difference of the means with a normal
 * (Welch) interval at 1 - 0.05/m from each tick's sums; significant when both ticks have at least
 * POSITION_MIN_RUNS runs mentioning the entity and the interval excludes 0. min_change, in
 * percentage points of a rate, has no meaning for a position and is not applied.
 */
export function positionChange(a: FigureRow, b: FigureRow, m: number): ChangeTest | null {
  const na = a.runsMentioning;
  const nb = b.runsMentioning;
  if (na === 0 || nb === 0) return null;
  const meanA = a.positionSum / na;
  const meanB = b.positionSum / nb;
  const se = Math.sqrt(sampleVariance(na, a.positionSum, a.positionSumSquares) / na + sampleVariance(nb, b.positionSum, b.positionSumSquares) / nb);
  const z = zFor(1 - 0.05 / m);
  const diff = meanB - meanA;
  const low = diff - z * se;
  const high = diff + z * se;
  return {
    diff: round4(diff),
    interval: [round4(low), round4(high)],
    significant: na >= POSITION_MIN_RUNS && nb >= POSITION_MIN_RUNS && (low > 0 || high < 0),
  };
}

/**
 * The change of a cell's metric from tick `a` to tick `b` (the previous point and this one), or
 * null when either has no value. The one test the series and the alerts use.
 */
export function changeOf(metric: Metric, a: FigureRow, b: FigureRow, minChange: number): ChangeTest | null {
  const m = Math.max(1, b.cells);
  const ca = countOf(metric, a);
  const cb = countOf(metric, b);
  if (ca === null || cb === null) return positionChange(a, b, m);
  // A share of voice over nobody is null, so is its change; a rate over no runs is 0 and never a significant change.
  if ((metric === "share_of_voice" || metric === "sentiment") && (ca.trials === 0 || cb.trials === 0)) return null;
  return changeTest(ca, cb, { m, minChange });
}

/** The points of one cell's figures (in tick order). */
export function pointsOf(metric: Metric, all: readonly FigureRow[], minChange: number): SeriesPoint[] {
  const rows = all.filter((f) => hasPoint(metric, f));
  return rows.map((f, i) => {
    const { n, value, interval } = valueOf(metric, f);
    return { tick_id: f.tickId, at: f.at.toISOString(), runs: f.runs, n, value, interval, change: i === 0 ? null : changeOf(metric, rows[i - 1]!, f, minChange) };
  });
}

/** The judged ticks' sentiment counts of one cell, in the points' order (metric=sentiment). */
export function sentimentCountsOf(all: readonly FigureRow[]): NonNullable<SeriesBody["sentiment"]> {
  return all
    .filter((f) => hasPoint("sentiment", f))
    .map((f) => ({ tick_id: f.tickId, runs_judged: f.sentimentRunsJudged ?? 0, positive: f.sentimentPositive ?? 0, neutral: f.sentimentNeutral ?? 0, negative: f.sentimentNegative ?? 0 }));
}

const minChangeOf = (monitor: Pick<MonitorRow, "alerts">) => monitor.alerts.min_change ?? 10;

/** The entity a request names: exactly, else ignoring case; 400 naming the entities there are. */
function entityNamed(given: string | undefined, names: readonly string[]): string {
  if (given === undefined) {
    if (names.length === 0) throw new ApiError("invalid_request", "entity: this version of the monitor has no completed tick, so no entity to default to; give one");
    return names[0]!;
  }
  // A past version without a completed tick: nothing to check the name against, and nothing to answer.
  if (names.length === 0) return given;
  const exact = names.find((n) => n === given) ?? names.find((n) => n.toLowerCase() === given.toLowerCase());
  if (exact === undefined) throw new ApiError("invalid_request", `entity: "${given}" is not tracked by this monitor's version (it tracks ${names.map((n) => `"${n}"`).join(", ")})`);
  return exact;
}

type Query = z.output<typeof SeriesQuery>;

/** The version, entity and engine a query names, checked against the monitor (400 naming the field). */
async function cellOf(session: SqlSession, monitor: MonitorRow, query: Query): Promise<{ version: number; entity: string; engine: string }> {
  const version = query.version ?? monitor.version;
  if (version > monitor.version) throw new ApiError("invalid_request", `version: must be a whole number from 1 to ${monitor.version} (the monitor's current version)`);
  const engine = query.engine ?? "all";
  let entities: string[];
  let engines: string[];
  if (version === monitor.version) {
    entities = monitor.entities.map((e) => e.name);
    engines = monitor.engines;
  } else {
    const cells = await VERSION_CELLS.query(session, { monitor: monitor.id, version });
    entities = [...new Set(cells.map((c) => c.entity))];
    engines = [...new Set(cells.map((c) => c.engine).filter((e) => e !== "all"))];
  }
  if (engine !== "all" && !engines.includes(engine)) {
    throw new ApiError("invalid_request", `engine: "${engine}" is not an engine of this monitor's version ${version} (it runs ${engines.join(", ") || "none yet"}; absent or "all" for all of them)`);
  }
  return { version, entity: entityNamed(query.entity, entities), engine };
}

/** GET /monitors/{id}/series of a monitor the caller may read (lib/monitors/read.ts getSeries). */
export async function seriesOf(monitor: MonitorRow, query: Query): Promise<SeriesBody> {
  const session = standalone();
  const { version, entity, engine } = await cellOf(session, monitor, query);
  const rows = await SERIES_FIGURES.query(session, { monitor: monitor.id, version, entity, engine });
  return {
    metric: query.metric, entity, engine: engine as SeriesBody["engine"], version, points: pointsOf(query.metric, rows, minChangeOf(monitor)),
    ...(query.metric === "sentiment" ? { sentiment: sentimentCountsOf(rows) } : {}),
  };
}

/** One cell's series of every entity × engine of a version, for the monitor page's charts. */
export type CellSeries = { entity: string; engine: string; points: SeriesPoint[]; sentiment?: NonNullable<SeriesBody["sentiment"]> };

/**
 * Every entity × engine cell's series of one metric at once (one statement), for the monitor's
 * pages: entities in the monitor's order, "all" first then engines by name. The caller decided
 * access (pass a row from reachableMonitorRow).
 */
export async function readAllSeries(monitor: Pick<MonitorRow, "id" | "version" | "alerts">, metric: Metric, version = monitor.version, session: SqlSession = standalone()): Promise<CellSeries[]> {
  const rows = await SERIES_FIGURES.query(session, { monitor: monitor.id, version });
  const cells = new Map<string, { entityIndex: number; entity: string; engine: string; rows: FigureRow[] }>();
  for (const row of rows) {
    const key = `${row.entity}\u0000${row.engine}`;
    let cell = cells.get(key);
    if (!cell) cells.set(key, (cell = { entityIndex: row.entityIndex, entity: row.entity, engine: row.engine, rows: [] }));
    cell.rows.push(row);
  }
  const minChange = minChangeOf(monitor);
  return [...cells.values()]
    .sort((a, b) => a.entityIndex - b.entityIndex || (a.engine === "all" ? -1 : b.engine === "all" ? 1 : a.engine.localeCompare(b.engine)))
    .map((c) => ({ entity: c.entity, engine: c.engine, points: pointsOf(metric, c.rows, minChange), ...(metric === "sentiment" ? { sentiment: sentimentCountsOf(c.rows) } : {}) }))
    // Sentiment: cells of ticks never judged have no point, and are left out.
    .filter((c) => metric !== "sentiment" || c.points.length > 0);
}

// ---------------------------------------------------------------------------
// The significant changes a tick raises alerts for
// ---------------------------------------------------------------------------

/** The figures of a tick and of the previous completed (or partial) tick of its version, every cell. */
const TICK_PAIR = defineStatement({
  label: "monitor_tick_pair",
  params: ["tick"],
  columns: { side: text("x.side"), ...figureColumns },
  sql: ({ select, p }) =>
    `WITH cur AS (SELECT t.id, t.monitor_id, t.version, t.scheduled_for FROM monitor_ticks t WHERE t.id = ${p.tick}),
    prev AS (SELECT t.id FROM monitor_ticks t, cur WHERE t.monitor_id = cur.monitor_id AND t.version = cur.version AND t.status IN ('completed', 'partial')
      AND t.analysis_id IS NOT NULL AND t.scheduled_for < cur.scheduled_for ORDER BY t.scheduled_for DESC LIMIT 1)
    SELECT ${select} FROM (SELECT 'b' AS side, cur.id AS tick FROM cur UNION ALL SELECT 'a', prev.id FROM prev) x
    JOIN monitor_tick_figures f ON f.tick_id = x.tick ORDER BY f.entity_index, f.engine`,
});

/** The visibility changes of cells whose test says significant, as raiseAlerts takes them. */
export function significantChanges(before: readonly FigureRow[], after: readonly FigureRow[], minChange: number): SignificantChange[] {
  const previous = new Map(before.map((f) => [`${f.entity}\u0000${f.engine}`, f]));
  const changes: SignificantChange[] = [];
  for (const b of after) {
    const a = previous.get(`${b.entity}\u0000${b.engine}`);
    if (!a) continue;
    const change = changeOf("visibility", a, b, minChange);
    if (!change?.significant) continue;
    changes.push({
      entity: b.entity,
      engine: b.engine,
      metric: "visibility",
      before: rateOf(a.runsMentioning, a.runs).rate,
      after: rateOf(b.runsMentioning, b.runs).rate,
      diff: change.diff,
      interval: change.interval,
      before_runs: a.runs,
      after_runs: b.runs,
      confidence: round4(1 - 0.05 / Math.max(1, b.cells)),
    });
  }
  return changes;
}

/**
 * The significant visibility changes of a tick from the previous completed (or partial) tick of
 * its version, every entity × engine cell ("all" included): what the tick's alerts step raises.
 */
export async function tickChanges(tickId: string, minChange: number, session: SqlSession = standalone()): Promise<SignificantChange[]> {
  const rows = await TICK_PAIR.query(session, { tick: tickId });
  return significantChanges(
    rows.filter((r) => r.side === "a"),
    rows.filter((r) => r.side === "b"),
    minChange,
  );
}

// ---------------------------------------------------------------------------
// What a tick's summary reads (lib/words/ticks.ts)
// ---------------------------------------------------------------------------

/** Every cell's figures of some ticks (those with an analysis) and of the previous completed (or partial) tick of each one's version. */
const TICKS_FIGURES = defineStatement({
  label: "monitor_ticks_figures",
  params: ["ticks"],
  columns: { tick: text("x.tick"), side: text("x.side"), ...figureColumns },
  sql: ({ select, p }) =>
    `WITH cur AS (SELECT t.id, t.monitor_id, t.version, t.scheduled_for FROM monitor_ticks t WHERE t.id = ANY(${p.ticks}::text[]) AND t.analysis_id IS NOT NULL),
    x AS (SELECT cur.id AS tick, 'b' AS side, cur.id AS source FROM cur
      UNION ALL SELECT cur.id, 'a', prev.id FROM cur CROSS JOIN LATERAL (SELECT t.id FROM monitor_ticks t WHERE t.monitor_id = cur.monitor_id AND t.version = cur.version
        AND t.status IN ('completed', 'partial') AND t.analysis_id IS NOT NULL AND t.scheduled_for < cur.scheduled_for ORDER BY t.scheduled_for DESC LIMIT 1) prev)
    SELECT ${select} FROM x JOIN monitor_tick_figures f ON f.tick_id = x.source ORDER BY x.tick, f.entity_index, f.engine`,
});

/** The figures of each tick a summary is asked for, by tick id; a tick without figures is not in it. */
export type TickFigures = ReadonlyMap<string, NonNullable<TickFacts["figures"]>>;

/** A tick whose summary is wanted, with what its monitor decides: the min_change of its test, its brands. */
export type TickAsk = { tickId: string; minChange: number; brands: readonly string[] };

const tallyOf = (f: FigureRow) => {
  const { interval } = rateOf(f.runsMentioning, f.runs);
  return { k: f.runsMentioning, n: f.runs, interval };
};

/**
 * The figures tick summaries read, in one statement for all the ticks asked: each cell's
 * visibility, and its change from the previous completed tick of the version by the series' own
 * test (changeOf, at the monitor's min_change).
 */
export async function tickFigures(asks: readonly TickAsk[], session: SqlSession = standalone()): Promise<TickFigures> {
  const out = new Map<string, NonNullable<TickFacts["figures"]>>();
  if (asks.length === 0) return out;
  const rows = await TICKS_FIGURES.query(session, { ticks: arrayParam(asks.map((a) => a.tickId)) });
  const byTick = new Map<string, { a: FigureRow[]; b: FigureRow[] }>();
  for (const row of rows) {
    const sides = byTick.get(row.tick) ?? byTick.set(row.tick, { a: [], b: [] }).get(row.tick)!;
    sides[row.side === "a" ? "a" : "b"].push(row);
  }
  for (const ask of asks) {
    const sides = byTick.get(ask.tickId);
    if (!sides || sides.b.length === 0) continue;
    const after = [...sides.b].sort((x, y) => x.entityIndex - y.entityIndex || (x.engine === "all" ? -1 : y.engine === "all" ? 1 : x.engine.localeCompare(y.engine)));
    const before = new Map(sides.a.map((f) => [`${f.entity}\u0000${f.engine}`, f]));
    const entities = [...new Set(after.map((f) => f.entity))];
    out.set(ask.tickId, {
      cells: after.map((f) => ({ entity: f.entity, engine: f.engine, ...tallyOf(f) })),
      focus: entities.find((e) => ask.brands.includes(e)) ?? entities[0]!,
      changes: after.flatMap((f) => {
        const a = before.get(`${f.entity}\u0000${f.engine}`);
        return a ? [{ entity: f.entity, engine: f.engine, before: tallyOf(a), after: tallyOf(f), test: changeOf("visibility", a, f, ask.minChange) }] : [];
      }),
    });
  }
  return out;
}

/**
 * The significant visibility changes of several ticks (a week's, for its digest), each from the
 * previous completed (or partial) tick of its version, by the alerts' own rule (significantChanges:
 * the series' test at 1 - 0.05/m and min_change): one statement for them all. `compared` is false
 * for a tick with no earlier one to compare with (the first of its version) or no figures.
 */
export async function ticksSignificantChanges(
  tickIds: readonly string[],
  minChange: number,
  session: SqlSession = standalone(),
): Promise<Array<{ tickId: string; compared: boolean; changes: SignificantChange[] }>> {
  if (tickIds.length === 0) return [];
  const rows = await TICKS_FIGURES.query(session, { ticks: arrayParam([...tickIds]) });
  return tickIds.map((tickId) => {
    const before = rows.filter((r) => r.tick === tickId && r.side === "a");
    const after = rows.filter((r) => r.tick === tickId && r.side === "b");
    const compared = before.length > 0 && after.length > 0;
    return { tickId, compared, changes: compared ? significantChanges(before, after, minChange) : [] };
  });
}
