// Where a running prompt run's engine call is (lib/research/attempts.ts): the attempt, when it
// started or starts, when it gives up, and the latest the run can still be running.
import { describe, expect, it } from "vitest";
import { attemptView } from "@/lib/research/attempts";

const RULES = { maxAttempts: 3, timeoutMs: 120_000 };
const at = (iso: string) => new Date(iso);

describe("attemptView", () => {
  it("the first attempt started with the run: gives up after the timeout; the run fails after three timeouts and two waits", () => {
    const view = attemptView({ attempt: null, at: null, startedAt: at("2026-11-26T10:00:00.000Z") }, RULES);
    // Waits before retries: 1 s after the first attempt, 2 s after the second.
    expect(view).toEqual({ attempt: 1, of: 3, startsAt: "2026-11-26T10:00:00.000Z", givesUpAt: "2026-11-26T10:02:00.000Z", failsBy: "2026-11-26T10:06:03.000Z" });
  });

  it("a later attempt counts from its own start, which may be ahead (waiting before it)", () => {
    const view = attemptView({ attempt: 2, at: at("2026-11-26T10:02:16.000Z"), startedAt: at("2026-11-26T10:00:00.000Z") }, RULES);
    expect(view).toEqual({ attempt: 2, of: 3, startsAt: "2026-11-26T10:02:16.000Z", givesUpAt: "2026-11-26T10:04:16.000Z", failsBy: "2026-11-26T10:06:18.000Z" });
  });

  it("the last attempt: the run fails when it gives up", () => {
    const view = attemptView({ attempt: 3, at: at("2026-11-26T10:05:00.000Z"), startedAt: at("2026-11-26T10:00:00.000Z") }, RULES)!;
    expect(view.failsBy).toBe(view.givesUpAt);
  });

  it("says nothing of a run not started", () => {
    expect(attemptView({ attempt: null, at: null, startedAt: null }, RULES)).toBeNull();
  });
});
