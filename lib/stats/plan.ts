// How precise a planned visibility rate will be (decisions.md "Statistics users can plan with"):
// the half-width of the 95% Wilson interval a rate will have over the runs planned, and the runs
// a wanted precision needs.
import { normalQuantile, zFor } from "./normal";
import { Z95 } from "./wilson";

/**
 * Half the width of the 95% Wilson score interval of a rate `p` over `n` trials (p × n need not be
 * whole: a rate planned, not counted). Its widest is at p = 0.5: z / (2 √(n + z²)).
 */
export function wilsonHalfWidth(p: number, n: number, z = Z95): number {
  if (!(p >= 0 && p <= 1) || !Number.isInteger(n) || n < 1) throw new RangeError(`wilsonHalfWidth: need 0 <= p <= 1 and n >= 1 (got ${p}, ${n})`);
  const z2 = z * z;
  return (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
}

/**
 * The runs for a 95% interval no wider than ±`margin` at rate `p`: the classic sample size
 * ⌈z² p (1 − p) / margin²⌉ (385 for ±5 points at 50%, 97 for ±10, 1,068 for ±3). Wilson's
 * interval at that n is a little narrower still, so the promise holds.
 */
export function runsForMargin(margin: number, p = 0.5, z = Z95): number {
  if (!(margin > 0 && margin < 1)) throw new RangeError(`runsForMargin: need 0 < margin < 1 (got ${margin})`);
  // The float error of z² p (1 − p) / margin² (384.1459 for ±5) must not add a run.
  return Math.max(1, Math.ceil((z * z * p * (1 - p)) / (margin * margin) - 1e-9));
}

/**
 * The smallest change between two ticks of `n` runs each that the monitors' alert test (Newcombe's
 * interval at 1 − 0.05/m, lib/stats/change.ts) calls significant 8 times in 10, from a rate `p`:
 * by the normal approximation the classic two-proportion sample size rests on (unpooled, no
 * continuity correction), the least δ with δ ≥ (z₁₋α/₂ₘ + z₀.₈) √((p(1−p) + q(1−q)) / n),
 * q = p + δ (towards 50% first: p − δ above it). To 3 decimals; null when no change within
 * the rate's range is caught so often.
 */
export function detectableChange(p: number, n: number, m = 1, power = 0.8): number | null {
  if (!(p >= 0 && p <= 1) || !Number.isInteger(n) || n < 1 || !Number.isInteger(m) || m < 1) {
    throw new RangeError(`detectableChange: need 0 <= p <= 1, n >= 1 and m >= 1 (got ${p}, ${n}, ${m})`);
  }
  const k = zFor(1 - 0.05 / m) + normalQuantile(power);
  const up = p <= 0.5;
  const room = up ? 1 - p : p;
  for (let step = 1; step <= Math.round(room * 1000); step++) {
    const delta = step / 1000;
    const q = up ? p + delta : p - delta;
    if (delta >= k * Math.sqrt((p * (1 - p) + q * (1 - q)) / n) - 1e-12) return delta;
  }
  return null;
}
