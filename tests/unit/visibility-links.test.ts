// visibility-v2 (decisions.md "Mentions and links"): a name inside a URL is no mention, a link's
// label is the engine citing a page (reason `link`) unless it is prose, a bare domain of the prose
// names its owner, and no sentence ends inside a link. Each provider's own citation style is read
// from an envelope shaped like its documented output, and every mention is written out by hand.
import { describe, expect, it } from "vitest";
import { normalizeEnvelope } from "@/lib/engines/normalize";
import type { EngineId } from "@/lib/engines/types";
import { analyseText, computeVisibilityAnalysis, type Entity } from "@/lib/visibility";
import { readLinks, renderLinks } from "@/lib/visibility/links";
import { envelopeOf, fixture } from "./engines/envelope";

const ENTITIES: Entity[] = [
  { name: "HubSpot", role: "brand", aliases: [], domains: ["hubspot.com"], case_sensitive: false },
  { name: "Zoho CRM", role: "competitor", aliases: ["Zoho"], domains: ["zoho.com"], case_sensitive: false },
  { name: "Pipedrive", role: "competitor", aliases: [], domains: ["pipedrive.com"], case_sensitive: false },
  { name: "Salesforce", role: "competitor", aliases: [], domains: ["salesforce.com"], case_sensitive: false },
];

/** A provider's envelope normalised and analysed as one run, as the service does. */
function analyse(engine: EngineId, file: string) {
  const { result } = normalizeEnvelope(envelopeOf(engine, [fixture(file)]));
  const analysis = computeVisibilityAnalysis(
    [
      {
        run_id: "dr_1", engine, country: null, prompt: "best crm for a small sales team", status: "completed", kind: "prompt",
        answer: result.answer, search_queries: result.searches.map((s) => s.query), cited_urls: result.sources.filter((s) => s.cited).map((s) => s.url),
      },
    ],
    { entities: ENTITIES },
  );
  // Each mention as a reader checks it: whose, the text it covers, counted or why not, its list item, its sentence.
  const mentions = analysis.mentions.map((m) => [m.entity, result.answer.slice(m.start, m.end), m.counted ? "counted" : m.reason, m.list_rank, m.sentence]);
  const row = (name: string) => analysis.rows.find((r) => r.name === name)!;
  return { analysis, mentions, row, answer: result.answer };
}

describe("ChatGPT's inline Markdown links (url_citation annotations over the links the model writes)", () => {
  const { analysis, mentions, row } = analyse("chatgpt", "chatgpt/crm-inline-links.json");
  const S1 = "For a small sales team, HubSpot is the usual first pick because its free tier covers contacts and deals (hubspot.com).";
  const S2 = "Zoho CRM costs less per seat and adds automation on its Standard plan (zoho.com).";
  const ITEM1 = "**Pipedrive**: built around a visual pipeline, e.g. for teams that live in their deals (pipedrive.com).";
  const ITEM2 = "**Zoho CRM**: the cheapest of the three; see Zoho CRM vs. HubSpot: which is better for startups.";
  const ITEM3 = "HubSpot's free CRM has no seat limit.";
  const LAST = "Salesforce is built for larger teams (salesforce.com); pipedrive.com lists its prices in USD and EUR.";

  it("counts names in prose, sets aside names in link labels, and lists nothing inside a URL or an e-mail address", () => {
    expect(mentions).toEqual([
      ["HubSpot", "HubSpot", "counted", null, S1],
      ["HubSpot", "hubspot", "link", null, S1], // [hubspot.com](…): the engine citing a page
      ["Zoho CRM", "Zoho CRM", "counted", null, S2],
      ["Zoho CRM", "zoho", "link", null, S2],
      ["Pipedrive", "Pipedrive", "counted", 1, ITEM1],
      ["Pipedrive", "pipedrive", "link", 1, ITEM1],
      ["Zoho CRM", "Zoho CRM", "counted", 2, ITEM2],
      // A label of prose naming the brands outside a domain counts.
      ["Zoho CRM", "Zoho CRM", "counted", 2, ITEM2],
      ["HubSpot", "HubSpot", "counted", 2, ITEM2],
      ["HubSpot", "HubSpot", "counted", 3, ITEM3], // [HubSpot's free CRM](…)
      ["Salesforce", "Salesforce", "counted", null, LAST],
      ["Salesforce", "salesforce", "link", null, LAST],
      // A bare domain of the prose names its owner.
      ["Pipedrive", "pipedrive.com", "counted", null, LAST],
      // Not listed: hubspot and zoho inside g2.com's URL, sales@zoho.com, https://blog.hubspot.com/….
    ]);
  });

  it("moves the figures: counted mentions, link mentions set aside, positions by the first counted mention", () => {
    expect(analysis.method).toBe("visibility-v2");
    expect(analysis.totals.mentions).toBe(13);
    expect(analysis.totals.mentions_not_counted).toEqual({ prompt_echo: 0, absence: 0, link: 4 });
    expect([row("HubSpot").mentions, row("Zoho CRM").mentions, row("Pipedrive").mentions, row("Salesforce").mentions]).toEqual([3, 3, 2, 1]);
    expect([row("HubSpot").average_position, row("Zoho CRM").average_position, row("Pipedrive").average_position, row("Salesforce").average_position]).toEqual([1, 2, 3, 4]);
    // Every one of them was cited too: `cited` records the link.
    expect(analysis.rows.map((r) => r.runs_citing)).toEqual([1, 1, 1, 1]);
  });
});

describe("Claude's cited text blocks", () => {
  const { mentions, row } = analyse("claude", "claude/crm-cited-blocks.json");
  const S = "**HubSpot** offers a free CRM with unlimited users and up to 1,000,000 contacts, while Zoho CRM starts at $14 per user per month on its Standard plan.";
  const P = "Pipedrive is the pick for pipeline-driven teams (see pipedrive.com for current pricing), e.g. agencies.";

  it("reads the joined blocks as prose: names count, a bare domain names its owner, an absence sentence does not count", () => {
    expect(mentions).toEqual([
      ["HubSpot", "HubSpot", "counted", null, S],
      ["Zoho CRM", "Zoho CRM", "counted", null, S],
      ["Pipedrive", "Pipedrive", "counted", null, P],
      ["Pipedrive", "pipedrive.com", "counted", null, P],
      ["Salesforce", "Salesforce", "absence", null, "I couldn't find reliable information about Salesforce."],
    ]);
    expect(row("Salesforce").runs_mentioning).toBe(0);
    expect(row("Pipedrive").runs_citing).toBe(0); // the block cites G2, not pipedrive.com
  });
});

describe("Gemini's grounding supports", () => {
  const { mentions } = analyse("gemini", "gemini/crm-grounding-supports.json");
  const S1 = "HubSpot, Zoho CRM and Pipedrive are the most recommended CRMs for small teams in 2026.";
  const S2 = "HubSpot's free plan (hubspot.com) suits startups, Zoho CRM is the cheapest at about $14 per user, and Pipedrive suits teams that sell through a pipeline, i.e. deal by deal.";

  it("keeps sentences whole across abbreviations, prices and domains", () => {
    expect(mentions).toEqual([
      ["HubSpot", "HubSpot", "counted", null, S1],
      ["Zoho CRM", "Zoho CRM", "counted", null, S1],
      ["Pipedrive", "Pipedrive", "counted", null, S1],
      ["HubSpot", "HubSpot", "counted", null, S2],
      ["HubSpot", "hubspot.com", "counted", null, S2],
      ["Zoho CRM", "Zoho CRM", "counted", null, S2],
      ["Pipedrive", "Pipedrive", "counted", null, S2],
      ["Salesforce", "Salesforce", "counted", null, "Salesforce Starter costs 25 USD/user/month."],
    ]);
  });
});

describe("link spans", () => {
  const spansOf = (text: string) => {
    const { spans, domains } = readLinks(text);
    return {
      spans: Array.from({ length: spans.count }, (_, i) => ({
        span: text.slice(spans.start[i], spans.end[i]),
        label: text.slice(spans.labelStart[i], spans.labelEnd[i]),
      })),
      domains: domains.host,
    };
  };

  it("finds inline links, images, reference links and definitions, autolinks, bare URLs and e-mail addresses", () => {
    const text =
      "See [Acme](https://acme.com/a_(b)) and ![logo](https://cdn.acme.com/l.png \"Logo\"), [the docs][1], <https://x.io/y> or <ops@acme.com>.\n" +
      "Then (https://acme.com/pricing), mail sales@acme.com, visit www.acme.com or acme.com/blog/post.\n" +
      "[1]: https://docs.acme.com";
    expect(spansOf(text)).toEqual({
      spans: [
        { span: "[Acme](https://acme.com/a_(b))", label: "Acme" },
        { span: "![logo](https://cdn.acme.com/l.png \"Logo\")", label: "logo" },
        { span: "[the docs][1]", label: "the docs" },
        { span: "<https://x.io/y>", label: "" },
        { span: "<ops@acme.com>", label: "" },
        { span: "https://acme.com/pricing", label: "" }, // the closing parenthesis and the comma stay prose
        { span: "sales@acme.com", label: "" },
        { span: "acme.com/blog/post", label: "" }, // a host with a path is a URL
        { span: "[1]: https://docs.acme.com", label: "" },
      ],
      domains: ["www.acme.com"], // a host alone is a domain of the prose
    });
  });

  it("takes only public suffixes as domains: not Node.js, e.g. or 3.5", () => {
    expect(spansOf("Node.js, e.g. v3.5 on Monday.com and hubspot.com.").domains).toEqual(["monday.com", "hubspot.com"]);
    expect(spansOf("[1] and [sic] are not links").spans).toEqual([]);
  });

  it("shows a sentence as a reader sees it, each link as its label", () => {
    const text = "Pick HubSpot ([hubspot.com](https://www.hubspot.com/?utm_source=openai)) or read <https://g2.com>.";
    const shown = renderLinks(text, 0, text.length, readLinks(text).spans);
    expect(shown.text).toBe("Pick HubSpot (hubspot.com) or read <https://g2.com>.");
    expect(shown.text.slice(shown.at(text.indexOf("hubspot.com")), shown.at(text.indexOf("hubspot.com") + 7))).toBe("hubspot");
  });

  it("never ends a sentence inside a link, and counts only a label's words", () => {
    const text = 'Read [Acme. The best CRM](https://acme.com/a?b=c "Acme. Home") today. Next one.';
    const s = analyseText(text, readLinks(text).spans);
    expect(Array.from({ length: s.count }, (_, i) => text.slice(s.starts[i], s.ends[i]))).toEqual([
      'Read [Acme. The best CRM](https://acme.com/a?b=c "Acme. Home") today.',
      "Next one.",
    ]);
    expect(Array.from(s.words)).toEqual([6, 2]); // Read + 4 label words + today
  });
});

describe("bare URLs by their scheme", () => {
  const spansOf = (text: string) => {
    const { spans } = readLinks(text);
    return Array.from({ length: spans.count }, (_, k) => text.slice(spans.start[k], spans.end[k]));
  };

  it("reads http and https in any case, each URL once, and none where the scheme touches a word or has nothing after it", () => {
    expect(spansOf("See HTTPS://Acme.com/Pricing and hTTp://zoho.com/crm, then https://pipedrive.com.")).toEqual([
      "HTTPS://Acme.com/Pricing",
      "hTTp://zoho.com/crm",
      "https://pipedrive.com",
    ]);
    expect(spansOf("xhttp://acme.com/a and https:// alone and ftp://acme.com/b")).toEqual([]);
    expect(spansOf("(https://acme.com/a)\nhttps://zoho.com/b")).toEqual(["https://acme.com/a", "https://zoho.com/b"]);
  });
});
