// The geometry of a sparkline (the monitor overview's small line per entity), as a pure function
// the unit tests check: points left to right in tick order on a fixed box, rates from 0 at the
// bottom to the smallest of 25%, 50%, 75% or 100% holding them (the trend charts' own scale).

export const SPARK = { width: 120, height: 32, pad: 3 } as const;

export type SparkPoint = { tick_at: string; value: number; n: number };

const round2 = (x: number) => Math.round(x * 100) / 100;

/** The scale's top: the smallest of 25%, 50%, 75% and 100% at or above every value. */
export function sparkTop(values: readonly number[]): number {
  const top = Math.max(0, ...values);
  return [0.25, 0.5, 0.75, 1].find((m) => top <= m) ?? 1;
}

/** Each point's x and y in the box (y grows downwards), and the polyline through them. */
export function sparkline(points: readonly SparkPoint[]): { xy: Array<{ x: number; y: number }>; path: string; top: number } {
  const top = sparkTop(points.map((p) => p.value));
  const inner = { w: SPARK.width - 2 * SPARK.pad, h: SPARK.height - 2 * SPARK.pad };
  const xy = points.map((p, i) => ({
    x: round2(SPARK.pad + (points.length === 1 ? inner.w / 2 : (i / (points.length - 1)) * inner.w)),
    y: round2(SPARK.pad + inner.h - (Math.min(top, Math.max(0, p.value)) / top) * inner.h),
  }));
  return { xy, path: xy.map((p) => `${p.x},${p.y}`).join(" "), top };
}
