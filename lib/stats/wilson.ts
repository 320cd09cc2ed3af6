// The Wilson score interval for a proportion (successes of trials), used wherever the API reports
// a share over runs (fanout query shares; citation rates). Stays inside [0, 1] for small counts,
// where the normal approximation does not.

/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/** [low, high] of the 95% Wilson score interval; [0, 1] when there were no trials. */
export function wilsonInterval(successes: number, trials: number, z = Z95): [number, number] {
  if (!Number.isInteger(successes) || !Number.isInteger(trials) || successes < 0 || trials < 0 || successes > trials) {
    throw new RangeError(`wilsonInterval: need 0 <= successes <= trials (got ${successes} of ${trials})`);
  }
  if (trials === 0) return [0, 1];
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / denominator;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}
