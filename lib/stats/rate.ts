// A rate over runs as the API reports it: rounded to 4 places with its 95% Wilson interval.
import { wilsonInterval } from "./wilson";

export const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** The rate and its 95% Wilson interval, both rounded to 4 places (0 and [0, 1] over no runs). */
export function rateOf(successes: number, trials: number) {
  const [low, high] = wilsonInterval(successes, trials);
  return { rate: trials === 0 ? 0 : round4(successes / trials), interval: [round4(low), round4(high)] as [number, number] };
}
