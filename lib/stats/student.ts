// Student's t distribution: its CDF through the regularized incomplete beta function
// (P(T > t) = I_x(df/2, 1/2) / 2 with x = df / (df + t^2)), evaluated by its continued fraction
// (Numerical Recipes 3rd ed., 6.4, modified Lentz), and its quantile by inverting that CDF with
// Newton's method on the log of the tail, kept inside a bracket that bisection falls back to. No
// closed-form approximation (Hill's, Cornish-Fisher) stands in for it: the quantile is the CDF's
// inverse to 1e-11 or better at any df > 0 (df = Infinity: the normal quantile). Written here
// rather than taken from npm: a hundred lines, checked against the closed forms at 1, 2 and 4 df,
// the published tables and the expansion in 1/df.
import { normalQuantile } from "./normal";

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
  9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** log Gamma(x) for x > 0 (Lanczos, g = 7: about 1e-15 relative). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Stirling's series less its leading terms: log Gamma(x) - ((x - 1/2) log x - x + log(2π) / 2), for x >= 10. */
const stirlingRest = (x: number) => {
  const x2 = x * x;
  return (1 / 12 - (1 / 360 - (1 / 1260 - 1 / (1680 * x2)) / x2) / x2) / x;
};

/**
 * log B(a, b). With a large and b small (a t distribution's df/2 and 1/2), log Gamma(a) and
 * log Gamma(a + b) nearly cancel; their difference is then taken from Stirling's series written as
 * a difference, so a df of a million keeps its digits.
 */
function logBeta(a: number, b: number): number {
  const [small, large] = a < b ? [a, b] : [b, a];
  if (large < 10) return logGamma(a) + logGamma(b) - logGamma(a + b);
  const ratio = -(large - 0.5) * Math.log1p(small / large) - small * Math.log(large + small) + small + stirlingRest(large) - stirlingRest(large + small);
  return logGamma(small) + ratio;
}

/** The continued fraction of I_x(a, b) (NR's betacf); converges fast for x < (a + 1) / (a + b + 2). */
function betaFraction(x: number, a: number, b: number): number {
  const TINY = 1e-300;
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  // Iterations grow as sqrt(max(a, b)): about 2,300 at a df of ten million.
  for (let m = 1; m <= 1_000_000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-16) return h;
  }
  throw new RangeError(`incomplete beta: no convergence at x = ${x}, a = ${a}, b = ${b}`);
}

/**
 * The regularized incomplete beta function I_x(a, b), for a, b > 0 and 0 <= x <= 1. `y` is 1 - x
 * when the caller knows it more exactly than 1 - x would give it (a t tail near 1).
 */
export function regularizedBeta(x: number, a: number, b: number, y = 1 - x): number {
  if (!(a > 0 && b > 0)) throw new RangeError(`regularizedBeta: a and b must be > 0 (got ${a}, ${b})`);
  if (!(x >= 0 && x <= 1)) throw new RangeError(`regularizedBeta: x must be in [0, 1] (got ${x})`);
  if (x === 0) return 0;
  if (y === 0) return 1;
  const front = Math.exp(a * Math.log(x) + b * Math.log(y) - logBeta(a, b));
  if (x < (a + 1) / (a + b + 2)) return (front * betaFraction(x, a, b)) / a;
  return 1 - (front * betaFraction(y, b, a)) / b;
}

/** P(T > t) for t >= 0, accurate in the far tail (no 1 - p). */
function upperTail(t: number, df: number): number {
  const t2 = t * t;
  return 0.5 * regularizedBeta(df / (df + t2), df / 2, 0.5, t2 / (df + t2));
}

/** The density of T at t. */
function density(t: number, df: number): number {
  return Math.exp(logGamma((df + 1) / 2) - logGamma(df / 2) - 0.5 * Math.log(df * Math.PI) - ((df + 1) / 2) * Math.log1p((t * t) / df));
}

/** P(T <= t) for Student's t with `df` (finite) degrees of freedom. */
export function studentTCdf(t: number, df: number): number {
  if (!(df > 0 && df < Infinity)) throw new RangeError(`studentTCdf: degrees of freedom must be finite and > 0 (got ${df})`);
  if (Number.isNaN(t)) throw new RangeError("studentTCdf: t must be a number");
  if (t === Infinity) return 1;
  if (t === -Infinity) return 0;
  return t >= 0 ? 1 - upperTail(t, df) : upperTail(-t, df);
}

/** t > 0 with P(T > t) = q, 0 < q < 1/2: Newton on log P(T > t), inside a bracket kept by bisection. */
function upperQuantile(q: number, df: number): number {
  const target = Math.log(q);
  let low = 0;
  let high = Math.max(1, -normalQuantile(q));
  while (upperTail(high, df) > q) {
    low = high;
    high *= 2;
  }
  let t = (low + high) / 2;
  for (let i = 0; i < 200; i++) {
    const tail = upperTail(t, df);
    if (tail > q) low = t;
    else high = t;
    let next = t + ((Math.log(tail) - target) * tail) / density(t, df);
    if (!(next > low && next < high)) next = (low + high) / 2;
    if (Math.abs(next - t) <= 1e-14 * t || high - low <= 1e-14 * high) return next;
    t = next;
  }
  return t;
}

/** The p-quantile of Student's t with `df` degrees of freedom: t with P(T <= t) = p (±Infinity at 0 and 1). */
export function studentTQuantile(p: number, df: number): number {
  if (!(df > 0)) throw new RangeError(`studentTQuantile: degrees of freedom must be > 0 (got ${df})`);
  if (!(p >= 0 && p <= 1)) throw new RangeError(`studentTQuantile: p must be in [0, 1] (got ${p})`);
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  if (p === 0.5) return 0;
  if (df === Infinity) return normalQuantile(p);
  return p > 0.5 ? upperQuantile(1 - p, df) : -upperQuantile(p, df);
}

/** Quantiles asked for, by p then df: an analysis asks for the same few thousands of times. */
const known = new Map<number, Map<number, number>>();

/** t of a two-sided interval at `confidence` with `df` degrees of freedom (0.95, 9 -> 2.2622), remembered. */
export function tFor(confidence: number, df: number): number {
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be between 0 and 1 (got ${confidence})`);
  let byDf = known.get(confidence);
  if (!byDf) {
    if (known.size >= 64) known.clear();
    known.set(confidence, (byDf = new Map()));
  }
  let t = byDf.get(df);
  if (t === undefined) {
    if (byDf.size >= 100_000) byDf.clear();
    byDf.set(df, (t = studentTQuantile(1 - (1 - confidence) / 2, df)));
  }
  return t;
}
