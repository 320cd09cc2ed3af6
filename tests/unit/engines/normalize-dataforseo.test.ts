// DataForSEO's documented live task shapes (LLM scraper, organic SERP with an AI Overview, AI Mode)
// -> what a run records; and its errors inside an HTTP 200 -> the RunError a run fails with.
import { describe, expect, it } from "vitest";
import { dataforseoBodyFailure } from "@/lib/engines/dataforseo";
import { MalformedEnvelopeError, normalizeEnvelope } from "@/lib/engines/normalize";
import type { EngineEnvelope } from "@/lib/engines/types";
import { PromptResult } from "@/lib/schemas/results";
import { envelopeOf, fixture } from "./envelope";

describe("dataforseo normaliser", () => {
  it("chatgpt_app: the scraper's markdown as the answer, its sources cited where the answer links them, its search results seen, its fan-out queries as searches", () => {
    const run = normalizeEnvelope(envelopeOf("chatgpt_app", [fixture("dataforseo/chatgpt-llm-scraper.json")]));
    expect(PromptResult.parse(run.result)).toEqual(run.result);
    expect(run.result.answer).toMatch(/^\*\*Albert Einstein\*\* \(1879–1955\)/);
    const [wikipedia, nobel, britannica, reddit] = run.result.sources;
    expect(wikipedia).toMatchObject({ url: "https://en.wikipedia.org/wiki/Albert_Einstein", cited: true, search_query_observed: true, citation_positions: [1], title: "Albert Einstein - Wikipedia" });
    expect(nobel).toMatchObject({ domain: "nobelprize.org", cited: true, search_query_observed: false, citation_positions: [2] });
    expect(britannica).toMatchObject({ domain: "britannica.com", cited: false, search_query_observed: true });
    expect(reddit).toMatchObject({ domain: "reddit.com", cited: false });
    expect(run.result.searches).toEqual([
      { query: "Albert Einstein biography", position: 1, search_call: null, provider_search_id: null },
      { query: "Albert Einstein Nobel Prize 1921 photoelectric effect", position: 2, search_call: null, provider_search_id: null },
    ]);
    expect(run.result).toMatchObject({ searched: true, search_calls: null, shown: true, provider_cost_usd: "0.0042", search_count: null, citations_exposed: true });
    expect(run.model).toBe("gpt-5");
    expect(run.usage.input_tokens).toBeNull();
  });

  it("gemini_app: markdown and sources only (the scraper shows no search results or queries); unlinked sources cited at the answer's end", () => {
    const run = normalizeEnvelope(envelopeOf("gemini_app", [fixture("dataforseo/gemini-llm-scraper.json")]));
    expect(run.result.sources.map((s) => [s.domain, s.cited, s.search_query_observed, s.citation_positions])).toEqual([
      ["wikipedia.org", true, null, [1]],
      ["nobelprize.org", true, null, [2]],
    ]);
    expect(run.result).toMatchObject({ searches: [], searched: true, provider_cost_usd: "0.003" });
    expect(run.model).toBe("gemini-2.5-flash");
  });

  it("google_ai_overview: the AI Overview's markdown, and its references and its elements' references, each page once", () => {
    const run = normalizeEnvelope(envelopeOf("google_ai_overview", [fixture("dataforseo/organic-ai-overview.json")]));
    expect(run.result.answer).toBe(
      "For value school uniforms in Australia, Best&Less and Kmart are the most commonly recommended retailers.\n\n- **Best&Less**: low prices on basics.\n- **Kmart**: polo shirts from a few dollars.",
    );
    expect(run.result.sources.map((s) => s.domain)).toEqual(["bestandless.com.au", "reddit.com", "kmart.com.au"]);
    expect(run.result.sources.every((s) => s.cited === true)).toBe(true);
    // Google shows no queries; the organic results are not the overview's sources.
    expect(run.result).toMatchObject({ searches: [], searched: true, shown: true, provider_cost_usd: "0.004" });
    expect(run.model).toBeNull();
  });

  it("google_ai_overview: no AI Overview on the SERP is a completed run with shown false, an empty answer and no sources", () => {
    const run = normalizeEnvelope(envelopeOf("google_ai_overview", [fixture("dataforseo/organic-no-overview.json")]));
    expect(run.result).toEqual({
      answer: "",
      sources: [],
      searches: [],
      citations_exposed: false,
      searched: true,
      search_calls: null,
      locale_applied: { location: false, language: false, city: null },
      shown: false,
      provider_cost_usd: "0.002",
      search_count: null,
    });
  });

  it("google_ai_mode: AI Mode's overview item", () => {
    const run = normalizeEnvelope(envelopeOf("google_ai_mode", [fixture("dataforseo/ai-mode.json")]));
    expect(run.result.shown).toBe(true);
    expect(run.result.answer).toMatch(/^For value school uniforms/);
    expect(run.result.sources).toHaveLength(3);
  });

  it("reads the run's market from the posted task: coordinates or a country name, and a language code, not the vendor's defaults", () => {
    const withRequest = (task: Record<string, unknown>): EngineEnvelope => {
      const envelope = envelopeOf("google_ai_overview", [fixture("dataforseo/organic-ai-overview.json")]);
      envelope.exchanges[0]!.request.body = [task];
      return envelope;
    };
    expect(normalizeEnvelope(withRequest({ keyword: "x", location_coordinate: "52.52,13.405,20000", language_code: "de" })).result.locale_applied).toEqual({ location: true, language: true, city: null });
    expect(normalizeEnvelope(withRequest({ keyword: "x", location_name: "Germany", language_name: "German" })).result.locale_applied).toEqual({ location: true, language: false, city: null });
    expect(normalizeEnvelope(withRequest({ keyword: "x", location_code: 2840, language_name: "English" })).result.locale_applied).toEqual({ location: false, language: false, city: null });
  });

  it("rejects a task without a result", () => {
    expect(() => normalizeEnvelope(envelopeOf("chatgpt_app", [{ status_code: 20000, tasks: [{ status_code: 20000, result: null }] }]))).toThrow(MalformedEnvelopeError);
  });
});

describe("dataforseo errors inside an HTTP 200", () => {
  it("a task's invalid field is a bad request, not retryable", () => {
    expect(dataforseoBodyFailure("google_ai_overview", fixture("dataforseo/error-task-invalid-field.json"))).toEqual({
      error: { code: "engine_bad_request", message: "DataForSEO answered status 40501: Invalid Field: 'location_coordinate'.", engine: "google_ai_overview", retryable: false },
      retry_after_ms: null,
    });
  });

  it("the request's rate limit is retryable; an account that cannot pay is not", () => {
    expect(dataforseoBodyFailure("chatgpt_app", fixture("dataforseo/error-request-rate-limit.json"))?.error).toMatchObject({ code: "engine_rate_limited", retryable: true });
    expect(dataforseoBodyFailure("chatgpt_app", fixture("dataforseo/error-request-payment.json"))?.error).toMatchObject({ code: "engine_bad_request", retryable: false });
    expect(dataforseoBodyFailure("chatgpt_app", fixture("dataforseo/error-request-payment.json"))?.error.message).toMatch(/cannot pay/);
  });

  it("the vendor's own failures (5xxxx) are retryable; a successful body is no failure", () => {
    expect(dataforseoBodyFailure("gemini_app", { status_code: 20000, tasks: [{ status_code: 50000, status_message: "Internal Error." }] })?.error).toMatchObject({ code: "engine_unavailable", retryable: true });
    expect(dataforseoBodyFailure("gemini_app", { status_code: 40100, status_message: "You are not authorized to access this resource." })?.error).toMatchObject({ code: "engine_auth_failed", retryable: false });
    expect(dataforseoBodyFailure("chatgpt_app", fixture("dataforseo/chatgpt-llm-scraper.json"))).toBeNull();
  });
});
