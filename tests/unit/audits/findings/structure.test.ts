import { describe, expect, it } from "vitest";
import { finding, observation, withoutHtml } from "./observation";

const blocked = withoutHtml({ status: "blocked", http_status: null, error: "127.0.0.1 is a loopback address", robots_txt: null });
const h1s = (pageH1Count: number) => observation({ analysis: { pageH1Count } });

describe("missing_h1", () => {
  it("passes with an h1 anywhere on the page", () => {
    expect(finding(h1s(1), "missing_h1")).toMatchObject({ status: "pass", reason: "The page has 1 h1 heading." });
    // The main content's outline may hold none while the page has one (e.g. in the header).
    expect(finding(observation({ analysis: { pageH1Count: 1, structure: { h1_count: 0 } } }), "missing_h1").status).toBe("pass");
  });

  it("fails with none", () => {
    expect(finding(h1s(0), "missing_h1")).toMatchObject({ status: "fail", severity: "high", items: [{ evidence: [{ label: "h1 headings", value: 0, source: "html:<h1>" }] }] });
  });

  it("is not applicable without HTML", () => {
    expect(finding(blocked, "missing_h1")).toMatchObject({ status: "not_applicable", reason: "The page was not fetched as HTML: blocked (127.0.0.1 is a loopback address)." });
  });
});

describe("multiple_h1", () => {
  it("passes with one h1 or none", () => {
    expect(finding(h1s(1), "multiple_h1").status).toBe("pass");
    expect(finding(h1s(0), "multiple_h1").status).toBe("pass");
  });

  it("fails with more than one, showing the outline's", () => {
    const f = finding(
      observation({ analysis: { pageH1Count: 2, structure: { headings: [{ level: 1, text: "Acme" }, { level: 1, text: "Choosing a CRM" }] } } }),
      "multiple_h1",
    );
    expect(f).toMatchObject({ status: "fail", reason: "The page has 2 h1 headings." });
    expect(f.items[0]?.evidence).toEqual([
      { label: "h1 headings", value: 2, source: "html:<h1>" },
      { label: "h1", value: "<h1>Acme</h1>", source: "html:<h1>" },
      { label: "h1", value: "<h1>Choosing a CRM</h1>", source: "html:<h1>" },
    ]);
  });

  it("is not applicable without HTML", () => {
    expect(finding(blocked, "multiple_h1").status).toBe("not_applicable");
  });
});

describe("heading_level_skips", () => {
  it("passes when no heading skips a level", () => {
    expect(finding(observation(), "heading_level_skips")).toMatchObject({ status: "pass", reason: "No heading skips a level (3 headings in the main content)." });
  });

  it("fails with one item per skip", () => {
    const level_skips = [
      { from_level: 2, to_level: 4, at: "Mobile entry" },
      { from_level: 1, to_level: 3, at: "Pricing" },
    ];
    const f = finding(observation({ analysis: { structure: { level_skips } } }), "heading_level_skips");
    expect(f).toMatchObject({ status: "fail", reason: "2 headings skip a level." });
    expect(f.items[0]).toEqual({
      summary: "h2 → h4 at “Mobile entry”",
      severity: "low",
      subtype: "h2_to_h4",
      details: { from_level: 2, to_level: 4, at: "Mobile entry" },
      evidence: [{ label: "heading", value: "<h4>Mobile entry</h4>", source: "html:<h4>" }],
    });
    expect(f.items[1]?.subtype).toBe("h1_to_h3");
  });

  it("is not applicable without HTML", () => {
    expect(finding(blocked, "heading_level_skips").status).toBe("not_applicable");
  });
});

describe("no_subheadings", () => {
  const outline = (word_count: number, levels: number[]) =>
    observation({ analysis: { content: { word_count }, structure: { headings: levels.map((level) => ({ level, text: `h${level}` })) } } });

  it("passes with an h2 or h3, or at 600 words and under", () => {
    expect(finding(outline(2000, [1, 3]), "no_subheadings").status).toBe("pass");
    expect(finding(outline(600, [1]), "no_subheadings")).toMatchObject({ status: "pass", reason: "The main content has 600 words, few enough to need no subheadings." });
  });

  it("fails over 600 words with no h2 or h3, whatever other headings there are", () => {
    expect(finding(outline(601, [1, 4]), "no_subheadings")).toMatchObject({ status: "fail", reason: "The main content has 601 words and no h2 or h3 heading.", evidence_level: "heuristic" });
  });

  it("is not applicable without HTML", () => {
    expect(finding(blocked, "no_subheadings").status).toBe("not_applicable");
  });
});
