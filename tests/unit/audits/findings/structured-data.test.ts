import { describe, expect, it } from "vitest";
import { finding, observation, withMetadata, withoutHtml } from "./observation";

const notFound = withoutHtml({ status: "client_error", http_status: 410 });
const jsonLd = (types: string[], blocks: number, errors: number) =>
  withMetadata({ structured_data_types: types, structured_data_blocks: blocks, structured_data_errors: errors });

describe("no_structured_data", () => {
  it("passes with a typed JSON-LD block", () => {
    expect(finding(observation(), "no_structured_data")).toMatchObject({ status: "pass", reason: "The page's JSON-LD describes it as Article, BreadcrumbList." });
  });

  it("fails without JSON-LD, or when none of it gives a type", () => {
    expect(finding(jsonLd([], 0, 0), "no_structured_data")).toMatchObject({
      status: "fail",
      reason: "The page has no JSON-LD structured data.",
      items: [{ evidence: [{ label: "JSON-LD blocks", value: 0, source: "json-ld" }, { label: "schema.org types", value: [], source: "json-ld" }] }],
    });
    expect(finding(jsonLd([], 1, 1), "no_structured_data")).toMatchObject({ status: "fail", reason: "None of the page's JSON-LD gives a schema.org type (1 block, 1 that does not parse)." });
    expect(finding(withMetadata({ structured_data_types: undefined, structured_data_blocks: undefined }), "no_structured_data").status).toBe("fail");
  });

  it("is not applicable without HTML", () => {
    expect(finding(notFound, "no_structured_data")).toMatchObject({ status: "not_applicable", reason: "The page was not fetched as HTML: client_error 410." });
  });
});

describe("structured_data_errors", () => {
  it("passes when every block parses", () => {
    expect(finding(observation(), "structured_data_errors")).toMatchObject({ status: "pass", reason: "All 2 JSON-LD blocks parse." });
  });

  it("fails with one item per block that does not parse", () => {
    const f = finding(jsonLd(["Article"], 3, 2), "structured_data_errors");
    expect(f).toMatchObject({ status: "fail", reason: "2 JSON-LD blocks on the page do not parse as JSON." });
    expect(f.items.map((item) => [item.subtype, item.details])).toEqual([
      ["parse_error", { broken_block: 1, broken_blocks: 2 }],
      ["parse_error", { broken_block: 2, broken_blocks: 2 }],
    ]);
    expect(f.items[0]?.evidence).toEqual([{ label: "JSON-LD blocks that do not parse", value: 2, source: "json-ld" }]);
  });

  it("is not applicable without JSON-LD, or without HTML", () => {
    expect(finding(jsonLd([], 0, 0), "structured_data_errors")).toMatchObject({ status: "not_applicable", reason: "The page has no JSON-LD to check." });
    expect(finding(notFound, "structured_data_errors").status).toBe("not_applicable");
  });
});

describe("no_author_or_publisher", () => {
  it("passes when JSON-LD names an author or a publisher", () => {
    expect(finding(observation(), "no_author_or_publisher").status).toBe("pass");
  });

  it("fails when it names neither, and when there is no JSON-LD at all", () => {
    const neither = observation({ analysis: { hasAuthorOrPublisher: false } });
    expect(finding(neither, "no_author_or_publisher")).toMatchObject({
      status: "fail",
      evidence_level: "heuristic",
      reason: "The page's JSON-LD names neither an author nor a publisher.",
      items: [{ evidence: [{ label: "author or publisher", value: null, source: "json-ld" }] }],
    });
    const none = { ...jsonLd([], 0, 0) };
    none.analysis = none.analysis && { ...none.analysis, hasAuthorOrPublisher: false };
    expect(finding(none, "no_author_or_publisher")).toMatchObject({ status: "fail", reason: "The page has no JSON-LD, so it names no author or publisher there." });
  });

  it("is not applicable without HTML", () => {
    expect(finding(notFound, "no_author_or_publisher").status).toBe("not_applicable");
  });
});
