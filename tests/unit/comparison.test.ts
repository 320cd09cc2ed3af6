// The comparison's pure computation (lib/comparison/compute.ts) on runs made by hand, where the
// searches and cited pages are chosen so that every overlap is a fraction worked out below (the
// API test reads the simulator's, whose app and API searches never coincide).
import { describe, expect, it } from "vitest";
import { comparedPrompt, computeComparison, type ComparisonRunInput } from "@/lib/comparison/compute";
import { comparisonCsv, comparisonLines } from "@/lib/comparison/csv";
import { presentComparisonAnalysis } from "@/lib/comparison/present";
import { ComparisonAnalysis } from "@/lib/schemas/comparison";

let n = 0;
function run(engine: string, prompt: string, answer: string, queries: string[] = [], cited: string[] = [], extra: Partial<ComparisonRunInput> = {}): ComparisonRunInput {
  n++;
  return { run_id: `dr_${String(n).padStart(26, "0")}`, engine, country: null, prompt, status: "completed", kind: "prompt", answer, search_queries: queries, cited_urls: cited, ...extra };
}

const ENTITIES = [
  { name: "HubSpot", role: "brand" as const, aliases: [], domains: ["hubspot.com"], case_sensitive: false },
  { name: "Pipedrive", role: "competitor" as const, aliases: [], domains: [], case_sensitive: false },
];

describe("computeComparison", () => {
  it("matches prompts by their text less [[sim:…]] directives, trimmed", () => {
    expect(comparedPrompt("  best crm [[sim:answer:SGk]] ")).toBe("best crm");
    expect(comparedPrompt("best [[sim:no_overview]] crm")).toBe("best crm");
  });

  it("works out query overlap, Jaccard of registrable domains and their means from hand-made runs", () => {
    const runs = [
      // Prompt 1: a searched {crm, "best  CRM"} -> {crm, best crm}; b {CRM, pricing}: 1 of a's 2 shared = 0.5.
      // a cited www.g2.com, g2.com and blog.hubspot.com -> {g2.com, hubspot.com}; b cited reddit.com and g2.com: 1 / 3.
      run("chatgpt", "p1 [[sim:answer:x]]", "HubSpot, then Pipedrive.", ["crm", "best  CRM"], ["https://www.g2.com/a", "https://g2.com/b", "https://blog.hubspot.com/c"]),
      run("chatgpt_app", "p1 [[sim:answer:y]]", "Pipedrive, then HubSpot.", ["CRM", "pricing"], ["https://reddit.com/r", "https://g2.com/x"]),
      // Prompt 2: a searched {x}, b nothing: 0. Neither cited: jaccard null. a names nobody: rbo null.
      run("chatgpt", "p2", "Nothing to say.", ["x"], []),
      run("chatgpt_app", "p2", "HubSpot.", [], []),
      // Prompt 3: a ran no query: overlap null. Both cite zoho.com only: 1.
      run("chatgpt", "p3", "HubSpot.", [], ["https://zoho.com/"]),
      run("chatgpt_app", "p3", "HubSpot.", ["y"], ["https://www.zoho.com/"]),
      // Shown nothing: no_answer, so prompt 4 is chatgpt's only.
      run("chatgpt", "p4", "Pipedrive."),
      run("chatgpt_app", "p4", "", [], [], { shown: false }),
    ];
    const c = computeComparison(runs, { a: "chatgpt", b: "chatgpt_app", entities: ENTITIES });
    expect(c.by_prompt.map((p) => [p.prompt, p.query_overlap, p.jaccard, p.rbo])).toEqual([
      ["p1", 0.5, 0.3333, 0.9],
      ["p2", 0, null, null],
      ["p3", null, 1, 1],
    ]);
    // Means over the prompts that have a value: overlap (0.5 + 0) / 2, jaccard (1/3 + 1) / 2, rbo (0.9 + 1) / 2
    // with t(0.975, 1) = 12.7062 · s / √2 = 12.7062 · 0.05 = 0.6353 either side, clipped to 1.
    expect(c.searches?.overlap).toBe(0.25);
    expect(c.searches?.prompts).toBe(2);
    expect(c.sources.jaccard).toBe(0.6667);
    expect(c.sources.prompts).toBe(2);
    expect(c.order).toEqual({ rbo: 0.95, rbo_interval: [0.3147, 1], prompts: 2, pairs: 2 });
    expect(c.sources.only_a).toEqual([{ domain: "hubspot.com", runs_citing: 1 }]);
    expect(c.sources.only_b).toEqual([{ domain: "reddit.com", runs_citing: 1 }]);
    expect(c.excluded_prompts).toEqual([{ prompt: "p4", engine: "chatgpt", runs: 1 }]);
    expect(c.excluded_runs.map((x) => x.reason)).toEqual(["one_engine_only", "no_answer"]);
  });

  it("averages rank-biased overlap over every pair of a's and b's runs of a prompt", () => {
    const runs = [
      run("chatgpt", "p", "HubSpot, then Pipedrive."),
      run("chatgpt", "p", "Pipedrive, then HubSpot."),
      run("gemini", "p", "HubSpot, then Pipedrive."),
      run("gemini", "p", "HubSpot, then Pipedrive."),
      run("gemini", "p", "No names here."),
    ];
    const c = computeComparison(runs, { a: "chatgpt", b: "gemini", entities: ENTITIES });
    // Pairs naming someone on both sides: 2 x 2 = 4; two are identical (1), two swapped (0.9).
    expect(c.order.pairs).toBe(4);
    expect(c.by_prompt[0]!.rbo).toBe(0.95);
    // chatgpt and gemini both report queries; none were run.
    expect(c.searches).toEqual({ overlap: null, overlap_interval: null, prompts: 0 });
  });

  it("writes one CSV line per prompt and entity, as the pages read figures, and JSON lines as the API states them", () => {
    const runs = [
      run("chatgpt", "=cmd|' /C calc'!A0", "HubSpot, then Pipedrive.", ["crm"], ["https://g2.com/a"]),
      run("chatgpt", "=cmd|' /C calc'!A0", "Pipedrive.", ["crm"], []),
      run("chatgpt", "=cmd|' /C calc'!A0", "Nothing.", [], []),
      run("chatgpt_app", "=cmd|' /C calc'!A0", "Pipedrive.", ["crm", "crm reviews"], ["https://g2.com/b", "https://reddit.com/c"]),
    ];
    const figures = computeComparison(runs, { a: "chatgpt", b: "chatgpt_app", entities: ENTITIES });
    const at = new Date("2026-11-29T08:00:00.000Z");
    const body = ComparisonAnalysis.parse(
      presentComparisonAnalysis({ id: "cm_01M8C4T2Q9W3E5R7T9Y1V3K5N7", status: "completed", subject: "s", createdAt: at, completedAt: at, projectId: "pr_01M6GDXDT8KGYAFXTZVXZHNXKE", createdBy: null, result: figures, error: null }),
    );
    // The prompt, text from a person, is guarded against formulas; the difference, a figure, is not.
    // HubSpot: 1 of 3 on chatgpt (33%), 0 of 1 on the app (0%): −33 points. Pipedrive: 2 of 3 (67%), 1 of 1 (100%).
    // Jaccard {g2.com} against {g2.com, reddit.com}: 50%; chatgpt's one query, also run: 100%. Order: (H, P) against (P)
    // is eq. 32 with S = (P), L = (H, P): X = 0, 1; (1/9)(1/2·0.81) + ((1 − 0)/2 + 0)·0.81 = 0.045 + 0.405 = 0.45; (P)
    // against (P) is 1; the mean of the two pairs 0.725, "73%".
    expect(comparisonCsv(body)).toBe(
      "prompt,engine_a,engine_b,runs_a,runs_b,jaccard,query_overlap,rbo,entity,visibility_a,visibility_b,diff\r\n" +
        `'=cmd|' /C calc'!A0,chatgpt,chatgpt_app,3,1,50%,100%,73%,HubSpot,33%,0%,-33%\r\n` +
        `'=cmd|' /C calc'!A0,chatgpt,chatgpt_app,3,1,50%,100%,73%,Pipedrive,67%,100%,33%\r\n`,
    );
    expect(comparisonLines(body)[0]).toEqual({
      prompt: "=cmd|' /C calc'!A0", engine_a: "chatgpt", engine_b: "chatgpt_app", runs_a: 3, runs_b: 1, jaccard: 0.5, query_overlap: 1, rbo: 0.725,
      entity: "HubSpot", visibility_a: 0.3333, visibility_b: 0, diff: -0.3333,
    });
  });
});
