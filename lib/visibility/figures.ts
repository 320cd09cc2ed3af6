// The figures of EntityVisibility over a group of runs (all runs, one engine, one prompt, one
// country), each with its n and its interval (decisions.md "Statistics", "Visibility analyses"):
// rates with Wilson's, means (average position, prominence) with Student's t from the group's n,
// sum and sum of squares, clipped to the value's range.
import { rateOf, round4, tMeanInterval } from "../stats";
import { SHARE_OF_VOICE_BASIS, type EntityFigures } from "../schemas/visibility";
import type { Observations } from "./observe";

export { SHARE_OF_VOICE_BASIS };

export type { EntityFigures };

const roundInterval = (interval: [number, number] | null): [number, number] | null =>
  interval === null ? null : [round4(interval[0]), round4(interval[1])];

/**
 * What a group's figures are made from, per entity: sumsWidth(E) numbers each (SUM_* below, then
 * the runs at each position 1..E), entity e's at e * sumsWidth(E). Adding up a group's runs gives
 * them (groupSums); the figures are made from them alone (figuresFromSums), so a group's sums kept
 * give its figures again to the byte.
 */
const SUM_MENTIONING = 0;
const SUM_POSITION = 1;
const SUM_CITING = 2;
const SUM_BOTH = 3;
const SUM_COUNTED = 4;
const SUM_ECHO = 5;
const SUM_ABSENCE = 6;
const SUM_LINK = 7;
const SUM_PROMINENCE = 8;
const SUM_PROMINENCE_SQUARES = 9;
const SUM_POSITIONS = 10;

/** Numbers per entity in a group's sums, with `entities` tracked (positions 1..entities). */
const sumsWidth = (entities: number) => SUM_POSITIONS + entities;

/** The sums of every entity over the runs `indices` (one pass, every entity at once). */
export function groupSums(obs: Observations, indices: ArrayLike<number>): Float64Array {
  const E = obs.entities;
  const W = sumsWidth(E);
  const n = indices.length;
  const sums = new Float64Array(E * W);
  for (let i = 0; i < n; i++) {
    const base = indices[i]! * E;
    for (let e = 0; e < E; e++) {
      const cell = base + e;
      const at = e * W;
      const cited = obs.cited[cell]!;
      sums[at + SUM_CITING]! += cited;
      if (obs.mentioned[cell] === 1) {
        const position = obs.position[cell]!;
        sums[at + SUM_MENTIONING]!++;
        sums[at + SUM_POSITION]! += position;
        sums[at + SUM_POSITIONS + position - 1]!++;
        sums[at + SUM_BOTH]! += cited;
        const prominence = obs.prominence[cell]!;
        sums[at + SUM_PROMINENCE]! += prominence;
        sums[at + SUM_PROMINENCE_SQUARES]! += prominence * prominence;
      }
      sums[at + SUM_COUNTED]! += obs.counted[cell]!;
      sums[at + SUM_ECHO]! += obs.promptEcho[cell]!;
      sums[at + SUM_ABSENCE]! += obs.absence[cell]!;
      sums[at + SUM_LINK]! += obs.link[cell]!;
    }
  }
  return sums;
}

/** Figures of every entity over the runs `indices`. */
export function groupFigures(obs: Observations, indices: ArrayLike<number>): EntityFigures[] {
  return figuresFromSums(obs.entities, indices.length, groupSums(obs, indices));
}

/** The figures of a group of `n` runs from its sums (groupSums) with `E` entities tracked. */
export function figuresFromSums(E: number, n: number, sums: ArrayLike<number>): EntityFigures[] {
  const W = sumsWidth(E);
  if (sums.length !== E * W) throw new Error(`a group's sums have ${sums.length} numbers for ${E} entities, not ${E * W}`);
  let basis = 0;
  for (let e = 0; e < E; e++) basis += sums[e * W + SUM_MENTIONING]!;

  const out: EntityFigures[] = [];
  for (let e = 0; e < E; e++) {
    const at = e * W;
    const positionCounts: Record<string, number> = {};
    let top1 = 0;
    let top3 = 0;
    let positionSquares = 0;
    for (let k = 1; k <= E; k++) {
      const runs = sums[at + SUM_POSITIONS + k - 1]!;
      positionCounts[String(k)] = runs;
      positionSquares += k * k * runs;
      if (k === 1) top1 += runs;
      if (k <= 3) top3 += runs;
    }
    const m = sums[at + SUM_MENTIONING]!;
    const positionSum = sums[at + SUM_POSITION]!;
    const citing = sums[at + SUM_CITING]!;
    const both = sums[at + SUM_BOTH]!;
    const prominenceSum = sums[at + SUM_PROMINENCE]!;
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
      // A position is 1 to the number of entities; a run not naming the entity has none.
      average_position_interval: roundInterval(tMeanInterval(m, positionSum, positionSquares, [1, E])),
      position_counts: positionCounts,
      runs_top1: top1,
      top1_rate: top1Rate.rate,
      top1_rate_interval: top1Rate.interval,
      runs_top3: top3,
      top3_rate: top3Rate.rate,
      top3_rate_interval: top3Rate.interval,
      prominence: n === 0 ? 0 : round4(prominenceSum / n),
      // Over all runs (0 where not named); over none, the whole range, as a rate's.
      prominence_interval: roundInterval(tMeanInterval(n, prominenceSum, sums[at + SUM_PROMINENCE_SQUARES]!, [0, 1])) ?? [0, 1],
      runs_citing: citing,
      cited_rate: citedRate.rate,
      cited_rate_interval: citedRate.interval,
      mentioned_and_cited: both,
      mentioned_not_cited: m - both,
      cited_not_mentioned: citing - both,
      mentions: sums[at + SUM_COUNTED]!,
      mentions_not_counted: { prompt_echo: sums[at + SUM_ECHO]!, absence: sums[at + SUM_ABSENCE]!, link: sums[at + SUM_LINK]! },
    });
  }
  return out;
}
