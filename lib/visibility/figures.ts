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

/** Figures of every entity over the runs `indices`. */
export function groupFigures(obs: Observations, indices: ArrayLike<number>): EntityFigures[] {
  const E = obs.entities;
  const n = indices.length;
  // One pass over the group's runs, every entity's counts at once.
  const mentioning = new Float64Array(E);
  const positionSum = new Float64Array(E);
  const positions = new Float64Array(E * (E + 1));
  const citing = new Float64Array(E);
  const both = new Float64Array(E);
  const counted = new Float64Array(E);
  const echo = new Float64Array(E);
  const absence = new Float64Array(E);
  const link = new Float64Array(E);
  const prominenceSum = new Float64Array(E);
  const prominenceSquares = new Float64Array(E);
  for (let i = 0; i < n; i++) {
    const base = indices[i]! * E;
    for (let e = 0; e < E; e++) {
      const cell = base + e;
      const cited = obs.cited[cell]!;
      citing[e]! += cited;
      if (obs.mentioned[cell] === 1) {
        const position = obs.position[cell]!;
        mentioning[e]!++;
        positionSum[e]! += position;
        positions[e * (E + 1) + position]!++;
        both[e]! += cited;
        const prominence = obs.prominence[cell]!;
        prominenceSum[e]! += prominence;
        prominenceSquares[e]! += prominence * prominence;
      }
      counted[e]! += obs.counted[cell]!;
      echo[e]! += obs.promptEcho[cell]!;
      absence[e]! += obs.absence[cell]!;
      link[e]! += obs.link[cell]!;
    }
  }
  let basis = 0;
  for (let e = 0; e < E; e++) basis += mentioning[e]!;

  const out: EntityFigures[] = [];
  for (let e = 0; e < E; e++) {
    const positionCounts: Record<string, number> = {};
    let top1 = 0;
    let top3 = 0;
    let positionSquares = 0;
    for (let k = 1; k <= E; k++) {
      const runs = positions[e * (E + 1) + k]!;
      positionCounts[String(k)] = runs;
      positionSquares += k * k * runs;
      if (k === 1) top1 += runs;
      if (k <= 3) top3 += runs;
    }
    const m = mentioning[e]!;
    const visibility = rateOf(m, n);
    const top1Rate = rateOf(top1, n);
    const top3Rate = rateOf(top3, n);
    const citedRate = rateOf(citing[e]!, n);
    out.push({
      runs: n,
      runs_mentioning: m,
      visibility: visibility.rate,
      visibility_interval: visibility.interval,
      share_of_voice: basis === 0 ? null : round4(m / basis),
      share_of_voice_basis: SHARE_OF_VOICE_BASIS,
      share_of_voice_n: basis,
      average_position: m === 0 ? null : round4(positionSum[e]! / m),
      // A position is 1 to the number of entities; a run not naming the entity has none.
      average_position_interval: roundInterval(tMeanInterval(m, positionSum[e]!, positionSquares, [1, E])),
      position_counts: positionCounts,
      runs_top1: top1,
      top1_rate: top1Rate.rate,
      top1_rate_interval: top1Rate.interval,
      runs_top3: top3,
      top3_rate: top3Rate.rate,
      top3_rate_interval: top3Rate.interval,
      prominence: n === 0 ? 0 : round4(prominenceSum[e]! / n),
      // Over all runs (0 where not named); over none, the whole range, as a rate's.
      prominence_interval: roundInterval(tMeanInterval(n, prominenceSum[e]!, prominenceSquares[e]!, [0, 1])) ?? [0, 1],
      runs_citing: citing[e]!,
      cited_rate: citedRate.rate,
      cited_rate_interval: citedRate.interval,
      mentioned_and_cited: both[e]!,
      mentioned_not_cited: m - both[e]!,
      cited_not_mentioned: citing[e]! - both[e]!,
      mentions: counted[e]!,
      mentions_not_counted: { prompt_echo: echo[e]!, absence: absence[e]!, link: link[e]! },
    });
  }
  return out;
}
