// Rank-biased overlap (lib/stats/rbo.ts), RBO_ext of Webber, Moffat and Zobel 2010 (eq. 30 for
// lists as long, eq. 32 for lists of different lengths). Every expected value is worked out by
// hand below from the overlaps X_d at each depth d, with p = 0.9 (p^2 = 0.81, p^3 = 0.729).
import { describe, expect, it } from "vitest";
import { rankBiasedOverlap } from "@/lib/stats";

describe("rankBiasedOverlap (RBO_ext, p = 0.9)", () => {
  it("is 1 for identical orders and 0 for disjoint ones", () => {
    expect(rankBiasedOverlap(["a", "b", "c"], ["a", "b", "c"])).toBeCloseTo(1, 12);
    expect(rankBiasedOverlap(["a"], ["a"])).toBeCloseTo(1, 12);
    expect(rankBiasedOverlap(["a", "b"], ["c", "d", "e"])).toBe(0);
  });

  it("is null when either ranking is empty", () => {
    expect(rankBiasedOverlap([], ["a"])).toBeNull();
    expect(rankBiasedOverlap(["a"], [])).toBeNull();
  });

  it("two items swapped: X1 = 0, X2 = 2 gives 2/2·0.81 + (0.1/0.9)(0 + 2/2·0.81) = 0.9", () => {
    expect(rankBiasedOverlap(["a", "b"], ["b", "a"])).toBeCloseTo(0.81 + 0.81 / 9, 12);
    expect(rankBiasedOverlap(["a", "b"], ["b", "a"])).toBeCloseTo(0.9, 12);
  });

  it("the last two of three swapped: X = 1, 1, 3 gives 3/3·0.729 + (1/9)(0.9 + 0.405 + 0.729) = 0.955", () => {
    expect(rankBiasedOverlap(["a", "b", "c"], ["a", "c", "b"])).toBeCloseTo(0.729 + 2.034 / 9, 12);
    expect(rankBiasedOverlap(["a", "b", "c"], ["a", "c", "b"])).toBeCloseTo(0.955, 12);
  });

  it("uneven lists (eq. 32): S = [P, H], L = [H, P, Z] is 0.9", () => {
    // s = 2, l = 3; X1 = 0, X2 = 2, X3 = |S ∩ L[:3]| = 2.
    // First sum: 0 + 2/2·0.81 + 2/3·0.729 = 1.296; second (d = 3): 2·(3 − 2)/(2·3)·0.729 = 0.243;
    // (0.1/0.9)(1.296 + 0.243) = 0.171; last term ((2 − 2)/3 + 2/2)·0.729 = 0.729; total 0.9.
    expect(rankBiasedOverlap(["P", "H"], ["H", "P", "Z"])).toBeCloseTo(0.171 + 0.729, 12);
    expect(rankBiasedOverlap(["H", "P", "Z"], ["P", "H"])).toBeCloseTo(0.9, 12);
  });

  it("uneven lists (eq. 32): a list that is the other's prefix extrapolates to 1", () => {
    // S = [a], L = [a, b]: X1 = 1, X2 = 1; (1/9)(0.9 + 0.405 + 1·1/2·0.81) + (0 + 1)·0.81 = 0.19 + 0.81.
    expect(rankBiasedOverlap(["a"], ["a", "b"])).toBeCloseTo(1, 12);
  });

  it("uneven lists (eq. 32): S = [d, a], L = [a, b, c] is 0.45", () => {
    // X1 = 0, X2 = 1, X3 = 1; first sum 0.405 + 0.243 = 0.648, second 1·1/6·0.729 = 0.1215;
    // (1/9)·0.7695 = 0.0855; last ((1 − 1)/3 + 1/2)·0.729 = 0.3645; total 0.45.
    expect(rankBiasedOverlap(["d", "a"], ["a", "b", "c"])).toBeCloseTo(0.45, 12);
  });

  it("takes another persistence: p = 0.5, two items swapped, is 2/2·0.25 + (0.5/0.5)(2/2·0.25) = 0.5", () => {
    expect(rankBiasedOverlap(["a", "b"], ["b", "a"], 0.5)).toBeCloseTo(0.5, 12);
    expect(() => rankBiasedOverlap(["a"], ["a"], 1)).toThrow(/p must lie between 0 and 1/);
  });
});
