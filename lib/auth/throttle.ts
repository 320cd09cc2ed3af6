// Counts failures per key in a sliding window, in this process. Used to slow down people (or
// scripts) guessing device-login codes from one signed-in session.
type Window = { failures: number[] };

export class FailureThrottle {
  private readonly windows = new Map<string, Window>();
  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
  ) {}

  /** Milliseconds until `key` may try again, 0 when it may now. */
  retryAfterMs(key: string, now = Date.now()): number {
    const w = this.windows.get(key);
    if (!w) return 0;
    w.failures = w.failures.filter((t) => now - t < this.windowMs);
    if (w.failures.length < this.maxFailures) return 0;
    return this.windowMs - (now - w.failures[0]!);
  }

  /** How many more failures `key` may make before it must wait. */
  failuresLeft(key: string, now = Date.now()): number {
    const w = this.windows.get(key);
    if (!w) return this.maxFailures;
    return Math.max(0, this.maxFailures - w.failures.filter((t) => now - t < this.windowMs).length);
  }

  fail(key: string, now = Date.now()): void {
    const w = this.windows.get(key) ?? { failures: [] };
    w.failures.push(now);
    this.windows.set(key, w);
  }
}
