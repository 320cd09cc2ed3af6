// Perplexity's documented chat completion shape -> what a run records.
import { describe, expect, it } from "vitest";
import { MalformedEnvelopeError, normalizeEnvelope } from "@/lib/engines/normalize";
import { PromptResult } from "@/lib/schemas/results";
import { envelopeOf, fixture } from "./envelope";

describe("perplexity normaliser", () => {
  const run = normalizeEnvelope(envelopeOf("perplexity", [fixture("perplexity/documented.json")]));

  it("takes the [n] markers out of the answer, and leaves a bracketed number that names no page", () => {
    expect(run.result.answer).toBe(
      "Spain won UEFA Euro 2024, beating England 2-1 in the final in Berlin. It was Spain's record fourth European title. The match was played on 14 July 2024, and in 2024 [2024] no other team came close.",
    );
    expect(PromptResult.parse(run.result)).toEqual(run.result);
  });

  it("records every search result as a page seen, and each marker as a citation at its place, in answer order", () => {
    const [uefa, wikipedia, bbc] = run.result.sources;
    expect(uefa).toMatchObject({ url: "https://www.uefa.com/euro2024/news/0290-1bbe6a8c2b3c-spain-england/", cited: true, search_query_observed: true, retrieval_observed: null, citation_positions: [1], title: "Spain 2-1 England: Oyarzabal wins it late in Berlin | UEFA EURO 2024" });
    expect(wikipedia).toMatchObject({ domain: "wikipedia.org", citation_count: 2, citation_positions: [2, 4] });
    // Tracking parameters are removed from the page's URL, kept in raw_url.
    expect(bbc).toMatchObject({ url: "https://www.bbc.com/sport/football/articles/c4ng2k7q1v5o", raw_url: "https://www.bbc.com/sport/football/articles/c4ng2k7q1v5o?utm_source=perplexity", citation_positions: [3] });
    expect(run.result.sources).toHaveLength(3);
    expect(run.result.citations_exposed).toBe(true);
  });

  it("keeps Sonar's search count without queries, and its cost as a decimal string", () => {
    expect(run.result.searches).toEqual([]);
    expect(run.result).toMatchObject({ searched: true, search_calls: null, search_count: 2, provider_cost_usd: "0.00511", shown: true });
    expect(run.usage).toEqual({ input_tokens: 14, output_tokens: 96, reasoning_tokens: null, total_tokens: 110, web_searches: 2 });
    expect(run.model).toBe("sonar");
  });

  it("reads Pro Search's queries from its reasoning steps, one search call per step", () => {
    const pro = normalizeEnvelope(envelopeOf("perplexity", [fixture("perplexity/pro-search.json")]));
    expect(pro.result.searches).toEqual([
      { query: "Euro 2024 final result", position: 1, search_call: 1, provider_search_id: null },
      { query: "who won euro 2024", position: 2, search_call: 1, provider_search_id: null },
      { query: "Spain European Championship titles", position: 3, search_call: 2, provider_search_id: null },
    ]);
    expect(pro.result.search_calls).toBe(2);
    expect(pro.result.answer).toBe(run.result.answer);
  });

  it("rejects a response without choices", () => {
    expect(() => normalizeEnvelope(envelopeOf("perplexity", [{ id: "x", model: "sonar", choices: [] }]))).toThrow(MalformedEnvelopeError);
  });
});
