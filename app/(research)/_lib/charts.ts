// The geometry of the research pages' charts, as pure functions the unit tests check: horizontal
// bars of citations per domain stacked by engine, and rates with their 95% intervals. Horizontal
// positions are percentages of the plot's width (so the SVG stretches to its box and its text
// keeps its size on a phone); vertical ones are pixels.

/** Each row: its label on a line, then its bar, then a gap. */
export const ROW = { label: 16, bar: 14, gap: 12 } as const;
export const ROW_PITCH = ROW.label + ROW.bar + ROW.gap;
/** Room under the rows for the axis's tick labels. */
export const AXIS_HEIGHT = 20;

export type Tick = { value: number; pct: number };

/** A step of 1, 2 or 5 × 10^k that splits `max` into at most about `count` parts. */
export function niceStep(max: number, count = 4): number {
  if (!(max > 0)) return 1;
  const raw = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw)!;
  return Math.max(1, step);
}

/** The axis for counts up to `max`: ends on a whole step, ticks from 0. */
export function countAxis(max: number, count = 4): { max: number; ticks: Tick[] } {
  const step = niceStep(max, count);
  const top = Math.max(step, Math.ceil(max / step) * step);
  const ticks: Tick[] = [];
  for (let v = 0; v <= top; v += step) ticks.push({ value: v, pct: round2((v / top) * 100) });
  return { max: top, ticks };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

export type StackInput = { label: string; values: ReadonlyArray<{ key: string; value: number }> };
export type Segment = { key: string; value: number; x: number; width: number };
export type StackedRow = { label: string; total: number; labelY: number; barY: number; segments: Segment[] };

/**
 * Stacked horizontal bars: each row's segments side by side in the order given (zero values
 * left out), x and width in percent of the axis's maximum.
 */
export function stackedBars(rows: readonly StackInput[]): { rows: StackedRow[]; axis: { max: number; ticks: Tick[] }; height: number } {
  const totals = rows.map((r) => r.values.reduce((n, v) => n + Math.max(0, v.value), 0));
  const axis = countAxis(Math.max(0, ...totals));
  const out = rows.map((row, i) => {
    let at = 0;
    const segments: Segment[] = [];
    for (const v of row.values) {
      if (!(v.value > 0)) continue;
      segments.push({ key: v.key, value: v.value, x: round2((at / axis.max) * 100), width: round2((v.value / axis.max) * 100) });
      at += v.value;
    }
    const top = i * ROW_PITCH;
    return { label: row.label, total: totals[i]!, labelY: top + ROW.label - 4, barY: top + ROW.label, segments };
  });
  return { rows: out, axis, height: rows.length * ROW_PITCH + AXIS_HEIGHT };
}

export type RateInput = { label: string; rate: number; interval: readonly [number, number]; floor?: boolean; sub?: boolean };
export type RateRow = RateInput & { labelY: number; barY: number; x: number; low: number; high: number };

/** Rates (0 to 1) on a 0–100% axis: the point and the interval's ends in percent. */
export function rateRows(rows: readonly RateInput[]): { rows: RateRow[]; ticks: Tick[]; height: number } {
  const pct = (r: number) => round2(Math.min(1, Math.max(0, r)) * 100);
  const out = rows.map((row, i) => {
    const top = i * ROW_PITCH;
    return { ...row, labelY: top + ROW.label - 4, barY: top + ROW.label, x: pct(row.rate), low: pct(row.interval[0]), high: pct(row.interval[1]) };
  });
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((v) => ({ value: v, pct: v * 100 }));
  return { rows: out, ticks, height: rows.length * ROW_PITCH + AXIS_HEIGHT };
}
