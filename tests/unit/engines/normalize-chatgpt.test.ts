import { describe, expect, it } from "vitest";
import { MalformedEnvelopeError, normalizeEnvelope } from "@/lib/engines/normalize";
import { PromptResult, Usage } from "@/lib/schemas/results";
import { envelopeOf, fixture } from "./envelope";

const RW = "https://www.runnersworld.com/gear/a2026/best-trail-running-shoes/";

describe("chatgpt normaliser", () => {
  const run = normalizeEnvelope(envelopeOf("chatgpt", [fixture("chatgpt/multi-search.json")]));
  const { result } = run;

  it("keeps the whole answer text", () => {
    expect(result.answer).toMatch(/^For most trail runners the Hoka Speedgoat 6 is the pick/);
    expect(result.answer).toMatch(/prefer Altra \(\[runnersworld\.com\]\(.+\)\)\.$/);
  });

  it("records every query of a call that carried several, and a call that carried none", () => {
    expect(result.searches).toEqual([
      { query: "best trail running shoes 2026", position: 1, search_call: 1, provider_search_id: "ws_68af4c41b2c48193a8f1e2d3c4b5a6970e6ae3b1c2d4e5f6" },
      { query: "trail running shoes review wide feet", position: 2, search_call: 1, provider_search_id: "ws_68af4c41b2c48193a8f1e2d3c4b5a6970e6ae3b1c2d4e5f6" },
      // The third call carries only the deprecated `query`; the second carried no query at all.
      { query: "Hoka Speedgoat 6 weight", position: 3, search_call: 3, provider_search_id: "ws_68af4c43d4e68193c0b3a4f5e6d7c8b90e6ae3b1c2d4e5f6" },
    ]);
    expect(result.search_calls).toBe(3);
    expect(result.searched).toBe(true);
  });

  it("merges a page seen in results and cited twice with a tracking parameter into one source", () => {
    const rw = result.sources.filter((s) => s.domain === "runnersworld.com");
    expect(rw).toEqual([
      {
        url: RW,
        raw_url: RW,
        resolution: "direct",
        domain: "runnersworld.com",
        cited: true,
        search_query_observed: true,
        retrieval_observed: true, // the model opened the page (open_page action)
        domain_hint: null,
        title: "The Best Trail Running Shoes of 2026",
        citation_count: 2,
        citation_positions: [1, 3],
      },
    ]);
  });

  it("normalises host case, fragments and utm parameters but keeps the raw URL", () => {
    const rr = result.sources.find((s) => s.domain === "runrepeat.com")!;
    expect(rr.raw_url).toBe("https://WWW.RunRepeat.com/hoka-speedgoat-6?utm_source=newsletter&size=9");
    expect(rr.url).toBe("https://www.runrepeat.com/hoka-speedgoat-6?size=9");
    expect(rr.citation_positions).toEqual([2]);
    expect(rr.retrieval_observed).toBeNull();
    const hoka = result.sources.find((s) => s.domain === "hoka.com")!;
    expect(hoka.url).toBe("https://www.hoka.com/en/us/speedgoat-6/1147791.html");
  });

  it("lists sources seen but not cited as not cited, after the cited ones", () => {
    expect(result.sources.map((s) => [s.domain, s.cited, s.search_query_observed])).toEqual([
      ["runnersworld.com", true, true],
      ["runrepeat.com", true, true],
      ["outdoorgearlab.com", false, true],
      ["reddit.com", false, true],
      ["hoka.com", false, true],
    ]);
    expect(result.citations_exposed).toBe(true);
  });

  it("reports tokens, reasoning tokens, searches and the model", () => {
    expect(run.usage).toEqual({ input_tokens: 12840, output_tokens: 612, reasoning_tokens: 384, total_tokens: 13452, web_searches: 3 });
    expect(run.model).toBe("gpt-5.4-2026-03-05");
  });

  it("produces a result exactly in the spec's shape", () => {
    expect(PromptResult.parse(result)).toEqual(result);
    expect(Usage.parse(run.usage)).toEqual(run.usage);
  });

  it("records an answer with citations off: no marks, sources seen but none cited", () => {
    const off = normalizeEnvelope(envelopeOf("chatgpt", [fixture("chatgpt/citations-off.json")])).result;
    expect(off.citations_exposed).toBe(false);
    expect(off.answer).toBe("Water boils at roughly 95 °C at 1,500 m, because air pressure is lower.");
    expect(off.sources.map((s) => [s.domain, s.cited, s.citation_count])).toEqual([
      ["engineeringtoolbox.com", false, 0],
      ["wikipedia.org", false, 0],
    ]);
  });

  it("says when results are not exposed instead of claiming a cited page was not in them", () => {
    const body = {
      model: "gpt-5.4",
      output: [
        { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "x" } },
        {
          type: "message",
          role: "assistant",
          content: [{ type: "output_text", text: "A (x).", annotations: [{ type: "url_citation", start_index: 2, end_index: 5, url: "https://x.example.org/a", title: "X" }] }],
        },
      ],
    };
    const [source] = normalizeEnvelope(envelopeOf("chatgpt", [body])).result.sources;
    expect(source).toMatchObject({ cited: true, search_query_observed: null, retrieval_observed: null });
  });

  it("rejects a body that is not a Responses API response", () => {
    expect(() => normalizeEnvelope(envelopeOf("chatgpt", [{ id: "resp_1" }]))).toThrow(MalformedEnvelopeError);
    expect(() => normalizeEnvelope(envelopeOf("chatgpt", ["<html>bad gateway</html>"]))).toThrow(MalformedEnvelopeError);
  });
});
