// What the page of a running prompt run says about its engine call: which attempt of how many,
// when it started (or, between attempts, when the next starts), when it gives up, and by when the
// run has failed if the engine never answers. From what the run row records (engine_attempt,
// engine_attempt_at, started_at: lib/runs/lifecycle.ts and execute.ts) and the server's timeout and retry rules.
import { backoffMs } from "../work/job";

/** As the run row records it: `attempt` null is the first, started at `startedAt`. */
export type AttemptRecord = { attempt: number | null; at: Date | null; startedAt: Date | null };

/** The engine call's rules: calls per claim, and how long one may take before it gives up. */
export type AttemptRules = { maxAttempts: number; timeoutMs: number };

/**
 * `startsAt` is in the future while the run waits before this attempt (the previous one failed),
 * in the past once it is asking. `failsBy`: the latest the run can still be running if every
 * attempt left runs to its timeout (waits as the retry rules set them, without a provider's
 * Retry-After).
 */
export type AttemptView = { attempt: number; of: number; startsAt: string; givesUpAt: string; failsBy: string };

export function attemptView(record: AttemptRecord, rules: AttemptRules): AttemptView | null {
  const attempt = record.attempt ?? 1;
  const startsAt = record.at ?? record.startedAt;
  if (!startsAt) return null;
  const givesUp = startsAt.getTime() + rules.timeoutMs;
  let failsBy = givesUp;
  for (let next = attempt + 1; next <= rules.maxAttempts; next++) failsBy += backoffMs(next - 1) + rules.timeoutMs;
  return {
    attempt,
    of: Math.max(rules.maxAttempts, attempt),
    startsAt: startsAt.toISOString(),
    givesUpAt: new Date(givesUp).toISOString(),
    failsBy: new Date(failsBy).toISOString(),
  };
}
