// The monitor overview's summary (lib/words/overview.ts) and its sparkline's geometry: only what
// the test calls significant is said as a change, the others counted; without one, that nothing
// changed beyond chance with the n; every sentence with its n.
import { describe, expect, it } from "vitest";
import { sparkline, SPARK } from "@/app/(research)/_lib/sparkline";
import { rateOf } from "@/lib/stats";
import { overviewSummary, type OverviewFacts } from "@/lib/words/overview";

const tally = (k: number, n: number) => ({ k, n, interval: rateOf(k, n).interval });
const test = (diff: number, significant: boolean) => ({ diff, interval: [diff - 0.1, diff + 0.1] as [number, number], significant });
type EntityFacts = OverviewFacts["monitors"][number]["entities"][number];
const entity = (name: string, role: "brand" | "competitor", k: number | null, week?: [number, number, boolean], month?: [number, number, boolean]): EntityFacts => ({
  name,
  role,
  latest: k === null ? null : tally(k, 40),
  week: week ? { before: tally(week[0], 40), test: test((k! - week[0]) / 40, week[2]) } : null,
  month: month ? { before: tally(month[0], 40), test: test((k! - month[0]) / 40, month[2]) } : null,
});

describe("overviewSummary", () => {
  it("says each monitor's brand, then the significant changes since last week first, the rest counted", () => {
    const summary = overviewSummary({
      monitors: [
        { name: "CRM weekly", version: 1, entities: [entity("Acme", "brand", 36, [20, 0, true], [10, 0, true]), entity("HubSpot", "competitor", 4, [30, 0, true])] },
        { name: "CRM daily", version: 1, entities: [entity("Acme", "brand", 20, [18, 0, false])] },
        { name: "Later", version: 1, entities: [entity("Acme", "brand", null)] },
      ],
    });
    expect(summary).toEqual([
      `On the monitor "CRM weekly", Acme is named in 36 of 40 answers at the latest tick (90%, 95% interval 76–97%).`,
      `On the monitor "CRM daily", Acme is named in 20 of 40 answers at the latest tick (about 50%, 95% interval 35–65%).`,
      `Since last week, HubSpot's visibility on the monitor "CRM weekly" fell 65 points, from about 75% (30 of 40 answers) to 10% (4 of 40), more than chance explains.`,
      `Since last week, Acme's visibility on the monitor "CRM weekly" rose 40 points, from about 50% (20 of 40 answers) to 90% (36 of 40), more than chance explains.`,
      "There is 1 more change beyond chance since last week or last month.",
    ]);
  });

  it("says nothing changed beyond chance, with the n, when the test calls no difference a change; or that nothing is compared yet", () => {
    const same = overviewSummary({ monitors: [{ name: "M", version: 1, entities: [entity("Acme", "brand", 20, [15, 0, false]), entity("Globex", "competitor", 10)] }] });
    expect(same[1]).toBe("No visibility changed beyond chance since last week (1 entity compared, over 40 answers at the latest tick).");
    const first = overviewSummary({ monitors: [{ name: "M", version: 1, entities: [entity("Acme", "brand", 20)] }, { name: "N", version: 1, entities: [entity("Acme", "brand", null)] }] });
    expect(first.slice(1)).toEqual(["No change is measured yet: no monitor has a tick a week before its latest (40 answers at the latest tick).", "1 monitor has no completed tick yet."]);
    expect(overviewSummary({ monitors: [{ name: "M", version: 1, entities: [entity("Acme", "brand", null)] }] })).toEqual([`The monitor "M" has no completed tick yet, so there is no figure to show.`]);
    // Changed since its last tick: its figures start again with the new version.
    expect(overviewSummary({ monitors: [{ name: "M", version: 3, entities: [entity("Acme", "brand", null)] }] })).toEqual([
      `The monitor "M" has no completed tick since what it measures last changed (version 3), so there is no figure to show.`,
    ]);
    expect(overviewSummary({ monitors: [] })).toEqual(["This project has no monitor yet, so there is nothing to follow over time."]);
  });
});

describe("sparkline", () => {
  it("puts the points left to right in the box, 0 at the bottom and the scale's top at the top", () => {
    const s = sparkline([
      { tick_at: "a", value: 0, n: 10 },
      { tick_at: "b", value: 0.25, n: 10 },
      { tick_at: "c", value: 0.5, n: 10 },
    ]);
    expect(s.top).toBe(0.5);
    expect(s.xy).toEqual([
      { x: SPARK.pad, y: SPARK.height - SPARK.pad },
      { x: SPARK.width / 2, y: SPARK.height / 2 },
      { x: SPARK.width - SPARK.pad, y: SPARK.pad },
    ]);
    expect(sparkline([{ tick_at: "a", value: 1, n: 3 }]).xy).toEqual([{ x: SPARK.width / 2, y: SPARK.pad }]);
  });
});
