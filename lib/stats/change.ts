// Whether a rate changed between two periods (decisions.md "Statistics"): the difference with
// Newcombe's interval at 1 - 0.05/m (Bonferroni over the m cells compared at once), significant
// only when that interval excludes 0 and the change is at least `minChange` percentage points.
import { newcombeInterval } from "./newcombe";
import { round4 } from "./rate";

export type Count = { successes: number; trials: number };

export type ChangeTest = {
  /** Rate of `b` minus rate of `a`, rounded to 4 places. */
  diff: number;
  /** Newcombe's interval for the difference at 1 - 0.05/m, rounded to 4 places. */
  interval: [number, number];
  significant: boolean;
};

/** The change from period `a` to period `b`. `m` >= 1 cells compared (default 1); `minChange` in percentage points (default 10). */
export function changeTest(a: Count, b: Count, options: { m?: number; minChange?: number } = {}): ChangeTest {
  const m = options.m ?? 1;
  const minChange = options.minChange ?? 10;
  if (!Number.isInteger(m) || m < 1) throw new RangeError(`changeTest: m must be a whole number >= 1 (got ${m})`);
  if (!(minChange >= 0 && minChange <= 100)) throw new RangeError(`changeTest: minChange must be 0 to 100 percentage points (got ${minChange})`);
  const [low, high] = newcombeInterval(b.successes, b.trials, a.successes, a.trials, 1 - 0.05 / m);
  const pa = a.trials === 0 ? 0 : a.successes / a.trials;
  const pb = b.trials === 0 ? 0 : b.successes / b.trials;
  // |pb - pa| >= minChange / 100 decided on integers, so 3/10 - 2/10 is exactly 10 points.
  const bigEnough =
    a.trials > 0 && b.trials > 0 && 100 * Math.abs(b.successes * a.trials - a.successes * b.trials) >= minChange * a.trials * b.trials;
  return {
    diff: round4(pb - pa),
    interval: [round4(low), round4(high)],
    significant: bigEnough && (low > 0 || high < 0),
  };
}
