// Planning figures against published values: Wilson's interval (its half-width is half the
// interval lib/stats/wilson.ts gives, and z / (2 √(n + z²)) at 50%), and the classic sample sizes
// of survey tables at 95% confidence (385 for ±5 points, 97 for ±10, 1,068 for ±3).
import { describe, expect, it } from "vitest";
import { detectableChange, runsForMargin, wilsonHalfWidth, wilsonInterval } from "@/lib/stats";
import { detectableSummary, marginSummary, plusMinusPoints } from "@/lib/words/plan";

describe("wilsonHalfWidth", () => {
  it("is half of Wilson's interval for whole counts, e.g. 15 of 30: 0.3315-0.6685", () => {
    const [low, high] = wilsonInterval(15, 30);
    expect(low).toBeCloseTo(0.3315, 4);
    expect(high).toBeCloseTo(0.6685, 4);
    expect(wilsonHalfWidth(0.5, 30)).toBeCloseTo((high - low) / 2, 12);
    const [l2, h2] = wilsonInterval(3, 12);
    expect(wilsonHalfWidth(0.25, 12)).toBeCloseTo((h2 - l2) / 2, 12);
  });

  it("is widest at 50%, and narrows as n grows", () => {
    expect(wilsonHalfWidth(0.5, 30)).toBeGreaterThan(wilsonHalfWidth(0.2, 30));
    expect(wilsonHalfWidth(0.5, 100)).toBeCloseTo(0.0962, 4);
    expect(wilsonHalfWidth(0.5, 1)).toBeCloseTo(0.4454, 4);
  });

  it("refuses what is no plan", () => {
    expect(() => wilsonHalfWidth(1.2, 10)).toThrow(RangeError);
    expect(() => wilsonHalfWidth(0.5, 0)).toThrow(RangeError);
  });
});

describe("runsForMargin", () => {
  it("gives the survey tables' sample sizes at 95%", () => {
    expect(runsForMargin(0.05)).toBe(385);
    expect(runsForMargin(0.1)).toBe(97);
    expect(runsForMargin(0.03)).toBe(1068);
    // At a rate of 20%: 1.96² × 0.16 / 0.05² = 245.9.
    expect(runsForMargin(0.05, 0.2)).toBe(246);
  });

  it("keeps its promise: Wilson's half-width at that n is within the margin", () => {
    for (const m of [0.03, 0.05, 0.1, 0.2]) expect(wilsonHalfWidth(0.5, runsForMargin(m))).toBeLessThanOrEqual(m);
  });
});

describe("the margin in words", () => {
  it("says the points per engine, the runs for ±5 when short of them, and the brand's own", () => {
    expect(plusMinusPoints(0.1685)).toBe("±17");
    expect(plusMinusPoints(0.0078)).toBe("±0.8");
    expect(marginSummary({ runs_per_engine: 30, at_half: 0.1685, at_last_rate: null, last_rate: null, runs_for_5_points: 385 })).toEqual([
      "About ±17 points per engine (30 runs each); to reach ±5, 385 runs per engine.",
    ]);
    expect(marginSummary({ runs_per_engine: 1, at_half: 0.4454, at_last_rate: 0.3, last_rate: { entity: "Acme", visibility: 0.04 }, runs_for_5_points: 385 })).toEqual([
      "About ±45 points per engine (1 run each); to reach ±5, 385 runs per engine.",
      "At Acme's last visibility (4.0%), about ±30 points.",
    ]);
  });
});

describe("detectableChange", () => {
  it("inverts the classic two-proportion sample size: 50% against 70% at 95% and 80% power needs 91 per group (Fleiss, unpooled)", () => {
    // (1.96 + 0.8416)² × (0.25 + 0.21) / 0.2² = 90.3 runs: with 91, a 20-point change is the smallest caught.
    expect(detectableChange(0.5, 91)).toBe(0.2);
    expect(detectableChange(0.5, 90)).toBe(0.201);
  });

  it("widens with the Bonferroni correction, goes towards 50% from either side, and is null when nothing is caught so often", () => {
    // Python's statistics.NormalDist, same definition: 0.347 (30 runs, m = 2), 0.367 (from 25%), 0.148 (from 90%, down).
    expect(detectableChange(0.5, 30, 2)).toBe(0.347);
    expect(detectableChange(0.25, 30, 2)).toBe(0.367);
    expect(detectableChange(0.9, 100)).toBe(0.148);
    expect(detectableChange(0.5, 30, 1)).toBeLessThan(detectableChange(0.5, 30, 5)!);
    expect(detectableChange(0.5, 2)).toBeNull();
  });

  it("in words, with the alerts' floor named when it decides", () => {
    expect(detectableSummary({ min_change: 10, at_half: 0.347, at_last_rate: 0.367, last_rate: { entity: "Acme", visibility: 0.25 } })).toEqual([
      "A change between two ticks is alerted 8 times in 10 when it is at least 35 points (from 50%).",
      "From Acme's last visibility (25%), at least 37 points.",
    ]);
    expect(detectableSummary({ min_change: 15, at_half: 0.15, at_last_rate: null, last_rate: null })[0]).toBe(
      "A change between two ticks is alerted 8 times in 10 when it is at least 15 points (from 50%, the alerts' 15-point minimum).",
    );
  });
});
