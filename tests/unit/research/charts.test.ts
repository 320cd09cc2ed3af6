// The research charts' geometry: axis steps, stacked segments in percent, rates and intervals.
import { describe, expect, it } from "vitest";
import { AXIS_HEIGHT, ROW, ROW_PITCH, countAxis, niceStep, rateRows, stackedBars } from "@/app/(research)/_lib/charts";

describe("countAxis", () => {
  it("steps by 1, 2 or 5 times a power of ten and ends on a step", () => {
    expect(niceStep(0)).toBe(1);
    expect(niceStep(3)).toBe(1);
    expect(niceStep(7)).toBe(2);
    expect(niceStep(17)).toBe(5);
    expect(niceStep(130)).toBe(50);
    expect(countAxis(17)).toEqual({ max: 20, ticks: [0, 5, 10, 15, 20].map((v) => ({ value: v, pct: v * 5 })) });
    expect(countAxis(0).max).toBe(1);
    expect(countAxis(4).max).toBe(4);
  });
});

describe("stackedBars", () => {
  it("puts each engine's segment after the previous one, in percent of the axis", () => {
    const chart = stackedBars([
      { label: "acme.com", values: [{ key: "chatgpt", value: 6 }, { key: "claude", value: 0 }, { key: "gemini", value: 4 }] },
      { label: "example.org", values: [{ key: "claude", value: 3 }] },
    ]);
    expect(chart.axis.max).toBe(10);
    expect(chart.rows[0]).toEqual({
      label: "acme.com",
      total: 10,
      labelY: ROW.label - 4,
      barY: ROW.label,
      segments: [
        { key: "chatgpt", value: 6, x: 0, width: 60 },
        { key: "gemini", value: 4, x: 60, width: 40 },
      ],
    });
    expect(chart.rows[1]!.barY).toBe(ROW_PITCH + ROW.label);
    expect(chart.rows[1]!.segments).toEqual([{ key: "claude", value: 3, x: 0, width: 30 }]);
    expect(chart.height).toBe(2 * ROW_PITCH + AXIS_HEIGHT);
  });

  it("draws nothing for no rows", () => {
    expect(stackedBars([])).toMatchObject({ rows: [], height: AXIS_HEIGHT, axis: { max: 1 } });
  });
});

describe("rateRows", () => {
  it("places the rate and its interval on a 0–100% axis, clamped", () => {
    const chart = rateRows([
      { label: "acme.com", rate: 0.3333, interval: [0.0615, 0.7923] },
      { label: "ChatGPT", rate: 1, interval: [0.5, 1.2], sub: true },
    ]);
    expect(chart.rows[0]).toMatchObject({ x: 33.33, low: 6.15, high: 79.23, barY: ROW.label });
    expect(chart.rows[1]).toMatchObject({ x: 100, low: 50, high: 100, sub: true, barY: ROW_PITCH + ROW.label });
    expect(chart.ticks.map((t) => t.pct)).toEqual([0, 25, 50, 75, 100]);
  });
});
