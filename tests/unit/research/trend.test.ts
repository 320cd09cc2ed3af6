// A monitor's trend charts: the geometry (ticks in time order, the value axis, lines and bands
// split where a tick has no figure, a position's 1 at the top) and what the server renders (a
// title and description, every point with its n, a significant change ringed, an alert flagged,
// the empty states before the first tick and with one tick).
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { tickPositions, trend, valueAxis, type EntitySeries, type SeriesPoint } from "@/app/(research)/_lib/trend";
import { MonitorCharts, TrendChart, pointText } from "@/app/s/_components/monitor-charts";

const point = (tick: string, day: number, value: number | null, interval: [number, number] | null, change: SeriesPoint["change"] = null, runs = 30): SeriesPoint => ({
  tick_id: tick,
  at: new Date(Date.UTC(2026, 10, day, 6)).toISOString(),
  runs,
  value,
  interval,
  change,
});

const acme: EntitySeries = {
  entity: "Acme CRM",
  points: [
    point("mt_3", 3, 0.7, [0.52, 0.83], { diff: 0.4, interval: [0.1, 0.6], significant: true }),
    point("mt_1", 1, 0.3, [0.17, 0.48]),
    point("mt_2", 2, 0.3, [0.17, 0.48], { diff: 0, interval: [-0.2, 0.2], significant: false }),
  ],
};
const hubspot: EntitySeries = { entity: "HubSpot", points: [point("mt_1", 1, 0.5, [0.33, 0.67]), point("mt_2", 2, null, null), point("mt_3", 3, 0.45, [0.28, 0.63])] };

describe("the trend's geometry", () => {
  it("orders the ticks by time across the series, the first at 0% and the last at 100%; one tick in the middle", () => {
    const { ticks, xs } = tickPositions([acme, hubspot]);
    expect(ticks).toEqual(["mt_1", "mt_2", "mt_3"]);
    expect([...xs.values()]).toEqual([0, 50, 100]);
    expect([...tickPositions([{ entity: "x", points: [point("mt_9", 9, 0.2, [0.1, 0.3])] }]).xs.values()]).toEqual([50]);
  });

  it("fits a rate's axis to the highest value or interval end among 25%, 50%, 75% and 100%", () => {
    expect(valueAxis("visibility", [{ entity: "x", points: [point("a", 1, 0.1, [0.05, 0.2])] }])).toEqual({ min: 0, max: 0.25, ticks: [0, 0.0625, 0.125, 0.1875, 0.25] });
    expect(valueAxis("visibility", [acme]).max).toBe(1);
    expect(valueAxis("cited_rate", [{ entity: "x", points: [point("a", 1, 0.4, [0.3, 0.55])] }]).max).toBe(0.75);
  });

  it("draws an average position with 1 at the top, down to the worst whole position", () => {
    const t = trend("average_position", [{ entity: "x", points: [point("a", 1, 1.5, [1.1, 2.4]), point("b", 2, 2, [1.5, 2.5])] }], 100);
    expect(t.lowerIsBetter).toBe(true);
    expect(t.axis[0]).toEqual({ value: 1, y: 0 });
    expect(t.axis[t.axis.length - 1]).toEqual({ value: 3, y: 100 });
    expect(t.series[0]!.points.map((p) => p.y)).toEqual([25, 50]);
  });

  it("splits a line and its band where a tick has no figure, the band its highs then its lows", () => {
    const t = trend("visibility", [acme, hubspot], 200);
    const [a, h] = t.series;
    // Rates grow upwards: 0.3 of a 0-100% axis 200 px high is 140 px from the top.
    expect(a!.segments).toEqual([[{ x: 0, y: 140 }, { x: 50, y: 140 }, { x: 100, y: 60 }]]);
    expect(a!.bands[0]).toEqual([
      { x: 0, y: 104 }, { x: 50, y: 104 }, { x: 100, y: 34 },
      { x: 100, y: 96 }, { x: 50, y: 166 }, { x: 0, y: 166 },
    ]);
    expect(h!.segments).toEqual([[{ x: 0, y: 100 }], [{ x: 100, y: 110 }]]);
    expect(h!.bands).toHaveLength(2);
  });
});

const render = (element: ReturnType<typeof createElement>) => renderToStaticMarkup(element);

describe("the trend chart as rendered", () => {
  it("has a title and a description naming each entity's latest figure with its n and interval", () => {
    const html = render(createElement(TrendChart, { id: "t", title: "Visibility, all engines", metric: "visibility", series: [acme, hubspot] }));
    expect(html).toContain('role="img"');
    expect(html).toContain('aria-labelledby="t-title t-desc"');
    expect(html).toContain("<title id=\"t-title\">Visibility, all engines, 3 ticks</title>");
    // Figures as every page writes them (lib/words/format.ts): intervals rounded outward.
    expect(html).toContain("Acme CRM: latest 70% (n = 30, 95% 52–83%); a significant change of +40 points, 1 significant change");
    expect(html).toContain("HubSpot: latest 45% (n = 30, 95% 28–63%)");
  });

  it("rings a significant change, flags an alert's tick, and gives every point its n in the table", () => {
    const html = render(createElement(TrendChart, { id: "t", title: "Visibility", metric: "visibility", series: [acme, hubspot], alerts: [{ tick_id: "mt_3", entity: "Acme CRM", engine: "all" }] }));
    expect(html.match(/data-significant="true"/g)).toHaveLength(1);
    expect(html.match(/data-testid="chart-alert"/g)).toHaveLength(1);
    // 5 points with a figure (HubSpot has none at mt_2), each with its n in its tooltip; the table
    // gives all 6 cells their n, the one without a figure too; the legend each entity's latest.
    expect(html.match(/data-testid="trend-point"/g)).toHaveLength(5);
    expect(html.match(/<title>[^<]*n = 30/g)).toHaveLength(5);
    expect(html.match(/n=30/g)).toHaveLength(6 + 2);
    expect(html).toMatch(/Acme CRM<span[^>]*>70% n=30<\/span>/);
    expect(html).toMatch(/HubSpot<span[^>]*>45% n=30<\/span>/);
    expect(html).toContain("+40 points significant");
    expect(html).toContain("· alert");
  });

  it("says there is nothing yet before the first tick, and draws one tick as points with whiskers", () => {
    const empty = render(createElement(TrendChart, { id: "t", title: "Visibility", metric: "visibility", series: [{ entity: "Acme CRM", points: [] }] }));
    expect(empty).toContain('data-empty="true"');
    expect(empty).toContain("No completed tick yet");
    expect(empty).not.toContain("<svg");
    const one = render(createElement(TrendChart, { id: "t", title: "Visibility", metric: "visibility", series: [{ entity: "Acme CRM", points: [point("mt_1", 1, 0.3, [0.17, 0.48])] }] }));
    expect(one).toContain("One tick so far: the lines and bands start with the second.");
    expect(one).not.toContain("<polyline");
    expect(one.match(/data-testid="trend-point"/g)).toHaveLength(1);
  });

  it("draws the dashboard: every metric over all engines, then visibility per engine as small multiples", () => {
    const html = render(
      createElement(MonitorCharts, {
        dashboard: {
          version: 1,
          metrics: (["visibility", "share_of_voice", "cited_rate", "average_position", "top3_rate"] as const).map((metric) => ({ metric, series: [acme] })),
          byEngine: [{ engine: "chatgpt", series: [acme] }, { engine: "claude", series: [hubspot] }],
        },
        alerts: [{ tick_id: "mt_3", entity: "Acme CRM", engine: "claude" }],
      }),
    );
    expect(html.match(/data-testid="trend-chart"/g)).toHaveLength(7);
    expect(html.match(/data-testid="engine-multiple"/g)).toHaveLength(2);
    // The Claude alert is on Claude's chart only.
    expect(html.match(/data-testid="chart-alert"/g)).toHaveLength(1);
    expect(html.indexOf("chart-alert")).toBeGreaterThan(html.indexOf('data-engine="claude"'));
    expect(pointText("average_position", point("a", 1, 1.25, [1, 1.5]))).toBe("1.3 (n = 30, 95% 1.0–1.5)");
  });
});
