// The summary templates (lib/words/sentences.ts) and the summaries of a visibility analysis and a
// monitor tick, on hand-made figures; every interval below is the Wilson 95% interval of its
// count, as lib/stats rateOf gives it to 4 places.
import { describe, expect, it } from "vitest";
import {
  alsoNamed, change, engineSpread, isChange, namedFirst, namedIn, noChange, rateFigure, summaryOf, tone, SUMMARY_SENTENCES,
} from "@/lib/words/sentences";
import { tickSummary, type TickFacts } from "@/lib/words/ticks";
import { visibilitySummary, type VisibilityFacts } from "@/lib/words/visibility";

// Wilson 95% intervals, to 4 places.
const W = {
  "33/36": [0.7817, 0.9713],
  "18/36": [0.3447, 0.6553],
  "2/12": [0.047, 0.448],
  "10/12": [0.552, 0.953],
  "20/36": [0.3958, 0.7046],
  "0/36": [0, 0.0964],
  "25/30": [0.6644, 0.9266],
  "18/31": [0.4077, 0.7358],
  "12/30": [0.2459, 0.5768],
  "2/2": [0.3424, 1],
  "1/1": [0.2065, 1],
} as const satisfies Record<string, readonly [number, number]>;
const tally = (k: number, n: number) => ({ k, n, interval: W[`${k}/${n}` as keyof typeof W] });

describe("rateFigure", () => {
  it("says about before a rate whose interval is wider than 20 points", () => {
    expect(rateFigure(tally(33, 36))).toBe("92%, 95% interval 78–98%");
    expect(rateFigure(tally(18, 36))).toBe("about 50%, 95% interval 34–66%");
    expect(rateFigure(tally(18, 36), false)).toBe("about 50%, 34–66%");
  });
});

describe("namedIn", () => {
  it("names every entity with its n, the n said again only where it differs", () => {
    expect(namedIn([{ name: "HubSpot", ...tally(33, 36) }, { name: "Pipedrive", ...tally(18, 36) }])).toBe(
      "HubSpot is named in 33 of 36 answers (92%, 95% interval 78–98%); Pipedrive in 18 (about 50%, 34–66%).",
    );
    expect(namedIn([{ name: "HubSpot", ...tally(33, 36) }, { name: "Close", ...tally(2, 12) }])).toBe(
      "HubSpot is named in 33 of 36 answers (92%, 95% interval 78–98%); Close in 2 of 12 (about 17%, 4.7–45%).",
    );
  });

  it("is singular for one answer", () => {
    expect(namedIn([{ name: "HubSpot", ...tally(1, 1) }])).toBe("HubSpot is named in 1 of 1 answer (about 100%, 95% interval 20–100%).");
  });

  it("says the rest together", () => {
    const rest = [{ name: "A", ...tally(0, 36) }, { name: "B", ...tally(0, 36) }];
    expect(namedIn([{ name: "HubSpot", ...tally(33, 36) }], rest)).toBe("HubSpot is named in 33 of 36 answers (92%, 95% interval 78–98%); 2 others in 0 each.");
    expect(namedIn([{ name: "HubSpot", ...tally(33, 36) }], [{ name: "A", ...tally(0, 36) }, { name: "B", ...tally(18, 36) }])).toContain("; 2 others in 0 to 18 each.");
    expect(namedIn([{ name: "HubSpot", ...tally(33, 36) }], [{ name: "A", ...tally(0, 36) }])).toContain("; 1 other in 0 each.");
    expect(namedIn([])).toBeNull();
  });
});

describe("engineSpread", () => {
  it("names the engines that name an entity least and most, each with its n", () => {
    expect(
      engineSpread("Pipedrive", [
        { engine: "chatgpt", k: 10, n: 12 },
        { engine: "claude", k: 2, n: 12 },
        { engine: "gemini", k: 6, n: 12 },
      ]),
    ).toBe("Across engines, Claude (API) names Pipedrive least (2 of 12) and ChatGPT (API) most (10 of 12).");
  });

  it("names ties together (equal rates over different n too) in the plural", () => {
    expect(
      engineSpread("Pipedrive", [
        { engine: "chatgpt", k: 10, n: 12 },
        { engine: "claude", k: 2, n: 12 },
        { engine: "gemini", k: 4, n: 24 },
      ]),
    ).toBe("Across engines, Claude (API) and Gemini (API) name Pipedrive least (2 of 12, 4 of 24) and ChatGPT (API) most (10 of 12).");
  });

  it("says when every engine names it equally often, and says nothing with one engine", () => {
    expect(engineSpread("Pipedrive", [{ engine: "chatgpt", k: 4, n: 12 }, { engine: "claude", k: 4, n: 12 }])).toBe("ChatGPT (API) and Claude (API) name Pipedrive equally often (4 of 12 each).");
    expect(engineSpread("Pipedrive", [{ engine: "chatgpt", k: 4, n: 12 }, { engine: "claude", k: 0, n: 0 }])).toBeNull();
  });

  it("says no engine names it when none does, rather than 'equally often'", () => {
    expect(engineSpread("Acme", [{ engine: "chatgpt", k: 0, n: 9 }, { engine: "chatgpt_app", k: 0, n: 9 }])).toBe("Neither ChatGPT (API) nor ChatGPT (app) names Acme (0 of 9 each).");
    expect(
      engineSpread("Acme", [
        { engine: "chatgpt", k: 0, n: 9 },
        { engine: "chatgpt_app", k: 0, n: 9 },
        { engine: "google_ai_overview", k: 0, n: 6 },
      ]),
    ).toBe("None of ChatGPT (API), ChatGPT (app) and Google AI Overview (app) names Acme (0 of 9, 0 of 9, 0 of 6).");
  });

  it("says every answer names it when every engine's every answer does", () => {
    expect(engineSpread("HubSpot", [{ engine: "chatgpt", k: 9, n: 9 }, { engine: "claude", k: 6, n: 6 }])).toBe("ChatGPT (API) and Claude (API) name HubSpot in every answer (9 of 9, 6 of 6).");
  });
});

describe("tone", () => {
  it("says 2 positive and 16 neutral as counts, not as a 100% score", () => {
    const said = tone("HubSpot", { positive: 2, neutral: 16, negative: 0 });
    expect(said).toBe("Judged for tone, 2 of 18 answers naming HubSpot are positive and none negative (16 neutral).");
    expect(said).not.toContain("100%");
  });

  it("is singular for one and says none", () => {
    expect(tone("HubSpot", { positive: 1, neutral: 0, negative: 0 })).toBe("Judged for tone, 1 of 1 answer naming HubSpot is positive and none negative.");
    expect(tone("HubSpot", { positive: 0, neutral: 3, negative: 2 })).toBe("Judged for tone, none of 5 answers naming HubSpot are positive and 2 negative (3 neutral).");
    expect(tone("HubSpot", { positive: 0, neutral: 0, negative: 0 })).toBeNull();
  });
});

describe("namedFirst and alsoNamed", () => {
  it("say their n", () => {
    expect(namedFirst("HubSpot", tally(20, 36))).toBe("HubSpot is named first, before the other tracked names, in 20 of 36 answers (about 56%, 95% interval 39–71%).");
    expect(alsoNamed([{ name: "Zoho CRM", k: 12 }, { name: "monday.com", k: 8 }, { name: "Close", k: 3 }, { name: "Copper", k: 1 }], 36)).toBe(
      "The judged answers also name brands not tracked here: Zoho CRM in 12 of 36, monday.com in 8 and Close in 3 (and 1 more).",
    );
    expect(alsoNamed([], 1)).toBe("The 1 judged answer names no brand beyond the tracked ones.");
    expect(alsoNamed([], 36)).toBe("The 36 judged answers name no brand beyond the tracked ones.");
  });
});

describe("change", () => {
  const test = { diff: 0.2527, interval: [0.0213, 0.4606] as [number, number], significant: true };

  it("calls a difference a change when its test says so", () => {
    expect(change({ subject: "HubSpot's visibility", before: tally(18, 31), after: tally(25, 30), test })).toBe(
      "Since the previous tick, HubSpot's visibility rose 25 points, from about 58% (18 of 31 answers) to about 83% (25 of 30), more than chance explains.",
    );
    expect(change({ subject: "HubSpot's visibility", before: tally(25, 30), after: tally(18, 31), test: { ...test, diff: -0.2527 } })).toMatch(/ fell 25 points, from about 83% \(25 of 30 answers\) to about 58% \(18 of 31\)/);
  });

  it("says nothing of a difference the test does not call a change, however large", () => {
    const notSignificant = { diff: 0.4333, interval: [-0.02, 0.81] as [number, number], significant: false };
    expect(change({ subject: "HubSpot's visibility", before: tally(12, 30), after: tally(25, 30), test: notSignificant })).toBeNull();
    expect(change({ subject: "HubSpot's visibility", before: tally(12, 30), after: tally(25, 30), test: null })).toBeNull();
    expect(isChange(notSignificant)).toBe(false);
    expect(noChange("visibility", 31, 30)).toBe("No visibility changed beyond chance since the previous tick (31 answers then, 30 now).");
  });
});

describe("summaryOf", () => {
  it("keeps the sentences given, in order, at most five", () => {
    expect(summaryOf("A.", null, "B.", false, undefined, "", "C.", "D.", "E.", "F.")).toEqual(["A.", "B.", "C.", "D.", "E."]);
    expect(SUMMARY_SENTENCES).toBe(5);
  });
});

// ---------------------------------------------------------------------------
// A visibility analysis's summary
// ---------------------------------------------------------------------------

type Row = VisibilityFacts["rows"][number];

function row(name: string, role: "brand" | "competitor", k: number, n: number, byEngine: Array<[string, number, number]>, top1 = 0): Row {
  const f = (kk: number, nn: number) => ({
    runs: nn, runs_mentioning: kk, visibility: nn ? kk / nn : 0, visibility_interval: W[`${kk}/${nn}` as keyof typeof W] ?? [0, 1],
    share_of_voice: null, share_of_voice_basis: "runs mentioning any tracked entity" as const, share_of_voice_n: 0,
    average_position: null, average_position_interval: null, position_counts: {}, runs_top1: top1, top1_rate: 0, top1_rate_interval: W["20/36"],
    runs_top3: 0, top3_rate: 0, top3_rate_interval: [0, 1] as [number, number], prominence: 0, prominence_interval: [0, 0] as [number, number],
    runs_citing: 0, cited_rate: 0, cited_rate_interval: [0, 1] as [number, number], mentioned_and_cited: 0, mentioned_not_cited: 0, cited_not_mentioned: 0,
    mentions: kk, mentions_not_counted: { prompt_echo: 0, absence: 0 },
  });
  return {
    name, role, ...f(k, n),
    by_engine: byEngine.map(([engine, kk, nn]) => ({ engine, ...f(kk, nn) })),
    by_prompt: [], by_country: [], sentiment: null,
  } as Row;
}

const totals = { runs: 36, prompts: 3, engines: 3, mentions: 60, mentions_not_counted: { prompt_echo: 0, absence: 0 } };

describe("visibilitySummary", () => {
  const rows = [
    row("Pipedrive", "competitor", 18, 36, [["chatgpt", 10, 12], ["claude", 2, 12], ["gemini", 6, 12]]),
    row("HubSpot", "brand", 33, 36, [["chatgpt", 12, 12], ["claude", 10, 12], ["gemini", 11, 12]], 20),
  ];

  it("leads with the brand, says its engines and how often it comes first", () => {
    expect(visibilitySummary({ status: "completed", run_count: 36, totals, rows, judge: null, discovered: null })).toEqual([
      "HubSpot is named in 33 of 36 answers (92%, 95% interval 78–98%); Pipedrive in 18 (about 50%, 34–66%).",
      "Across engines, Claude (API) names HubSpot least (10 of 12) and ChatGPT (API) most (12 of 12).",
      "HubSpot is named first, before the other tracked names, in 20 of 36 answers (about 56%, 95% interval 39–71%).",
    ]);
  });

  it("says the judge's tone as counts and the brands it found, or that it is still at work", () => {
    const judge = {
      engine: "claude" as const, model: "m", prompt_version: "1", prompt_sha: "x", sentiment: true, discover: true, runs: 36, runs_done: 36, runs_judged: 36,
      runs_not_judged: [], quotes_rejected: 0, names_dropped: 0,
    };
    const judged = rows.map((r) => (r.role === "brand" ? { ...r, sentiment: { runs_judged: 36, positive: 2, neutral: 16, negative: 0, score: 1, score_interval: W["2/2"], quotes: [] } } : r));
    const discovered = [{ name: "Zoho CRM", runs_mentioning: 12, visibility: 0.3333, visibility_interval: [0.2021, 0.4967] as [number, number], by_engine: [] }];
    const done = visibilitySummary({ status: "completed", run_count: 36, totals, rows: judged, judge, discovered });
    expect(done).toContain("Judged for tone, 2 of 18 answers naming HubSpot are positive and none negative (16 neutral).");
    expect(done).toContain("The judged answers also name brands not tracked here: Zoho CRM in 12 of 36.");
    expect(done.join(" ")).not.toContain("100%");
    expect(done).toHaveLength(5);

    const running = visibilitySummary({ status: "running", run_count: 36, totals, rows, judge: { ...judge, runs_done: 12, runs_judged: 12 }, discovered: null });
    expect(running).toContain("The judge is still reading the answers (12 of 36 done): tone follows when it has finished.");
  });

  it("says the n of the runs left out when none could be counted", () => {
    const none = { ...totals, runs: 0 };
    expect(visibilitySummary({ status: "completed", run_count: 3, totals: none, rows: [], judge: null, discovered: null })).toEqual([
      "No answer could be counted: all 3 runs named were left out (unfinished, failed or empty).",
    ]);
    expect(visibilitySummary({ status: "completed", run_count: 1, totals: none, rows: [], judge: null, discovered: null })).toEqual([
      "No answer could be counted: the run named was left out (unfinished, failed or empty).",
    ]);
  });

  it("says the others together past four entities, competitors named most first", () => {
    const many = [
      row("HubSpot", "brand", 33, 36, []),
      row("A", "competitor", 0, 36, []),
      row("B", "competitor", 18, 36, []),
      row("C", "competitor", 20, 36, []),
      row("D", "competitor", 0, 36, []),
      row("E", "competitor", 2, 36, []),
    ];
    const [first] = visibilitySummary({ status: "completed", run_count: 36, totals, rows: many, judge: null, discovered: null });
    expect(first).toMatch(/^HubSpot is named in 33 of 36 answers \(.*\); C in 20 \(.*\); B in 18 \(.*\); E in 2 \(.*\); 2 others in 0 each\.$/);
  });
});

// ---------------------------------------------------------------------------
// A monitor tick's summary
// ---------------------------------------------------------------------------

describe("tickSummary", () => {
  const cells = [
    { entity: "Acme", engine: "all", ...tally(25, 30) },
    { entity: "Acme", engine: "chatgpt", k: 10, n: 12, interval: W["10/12"] },
    { entity: "Acme", engine: "claude", k: 2, n: 12, interval: W["2/12"] },
    { entity: "HubSpot", engine: "all", ...tally(12, 30) },
  ];

  it("says each tick without figures where it stands", () => {
    expect(tickSummary({ status: "skipped", figures: null })).toEqual(["Skipped: nothing ran and nothing was charged."]);
    expect(tickSummary({ status: "running", figures: null })).toEqual(["Running: the figures come once its answers are in."]);
  });

  it("says a significant change, and the engines of its brand", () => {
    const facts: TickFacts = {
      status: "completed",
      figures: {
        cells, focus: "Acme",
        changes: [
          { entity: "Acme", engine: "all", before: tally(18, 31), after: tally(25, 30), test: { diff: 0.2527, interval: [0.0213, 0.4606], significant: true } },
          { entity: "HubSpot", engine: "all", before: tally(18, 31), after: tally(12, 30), test: { diff: -0.1806, interval: [-0.4, 0.05], significant: false } },
        ],
      },
    };
    expect(tickSummary(facts)).toEqual([
      "Acme is named in 25 of 30 answers (about 83%, 95% interval 66–93%); HubSpot in 12 (about 40%, 24–58%).",
      "Since the previous tick, Acme's visibility rose 25 points, from about 58% (18 of 31 answers) to about 83% (25 of 30), more than chance explains.",
      "Across engines, Claude (API) names Acme least (2 of 12) and ChatGPT (API) most (10 of 12).",
    ]);
  });

  it("calls no difference a change when the test calls none one", () => {
    const facts: TickFacts = {
      status: "completed",
      figures: {
        cells, focus: "Acme",
        changes: [{ entity: "HubSpot", engine: "all", before: tally(18, 31), after: tally(12, 30), test: { diff: -0.1806, interval: [-0.4, 0.05], significant: false } }],
      },
    };
    const said = tickSummary(facts).join(" ");
    expect(said).toContain("No visibility changed beyond chance since the previous tick (31 answers then, 30 now).");
    expect(said).not.toMatch(/rose|fell/);
    // The first tick of a series has nothing to compare with, and says no comparison.
    expect(tickSummary({ ...facts, figures: { ...facts.figures!, changes: [] } }).join(" ")).not.toContain("previous tick");
  });
});
