// Issue #37's noise simulation: two ticks drawn from the same true rates must not alert, except
// by the chance the test allows. 1,000 tick pairs of a monitor tracking 3 entities on 3 engines
// (10 prompts x 3 repeats per engine: 30 runs a cell, 90 for engine "all"), each run mentioning
// each entity with that entity's true rate on that engine, are put through the very function the
// tick's alert step uses (significantChanges: lib/stats changeTest at 1 - 0.05/m over the m = 12
// cells, and min_change). At most 5% of pairs may raise any alert. A seeded generator makes it
// the same every time; the same simulation with a real change alerts in most pairs, so the
// count is not vacuous.
import { describe, expect, it } from "vitest";
import { changeOf, significantChanges, type FigureRow } from "@/lib/monitors/series";
import { SeededRandom, zFor } from "@/lib/stats";

const ENTITIES = ["Acme CRM", "HubSpot", "Pipedrive"];
const ENGINES = ["chatgpt", "claude", "gemini"];
const RUNS_PER_ENGINE = 30;
const PAIRS = 1000;
/** True mention rates, entity x engine: from rare to common, 0.5 (the widest variance) included. */
const RATES = [
  [0.5, 0.35, 0.6],
  [0.2, 0.5, 0.45],
  [0.05, 0.15, 0.3],
];

/** One tick's figures: every run drawn, then counted per engine and for all engines together. */
function drawTick(rng: SeededRandom, tick: string, rates: number[][]): FigureRow[] {
  const cells = ENTITIES.length * (ENGINES.length + 1);
  const rows: FigureRow[] = [];
  ENTITIES.forEach((entity, e) => {
    const byEngine = ENGINES.map((_, g) => {
      let mentioning = 0;
      for (let r = 0; r < RUNS_PER_ENGINE; r++) if (rng.nextDouble() < rates[e]![g]!) mentioning++;
      return mentioning;
    });
    const row = (engine: string, runs: number, mentioning: number): FigureRow => ({
      tickId: tick, at: new Date(0), entityIndex: e, entity, engine, cells, runs, runsMentioning: mentioning, shareOfVoiceN: 0, runsCiting: 0, runsTop3: 0,
      positionSum: mentioning, positionSumSquares: mentioning, averagePosition: null, averagePositionLow: null, averagePositionHigh: null,
    sentimentRunsJudged: null, sentimentPositive: null, sentimentNeutral: null, sentimentNegative: null,
    });
    rows.push(row("all", RUNS_PER_ENGINE * ENGINES.length, byEngine.reduce((a, b) => a + b, 0)));
    ENGINES.forEach((engine, g) => rows.push(row(engine, RUNS_PER_ENGINE, byEngine[g]!)));
  });
  return rows;
}

/** The pairs (of PAIRS) in which at least one cell alerted, and the alerts in all. */
function simulate(seed: string, before: number[][], after: number[][], minChange: number) {
  const rng = new SeededRandom(seed);
  let pairsAlerting = 0;
  let alerts = 0;
  for (let i = 0; i < PAIRS; i++) {
    const changes = significantChanges(drawTick(rng, `a${i}`, before), drawTick(rng, `b${i}`, after), minChange);
    if (changes.length > 0) pairsAlerting++;
    alerts += changes.length;
  }
  return { pairsAlerting, alerts };
}

describe("alerts from noise (issue #37)", () => {
  it("1,000 tick pairs drawn from the same true rates raise an alert in at most 5% of pairs, at the default min_change of 10 points", () => {
    const { pairsAlerting } = simulate("noise-10", RATES, RATES, 10);
    expect(pairsAlerting / PAIRS).toBeLessThanOrEqual(0.05);
  });

  it("and still at most 5% with min_change 1 (the Bonferroni-corrected Newcombe interval alone holds the line)", () => {
    const { pairsAlerting } = simulate("noise-1", RATES, RATES, 1);
    expect(pairsAlerting / PAIRS).toBeLessThanOrEqual(0.05);
  });

  it("a real change of 35 points in one entity's rate on every engine alerts for it in most pairs, and for the unchanged ones in at most 5%", () => {
    const after = RATES.map((row, e) => (e === 2 ? row.map((p) => p + 0.35) : row));
    const rng = new SeededRandom("change");
    let changed = 0;
    let unchanged = 0;
    for (let i = 0; i < 200; i++) {
      const changes = significantChanges(drawTick(rng, `a${i}`, RATES), drawTick(rng, `b${i}`, after), 10);
      if (changes.some((c) => c.entity === "Pipedrive" && c.engine === "all" && c.diff > 0)) changed++;
      if (changes.some((c) => c.entity !== "Pipedrive")) unchanged++;
    }
    expect(changed / 200).toBeGreaterThan(0.9);
    expect(unchanged / 200).toBeLessThanOrEqual(0.05);
  });
});

describe("the change of an average position (a mean, not a rate)", () => {
  const cell = (positions: number[], cells = 6): FigureRow => ({
    tickId: "t", at: new Date(0), entityIndex: 0, entity: "Acme", engine: "all", cells, runs: 30, runsMentioning: positions.length, shareOfVoiceN: 0, runsCiting: 0, runsTop3: 0,
    positionSum: positions.reduce((a, b) => a + b, 0), positionSumSquares: positions.reduce((a, b) => a + b * b, 0),
    averagePosition: null, averagePositionLow: null, averagePositionHigh: null,
    sentimentRunsJudged: null, sentimentPositive: null, sentimentNeutral: null, sentimentNegative: null,
  });
  const repeat = (values: number[], times: number) => Array.from({ length: times }, () => values).flat();

  it("is the difference of the means with a normal interval at 1 - 0.05/m, significant when it excludes 0 with at least 10 runs mentioning on each side", () => {
    const before = cell(repeat([1, 2], 10)); // mean 1.5, sd 0.513
    const after = cell(repeat([2, 3], 10)); // mean 2.5
    const change = changeOf("average_position", before, after, 10)!;
    const z = zFor(1 - 0.05 / 6);
    const se = Math.sqrt((2 * (20 * 0.25)) / 19 / 20);
    expect(change.diff).toBe(1);
    expect(change.interval).toEqual([Math.round((1 - z * se) * 1e4) / 1e4, Math.round((1 + z * se) * 1e4) / 1e4]);
    expect(change.significant).toBe(true);
    // min_change (points of a rate) plays no part: the same at 100.
    expect(changeOf("average_position", before, after, 100)!.significant).toBe(true);
  });

  it("is not significant with fewer than 10 runs mentioning on a side, nor when the interval holds 0; null when a side never mentions", () => {
    expect(changeOf("average_position", cell(repeat([1], 9)), cell(repeat([3], 12)), 10)!.significant).toBe(false);
    expect(changeOf("average_position", cell(repeat([1, 3], 10)), cell(repeat([1, 3, 3], 5)), 10)!.significant).toBe(false);
    expect(changeOf("average_position", cell([]), cell(repeat([1], 12)), 10)).toBeNull();
  });
});
