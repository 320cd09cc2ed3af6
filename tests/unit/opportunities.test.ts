// The sections of an opportunity list (lib/opportunities/compute.ts) on runs built by hand, where
// the API test's exact answers cannot go: rates between 0 and 1 in one prompt, so which competitor
// a prompt is lost to and the rank by the interval's low end are tested apart from a tie. Newcombe's
// intervals below were worked out apart from lib/stats (the hybrid score interval of two Wilson
// intervals at z = 1.959964, rounded to 4 places).
import { describe, expect, it } from "vitest";
import { computeOpportunities, type OpportunityRun } from "@/lib/opportunities/compute";

const ENTITIES = [
  { name: "HubSpot", domains: ["hubspot.com"] },
  { name: "Pipedrive", domains: [] },
  { name: "Zoho CRM", domains: [] },
];
const BRAND = 1;
const PIPEDRIVE = 2;
const ZOHO = 4;

/** Ten runs of a prompt: run i names the brand for i < brand, Pipedrive for i < pipedrive, Zoho for i < zoho; even runs on chatgpt, odd on claude. */
function prompt(name: string, counts: { brand: number; pipedrive: number; zoho: number }, extra: (i: number) => Partial<OpportunityRun> = () => ({})): OpportunityRun[] {
  return Array.from({ length: 10 }, (_, i) => ({
    id: `${name}${i}`,
    engine: i % 2 === 0 ? "chatgpt" : "claude",
    prompt: name,
    queries: [],
    cited: [],
    mask: (i < counts.brand ? BRAND : 0) + (i < counts.pipedrive ? PIPEDRIVE : 0) + (i < counts.zoho ? ZOHO : 0),
    ...extra(i),
  }));
}

const a = prompt("a", { brand: 2, pipedrive: 9, zoho: 8 }, (i) => ({
  queries: ["  Best   CRM ", "best crm"],
  cited: i === 1 ? ["https://www.g2.com/crm", "https://hubspot.com/pricing"] : i === 5 ? ["https://nothubspot.com/"] : [],
}));
const b = prompt("b", { brand: 0, pipedrive: 6, zoho: 7 }, (i) => ({
  queries: ["best crm"],
  cited: i <= 2 ? ["https://blog.hubspot.com/x", "https://www.g2.com/crm", "https://www.g2.com/crm"] : i === 9 ? ["https://nothubspot.com/"] : [],
}));
const c = prompt("c", { brand: 2, pipedrive: 3, zoho: 0 }, () => ({ queries: ["c only"], cited: ["https://hubspot.com/pricing"] }));

const result = computeOpportunities([...a, ...b, ...c], ENTITIES, 0, [1, 2]);

describe("computeOpportunities", () => {
  it("names per prompt the competitor with the largest difference, and ranks prompts by the interval's low end", () => {
    // b: Zoho 7/10 vs 0/10 [0.2889, 0.8922] (Pipedrive 6/10: smaller); a: Pipedrive 9/10 vs 2/10 [0.2658, 0.8652] (Zoho 8/10: smaller).
    // Both differ by 70 points: b first by its low end. c: Pipedrive 3/10 vs 2/10 [-0.2646, 0.4354] holds 0.
    expect(result.lost.map((l) => [l.prompt, l.competitor.name, l.competitor.runs_mentioning, l.brand.runs_mentioning, l.diff, l.diff_interval])).toEqual([
      ["b", "Zoho CRM", 7, 0, 0.7, [0.2889, 0.8922]],
      ["a", "Pipedrive", 9, 2, 0.7, [0.2658, 0.8652]],
    ]);
    expect(result.lost[1]!.run_ids).toEqual(["a2", "a3", "a4", "a5", "a6", "a7", "a8"]);
    expect(result.lost[1]!.brand.visibility_interval).toEqual([0.0567, 0.5098]);
  });

  it("takes citation targets from runs naming a competitor and not the brand, once per run, the brand's domains and subdomains left out", () => {
    // a1 names the brand; b9 names nobody; nothubspot.com is not hubspot.com.
    expect(result.totals).toMatchObject({ runs: 30, prompts: 3, lost_prompts: 2, lost_runs: 20, target_runs: 14 });
    expect(result.citation_targets).toEqual([
      { url: "https://www.g2.com/crm", domain: "g2.com", owner: null, runs_citing: 3, n: 14, competitors: [{ name: "Pipedrive", runs: 3 }, { name: "Zoho CRM", runs: 3 }], run_ids: ["b0", "b1", "b2"] },
      { url: "https://nothubspot.com/", domain: "nothubspot.com", owner: null, runs_citing: 1, n: 14, competitors: [{ name: "Pipedrive", runs: 1 }, { name: "Zoho CRM", runs: 1 }], run_ids: ["a5"] },
    ]);
  });

  it("marks a page on a competitor's own domain (or a subdomain of it) with that competitor", () => {
    const owned = computeOpportunities([...a, ...b, ...c], [ENTITIES[0]!, ENTITIES[1]!, { name: "Zoho CRM", domains: ["NotHubSpot.com"] }], 0, [1, 2]);
    expect(owned.citation_targets.map((t) => [t.url, t.owner])).toEqual([
      ["https://www.g2.com/crm", null],
      ["https://nothubspot.com/", "Zoho CRM"],
    ]);
  });

  it("lists the brand's own pages cited anywhere, by engine and prompt, with the runs citing them that do not name it", () => {
    expect(result.own_pages.map((o) => [o.url, o.runs_citing, o.cited_not_mentioned, o.by_engine, o.by_prompt])).toEqual([
      // c0..c9 and a1 cite the pricing page; c0, c1 and a1 name HubSpot.
      [
        "https://hubspot.com/pricing", 11, 8,
        [{ engine: "claude", runs_citing: 6, cited_not_mentioned: 4 }, { engine: "chatgpt", runs_citing: 5, cited_not_mentioned: 4 }],
        [{ prompt: "c", runs_citing: 10, cited_not_mentioned: 8 }, { prompt: "a", runs_citing: 1, cited_not_mentioned: 0 }],
      ],
      ["https://blog.hubspot.com/x", 3, 3, [{ engine: "chatgpt", runs_citing: 2, cited_not_mentioned: 2 }, { engine: "claude", runs_citing: 1, cited_not_mentioned: 1 }], [{ prompt: "b", runs_citing: 3, cited_not_mentioned: 3 }]],
    ]);
    expect([result.totals.own_runs_citing, result.totals.own_cited_not_mentioned]).toEqual([14, 11]);
  });

  it("counts the searches of lost prompts per engine, lower-cased with spaces collapsed, once per run", () => {
    expect(result.query_gaps.map((q) => [q.query, q.engine, q.runs, q.n, q.prompts])).toEqual([
      ["best crm", "chatgpt", 10, 10, ["a", "b"]],
      ["best crm", "claude", 10, 10, ["a", "b"]],
    ]);
  });
});
