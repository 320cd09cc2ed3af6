// The one display module (lib/words/format.ts): every value below computed by hand from the rule
// (whole percents, one decimal under 10%, positions with one decimal, intervals rounded outward).
import { describe, expect, it } from "vitest";
import {
  count, engineName, isFlat, isWide, kappa, listed, percent, percentDiffCell, percentDiffEnds, percentEnds, percentRange, place, placeDiff, placeDiffRange, placeEnds, placeRange, points,
  pointsRange, signedPoints,
} from "@/lib/words/format";

describe("percent", () => {
  it("is a whole percent from 10% up, rounding half up", () => {
    expect(percent(0.9167)).toBe("92%");
    expect(percent(0.5)).toBe("50%");
    expect(percent(0.125)).toBe("13%");
    // 0.145 * 100 is 14.499999999999998 in binary: still 15, as a person rounds 14.5.
    expect(percent(0.145)).toBe("15%");
    expect(percent(0.1)).toBe("10%");
  });

  it("has one decimal under 10%, and reads 10% where that decimal rounds up to it", () => {
    expect(percent(0.045)).toBe("4.5%");
    expect(percent(0.04)).toBe("4.0%");
    expect(percent(0.0994)).toBe("9.9%");
    expect(percent(0.0996)).toBe("10%");
    expect(percent(0.0005)).toBe("0.1%");
  });

  it("says 0% and 100% only when exactly so", () => {
    expect(percent(0)).toBe("0%");
    expect(percent(1)).toBe("100%");
    expect(percent(0.0004)).toBe("<0.1%");
    expect(percent(0.996)).toBe(">99%");
    expect(percent(0.994)).toBe("99%");
  });
});

describe("percentRange: an interval rounded outward", () => {
  it("rounds the low end down and the high end up", () => {
    // Wilson 95% of 33 of 36: [0.7817, 0.9713].
    expect(percentRange([0.7817, 0.9713])).toBe("78–98%");
    // The page once said 15.9%–44% and the CLI 15.8%–44.0% for this one.
    expect(percentRange([0.1584, 0.4401])).toBe("15–45%");
    expect(percentRange([0.3424, 1])).toBe("34–100%");
  });

  it("does not move an end that is already whole (0.44 * 100 is 44.00000000000001 in binary)", () => {
    expect(percentRange([0.44, 0.5])).toBe("44–50%");
    expect(percentRange([0.29, 0.57])).toBe("29–57%");
  });

  it("keeps one decimal for an end under 10%, and an end rounded up to 10 reads 10", () => {
    expect(percentRange([0, 0.0436])).toBe("0–4.4%");
    expect(percentRange([0.0207, 0.0996])).toBe("2.0–10%");
    expect(percentRange([0.0995, 0.1])).toBe("9.9–10%");
    expect(percentRange([0.047, 0.448])).toBe("4.7–45%");
    expect(percentRange([0.0001, 0.0004])).toBe("0–0.1%");
  });

  it("tells an interval of no width (every value alike) from one that has some", () => {
    expect(isFlat([0, 0])).toBe(true);
    expect(isFlat([0.4, 0.4])).toBe(true);
    expect(isFlat([0, 0.0001])).toBe(false);
    expect(isFlat([0, 1])).toBe(false);
  });

  it("covers 0 and 100%", () => {
    expect(percentRange([0, 1])).toBe("0–100%");
    expect(percentRange([0, 0])).toBe("0–0%");
    expect(percentRange([1, 1])).toBe("100–100%");
  });

  it("gives CSV cells the same ends", () => {
    expect(percentEnds([0.1584, 0.4401])).toEqual(["15%", "45%"]);
    expect(percentEnds([0, 0.0436])).toEqual(["0%", "4.4%"]);
  });

  it("calls an interval wider than 20 points wide", () => {
    expect(isWide([0.3447, 0.6553])).toBe(true);
    expect(isWide([0.7817, 0.9713])).toBe(false);
    expect(isWide([0.4, 0.6])).toBe(false);
  });
});

describe("places", () => {
  it("have one decimal, intervals rounded outward", () => {
    expect(place(1)).toBe("1.0");
    expect(place(1.25)).toBe("1.3");
    expect(place(2.3333)).toBe("2.3");
    expect(placeRange([1.2345, 1.8712])).toBe("1.2–1.9");
    expect(placeRange([1.3, 1.7])).toBe("1.3–1.7");
    expect(placeRange([1, 3])).toBe("1.0–3.0");
    expect(placeEnds([1.2345, 1.8712])).toEqual(["1.2", "1.9"]);
  });

  it("and their differences are signed", () => {
    expect(placeDiff(0.5)).toBe("+0.5");
    expect(placeDiff(-1.23)).toBe("−1.2");
    expect(placeDiff(0.02)).toBe("±0.0");
    expect(placeDiffRange([-0.04, 1.01])).toBe("−0.1 to +1.1");
  });
});

describe("points: differences of rates", () => {
  it("are signed percentage points, one decimal under 10", () => {
    expect(points(0.25)).toBe("+25 points");
    expect(points(-0.045)).toBe("−4.5 points");
    expect(points(0)).toBe("±0 points");
    expect(signedPoints(-0.4)).toBe("−40");
    expect(signedPoints(0.0996)).toBe("+10");
  });

  it("have intervals rounded outward", () => {
    expect(pointsRange([-0.032, 0.251])).toBe("−3.2 to +26 points");
    expect(pointsRange([0.1034, 0.6025])).toBe("+10 to +61 points");
    expect(pointsRange([-0.6025, -0.1034])).toBe("−61 to −10 points");
    expect(pointsRange([-0.0004, 0.0004])).toBe("−0.1 to +0.1 points");
  });

  it("are CSV cells a spreadsheet reads as numbers", () => {
    expect(percentDiffCell(-0.045)).toBe("-4.5%");
    expect(percentDiffCell(0.25)).toBe("25%");
    expect(percentDiffCell(0)).toBe("0%");
    expect(percentDiffEnds([-0.032, 0.251])).toEqual(["-3.2%", "26%"]);
  });
});

describe("counts and words", () => {
  it("say k of n, lists and engines as people do", () => {
    expect(count(33, 36)).toBe("33 of 36");
    expect(listed(["A"])).toBe("A");
    expect(listed(["A", "B"])).toBe("A and B");
    expect(listed(["A", "B", "C"])).toBe("A, B and C");
    expect(engineName("chatgpt")).toBe("ChatGPT (API)");
    expect(engineName("perplexity")).toBe("Perplexity (API)");
    expect(engineName("chatgpt_app")).toBe("ChatGPT (app)");
    expect(engineName("no_such_engine")).toBe("no_such_engine");
  });

  it("say kappa with two decimals and its band", () => {
    expect(kappa(0.945)).toBe("0.95, almost perfect");
    expect(kappa(0.5)).toBe("0.50, moderate");
    expect(kappa(-0.1)).toBe("−0.10, worse than chance".replace("−", "-"));
    expect(kappa(null)).toMatch(/^undefined/);
  });
});
