// An opportunity list's summary in words (lib/words/opportunities.ts): a noun after "k of n"
// agrees with n, so a list of one prompt or one answer reads in the singular, and the brand's own
// pages cited in none of the answers are said without a count that reads as a plural of one.
import { describe, expect, it } from "vitest";
import { opportunitySummary, type OpportunityFacts } from "@/lib/words/opportunities";

const rate = (k: number, interval: [number, number]) => ({ runs_mentioning: k, visibility_interval: interval });

const oneLost = (runs: number, n: number): OpportunityFacts => ({
  brand: "Acme CRM",
  brand_domains: ["acme.example"],
  totals: { runs, prompts: 1, lost_runs: n, target_runs: n, own_runs_citing: 0, own_cited_not_mentioned: 0 },
  lost_prompts: [
    { prompt: "best crm for a small agency", n, brand: rate(0, [0, 0.6576]), competitor: { name: "HubSpot", ...rate(n, [0.3424, 1]) }, diff: 1, diff_interval: [0.0697, 1] },
  ],
  citation_targets: [{ url: "https://blog.hubspot.com/x", owner: null, runs_citing: 1, n, competitors: [{ name: "HubSpot" }] }],
  query_gaps: [{ query: "crm pricing comparison", engine: "chatgpt", runs: 1, n: 1 }],
});

describe("an opportunity list's summary", () => {
  it("reads one prompt and one answer in the singular", () => {
    const said = opportunitySummary(oneLost(1, 1)).join(" ");
    expect(said).toContain("on 1 of 1 prompt (1 answer).");
    expect(said).toContain("HubSpot is named in 1 of 1 answer (");
    expect(said).toContain("The one answer cites no page of Acme CRM's own (acme.example).");
    expect(said).toContain("(ChatGPT (API), 1 of 1 answer).");
  });

  it("reads several in the plural, and none of them citing the brand's own pages", () => {
    const said = opportunitySummary(oneLost(2, 2)).join(" ");
    expect(said).toContain("on 1 of 1 prompt (2 answers).");
    expect(said).toContain("HubSpot is named in 2 of 2 answers (");
    expect(said).toContain("None of the 2 answers cites a page of Acme CRM's own (acme.example).");
  });
});
