// Newcombe's hybrid score interval for the difference of two independent proportions (method 10
// of Newcombe 1998, Stat Med 17:873-890): the square-and-add of the two Wilson score intervals.
import { zFor } from "./normal";
import { wilsonInterval } from "./wilson";

/**
 * [low, high] for p1 - p2 (p1 = x1/n1, p2 = x2/n2) at `confidence` (default 0.95), not rounded.
 * A sample of 0 trials counts as the rate 0 with the interval [0, 1], as everywhere in the API.
 */
export function newcombeInterval(x1: number, n1: number, x2: number, n2: number, confidence = 0.95): [number, number] {
  const z = zFor(confidence);
  const [l1, u1] = wilsonInterval(x1, n1, z);
  const [l2, u2] = wilsonInterval(x2, n2, z);
  const p1 = n1 === 0 ? 0 : x1 / n1;
  const p2 = n2 === 0 ? 0 : x2 / n2;
  const d = p1 - p2;
  const low = d - Math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2);
  const high = d + Math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2);
  return [Math.max(-1, low), Math.min(1, high)];
}
