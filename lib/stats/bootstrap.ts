// The percentile bootstrap interval of a mean (decisions.md "Statistics": 2,000 resamples, seeded
// by the analysis id so the same analysis gives the same interval). Exact resampling, made cheap
// for the values an analysis has: a resample is drawn as counts of the distinct values (a
// multinomial, by successive binomial draws) when there are few of them (positions 1..5), and
// otherwise as a binomial draw of how many resampled items are not the commonest value (mostly 0:
// prominence of runs that do not name the entity) plus one uniform draw for each of those.
import { SeededRandom } from "./random";

export const BOOTSTRAP_RESAMPLES = 2_000;

/** A binomial draw costs about this many uniform draws; picks the cheaper way to resample. */
const BINOMIAL_COST = 12;

/**
 * [low, high]: the 2.5th and 97.5th percentiles (at the default 95%; linear interpolation between
 * order statistics, as R's type 7) of the means of `resamples` resamples with replacement, widened
 * to hold the sample mean in the rare skewed case where it falls outside. Null for no values;
 * [v, v] when every value is v. Not rounded.
 */
export function bootstrapMeanInterval(
  values: ArrayLike<number>,
  seed: string,
  options: { resamples?: number; confidence?: number } = {},
): [number, number] | null {
  const n = values.length;
  if (n === 0) return null;
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  const confidence = options.confidence ?? 0.95;
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`bootstrap: resamples must be a whole number >= 1 (got ${resamples})`);
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`bootstrap: confidence must be between 0 and 1 (got ${confidence})`);

  const counts = new Map<number, number>();
  let total = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v)) throw new RangeError(`bootstrap: values must be finite numbers (got ${v})`);
    total += v;
    counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  if (counts.size === 1) {
    const v = values[0]!;
    return [v, v];
  }
  const mean = total / n;
  // Commonest first (ties by value), so successive binomial draws use up the items early.
  const distinct = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const rng = new SeededRandom(seed);
  const means = new Float64Array(resamples);
  const [mode, modeCount] = distinct[0]!;
  const others = n - modeCount;
  if (distinct.length * BINOMIAL_COST <= others + BINOMIAL_COST) resampleByCounts(rng, distinct, n, means);
  else resampleDirect(rng, values, mode, others, n, means);

  const alpha = 1 - confidence;
  const low = quantile(means, alpha / 2);
  const high = quantile(means, 1 - alpha / 2);
  return [Math.min(low, mean), Math.max(high, mean)];
}

/** Each resample as multinomial counts of the distinct values: Binomial(left, count / countLeft) in turn. */
function resampleByCounts(rng: SeededRandom, distinct: [number, number][], n: number, means: Float64Array) {
  const k = distinct.length;
  for (let r = 0; r < means.length; r++) {
    let left = n;
    let countLeft = n;
    let sum = 0;
    for (let i = 0; i < k && left > 0; i++) {
      const [value, count] = distinct[i]!;
      const drawn = i === k - 1 ? left : rng.binomial(left, count / countLeft);
      sum += value * drawn;
      left -= drawn;
      countLeft -= count;
    }
    means[r] = sum / n;
  }
}

/** Each resample as Binomial(n, others / n) items that are not the commonest value, each drawn uniformly from those. */
function resampleDirect(rng: SeededRandom, values: ArrayLike<number>, mode: number, others: number, n: number, means: Float64Array) {
  const pool = new Float64Array(others);
  let j = 0;
  for (let i = 0; i < n; i++) if (values[i] !== mode) pool[j++] = values[i]!;
  const share = others / n;
  for (let r = 0; r < means.length; r++) {
    const drawn = others === n ? n : rng.binomial(n, share);
    // The generator inlined (sfc32, as SeededRandom.nextU32): this loop is where the time goes.
    let a = rng.a;
    let b = rng.b;
    let c = rng.c;
    let d = rng.d;
    let sum = 0;
    for (let i = 0; i < drawn; i++) {
      const t = (((a + b) | 0) + d) | 0;
      d = (d + 1) | 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) | 0;
      c = (c << 21) | (c >>> 11);
      c = (c + t) | 0;
      sum += pool[Math.floor(((t >>> 0) * others) / 4294967296)]!;
    }
    rng.a = a;
    rng.b = b;
    rng.c = c;
    rng.d = d;
    means[r] = (sum + (n - drawn) * mode) / n;
  }
}

/**
 * Rows (runs) with sparse values in several columns: row k of those with entries holds entries
 * offsets[k] .. offsets[k + 1] - 1, each a column and a value; `rows` counts all rows, the
 * `rows - (offsets.length - 1)` rows without entries too.
 */
export type SparseRows = {
  rows: number;
  offsets: Int32Array;
  columns: Int32Array;
  values: Float64Array;
  columnCount: number;
  /** Per column: true for a mean over the rows holding an entry in it, false for a mean over all rows (absent = 0). */
  overEntries: readonly boolean[];
};

/**
 * Percentile bootstrap intervals of every column's mean, all computed on the same resamples of
 * the rows (as a bootstrap of a table resamples its rows and recomputes each statistic): each
 * resample draws `rows` rows with replacement, as a binomial draw of how many have entries and a
 * uniform draw of each of those, so rows without entries cost nothing. A resample in which an
 * over-entries mean is undefined (no row with an entry in that column) is left out for that column.
 * Intervals as bootstrapMeanInterval's (type 7 percentiles, widened to hold the sample mean; [v, v]
 * when every value is v); null for a column with no mean. Not rounded.
 */
export function bootstrapRowMeans(table: SparseRows, seed: string, options: { resamples?: number; confidence?: number } = {}): ([number, number] | null)[] {
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  const confidence = options.confidence ?? 0.95;
  const { rows, offsets, columns, values, columnCount, overEntries } = table;
  const filled = offsets.length - 1;

  // The sample: every column's sum, entry count, and whether its values differ.
  const sum = new Float64Array(columnCount);
  const count = new Float64Array(columnCount);
  const first = new Float64Array(columnCount).fill(NaN);
  const varies = new Uint8Array(columnCount);
  for (let i = 0; i < offsets[filled]!; i++) {
    const c = columns[i]!;
    const v = values[i]!;
    sum[c]! += v;
    count[c]!++;
    if (Number.isNaN(first[c]!)) first[c] = v;
    else if (first[c] !== v) varies[c] = 1;
  }
  const result: ([number, number] | null)[] = new Array(columnCount).fill(null);
  const active: number[] = [];
  for (let c = 0; c < columnCount; c++) {
    if (overEntries[c]) {
      if (count[c] === 0) continue;
      if (!varies[c]) result[c] = [first[c]!, first[c]!];
      else active.push(c);
    } else {
      if (rows === 0) continue;
      // All rows equal: every row has the same value (a missing entry is 0).
      const allSame = count[c] === 0 || (count[c] === rows && !varies[c]);
      if (allSame) {
        const v = count[c] === 0 ? 0 : first[c]!;
        result[c] = [v, v];
      } else active.push(c);
    }
  }
  if (active.length === 0) return result;

  const rng = new SeededRandom(seed);
  const means = active.map(() => new Float64Array(resamples));
  const kept = new Int32Array(active.length);
  const rSum = new Float64Array(columnCount);
  const rCount = new Float64Array(columnCount);
  const share = filled / rows;
  const scale = filled / 4294967296;
  for (let r = 0; r < resamples; r++) {
    rSum.fill(0);
    rCount.fill(0);
    const drawn = filled === rows ? rows : rng.binomial(rows, share);
    let a = rng.a;
    let b = rng.b;
    let cc = rng.c;
    let d = rng.d;
    for (let i = 0; i < drawn; i++) {
      const t = (((a + b) | 0) + d) | 0;
      d = (d + 1) | 0;
      a = b ^ (b >>> 9);
      b = (cc + (cc << 3)) | 0;
      cc = (cc << 21) | (cc >>> 11);
      cc = (cc + t) | 0;
      const row = ((t >>> 0) * scale) | 0;
      const end = offsets[row + 1]!;
      for (let j = offsets[row]!; j < end; j++) {
        const c = columns[j]!;
        rSum[c]! += values[j]!;
        rCount[c]!++;
      }
    }
    rng.a = a;
    rng.b = b;
    rng.c = cc;
    rng.d = d;
    for (let k = 0; k < active.length; k++) {
      const c = active[k]!;
      if (overEntries[c]) {
        if (rCount[c] === 0) continue;
        means[k]![kept[k]!++] = rSum[c]! / rCount[c]!;
      } else means[k]![kept[k]!++] = rSum[c]! / rows;
    }
  }

  const alpha = 1 - confidence;
  active.forEach((c, k) => {
    const sample = means[k]!.subarray(0, kept[k]!);
    const mean = sum[c]! / (overEntries[c] ? count[c]! : rows);
    if (sample.length === 0) {
      result[c] = [mean, mean];
      return;
    }
    result[c] = [Math.min(quantile(sample, alpha / 2), mean), Math.max(quantile(sample, 1 - alpha / 2), mean)];
  });
  return result;
}

/** The p-quantile of `xs` (R's type 7), reordering `xs` in place by selection rather than a full sort. */
export function quantile(xs: Float64Array, p: number): number {
  const h = (xs.length - 1) * p;
  const lo = Math.floor(h);
  const below = select(xs, lo);
  if (h === lo) return below;
  let above = Infinity;
  for (let i = lo + 1; i < xs.length; i++) if (xs[i]! < above) above = xs[i]!;
  return below + (h - lo) * (above - below);
}

/** The k-th smallest (0-based) of `xs`, leaving xs[0..k) <= xs[k] <= xs(k..] (Hoare's selection). */
function select(xs: Float64Array, k: number): number {
  let left = 0;
  let right = xs.length - 1;
  while (right > left) {
    const pivot = xs[(left + right) >>> 1]!;
    let i = left;
    let j = right;
    while (i <= j) {
      while (xs[i]! < pivot) i++;
      while (xs[j]! > pivot) j--;
      if (i <= j) {
        const t = xs[i]!;
        xs[i] = xs[j]!;
        xs[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else return xs[k]!;
  }
  return xs[k]!;
}
