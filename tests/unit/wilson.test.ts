// The Wilson score interval behind fanout query shares (and citation rates).
import { describe, expect, it } from "vitest";
import { wilsonInterval } from "@/lib/stats/wilson";

const r4 = ([low, high]: [number, number]) => [Math.round(low * 1e4) / 1e4, Math.round(high * 1e4) / 1e4];

describe("wilsonInterval", () => {
  it("gives the published 95% intervals", () => {
    expect(r4(wilsonInterval(7, 10))).toEqual([0.3968, 0.8922]);
    expect(r4(wilsonInterval(0, 10))).toEqual([0, 0.2775]);
    expect(r4(wilsonInterval(10, 10))).toEqual([0.7225, 1]);
    expect(r4(wilsonInterval(50, 100))).toEqual([0.4038, 0.5962]);
  });

  it("stays within [0, 1] and narrows as trials grow", () => {
    const [low1, high1] = wilsonInterval(1, 3);
    const [low2, high2] = wilsonInterval(100, 300);
    expect(low1).toBeGreaterThanOrEqual(0);
    expect(high1).toBeLessThanOrEqual(1);
    expect(high2 - low2).toBeLessThan(high1 - low1);
  });

  it("knows nothing with no trials, and refuses impossible counts", () => {
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(-1, 2)).toThrow(RangeError);
  });
});
