import { describe, expect, it } from "vitest";
import { normalizeEnvelope } from "@/lib/engines/normalize";
import { PromptResult } from "@/lib/schemas/results";
import { envelopeOf, fixture } from "./envelope";

describe("claude normaliser", () => {
  const run = normalizeEnvelope(envelopeOf("claude", [fixture("claude/multi-search.json")]));
  const { result } = run;

  it("joins text blocks in order, with a paragraph break where a search came between", () => {
    expect(result.answer).toBe(
      "I'll search for when Claude Shannon was born.\n\nBased on the search results, Claude Shannon was born on April 30, 1916, in Petoskey, Michigan. He is known as the father of information theory — a field he founded with a 1948 paper.",
    );
  });

  it("records one search call per server_tool_use with its id", () => {
    expect(result.searches).toEqual([
      { query: "claude shannon birth date", position: 1, search_call: 1, provider_search_id: "srvtoolu_01WYG3ziw53XMcoyKL4XcZmE" },
      { query: "Claude Shannon Petoskey Michigan", position: 2, search_call: 2, provider_search_id: "srvtoolu_01Kx9rPqLmN4tV7wZ2aB5cDe" },
    ]);
    expect(result.search_calls).toBe(2);
  });

  it("counts a page cited in two places once, with both positions", () => {
    const wiki = result.sources.find((s) => s.domain === "wikipedia.org")!;
    expect(wiki).toMatchObject({ cited: true, citation_count: 2, citation_positions: [1, 3], title: "Claude Shannon - Wikipedia" });
    expect(result.sources.filter((s) => s.domain === "wikipedia.org")).toHaveLength(1);
    const petoskey = result.sources.find((s) => s.domain === "petoskeyarea.com")!;
    expect(petoskey).toMatchObject({
      url: "https://www.petoskeyarea.com/history/claude-shannon",
      raw_url: "https://www.petoskeyarea.com/history/claude-shannon?utm_campaign=x",
      citation_positions: [2],
    });
  });

  it("marks results as seen and retrieved (their content reached the model), cited or not", () => {
    const britannica = result.sources.find((s) => s.domain === "britannica.com")!;
    expect(britannica).toMatchObject({
      url: "https://www.britannica.com/biography/Claude-Shannon",
      cited: false,
      citation_count: 0,
      search_query_observed: true,
      retrieval_observed: true,
    });
    expect(result.sources.map((s) => s.domain)).toEqual(["wikipedia.org", "petoskeyarea.com", "britannica.com"]);
    expect(result.citations_exposed).toBe(true);
  });

  it("counts cached prompt tokens as input and takes searches from server_tool_use usage", () => {
    expect(run.usage).toEqual({ input_tokens: 8087, output_tokens: 931, reasoning_tokens: null, total_tokens: 9018, web_searches: 2 });
    expect(run.model).toBe("claude-sonnet-4-6");
    expect(PromptResult.parse(result)).toEqual(result);
  });

  it("reads every pause_turn continuation as one answer and sums their usage", () => {
    const paused = normalizeEnvelope(envelopeOf("claude", [fixture("claude/pause-turn-1.json"), fixture("claude/pause-turn-2.json")]));
    expect(paused.result.answer).toBe("Researchers crossed the error-correction threshold this year.");
    expect(paused.result.searches.map((s) => [s.query, s.position, s.search_call])).toEqual([
      ["quantum computing breakthroughs 2026", 1, 1],
      ["logical qubits record", 2, 2],
    ]);
    expect(paused.result.sources).toHaveLength(1);
    expect(paused.result.sources[0]).toMatchObject({ domain: "nature.com", cited: true, citation_positions: [1] });
    expect(paused.usage).toEqual({ input_tokens: 5500, output_tokens: 330, reasoning_tokens: null, total_tokens: 5830, web_searches: 2 });
    expect(paused.search_errors).toEqual([{ provider_search_id: "srvtoolu_01PauseSearchTwo000000002", error_code: "max_uses_exceeded" }]);
  });

  it("keeps an answer whose search failed inside a 200 and records the error", () => {
    const failed = normalizeEnvelope(envelopeOf("claude", [fixture("claude/search-error.json")]));
    expect(failed.result.answer).toMatch(/^I couldn't search right now/);
    expect(failed.result.searches).toEqual([{ query: "current euro to yen rate", position: 1, search_call: 1, provider_search_id: "servertoolu_a93jad" }]);
    expect(failed.result.sources).toEqual([]);
    expect(failed.result.citations_exposed).toBe(false);
    expect(failed.search_errors).toEqual([{ provider_search_id: "servertoolu_a93jad", error_code: "too_many_requests" }]);
  });
});
