import { describe, expect, it } from "vitest";
import { FailureThrottle } from "@/lib/auth/throttle";

describe("failure throttle", () => {
  it("locks a key out after the allowed failures until the oldest leaves the window", () => {
    const t = new FailureThrottle(3, 1000);
    t.fail("a", 0);
    t.fail("a", 100);
    expect(t.retryAfterMs("a", 200)).toBe(0);
    expect(t.failuresLeft("a", 200)).toBe(1);
    t.fail("a", 200);
    expect(t.retryAfterMs("a", 300)).toBe(700);
    expect(t.retryAfterMs("b", 300)).toBe(0);
    expect(t.retryAfterMs("a", 1000)).toBe(0);
  });
});
