import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MalformedEnvelopeError, byteToCharOffset, normalizeEnvelope } from "@/lib/engines/normalize";
import { PromptResult } from "@/lib/schemas/results";
import { envelopeOf, failedWith, fixture, resolvedTo } from "./envelope";

const R = (id: string) => `https://vertexaisearch.cloud.google.com/grounding-api-redirect/${id}`;

describe("gemini normaliser", () => {
  const documented = normalizeEnvelope(
    envelopeOf("gemini", [fixture("gemini/documented.json")], {
      [R("AUZIYQHvWq0dUj2c6l0xM3w7m9kLr1Ez5Yb8nT4pQs2aFgH1jK")]: resolvedTo(
        "https://www.aljazeera.com/sports/2024/7/14/spain-beat-england-euro-final?utm_source=feed#comments",
      ),
      [R("AUZIYQGm8n7bV5cX3zL1kJ9hG7fD5sA3qW1eR9tY7uI5oP3aS")]: failedWith(null, "timeout"),
    }),
  );

  it("records the queries without inventing search calls Gemini does not show", () => {
    expect(documented.result.searches).toEqual([
      { query: "UEFA Euro 2024 winner", position: 1, search_call: null, provider_search_id: null },
      { query: "who won euro 2024", position: 2, search_call: null, provider_search_id: null },
    ]);
    expect(documented.result.searched).toBe(true);
    expect(documented.result.search_calls).toBeNull();
  });

  it("uses the resolved page for a followed redirect and keeps the redirect as raw_url", () => {
    const [aljazeera, uefa] = documented.result.sources;
    expect(aljazeera).toEqual({
      url: "https://www.aljazeera.com/sports/2024/7/14/spain-beat-england-euro-final",
      raw_url: R("AUZIYQHvWq0dUj2c6l0xM3w7m9kLr1Ez5Yb8nT4pQs2aFgH1jK"),
      resolution: "resolved",
      domain: "aljazeera.com",
      cited: true,
      search_query_observed: true,
      retrieval_observed: true,
      domain_hint: null,
      title: "aljazeera.com",
      citation_count: 2,
      citation_positions: [1, 2],
    });
    expect(uefa).toMatchObject({
      url: R("AUZIYQGm8n7bV5cX3zL1kJ9hG7fD5sA3qW1eR9tY7uI5oP3aS"),
      resolution: "unresolved",
      domain: null,
      domain_hint: "uefa.com",
      citation_positions: [3],
    });
    expect(PromptResult.parse(documented.result)).toEqual(documented.result);
  });

  it("reports prompt plus tool-use tokens as input, and thoughts as reasoning (0 when omitted)", () => {
    expect(documented.usage).toEqual({ input_tokens: 492, output_tokens: 31, reasoning_tokens: 0, total_tokens: 523, web_searches: null });
    expect(documented.model).toBe("gemini-3.5-flash");
  });

  describe("a non-ASCII answer in two parts", () => {
    const body = fixture("gemini/non-ascii.json") as {
      candidates: Array<{ content: { parts: Array<{ text: string }> }; groundingMetadata: { groundingSupports: Array<{ segment: { partIndex?: number; startIndex?: number; endIndex: number; text: string } }> } }>;
    };
    const run = normalizeEnvelope(
      envelopeOf("gemini", [body], {
        [R("AUZIYQFaaaa1111kicker")]: resolvedTo("https://www.kicker.de/em-2024-finale#live"),
        [R("AUZIYQFdddd4444kicker")]: resolvedTo("https://WWW.kicker.de/em-2024-finale?utm_medium=social"),
        [R("AUZIYQFbbbb2222uefa")]: resolvedTo("https://www.uefa.com/euro2024/news/final/"),
        [R("AUZIYQFcccc3333nhk")]: failedWith(404, "no Location"),
      }),
    );

    it("turns every segment's UTF-8 byte offsets into the right characters of its part", () => {
      const parts = body.candidates[0]!.content.parts.map((p) => p.text);
      for (const { segment } of body.candidates[0]!.groundingMetadata.groundingSupports) {
        const text = parts[segment.partIndex ?? 0]!;
        const from = byteToCharOffset(text, segment.startIndex ?? 0);
        const to = byteToCharOffset(text, segment.endIndex);
        expect(text.slice(from, to)).toBe(segment.text);
      }
    });

    it("joins the parts into the answer and numbers citations in answer order", () => {
      expect(run.result.answer).toBe(
        "Die Europameisterschaft 2024 gewann Spanien — im Finale schlug es England 2:1. Es war Spaniens vierter Titel 🏆, ein Rekord. 日本のメディアも「歴史的」と報じた。",
      );
      expect(run.result.sources.map((s) => [s.domain ?? s.domain_hint, s.resolution, s.citation_positions])).toEqual([
        ["kicker.de", "resolved", [1, 3]], // two redirects to the same page are one source
        ["uefa.com", "resolved", [2]],
        ["nhk.or.jp", "unresolved", [4]],
      ]);
      expect(run.result.sources[0]!.raw_url).toBe(R("AUZIYQFaaaa1111kicker"));
      expect(run.result.sources[2]!.domain).toBeNull();
      expect(run.usage.reasoning_tokens).toBe(212);
    });
  });

  it("says cited is unknown when Gemini grounded the answer without saying where", () => {
    const run = normalizeEnvelope(envelopeOf("gemini", [fixture("gemini/no-supports.json")]));
    expect(run.result.citations_exposed).toBe(false);
    expect(run.result.searches).toEqual([]);
    expect(run.result.searched).toBe(true);
    expect(run.result.sources).toEqual([
      {
        url: R("AUZIYQFeeee5555toureiffel"),
        raw_url: R("AUZIYQFeeee5555toureiffel"),
        resolution: "unresolved",
        domain: null,
        cited: null,
        search_query_observed: null,
        retrieval_observed: true,
        domain_hint: "toureiffel.paris",
        title: "toureiffel.paris",
        citation_count: 0,
        citation_positions: [],
      },
    ]);
  });

  it("records an answer given without searching", () => {
    const run = normalizeEnvelope(envelopeOf("gemini", [fixture("gemini/no-search.json")]));
    expect(run.result).toEqual({
      answer: "2 + 2 = 4.", sources: [], searches: [], citations_exposed: false, searched: false, search_calls: null,
      locale_applied: { location: false, language: false, city: null }, shown: true, provider_cost_usd: null, search_count: null,
    });
  });

  it("rejects a response without candidates", () => {
    expect(() => normalizeEnvelope(envelopeOf("gemini", [{ candidates: [] }]))).toThrow(MalformedEnvelopeError);
  });

  it("converts byte offsets on every code point boundary of any text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), fc.nat(), (text, n) => {
        const points = Array.from(text);
        const k = points.length === 0 ? 0 : n % (points.length + 1);
        const prefix = points.slice(0, k).join("");
        expect(byteToCharOffset(text, Buffer.byteLength(prefix, "utf8"))).toBe(prefix.length);
      }),
    );
  });
});
