// Seeded randomness for the bootstrap: the same seed (an analysis id) gives the same draws, so a
// stored analysis recomputed gives the same intervals. sfc32 (Doty-Humphrey's small fast counting
// generator, 128-bit state) seeded by cyrb128 of the seed string; binomial draws by inversion for
// small means and BTPE (Kachitvichyanukul & Schmeiser 1988) otherwise, as numpy draws them.

/** Four 32-bit words from a string (cyrb128), the generator's starting state. */
function seedWords(seed: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < seed.length; i++) {
    const k = seed.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  return [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
}

export class SeededRandom {
  a: number;
  b: number;
  c: number;
  d: number;

  constructor(seed: string) {
    [this.a, this.b, this.c, this.d] = seedWords(seed);
    for (let i = 0; i < 15; i++) this.nextU32();
  }

  /** A uniform 32-bit unsigned integer. */
  nextU32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A uniform double in [0, 1) with 53 random bits. */
  nextDouble(): number {
    const hi = this.nextU32() >>> 5;
    const lo = this.nextU32() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** A uniform integer in [0, n), n <= 2^32. */
  nextIndex(n: number): number {
    return Math.floor((this.nextU32() * n) / 4294967296);
  }

  /** A draw of Binomial(n, p). */
  binomial(n: number, p: number): number {
    if (n <= 0 || p <= 0) return 0;
    if (p >= 1) return n;
    if (p <= 0.5) return p * n <= 30 ? binomialInversion(this, n, p) : binomialBtpe(this, n, p);
    const q = 1 - p;
    return n - (q * n <= 30 ? binomialInversion(this, n, q) : binomialBtpe(this, n, q));
  }
}

/** Inversion of the distribution function, for n * p <= 30 (p <= 1/2). */
function binomialInversion(rng: SeededRandom, n: number, p: number): number {
  const q = 1 - p;
  const qn = Math.exp(n * Math.log(q));
  const np = n * p;
  const bound = Math.min(n, np + 10 * Math.sqrt(np * q + 1));
  let x = 0;
  let px = qn;
  let u = rng.nextDouble();
  while (u > px) {
    x++;
    if (x > bound) {
      x = 0;
      px = qn;
      u = rng.nextDouble();
    } else {
      u -= px;
      px = ((n - x + 1) * p * px) / (x * q);
    }
  }
  return x;
}

/** Stirling's series correction used by BTPE's final acceptance test. */
const stirling = (x: number) => {
  const x2 = x * x;
  return (13860 - (462 - (132 - (99 - 140 / x2) / x2) / x2) / x2) / x / 166320;
};

/** BTPE (triangle, parallelogram, exponential tails), for n * p > 30 (p <= 1/2): exact, O(1) expected. */
function binomialBtpe(rng: SeededRandom, n: number, p: number): number {
  const r = p;
  const q = 1 - r;
  const fm = n * r + r;
  const m = Math.floor(fm);
  const p1 = Math.floor(2.195 * Math.sqrt(n * r * q) - 4.6 * q) + 0.5;
  const xm = m + 0.5;
  const xl = xm - p1;
  const xr = xm + p1;
  const c = 0.134 + 20.5 / (15.3 + m);
  let a = (fm - xl) / (fm - xl * r);
  const laml = a * (1 + a / 2);
  a = (xr - fm) / (xr * q);
  const lamr = a * (1 + a / 2);
  const p2 = p1 * (1 + 2 * c);
  const p3 = p2 + c / laml;
  const p4 = p3 + c / lamr;
  const nrq = n * r * q;

  for (;;) {
    const u = rng.nextDouble() * p4;
    let v = rng.nextDouble();
    let y: number;
    if (u <= p1) return Math.floor(xm - p1 * v + u);
    if (u <= p2) {
      const x = xl + (u - p1) / c;
      v = v * c + 1 - Math.abs(m - x + 0.5) / p1;
      if (v > 1) continue;
      y = Math.floor(x);
    } else if (u <= p3) {
      y = Math.floor(xl + Math.log(v) / laml);
      if (y < 0 || v === 0) continue;
      v = v * (u - p2) * laml;
    } else {
      y = Math.floor(xr - Math.log(v) / lamr);
      if (y > n || v === 0) continue;
      v = v * (u - p3) * lamr;
    }

    const k = Math.abs(y - m);
    if (k <= 20 || k >= nrq / 2 - 1) {
      // Explicit evaluation of f(y) / f(m).
      const s = r / q;
      const aa = s * (n + 1);
      let f = 1;
      if (m < y) for (let i = m + 1; i <= y; i++) f *= aa / i - s;
      else if (m > y) for (let i = y + 1; i <= m; i++) f /= aa / i - s;
      if (v <= f) return y;
      continue;
    }
    // Squeeze with the normal approximation, then the final test with Stirling's formula.
    const rho = (k / nrq) * ((k * (k / 3 + 0.625) + 0.16666666666666666) / nrq + 0.5);
    const t = (-k * k) / (2 * nrq);
    const logV = Math.log(v);
    if (logV < t - rho) return y;
    if (logV > t + rho) continue;
    const x1 = y + 1;
    const f1 = m + 1;
    const z = n + 1 - m;
    const w = n - y + 1;
    const bound =
      xm * Math.log(f1 / x1) + (n - m + 0.5) * Math.log(z / w) + (y - m) * Math.log((w * r) / (x1 * q)) + stirling(f1) + stirling(z) + stirling(x1) + stirling(w);
    if (logV <= bound) return y;
  }
}
