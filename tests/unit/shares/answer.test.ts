// The shared page's answer: paragraphs, inline citation marks tied to the cited source they name,
// and the plain-text excerpt a link preview shows.
import { describe, expect, it } from "vitest";
import { answerParagraphs, excerpt, plainAnswer } from "@/app/s/_lib/answer";
import type { SourceObservation } from "@/lib/schemas/results";

const source = (url: string, cited: boolean | null, raw_url = url): SourceObservation => ({
  url, raw_url, resolution: "direct", domain: new URL(url).hostname, cited, search_query_observed: true, retrieval_observed: null,
  domain_hint: null, title: null, citation_count: cited ? 1 : 0,
});

describe("answer paragraphs", () => {
  it("turns a mark into a citation of the cited source it names, by the URL the engine wrote", () => {
    const pcmag = source("https://www.pcmag.com/picks/crm", true, "https://www.pcmag.com/picks/crm?utm_source=openai");
    const [paragraph] = answerParagraphs("HubSpot is free to start ([pcmag.com](https://www.pcmag.com/picks/crm?utm_source=openai)).", [pcmag]);
    expect(paragraph).toEqual([
      { kind: "text", text: "HubSpot is free to start ", bold: false },
      { kind: "cite", label: "pcmag.com", source: pcmag },
      { kind: "text", text: ".", bold: false },
    ]);
  });

  it("keeps a link to a page that was not cited as a plain link, never as a citation", () => {
    const seen = source("https://www.zoho.com/crm/", false);
    const [paragraph] = answerParagraphs("See [Zoho](https://www.zoho.com/crm/) too.", [seen]);
    expect(paragraph).toContainEqual({ kind: "link", label: "Zoho", url: "https://www.zoho.com/crm/" });
    expect(paragraph!.some((p) => p.kind === "cite")).toBe(false);
  });

  it("splits paragraphs on blank lines, keeps bold, and never passes markup through as HTML", () => {
    const paragraphs = answerParagraphs("First **point** <script>x</script>.\r\n\r\n\r\nSecond.", []);
    expect(paragraphs).toHaveLength(2);
    expect(paragraphs[0]).toEqual([
      { kind: "text", text: "First ", bold: false },
      { kind: "text", text: "point", bold: true },
      { kind: "text", text: " <script>x</script>.", bold: false },
    ]);
    expect(paragraphs[1]).toEqual([{ kind: "text", text: "Second.", bold: false }]);
  });

  it("reads a URL with balanced parentheses whole", () => {
    const wiki = source("https://en.wikipedia.org/wiki/Mercury_(planet)", true);
    const [paragraph] = answerParagraphs("Hot ([Wikipedia](https://en.wikipedia.org/wiki/Mercury_(planet))).", [wiki]);
    expect(paragraph).toContainEqual({ kind: "cite", label: "Wikipedia", source: wiki });
  });
});

describe("preview text", () => {
  it("drops marks and markup and folds whitespace", () => {
    expect(plainAnswer("## Best\n- **HubSpot** is free ([pcmag.com](https://pcmag.com/x)).\n- Zoho [docs](https://zoho.com) .")).toBe(
      "Best HubSpot is free. Zoho docs.",
    );
  });

  it("cuts at a word with an ellipsis, counting characters as code points", () => {
    expect(excerpt("short")).toBe("short");
    const cut = excerpt("word ".repeat(100), 50);
    expect(Array.from(cut).length).toBeLessThanOrEqual(50);
    expect(cut.endsWith("word…")).toBe(true);
    expect(Array.from(excerpt("😀".repeat(300), 200)).length).toBe(200);
  });
});
