// The figures of EntityVisibility over a group of runs (all runs, one engine, one prompt, one
// country), each with its n and its interval (decisions.md "Statistics", "Visibility analyses").
import { bootstrapGroupedMeans, rateOf, round4 } from "../stats";
import { SHARE_OF_VOICE_BASIS, type EntityFigures } from "../schemas/visibility";
import type { Observations } from "./observe";

export { SHARE_OF_VOICE_BASIS };

export type { EntityFigures };

const roundInterval = (interval: [number, number] | null): [number, number] | null =>
  interval === null ? null : [round4(interval[0]), round4(interval[1])];

/**
 * Figures of every entity over the runs `indices`, with the group's bootstrap intervals
 * (`intervals[2e]` average position, `intervals[2e + 1]` prominence: meanIntervals).
 */
export function groupFigures(obs: Observations, indices: ArrayLike<number>, intervals: readonly ([number, number] | null)[]): EntityFigures[] {
  const E = obs.entities;
  const n = indices.length;
  const mentioning = new Array<number>(E).fill(0);
  for (let i = 0; i < n; i++) {
    const base = indices[i]! * E;
    for (let e = 0; e < E; e++) mentioning[e]! += obs.mentioned[base + e]!;
  }
  const basis = mentioning.reduce((a, b) => a + b, 0);

  const out: EntityFigures[] = [];
  for (let e = 0; e < E; e++) {
    const positionCounts: Record<string, number> = {};
    for (let k = 1; k <= E; k++) positionCounts[String(k)] = 0;
    let positionSum = 0;
    let top1 = 0;
    let top3 = 0;
    let citing = 0;
    let both = 0;
    let counted = 0;
    let echo = 0;
    let absence = 0;
    let prominenceSum = 0;
    for (let i = 0; i < n; i++) {
      const cell = indices[i]! * E + e;
      const mentioned = obs.mentioned[cell] === 1;
      const cited = obs.cited[cell] === 1;
      if (mentioned) {
        const position = obs.position[cell]!;
        positionSum += position;
        positionCounts[String(position)]!++;
        if (position === 1) top1++;
        if (position <= 3) top3++;
        if (cited) both++;
      }
      if (cited) citing++;
      counted += obs.counted[cell]!;
      echo += obs.promptEcho[cell]!;
      absence += obs.absence[cell]!;
      prominenceSum += obs.prominence[cell]!;
    }
    const m = mentioning[e]!;
    const visibility = rateOf(m, n);
    const top1Rate = rateOf(top1, n);
    const top3Rate = rateOf(top3, n);
    const citedRate = rateOf(citing, n);
    out.push({
      runs: n,
      runs_mentioning: m,
      visibility: visibility.rate,
      visibility_interval: visibility.interval,
      share_of_voice: basis === 0 ? null : round4(m / basis),
      share_of_voice_basis: SHARE_OF_VOICE_BASIS,
      share_of_voice_n: basis,
      average_position: m === 0 ? null : round4(positionSum / m),
      average_position_interval: roundInterval(intervals[2 * e]!),
      position_counts: positionCounts,
      runs_top1: top1,
      top1_rate: top1Rate.rate,
      top1_rate_interval: top1Rate.interval,
      runs_top3: top3,
      top3_rate: top3Rate.rate,
      top3_rate_interval: top3Rate.interval,
      prominence: n === 0 ? 0 : round4(prominenceSum / n),
      prominence_interval: roundInterval(intervals[2 * e + 1]!) ?? [0, 1],
      runs_citing: citing,
      cited_rate: citedRate.rate,
      cited_rate_interval: citedRate.interval,
      mentioned_and_cited: both,
      mentioned_not_cited: m - both,
      cited_not_mentioned: citing - both,
      mentions: counted,
      mentions_not_counted: { prompt_echo: echo, absence },
    });
  }
  return out;
}

/**
 * Bootstrap intervals of every entity's average position (column 2e: a mean over the runs
 * mentioning it) and prominence (column 2e + 1: a mean over all runs) in every group of every
 * partition (intervals[partition][group][column]), from one bootstrap of the analysis's runs
 * seeded by `seed` (the analysis id): the same analysis always gets the same intervals.
 */
export function meanIntervals(obs: Observations, partitions: readonly { groupOf: Int32Array; groups: number }[], seed: string, resamples?: number) {
  const E = obs.entities;
  const offsets = new Int32Array(obs.runs + 1);
  const columns: number[] = [];
  const values: number[] = [];
  for (let r = 0; r < obs.runs; r++) {
    const base = r * E;
    for (let e = 0; e < E; e++) {
      if (obs.mentioned[base + e] !== 1) continue;
      columns.push(2 * e, 2 * e + 1);
      values.push(obs.position[base + e]!, obs.prominence[base + e]!);
    }
    offsets[r + 1] = columns.length;
  }
  return bootstrapGroupedMeans(
    {
      rows: obs.runs,
      offsets,
      columns: Int32Array.from(columns),
      values: Float64Array.from(values),
      columnCount: 2 * E,
      overEntries: Array.from({ length: 2 * E }, (_, c) => c % 2 === 0),
      partitions,
    },
    seed,
    { resamples },
  );
}
