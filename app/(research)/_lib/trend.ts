// The geometry of a monitor's trend charts, as pure functions the unit tests check: one line per
// entity over its ticks, its 95% interval as a band, on an axis that fits the figures. Horizontal
// positions are percentages of the plot's width (the SVG stretches to its box, its text keeps its
// size on a phone); vertical ones are pixels from the plot's top.

/** A monitor series' point (decisions.md "Monitors", Series). */
export type SeriesPoint = {
  tick_id: string;
  at: string;
  runs: number;
  /** What value is over (runs; share_of_voice_n; the runs mentioning the entity for a position); runs when absent. */
  n?: number;
  value: number | null;
  interval: readonly [number, number] | null;
  change: { diff: number; interval: readonly [number, number]; significant: boolean } | null;
};

export type SeriesMetric = "visibility" | "share_of_voice" | "cited_rate" | "average_position" | "top3_rate" | "sentiment";

/** One entity's series on a chart. */
export type EntitySeries = { entity: string; points: readonly SeriesPoint[] };

export type AxisTick = { value: number; y: number };

export type PlottedPoint = SeriesPoint & { x: number; y: number | null; low: number | null; high: number | null };

export type PlottedSeries = {
  entity: string;
  points: PlottedPoint[];
  /** Runs of the line through the points with a value, split where a tick has none. */
  segments: Array<Array<{ x: number; y: number }>>;
  /** The band's polygons (the interval's highs left to right, then its lows right to left), split likewise. */
  bands: Array<Array<{ x: number; y: number }>>;
};

export type Trend = { ticks: string[]; xs: Map<string, number>; axis: AxisTick[]; series: PlottedSeries[]; lowerIsBetter: boolean };

const round2 = (x: number) => Math.round(x * 100) / 100;

/** Whether the metric is a rate from 0 to 1 (every one but average_position). */
export const isRate = (metric: SeriesMetric) => metric !== "average_position";

/** The ticks in time order (by `at`, then id) across every series, each with its x in percent (one tick: the middle). */
export function tickPositions(series: readonly EntitySeries[]): { ticks: string[]; xs: Map<string, number> } {
  const at = new Map<string, string>();
  for (const s of series) for (const p of s.points) if (!at.has(p.tick_id)) at.set(p.tick_id, p.at);
  const ticks = [...at.keys()].sort((a, b) => (at.get(a)! < at.get(b)! ? -1 : at.get(a)! > at.get(b)! ? 1 : a < b ? -1 : 1));
  const xs = new Map<string, number>();
  ticks.forEach((t, i) => xs.set(t, ticks.length === 1 ? 50 : round2((i / (ticks.length - 1)) * 100)));
  return { ticks, xs };
}

/**
 * The value axis: rates from 0 to the smallest of 25%, 50%, 75% or 100% holding every value and
 * interval; an average position from 1 (top, the best) down to the worst whole position shown.
 */
export function valueAxis(metric: SeriesMetric, series: readonly EntitySeries[]): { min: number; max: number; ticks: number[] } {
  const values: number[] = [];
  for (const s of series)
    for (const p of s.points) {
      if (p.value !== null) values.push(p.value);
      if (p.interval) values.push(p.interval[0], p.interval[1]);
    }
  if (isRate(metric)) {
    const top = Math.max(0, ...values);
    const max = [0.25, 0.5, 0.75, 1].find((m) => top <= m) ?? 1;
    const step = max / (max === 0.75 ? 3 : 4);
    return { min: 0, max, ticks: Array.from({ length: Math.round(max / step) + 1 }, (_, i) => round2(i * step * 10000) / 10000) };
  }
  const worst = Math.max(2, Math.ceil(Math.max(1, ...values)));
  const step = Math.max(1, Math.ceil((worst - 1) / 4));
  const ticks: number[] = [];
  for (let v = 1; v <= worst; v += step) ticks.push(v);
  if (ticks[ticks.length - 1] !== worst) ticks.push(worst);
  return { min: 1, max: worst, ticks };
}

/** Lays the series out on a plot `height` pixels high. */
export function trend(metric: SeriesMetric, series: readonly EntitySeries[], height: number): Trend {
  const { ticks, xs } = tickPositions(series);
  const axis = valueAxis(metric, series);
  const lowerIsBetter = !isRate(metric);
  const clamp = (v: number) => Math.min(axis.max, Math.max(axis.min, v));
  // Rates grow upwards; a position's 1 is at the top.
  const yOf = (v: number) => round2(lowerIsBetter ? ((clamp(v) - axis.min) / (axis.max - axis.min)) * height : height - (clamp(v) / axis.max) * height);
  const plotted = series.map((s): PlottedSeries => {
    const points = [...s.points]
      .filter((p) => xs.has(p.tick_id))
      .sort((a, b) => xs.get(a.tick_id)! - xs.get(b.tick_id)!)
      .map((p) => ({
        ...p,
        x: xs.get(p.tick_id)!,
        y: p.value === null ? null : yOf(p.value),
        low: p.interval ? yOf(p.interval[0]) : null,
        high: p.interval ? yOf(p.interval[1]) : null,
      }));
    const segments: PlottedSeries["segments"] = [];
    const bands: PlottedSeries["bands"] = [];
    let line: Array<{ x: number; y: number }> = [];
    let band: PlottedPoint[] = [];
    const close = () => {
      if (line.length) segments.push(line);
      if (band.length) bands.push([...band.map((p) => ({ x: p.x, y: p.high! })), ...[...band].reverse().map((p) => ({ x: p.x, y: p.low! }))]);
      line = [];
      band = [];
    };
    for (const p of points) {
      if (p.y === null) {
        close();
        continue;
      }
      line.push({ x: p.x, y: p.y });
      if (p.low !== null && p.high !== null) band.push(p);
    }
    close();
    return { entity: s.entity, points, segments, bands };
  });
  return { ticks, xs, axis: axis.ticks.map((v) => ({ value: v, y: yOf(v) })), series: plotted, lowerIsBetter };
}
