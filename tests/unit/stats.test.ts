// The statistics module (lib/stats) against published values: Newcombe's intervals for a
// difference of proportions, Wilson's for one proportion, Cohen's kappa, Student's t quantiles and
// the t interval of a mean (hand-computed samples, and its coverage over seeded samples).
import { describe, expect, it } from "vitest";
import {
  SeededRandom, changeTest, cohensKappa, newcombeInterval, normalQuantile, sampleVariance, studentTCdf, studentTQuantile, tFor, tMeanInterval, wilsonInterval, zFor,
} from "@/lib/stats";
import { wilsonInterval as wilsonFromItsFile } from "@/lib/stats/wilson";

const r4 = ([low, high]: [number, number]) => [Math.round(low * 1e4) / 1e4, Math.round(high * 1e4) / 1e4];

describe("wilsonInterval", () => {
  it("gives Newcombe's published single-proportion intervals", () => {
    // Newcombe RG (1998), "Two-sided confidence intervals for the single proportion: comparison of
    // seven methods", Stat Med 17:857-872, worked examples (method 3, score without continuity
    // correction); the first two as the R package propint's tests quote them
    // (m-Py/propint tests/testthat/test_Single_Proportion_CI.R).
    expect(r4(wilsonInterval(81, 263))).toEqual([0.2553, 0.3662]);
    expect(r4(wilsonInterval(15, 148))).toEqual([0.0624, 0.1605]);
    expect(r4(wilsonInterval(0, 20))).toEqual([0, 0.1611]);
    expect(r4(wilsonInterval(1, 29))).toEqual([0.0061, 0.1718]);
  });

  it("is one function, exported by the module and by its own file", () => {
    expect(wilsonInterval).toBe(wilsonFromItsFile);
  });
});

describe("normalQuantile", () => {
  it("gives the familiar z values", () => {
    expect(zFor(0.95)).toBeCloseTo(1.959963984540054, 12);
    expect(zFor(0.99)).toBeCloseTo(2.5758293035489, 12);
    // Bonferroni over 10 cells: 1 - 0.05/10.
    expect(zFor(0.995)).toBeCloseTo(2.807033768343811, 12);
    expect(normalQuantile(0.5)).toBe(0);
    expect(normalQuantile(1e-10)).toBeCloseTo(-6.361340902404056, 9);
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(() => zFor(1)).toThrow(RangeError);
  });
});

describe("newcombeInterval (method 10)", () => {
  // Newcombe RG (1998), "Interval estimation for the difference between independent proportions:
  // comparison of eleven methods", Stat Med 17:873-890, Table II, method 10 (hybrid score).
  // 56/70 - 48/80 and 9/10 - 3/10 as propint's tests quote them (m-Py/propint
  // tests/testthat/test_Two_Independent_Props_CI.R); 10/10 - 0/20 as recast from Table II in
  // "Constructing Confidence Intervals for the Differences of Binomial Proportions" (WUSS 2016,
  // paper 127); 5/56 - 0/29 and 0/10 - 0/20 as the table gives them (no stored copy of the paper was
  // reachable here to re-read; both agree to 4 places with the formula).
  it.each([
    [56, 70, 48, 80, 0.0524, 0.3339],
    [9, 10, 3, 10, 0.1705, 0.809],
    [5, 56, 0, 29, -0.0381, 0.1926],
    [0, 10, 0, 20, -0.1611, 0.2775],
    [10, 10, 0, 20, 0.6791, 1],
  ])("%i/%i - %i/%i: [%d, %d]", (x1, n1, x2, n2, low, high) => {
    expect(r4(newcombeInterval(x1, n1, x2, n2))).toEqual([low, high]);
  });

  it("mirrors when the samples swap, and widens with the confidence", () => {
    const [low, high] = newcombeInterval(56, 70, 48, 80);
    const [mLow, mHigh] = newcombeInterval(48, 80, 56, 70);
    expect(mLow).toBeCloseTo(-high, 12);
    expect(mHigh).toBeCloseTo(-low, 12);
    const [low99, high99] = newcombeInterval(56, 70, 48, 80, 0.99);
    expect(low99).toBeLessThan(low);
    expect(high99).toBeGreaterThan(high);
  });
});

describe("changeTest", () => {
  it("is significant when the Bonferroni interval excludes 0 and the change is big enough", () => {
    // 20/100 -> 40/100: +20 points; at 1 - 0.05/15 the interval still excludes 0.
    const t = changeTest({ successes: 20, trials: 100 }, { successes: 40, trials: 100 }, { m: 15 });
    expect(t.diff).toBe(0.2);
    expect(t.interval[0]).toBeGreaterThan(0);
    expect(t.interval).toEqual(r4(newcombeInterval(40, 100, 20, 100, 1 - 0.05 / 15)));
    expect(t.significant).toBe(true);
  });

  it("is not significant when the interval holds 0, however big the change", () => {
    // 1/4 -> 3/4: +50 points, but four runs a period prove nothing.
    const t = changeTest({ successes: 1, trials: 4 }, { successes: 3, trials: 4 });
    expect(t.diff).toBe(0.5);
    expect(t.interval[0]).toBeLessThan(0);
    expect(t.significant).toBe(false);
  });

  it("is not significant below min_change even when the interval excludes 0", () => {
    // 5,000/10,000 -> 5,600/10,000: +6 points, certain, but under the default 10.
    const small = changeTest({ successes: 5000, trials: 10000 }, { successes: 5600, trials: 10000 });
    expect(small.interval[0]).toBeGreaterThan(0);
    expect(small.significant).toBe(false);
    expect(changeTest({ successes: 5000, trials: 10000 }, { successes: 5600, trials: 10000 }, { minChange: 5 }).significant).toBe(true);
  });

  it("counts exactly min_change points as enough (decided on integers, not floats)", () => {
    // 0.3 - 0.2 is 0.09999999999999998 in floats; 2,000/10,000 -> 3,000/10,000 is 10 points.
    expect(changeTest({ successes: 2000, trials: 10000 }, { successes: 3000, trials: 10000 }).significant).toBe(true);
    expect(changeTest({ successes: 2000, trials: 10000 }, { successes: 2999, trials: 10000 }).significant).toBe(false);
  });

  it("sees falls as well as rises, and nothing over a period without runs", () => {
    const fall = changeTest({ successes: 60, trials: 100 }, { successes: 20, trials: 100 });
    expect(fall.diff).toBe(-0.4);
    expect(fall.interval[1]).toBeLessThan(0);
    expect(fall.significant).toBe(true);
    expect(changeTest({ successes: 0, trials: 0 }, { successes: 50, trials: 50 }).significant).toBe(false);
    expect(() => changeTest({ successes: 1, trials: 2 }, { successes: 1, trials: 2 }, { m: 0 })).toThrow(RangeError);
  });
});

describe("cohensKappa", () => {
  it("gives the textbook example's 0.4", () => {
    // Wikipedia, "Cohen's kappa", simple example: 50 proposals, both yes 20, only A yes 5,
    // only B yes 10, both no 15: po = 0.7, pe = 0.5, kappa = 0.4.
    expect(cohensKappa({ both: 20, firstOnly: 5, secondOnly: 10, neither: 15 })).toBeCloseTo(0.4, 12);
  });

  it("is 1 for perfect agreement, 0 at chance level, null where undefined", () => {
    expect(cohensKappa({ both: 7, firstOnly: 0, secondOnly: 0, neither: 3 })).toBe(1);
    expect(cohensKappa({ both: 25, firstOnly: 25, secondOnly: 25, neither: 25 })).toBe(0);
    expect(cohensKappa({ both: 0, firstOnly: 0, secondOnly: 0, neither: 0 })).toBeNull();
    // Both raters said "mentioned" of every run: pe = 1.
    expect(cohensKappa({ both: 12, firstOnly: 0, secondOnly: 0, neither: 0 })).toBeNull();
  });
});


describe("studentTQuantile", () => {
  // The two-sided 95% and 99% critical values of any t table (e.g. NIST/SEMATECH e-Handbook of
  // Statistical Methods, 1.3.6.7.2, "Critical values of the Student's t distribution", there to 3
  // places; to 4 as Fisher & Yates's tables give them): t(0.975, df) and t(0.995, df).
  it.each([
    [0.975, 1, 12.7062],
    [0.975, 2, 4.3027],
    [0.975, 3, 3.1824],
    [0.975, 4, 2.7764],
    [0.975, 9, 2.2622],
    [0.975, 10, 2.2281],
    [0.975, 29, 2.0452],
    [0.975, 30, 2.0423],
    [0.975, 100, 1.984],
    [0.995, 1, 63.6567],
    [0.995, 10, 3.1693],
    [0.95, 10, 1.8125],
  ])("t(%d, %i) = %d", (p, df, t) => {
    expect(studentTQuantile(p, df)).toBeCloseTo(t, 4);
    expect(studentTQuantile(1 - p, df)).toBeCloseTo(-t, 4);
  });

  it("tends to the normal's 1.95996 as the degrees of freedom grow", () => {
    const z = zFor(0.95);
    expect(studentTQuantile(0.975, 1_000_000)).toBeCloseTo(1.95996, 4);
    // The expansion in 1/df (Fisher and Cornish 1960): t - z = (z³ + z) / (4 df) + (5z⁵ + 16z³ + 3z) / (96 df²) + ...
    for (const df of [1e4, 1e6]) {
      const expansion = (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2);
      expect(Math.abs(studentTQuantile(0.975, df) - z - expansion), `df ${df}`).toBeLessThan(1e-10);
    }
    expect(studentTQuantile(0.975, 100_000)).toBeGreaterThan(studentTQuantile(0.975, 1_000_000));
    expect(studentTQuantile(0.975, Infinity)).toBe(normalQuantile(0.975));
  });

  it("is the exact inverse where the quantile has a closed form (1, 2 and 4 degrees of freedom), far into the tails", () => {
    const closed: Record<number, (p: number) => number> = {
      // -cot(πp), not tan(π(p - 1/2)): p - 1/2 would lose the tail's digits.
      1: (p) => (p < 0.5 ? -1 / Math.tan(Math.PI * p) : 1 / Math.tan(Math.PI * (1 - p))),
      2: (p) => (2 * p - 1) / Math.sqrt(2 * p * (1 - p)),
      4: (p) => {
        const a = 4 * p * (1 - p);
        const q = Math.cos(Math.acos(Math.sqrt(a)) / 3) / Math.sqrt(a);
        return Math.sign(p - 0.5) * 2 * Math.sqrt(q - 1);
      },
    };
    for (const [df, exact] of Object.entries(closed)) {
      for (const p of [1e-10, 1e-4, 0.01, 0.025, 0.1, 0.3, 0.6, 0.9, 0.975, 0.995, 0.9999]) {
        const want = exact(p);
        expect(Math.abs(studentTQuantile(p, Number(df)) - want), `df ${df}, p ${p}`).toBeLessThan(1e-10 * Math.max(1, Math.abs(want)));
      }
    }
  });

  it("inverts the CDF at any degrees of freedom, whole or not", () => {
    for (const df of [0.5, 1.5, 3, 7.25, 25, 300, 5000]) {
      for (const p of [1e-8, 0.001, 0.05, 0.4, 0.7, 0.975, 0.999]) {
        const t = studentTQuantile(p, df);
        const back = studentTCdf(t, df);
        expect(Math.abs(back - p) / Math.min(p, 1 - p), `df ${df}, p ${p}`).toBeLessThan(1e-9);
      }
    }
    expect(studentTCdf(0, 3)).toBe(0.5);
    expect(studentTQuantile(0.5, 3)).toBe(0);
    expect(studentTQuantile(1, 3)).toBe(Infinity);
  });

  it("is what tFor answers for a two-sided interval, and refuses what has no quantile", () => {
    expect(tFor(0.95, 9)).toBe(studentTQuantile(0.975, 9));
    expect(tFor(0.99, 9)).toBe(studentTQuantile(0.995, 9));
    expect(() => studentTQuantile(0.975, 0)).toThrow(RangeError);
    expect(() => studentTQuantile(1.5, 3)).toThrow(RangeError);
    expect(() => studentTCdf(1, Infinity)).toThrow(RangeError);
    expect(() => tFor(1, 3)).toThrow(RangeError);
  });
});

/** The sums of `values`: what tMeanInterval takes. */
const sums = (values: number[]) => [values.length, values.reduce((s, x) => s + x, 0), values.reduce((s, x) => s + x * x, 0)] as const;

describe("tMeanInterval", () => {
  // Each by hand: mean ± t · s / √n with the table's t, then clipped to the range.
  it("gives the whole range for one value and nothing for none", () => {
    expect(tMeanInterval(...sums([3]), [1, 5])).toEqual([1, 5]);
    expect(tMeanInterval(...sums([0.4]), [0, 1])).toEqual([0, 1]);
    expect(tMeanInterval(0, 0, 0, [1, 5])).toBeNull();
  });

  it("n = 2: prominences 0.50 and 0.52, mean 0.51 ± 12.7062 · 0.01", () => {
    // s = 0.0141421, s / √2 = 0.01.
    const [low, high] = tMeanInterval(...sums([0.5, 0.52]), [0, 1])!;
    expect(low).toBeCloseTo(0.51 - 0.127062, 5);
    expect(high).toBeCloseTo(0.51 + 0.127062, 5);
  });

  it("n = 30: twelve runs named first, ten second, five third, three fourth of 5", () => {
    // Sum 59, squares 145: mean 1.966667, s² = (145 - 59²/30) / 29 = 0.998851, s / √30 = 0.182469; t(0.975, 29) = 2.0452.
    const positions = [...Array(12).fill(1), ...Array(10).fill(2), ...Array(5).fill(3), ...Array(3).fill(4)];
    expect(sums(positions)).toEqual([30, 59, 145]);
    const [low, high] = tMeanInterval(30, 59, 145, [1, 5])!;
    expect(low).toBeCloseTo(1.966667 - 2.0452 * 0.182469, 4);
    expect(high).toBeCloseTo(1.966667 + 2.0452 * 0.182469, 4);
    expect([low, high].map((x) => Math.round(x * 1e4) / 1e4)).toEqual([1.5935, 2.3399]);
  });

  it("clips to the values' range: four runs named first and one second of 5", () => {
    // Mean 1.2, s² = 0.2, s / √5 = 0.2, t(0.975, 4) = 2.7764: [0.6447, 1.7553] -> [1, 1.7553].
    const [low, high] = tMeanInterval(...sums([1, 1, 1, 1, 2]), [1, 5])!;
    expect(low).toBe(1);
    expect(high).toBeCloseTo(1.2 + 2.7764 * 0.2, 4);
    // Prominences of a rarely named brand: 0.3 once in ten runs, the rest 0; mean 0.03, s / √10 = 0.03.
    const [pLow, pHigh] = tMeanInterval(...sums([0.3, ...Array(9).fill(0)]), [0, 1])!;
    expect(pLow).toBe(0);
    expect(pHigh).toBeCloseTo(0.03 + 2.2622 * 0.03, 4);
  });

  it("is the mean alone when every value is the same, and widens with the confidence", () => {
    expect(tMeanInterval(...sums([2, 2, 2]), [1, 5])).toEqual([2, 2]);
    const at95 = tMeanInterval(...sums([2, 3, 3, 4, 4]), [1, 5])!;
    const at99 = tMeanInterval(...sums([2, 3, 3, 4, 4]), [1, 5], 0.99)!;
    expect(at99[0]).toBeLessThan(at95[0]);
    expect(at99[1]).toBeGreaterThan(at95[1]);
    expect(() => tMeanInterval(2.5, 1, 1, [0, 1])).toThrow(RangeError);
    expect(() => tMeanInterval(2, 1, 1, [1, 0])).toThrow(RangeError);
  });

  it("reads the variance from the sums as the monitor series' change test does", () => {
    // 1, 2, 2, 3, 4: mean 2.4, s² = (34 - 144/5) / 4 = 1.3.
    expect(sampleVariance(...sums([1, 2, 2, 3, 4]))).toBeCloseTo(1.3, 12);
    expect(sampleVariance(1, 3, 9)).toBe(0);
  });
});

/** A position drawn from `weights` (place 1 first). */
function drawPosition(rng: SeededRandom, weights: readonly number[]): number {
  let u = rng.nextDouble();
  for (let k = 0; k < weights.length - 1; k++) {
    if (u < weights[k]!) return k + 1;
    u -= weights[k]!;
  }
  return weights.length;
}

const meanOf = (weights: readonly number[]) => weights.reduce((s, w, k) => s + w * (k + 1), 0);

/** The exact chance that the 95% interval of n positions drawn from `weights` holds their mean: every sample's counts, enumerated. */
function exactCoverage(weights: readonly number[], n: number): number {
  const places = weights.length;
  const mean = meanOf(weights);
  const logFactorial = (k: number) => {
    let s = 0;
    for (let i = 2; i <= k; i++) s += Math.log(i);
    return s;
  };
  const counts = new Array<number>(places).fill(0);
  let covered = 0;
  const visit = (place: number, left: number): void => {
    if (place === places - 1) {
      counts[place] = left;
      let logP = logFactorial(n);
      let sum = 0;
      let squares = 0;
      counts.forEach((c, k) => {
        logP += c * Math.log(weights[k]!) - logFactorial(c);
        sum += c * (k + 1);
        squares += c * (k + 1) ** 2;
      });
      const [low, high] = tMeanInterval(n, sum, squares, [1, places])!;
      if (low <= mean && mean <= high) covered += Math.exp(logP);
      return;
    }
    for (let c = 0; c <= left; c++) {
      counts[place] = c;
      visit(place + 1, left - c);
    }
  };
  visit(0, n);
  return covered;
}

describe("the t interval's coverage of a mean position", () => {
  // A brand named in any of 5 places, earlier ones more often: 30%, 25%, 20%, 15%, 10% (mean 2.5).
  const SPREAD = [0.3, 0.25, 0.2, 0.15, 0.1];

  it.each([5, 10, 30])("holds the true mean in 93 to 97 percent of 2,000 seeded samples of %i positions", (n) => {
    const rng = new SeededRandom(`coverage of the t interval, n = ${n}`);
    const mean = meanOf(SPREAD);
    let covered = 0;
    for (let sample = 0; sample < 2000; sample++) {
      const positions = Array.from({ length: n }, () => drawPosition(rng, SPREAD));
      const [low, high] = tMeanInterval(...sums(positions), [1, 5])!;
      if (low <= mean && mean <= high) covered++;
    }
    expect(covered / 2000).toBeGreaterThanOrEqual(0.93);
    expect(covered / 2000).toBeLessThanOrEqual(0.97);
  });

  it("undercovers at n = 5 when the positions crowd on one place, less so by n = 30 (exact, as docs/decisions.md states it)", () => {
    const pct = (weights: number[], n: number) => Math.round(exactCoverage(weights, n) * 1000) / 10;
    expect([5, 10, 30].map((n) => pct(SPREAD, n))).toEqual([93.4, 94.3, 94.7]);
    // Named first in 70% of answers, second in 20%, third in 10%: five runs are all first one time in six ([1, 1]).
    expect([5, 10, 30].map((n) => pct([0.7, 0.2, 0.1], n))).toEqual([82.9, 88.6, 93.2]);
  });
});
