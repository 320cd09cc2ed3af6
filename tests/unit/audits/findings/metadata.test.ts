import { describe, expect, it } from "vitest";
import { finding, observation, withMetadata as meta, withoutHtml } from "./observation";

const nonHtml = withoutHtml({ status: "non_html", content_type: "application/json" });

describe("missing_title", () => {
  it("passes with a title", () => {
    expect(finding(observation(), "missing_title")).toMatchObject({ status: "pass", reason: "The page's title is “Choosing a CRM for a small B2B team | Acme”." });
  });

  it("fails without one, or with a blank one", () => {
    expect(finding(meta({ title: null }), "missing_title")).toMatchObject({ status: "fail", severity: "high", items: [{ evidence: [{ label: "title", value: null, source: "html:<title>" }] }] });
    expect(finding(meta({ title: " \n " }), "missing_title").status).toBe("fail");
  });

  it("is not applicable without HTML", () => {
    expect(finding(nonHtml, "missing_title")).toMatchObject({ status: "not_applicable", reason: "The page was not fetched as HTML: non_html 200 (application/json)." });
  });
});

describe("title_length", () => {
  it("passes from 15 to 65 characters, counted in code points", () => {
    expect(finding(meta({ title: "a".repeat(15) }), "title_length").status).toBe("pass");
    expect(finding(meta({ title: "a".repeat(65) }), "title_length").status).toBe("pass");
    // 15 emoji are 30 UTF-16 units but 15 characters.
    expect(finding(meta({ title: "🚀".repeat(15) }), "title_length")).toMatchObject({ status: "pass", reason: "The title has 15 characters, within 15 to 65." });
  });

  it("fails under 15 or over 65", () => {
    expect(finding(meta({ title: "Home" }), "title_length")).toMatchObject({
      status: "fail",
      reason: "The title has 4 characters, under 15.",
      items: [{ subtype: "too_short", details: { length: 4 }, evidence: [{ label: "title", value: "Home", source: "html:<title>" }, { label: "characters", value: 4 }] }],
    });
    expect(finding(meta({ title: "a".repeat(66) }), "title_length")).toMatchObject({ status: "fail", items: [{ subtype: "too_long" }] });
  });

  it("counts whitespace runs as one space", () => {
    expect(finding(meta({ title: "  Pricing\n\n     plans  " }), "title_length")).toMatchObject({ reason: "The title has 13 characters, under 15." });
  });

  it("is not applicable without a title, or without HTML", () => {
    expect(finding(meta({ title: null }), "title_length")).toMatchObject({ status: "not_applicable", reason: "The page has no title to measure (see missing_title)." });
    expect(finding(nonHtml, "title_length").status).toBe("not_applicable");
  });
});

describe("missing_description", () => {
  it("passes with a description", () => {
    expect(finding(observation(), "missing_description").status).toBe("pass");
  });

  it("fails without one", () => {
    expect(finding(meta({ description: null }), "missing_description")).toMatchObject({
      status: "fail",
      items: [{ evidence: [{ source: 'html:<meta name="description">' }] }],
    });
  });

  it("is not applicable without HTML", () => {
    expect(finding(nonHtml, "missing_description").status).toBe("not_applicable");
  });
});

describe("description_length", () => {
  it("passes from 50 to 160 characters", () => {
    expect(finding(meta({ description: "d".repeat(50) }), "description_length").status).toBe("pass");
    expect(finding(meta({ description: "d".repeat(160) }), "description_length").status).toBe("pass");
  });

  it("fails under 50 or over 160", () => {
    expect(finding(meta({ description: "d".repeat(49) }), "description_length")).toMatchObject({ status: "fail", items: [{ subtype: "too_short" }] });
    expect(finding(meta({ description: "d".repeat(161) }), "description_length")).toMatchObject({ status: "fail", reason: "The meta description has 161 characters, over 160." });
  });

  it("is not applicable without a description, or without HTML", () => {
    expect(finding(meta({ description: null }), "description_length").status).toBe("not_applicable");
    expect(finding(nonHtml, "description_length").status).toBe("not_applicable");
  });
});

describe("missing_lang", () => {
  it("passes with a language", () => {
    expect(finding(observation(), "missing_lang")).toMatchObject({ status: "pass", reason: "The page's language is “en”." });
  });

  it("fails without one", () => {
    expect(finding(meta({ lang: "" }), "missing_lang")).toMatchObject({ status: "fail", items: [{ evidence: [{ source: "html:<html lang>" }] }] });
  });

  it("is not applicable without HTML", () => {
    expect(finding(nonHtml, "missing_lang").status).toBe("not_applicable");
  });
});

describe("missing_open_graph", () => {
  it("passes with og:title or og:description", () => {
    expect(finding(observation(), "missing_open_graph").status).toBe("pass");
    expect(finding(meta({ open_graph: { "og:description": "Three questions.", "og:type": "article" } }), "missing_open_graph")).toMatchObject({
      status: "pass",
      reason: "The page has og:description among 2 Open Graph tags.",
    });
  });

  it("fails with neither, listing the Open Graph tags it has", () => {
    const f = finding(meta({ open_graph: { "og:type": "article", "og:title": "  " } }), "missing_open_graph");
    expect(f).toMatchObject({ status: "fail", reason: "The page has neither og:title nor og:description (only og:type).", items: [{ details: { open_graph_tags: ["og:type"] } }] });
    expect(f.items[0]?.evidence).toEqual([
      { label: "og:title", value: "  ", source: 'html:<meta property="og:title">' },
      { label: "og:description", value: null, source: 'html:<meta property="og:description">' },
    ]);
  });

  it("is not applicable without HTML", () => {
    expect(finding(nonHtml, "missing_open_graph").status).toBe("not_applicable");
  });
});
