// Percentile bootstrap intervals of means (decisions.md "Statistics": 2,000 resamples, seeded by
// the analysis id so the same analysis gives the same interval), by exact resampling, never a
// normal approximation. bootstrapMeanInterval: one sample's mean, its resamples drawn as counts of
// its distinct values (a multinomial, by successive binomial draws) when there are few of them, or
// as one binomial draw of how many items are not the commonest value plus a uniform draw for each
// of those. bootstrapGroupedMeans: every mean of every group of a table of runs from one bootstrap
// of its rows (a visibility analysis's average positions and prominences by engine, prompt and
// country), a uniform draw per run and resample and a few additions per run drawn, in parts that
// threads can draw at once.
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
  const [low, high] = quantiles(means, alpha / 2, 1 - alpha / 2);
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
    let sum = 0;
    for (let i = 0; i < drawn; i++) sum += pool[rng.nextIndex(others)]!;
    means[r] = (sum + (n - drawn) * mode) / n;
  }
}

/**
 * A table for the grouped bootstrap: `rows` rows (runs) with sparse values in `columnCount`
 * columns (row i's entries are offsets[i] .. offsets[i + 1] - 1, each a column and a value), and
 * partitions of the rows into groups (all runs; by engine; by prompt; by country), each giving
 * every row's group.
 */
export type GroupedTable = {
  rows: number;
  /** rows + 1 offsets into columns and values. */
  offsets: Int32Array;
  columns: Int32Array;
  values: Float64Array;
  columnCount: number;
  /** Per column: true for a mean over the rows holding an entry in it, false for a mean over all rows (absent = 0). */
  overEntries: readonly boolean[];
  partitions: readonly { groupOf: Int32Array; groups: number }[];
};

/** Resample means kept per (group, column) in one pass; more columns are done in further passes over the same draws. */
const STORE_BYTES = 64 * 2 ** 20;
/** Cells (the groups of all partitions but the largest, crossed) beyond this share of the rows are not worth rolling up. */
const MAX_CELL_SHARE = 0.25;
/**
 * The resamples are drawn in this many parts, each from a stream of its own (part 0 from the seed,
 * part k from the seed and k), so that the parts can be drawn at once on different threads and
 * give the same intervals as drawn one after another.
 */
export const BOOTSTRAP_PARTS = 2;

/** A mean to resample: its partition, group and column, and its value on the sample. */
type Active = { q: number; g: number; c: number; mean: number };

/**
 * What the resamples of bootstrapGroupedMeans need, made once from the table: plain data and typed
 * arrays only (a worker thread can be handed it).
 */
export type GroupedBootstrapPlan = {
  rows: number;
  resamples: number;
  confidence: number;
  /** Per row: its group in each target (the largest partition, then the cells or every other partition). */
  targetsOf: Int32Array[];
  targetGroups: number[];
  /** Which partition each target is (-1: the cells). */
  targetPartition: number[];
  /** Partitions summed from the cells (rollUp), each cell's group in them. */
  viaCells: number[];
  cellGroup: Int32Array[];
  cells: number;
  /** The columns of each pass, [from, to). */
  passes: [number, number][];
  /**
   * Per column: 0, or for an over-entries column of small whole numbers (a rank) the packing unit
   * 2^k: its entries are summed as value + 2^k, so that one sum holds both the values' sum (below
   * 2^k) and the entries drawn (its multiple of 2^k), exactly, and no count is kept for it.
   */
  packUnit: number[];
  /** Per pass: the rows' entries in the pass's columns, those counted over entries (and not packed) first (up to mids). */
  passEntries: { offsets: Int32Array; mids: Int32Array; cols: Int32Array; vals: Float64Array }[];
  /** Per pass: the means it resamples. */
  passActive: Active[][];
  /** Intervals known without resampling, and null where there is no mean: intervals[partition][group][column]. */
  known: ([number, number] | null)[][][];
  overEntries: readonly boolean[];
  partitionGroups: number[];
};

/** One part's resample means of one pass: means[k * perPart + i] for the pass's k-th mean, `kept[k]` of them defined. */
export type GroupedPartMeans = {
  /** Per mean k: its kept[k] resample means' smallest, ascending, from low[k * tails[0]] (at most tails[0] of them). */
  low: Float64Array;
  /** Per mean k: its largest, ascending, from high[k * tails[1]] (at most tails[1] of them). */
  high: Float64Array;
  kept: Int32Array;
};

/**
 * How many of a part's smallest and largest resample means of a mean its percentiles can need: the
 * order statistics at and after (n - 1) p and (n - 1) q, for any n up to `resamples`, with room to
 * spare. The k-th smallest of all the parts' means is among each part's k smallest.
 */
export function tailSizes(resamples: number, confidence: number): [number, number] {
  const tail = ((1 - confidence) / 2) * (resamples - 1);
  return [Math.min(resamples, Math.floor(tail) + 3), Math.min(resamples, Math.ceil(tail) + 3)];
}

/** The resamples of part `part` (of BOOTSTRAP_PARTS): [from, to). */
export function partRange(resamples: number, part: number): [number, number] {
  return [Math.floor((part * resamples) / BOOTSTRAP_PARTS), Math.floor(((part + 1) * resamples) / BOOTSTRAP_PARTS)];
}

/** The stream a part draws from. */
const partSeed = (seed: string, part: number) => (part === 0 ? seed : `${seed}\u0000part ${part}`);

/**
 * Percentile bootstrap intervals of every column's mean in every group of every partition, from
 * one bootstrap of the whole table: each resample draws `rows` rows with replacement and every
 * mean of every group is recomputed on it, over the rows of that group drawn (a group's size thus
 * varies from resample to resample, as in any bootstrap of a subgroup's mean). A resample in which
 * a mean is undefined (no row of the group drawn; for an over-entries column, no entry) is left out
 * of that mean's percentiles. Intervals as bootstrapMeanInterval's (type 7 percentiles, widened to
 * hold the sample mean; [v, v] when every value is v); null where the sample has no mean.
 * A resample is the rows' draw counts (a uniform draw and an increment per row), then one pass
 * over the rows in order adding each drawn row's values times its count: the groups of the largest
 * partition and the cells of the others are summed, the others' groups from their cells.
 * Answers intervals[partition][group][column]. Not rounded.
 */
export function bootstrapGroupedMeans(
  table: GroupedTable,
  seed: string,
  options: { resamples?: number; confidence?: number } = {},
): ([number, number] | null)[][][] {
  const plan = prepareGroupedBootstrap(table, options);
  const parts = plan.passes.map((_, pass) => Array.from({ length: BOOTSTRAP_PARTS }, (_, part) => groupedResampleMeans(plan, seed, pass, part)));
  return finishGroupedBootstrap(plan, parts);
}

/** The plan of a grouped bootstrap (see bootstrapGroupedMeans): the intervals known at once, the means to resample. */
export function prepareGroupedBootstrap(table: GroupedTable, options: { resamples?: number; confidence?: number } = {}): GroupedBootstrapPlan {
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  const confidence = options.confidence ?? 0.95;
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`bootstrap: resamples must be a whole number >= 1 (got ${resamples})`);
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`bootstrap: confidence must be between 0 and 1 (got ${confidence})`);
  const { rows, offsets, columns, values, columnCount, overEntries, partitions } = table;
  const P = partitions.length;
  const known = partitions.map((p) => Array.from({ length: p.groups }, () => new Array<[number, number] | null>(columnCount).fill(null)));
  const empty: GroupedBootstrapPlan = {
    rows, resamples, confidence, targetsOf: [], targetGroups: [], targetPartition: [], viaCells: [], cellGroup: [], cells: 0, passes: [], packUnit: [], passEntries: [], passActive: [],
    known, overEntries, partitionGroups: partitions.map((p) => p.groups),
  };
  if (rows === 0 || P === 0 || columnCount === 0) return empty;

  // The sample: per partition, group and column, the sum, the entries, and whether values differ.
  const groupRows = partitions.map((p) => {
    const n = new Float64Array(p.groups);
    for (let i = 0; i < rows; i++) n[p.groupOf[i]!]!++;
    return n;
  });
  const stats = partitions.map((p) => ({
    sum: new Float64Array(p.groups * columnCount),
    count: new Float64Array(p.groups * columnCount),
    first: new Float64Array(p.groups * columnCount).fill(NaN),
    varies: new Uint8Array(p.groups * columnCount),
  }));
  for (let i = 0; i < rows; i++) {
    for (let j = offsets[i]!; j < offsets[i + 1]!; j++) {
      const c = columns[j]!;
      const v = values[j]!;
      for (let q = 0; q < P; q++) {
        const k = partitions[q]!.groupOf[i]! * columnCount + c;
        const st = stats[q]!;
        st.sum[k]! += v;
        st.count[k]!++;
        if (Number.isNaN(st.first[k]!)) st.first[k] = v;
        else if (st.first[k] !== v) st.varies[k] = 1;
      }
    }
  }
  // Which (partition, group, column) need resampling; the others are answered now.
  const active: Active[] = [];
  for (let q = 0; q < P; q++) {
    const st = stats[q]!;
    for (let g = 0; g < partitions[q]!.groups; g++) {
      const n = groupRows[q]![g]!;
      for (let c = 0; c < columnCount; c++) {
        const k = g * columnCount + c;
        if (overEntries[c]) {
          if (st.count[k] === 0) continue;
          if (!st.varies[k]) known[q]![g]![c] = [st.first[k]!, st.first[k]!];
          else active.push({ q, g, c, mean: st.sum[k]! / st.count[k]! });
        } else {
          if (n === 0) continue;
          if (st.count[k] === 0 || (st.count[k] === n && !st.varies[k])) {
            const v = st.count[k] === 0 ? 0 : st.first[k]!;
            known[q]![g]![c] = [v, v];
          } else active.push({ q, g, c, mean: st.sum[k]! / n });
        }
      }
    }
  }
  if (active.length === 0) return empty;

  // The largest partition is summed directly; the others through cells (their groups crossed).
  let big = 0;
  for (let q = 1; q < P; q++) if (partitions[q]!.groups > partitions[big]!.groups) big = q;
  const small = partitions.map((_, q) => q).filter((q) => q !== big);
  const cellOfRow = new Int32Array(rows);
  const cellKeys = new Map<string, number>();
  for (let i = 0; i < rows; i++) {
    const key = small.map((q) => partitions[q]!.groupOf[i]).join(",");
    let cell = cellKeys.get(key);
    if (cell === undefined) cellKeys.set(key, (cell = cellKeys.size));
    cellOfRow[i] = cell;
  }
  const cells = cellKeys.size;
  const rollUp = cells <= Math.max(16, rows * MAX_CELL_SHARE);
  // Without a cheap roll-up every partition is summed directly (its groups are its "cells").
  const direct = rollUp ? [big] : partitions.map((_, q) => q);
  const viaCells = rollUp ? small : [];

  // The rows are summed as given, so every sum adds the same values in the same order whichever
  // partitions are asked for.
  const targetsOf = [...direct.map((q) => partitions[q]!.groupOf), ...(rollUp ? [cellOfRow] : [])];
  const targetGroups = [...direct.map((q) => partitions[q]!.groups), ...(rollUp ? [cells] : [])];
  const targetPartition = [...direct, ...(rollUp ? [-1] : [])];
  const cellGroup = viaCells.map((q) => {
    const groupOfCell = new Int32Array(cells);
    for (let i = 0; i < rows; i++) groupOfCell[cellOfRow[i]!] = partitions[q]!.groupOf[i]!;
    return groupOfCell;
  });

  // Columns in passes small enough to keep their resample means; every pass draws the same rows.
  const activeOf = new Int32Array(columnCount);
  for (const a of active) activeOf[a.c]!++;
  const passes: [number, number][] = [];
  for (let from = 0; from < columnCount; ) {
    let to = from + 1;
    let held = activeOf[from]!;
    while (to < columnCount && (held + activeOf[to]!) * resamples * 8 <= STORE_BYTES) held += activeOf[to++]!;
    if (held > 0) passes.push([from, to]);
    from = to;
  }
  const packUnit = packUnits(table);
  const passEntries = passes.map(([from, to]) => {
    // This pass's entries, by row: those counted over entries (and not packed) first, ending at `mids[i]`.
    const pOffsets = new Int32Array(rows + 1);
    const mids = new Int32Array(rows);
    const pCols: number[] = [];
    const pVals: number[] = [];
    for (let i = 0; i < rows; i++) {
      for (const countedFirst of [true, false]) {
        for (let j = offsets[i]!; j < offsets[i + 1]!; j++) {
          const c = columns[j]!;
          if (c >= from && c < to && (overEntries[c] && packUnit[c] === 0) === countedFirst) {
            pCols.push(c - from);
            pVals.push(values[j]! + packUnit[c]!);
          }
        }
        if (countedFirst) mids[i] = pCols.length;
      }
      pOffsets[i + 1] = pCols.length;
    }
    return { offsets: pOffsets, mids, cols: Int32Array.from(pCols), vals: Float64Array.from(pVals) };
  });
  const passActive = passes.map(([from, to]) => active.filter((a) => a.c >= from && a.c < to));
  return {
    rows, resamples, confidence, targetsOf, targetGroups, targetPartition, viaCells, cellGroup, cells, passes, packUnit, passEntries, passActive,
    known, overEntries, partitionGroups: partitions.map((p) => p.groups),
  };
}

/** Largest packed sum: every sum and count stays a whole number below 2^53, so exact. */
const PACK_LIMIT = 2 ** 52;

/**
 * Per column, the packing unit (GroupedBootstrapPlan.packUnit): for an over-entries column of
 * whole numbers >= 0, 2^k above the largest sum of its values a resample can draw (rows x the
 * largest value), when the packed sums stay exact; else 0.
 */
function packUnits(table: GroupedTable): number[] {
  const { rows, columns, values, columnCount, overEntries } = table;
  const max = new Float64Array(columnCount);
  const whole = Array.from({ length: columnCount }, (_, c) => overEntries[c] === true);
  for (let j = 0; j < values.length; j++) {
    const c = columns[j]!;
    const v = values[j]!;
    if (!Number.isInteger(v) || v < 0) whole[c] = false;
    else if (v > max[c]!) max[c] = v;
  }
  return whole.map((ok, c) => {
    if (!ok) return 0;
    let unit = 1;
    while (unit <= rows * max[c]!) unit *= 2;
    return (rows + 1) * unit <= PACK_LIMIT ? unit : 0;
  });
}

/**
 * The resample means of one pass and one part of a grouped bootstrap (its resamples partRange),
 * drawn from the part's own stream of `seed`: what one thread does.
 */
export function groupedResampleMeans(plan: GroupedBootstrapPlan, seed: string, pass: number, part: number): GroupedPartMeans {
  const [first, last] = partRange(plan.resamples, part);
  const perPart = last - first;
  const act = plan.passActive[pass]!;
  const [lowSize, highSize] = tailSizes(plan.resamples, plan.confidence);
  const out = { means: new Float64Array(act.length * perPart), kept: new Int32Array(act.length) };
  const tails: GroupedPartMeans = { low: new Float64Array(act.length * lowSize), high: new Float64Array(act.length * highSize), kept: out.kept };
  if (perPart === 0 || act.length === 0) return tails;
  const [from, to] = plan.passes[pass]!;
  const width = to - from;
  const { offsets, mids, cols, vals } = plan.passEntries[pass]!;
  const rows = plan.rows;
  const T = plan.targetsOf.length;
  // Every sum in one array (the targets' first, zeroed at each resample, then the rolled-up
  // partitions'), each set of sums a view of it: a mean reads all[at[k]] over all[den[k]], or
  // for a packed column all[at[k]] alone (units[k] its packing unit).
  const sizes = [...plan.targetGroups, ...plan.viaCells.map((q) => plan.partitionGroups[q]!)];
  const all = new Float64Array(sizes.reduce((n, groups) => n + groups * (1 + 2 * width), 0));
  const offsetsOf: { n: number; sum: number; count: number }[] = [];
  let used = 0;
  const views = sizes.map((groups) => {
    const o = { n: used, sum: used + groups, count: used + groups + groups * width };
    offsetsOf.push(o);
    used += groups * (1 + 2 * width);
    return { n: all.subarray(o.n, o.sum), sum: all.subarray(o.sum, o.count), count: all.subarray(o.count, used) };
  });
  const acc = views.slice(0, T);
  const rolled = views.slice(T);
  const targetsEnd = T === 0 ? 0 : offsetsOf[T - 1]!.count + plan.targetGroups[T - 1]! * width;
  const at = new Int32Array(act.length);
  const den = new Int32Array(act.length);
  const units = new Float64Array(act.length);
  act.forEach((a, k) => {
    const t = plan.targetPartition.indexOf(a.q);
    const o = offsetsOf[t >= 0 ? t : T + plan.viaCells.indexOf(a.q)]!;
    const slot = a.g * width + (a.c - from);
    at[k] = o.sum + slot;
    units[k] = plan.packUnit[a.c]!;
    den[k] = units[k]! > 0 ? o.sum + slot : plan.overEntries[a.c] ? o.count + slot : o.n + a.g;
  });

  const rng = new SeededRandom(partSeed(seed, part));
  // A row is drawn at most `rows` times: 16 bits suffice for every analysis (20,000 runs at most).
  const drawn = rows <= 0xffff ? new Uint16Array(rows) : (new Uint32Array(rows) as unknown as Uint16Array);
  for (let r = 0; r < perPart; r++) {
    all.fill(0, 0, targetsEnd);
    drawCounts(rng, drawn);
    if (T === 2) {
      const [x, y] = acc as [Sums, Sums];
      sumTwo(drawn, offsets, mids, cols, vals, width, plan.targetsOf[0]!, x.n, x.sum, x.count, plan.targetsOf[1]!, y.n, y.sum, y.count);
    } else sumMany(drawn, offsets, mids, cols, vals, width, plan.targetsOf, acc);
    if (plan.viaCells.length) {
      const cellAcc = acc[acc.length - 1]!;
      plan.viaCells.forEach((_, k) => {
        const into = rolled[k]!;
        into.n.fill(0);
        into.sum.fill(0);
        into.count.fill(0);
        const groupOfCell = plan.cellGroup[k]!;
        for (let cell = 0; cell < plan.cells; cell++) {
          const g = groupOfCell[cell]!;
          into.n[g]! += cellAcc.n[cell]!;
          for (let col = 0; col < width; col++) {
            into.sum[g * width + col]! += cellAcc.sum[cell * width + col]!;
            into.count[g * width + col]! += cellAcc.count[cell * width + col]!;
          }
        }
      });
    }
    const { means, kept } = out;
    for (let k = 0; k < act.length; k++) {
      const unit = units[k]!;
      const sum = all[at[k]!]!;
      if (unit > 0) {
        const entries = Math.floor(sum / unit);
        if (entries === 0) continue;
        means[k * perPart + kept[k]!++] = (sum - entries * unit) / entries;
        continue;
      }
      const denominator = all[den[k]!]!;
      if (denominator === 0) continue;
      means[k * perPart + kept[k]!++] = sum / denominator;
    }
  }
  // Each mean's smallest and largest resample means, sorted: all that its percentiles read.
  for (let k = 0; k < act.length; k++) {
    const n = out.kept[k]!;
    const mine = out.means.subarray(k * perPart, k * perPart + n);
    const a = Math.min(n, lowSize);
    if (a < n) select(mine, a - 1);
    const low = tails.low.subarray(k * lowSize, k * lowSize + a);
    low.set(mine.subarray(0, a));
    low.sort();
    const b = Math.min(n, highSize);
    if (b < n) select(mine, n - b);
    const high = tails.high.subarray(k * highSize, k * highSize + b);
    high.set(mine.subarray(n - b));
    high.sort();
  }
  return tails;
}

/** The intervals from every pass's parts' resample means (parts[pass][part]). */
export function finishGroupedBootstrap(plan: GroupedBootstrapPlan, parts: readonly (readonly GroupedPartMeans[])[]): ([number, number] | null)[][][] {
  const result = plan.known.map((groups) => groups.map((columns) => [...columns]));
  const alpha = 1 - plan.confidence;
  const [lowSize, highSize] = tailSizes(plan.resamples, plan.confidence);
  const lows = new Array<Float64Array>(BOOTSTRAP_PARTS);
  const highs = new Array<Float64Array>(BOOTSTRAP_PARTS);
  plan.passActive.forEach((act, pass) => {
    act.forEach((a, k) => {
      let total = 0;
      for (let part = 0; part < BOOTSTRAP_PARTS; part++) {
        const { low, high, kept } = parts[pass]![part]!;
        const n = kept[k]!;
        total += n;
        lows[part] = low.subarray(k * lowSize, k * lowSize + Math.min(n, lowSize));
        highs[part] = high.subarray(k * highSize, k * highSize + Math.min(n, highSize));
      }
      if (total === 0) {
        result[a.q]![a.g]![a.c] = [a.mean, a.mean];
        return;
      }
      const low = tailQuantile(lows, total, alpha / 2, false);
      const high = tailQuantile(highs, total, 1 - alpha / 2, true);
      result[a.q]![a.g]![a.c] = [Math.min(low, a.mean), Math.max(high, a.mean)];
    });
  });
  return result;
}

/**
 * The p-quantile (type 7, as `quantile`) of `total` values of which `tails` holds, per part and
 * ascending, the smallest (`fromTop` false) or the largest (true) that it needs.
 */
function tailQuantile(tails: readonly Float64Array[], total: number, p: number, fromTop: boolean): number {
  const h = (total - 1) * p;
  const lo = Math.floor(h);
  const below = orderStatistic(tails, fromTop ? total - 1 - lo : lo, fromTop);
  if (h === lo) return below;
  const above = orderStatistic(tails, fromTop ? total - 2 - lo : lo + 1, fromTop);
  return below + (h - lo) * (above - below);
}

/** The i-th smallest (or largest, `fromTop`) of the sorted lists taken together, 0-based. */
function orderStatistic(lists: readonly Float64Array[], i: number, fromTop: boolean): number {
  const at = lists.map((list) => (fromTop ? list.length - 1 : 0));
  for (let taken = 0; ; taken++) {
    let best = -1;
    for (let l = 0; l < lists.length; l++) {
      const j = at[l]!;
      if (j < 0 || j >= lists[l]!.length) continue;
      if (best < 0 || (fromTop ? lists[l]![j]! > lists[best]![at[best]!]! : lists[l]![j]! < lists[best]![at[best]!]!)) best = l;
    }
    if (best < 0) throw new RangeError("bootstrap: a percentile needs more resample means than the parts kept");
    if (taken === i) return lists[best]![at[best]!]!;
    at[best]! += fromTop ? -1 : 1;
  }
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

/** Per group: rows drawn, and per group and column the sum of values and the entries drawn. */
type Sums = { n: Float64Array; sum: Float64Array; count: Float64Array };

/**
 * One resample as draw counts: `drawn[i]` the times row i was drawn in rows.length uniform draws
 * (a multinomial). The generator is sfc32 inlined (SeededRandom.nextU32).
 */
function drawCounts(rng: SeededRandom, drawn: Uint16Array): void {
  drawn.fill(0);
  const rows = drawn.length;
  let a = rng.a;
  let b = rng.b;
  let c = rng.c;
  let d = rng.d;
  const scale = rows / 4294967296;
  for (let i = 0; i < rows; i++) {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    drawn[((t >>> 0) * scale) | 0]!++;
  }
  rng.a = a;
  rng.b = b;
  rng.c = c;
  rng.d = d;
}

/**
 * The sums of a resample into two sets of group sums (the hot loop of the grouped bootstrap, kept
 * small and monomorphic): the rows in order, each drawn row's values times its count.
 */
function sumTwo(
  drawn: Uint16Array,
  offsets: Int32Array,
  mids: Int32Array,
  cols: Int32Array,
  vals: Float64Array,
  width: number,
  ofA: Int32Array,
  nA: Float64Array,
  sumA: Float64Array,
  countA: Float64Array,
  ofB: Int32Array,
  nB: Float64Array,
  sumB: Float64Array,
  countB: Float64Array,
): void {
  const rows = drawn.length;
  for (let row = 0; row < rows; row++) {
    const w = drawn[row]!;
    if (w === 0) continue;
    const gA = ofA[row]!;
    const gB = ofB[row]!;
    nA[gA]! += w;
    nB[gB]! += w;
    const baseA = gA * width;
    const baseB = gB * width;
    const mid = mids[row]!;
    const end = offsets[row + 1]!;
    let j = offsets[row]!;
    for (; j < mid; j++) {
      const col = cols[j]!;
      const v = vals[j]! * w;
      sumA[baseA + col]! += v;
      sumB[baseB + col]! += v;
      countA[baseA + col]! += w;
      countB[baseB + col]! += w;
    }
    for (; j < end; j++) {
      const col = cols[j]!;
      const v = vals[j]! * w;
      sumA[baseA + col]! += v;
      sumB[baseB + col]! += v;
    }
  }
}

/** sumTwo for any number of sets of sums (cells too many to roll up), less quickly. */
function sumMany(
  drawn: Uint16Array,
  offsets: Int32Array,
  mids: Int32Array,
  cols: Int32Array,
  vals: Float64Array,
  width: number,
  targets: readonly Int32Array[],
  acc: readonly Sums[],
): void {
  for (let row = 0; row < drawn.length; row++) {
    const w = drawn[row]!;
    if (w === 0) continue;
    for (let t = 0; t < targets.length; t++) {
      const g = targets[t]![row]!;
      const x = acc[t]!;
      x.n[g]! += w;
      const base = g * width;
      for (let j = offsets[row]!; j < offsets[row + 1]!; j++) {
        x.sum[base + cols[j]!]! += vals[j]! * w;
        if (j < mids[row]!) x.count[base + cols[j]!]! += w;
      }
    }
  }
}

/** The p- and q-quantiles (p <= q) of `xs` (type 7): the second selection only searches above the first. */
function quantiles(xs: Float64Array, p: number, q: number): [number, number] {
  const low = quantile(xs, p);
  const h = (xs.length - 1) * q;
  const lo = Math.floor(h);
  const start = Math.floor((xs.length - 1) * p) + 1;
  if (lo < start) return [low, quantile(xs, q)];
  const below = select(xs, lo, start);
  if (h === lo) return [low, below];
  let above = Infinity;
  for (let i = lo + 1; i < xs.length; i++) if (xs[i]! < above) above = xs[i]!;
  return [low, below + (h - lo) * (above - below)];
}

/** The k-th smallest (0-based) of `xs`, leaving xs[0..k) <= xs[k] <= xs(k..] (Hoare's selection). */
function select(xs: Float64Array, k: number, from = 0): number {
  let left = from;
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
