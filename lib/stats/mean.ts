// Means from their sums (decisions.md "Statistics"): a group's n, sum and sum of squares are all a
// mean, its spread and its interval need, so they are what is kept (a visibility analysis's
// groups, a monitor tick's figures) and what the change of a mean is tested from.
import { tFor } from "./student";

/** The sample variance (n - 1 in the denominator) from n values' sum and sum of squares; 0 under 2 values. */
export function sampleVariance(n: number, sum: number, sumSquares: number): number {
  if (n < 2) return 0;
  // Rounding can leave a constant sample's variance a hair below 0.
  return Math.max(0, (sumSquares - (sum * sum) / n) / (n - 1));
}

/**
 * Student's t interval of a mean, mean ± t(1 - α/2, n - 1) · s / √n, from the values' n, sum and
 * sum of squares, clipped to `range`, the values' possible [min, max] (a position 1..entities, a
 * prominence 0..1). One value: the whole range (one value says nothing of the spread); none: null.
 * Not rounded.
 */
export function tMeanInterval(n: number, sum: number, sumSquares: number, range: readonly [number, number], confidence = 0.95): [number, number] | null {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`tMeanInterval: n must be a whole number >= 0 (got ${n})`);
  const [min, max] = range;
  if (!(min <= max)) throw new RangeError(`tMeanInterval: the range must be [min, max] with min <= max (got [${min}, ${max}])`);
  if (n === 0) return null;
  if (n === 1) return [min, max];
  const clip = (x: number) => Math.min(max, Math.max(min, x));
  const mean = sum / n;
  const half = tFor(confidence, n - 1) * Math.sqrt(sampleVariance(n, sum, sumSquares) / n);
  return [clip(mean - half), clip(mean + half)];
}
