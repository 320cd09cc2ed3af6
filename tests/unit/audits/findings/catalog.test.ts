// The catalog as a whole: every entry once in order, as decisions.md "Audits" lists it, every
// finding valid against the API schema, and a check that throws kept to its own finding.
import { describe, expect, it } from "vitest";
import { evaluateFindings, FINDING_CATALOG, findingChecks } from "@/lib/audits/findings";
import type { AuditObservation } from "@/lib/audits/types";
import { AuditFinding } from "@/lib/schemas/audits";
import { allCrawlers, observation, withMetadata, withoutHtml } from "./observation";

// Copied by hand from decisions.md "Audits" (key: category, severity, evidence level).
const DECISIONS_CATALOG = [
  ["http_error", "access", "critical", "observed"],
  ["robots_blocks_page", "access", "critical", "observed"],
  ["ai_crawlers_blocked", "access", "high", "observed"],
  ["long_redirect_chain", "access", "medium", "observed"],
  ["non_html", "access", "high", "observed"],
  ["truncated_body", "access", "low", "observed"],
  ["slow_response", "access", "medium", "observed"],
  ["noindex", "indexing", "critical", "observed"],
  ["nofollow", "indexing", "low", "observed"],
  ["canonical_missing", "indexing", "low", "observed"],
  ["canonical_elsewhere", "indexing", "medium", "observed"],
  ["canonical_invalid", "indexing", "medium", "observed"],
  ["likely_js_dependent", "content", "high", "heuristic"],
  ["no_main_content", "content", "high", "heuristic"],
  ["thin_content", "content", "medium", "heuristic"],
  ["no_dates", "content", "low", "observed"],
  ["stale_content", "content", "low", "observed"],
  ["missing_h1", "structure", "high", "observed"],
  ["multiple_h1", "structure", "low", "observed"],
  ["heading_level_skips", "structure", "low", "observed"],
  ["no_subheadings", "structure", "medium", "heuristic"],
  ["missing_title", "metadata", "high", "observed"],
  ["title_length", "metadata", "low", "observed"],
  ["missing_description", "metadata", "medium", "observed"],
  ["description_length", "metadata", "low", "observed"],
  ["missing_lang", "metadata", "low", "observed"],
  ["missing_open_graph", "metadata", "low", "observed"],
  ["no_structured_data", "structured_data", "medium", "observed"],
  ["structured_data_errors", "structured_data", "medium", "observed"],
  ["no_author_or_publisher", "structured_data", "low", "heuristic"],
  ["llms_txt_missing", "ai_access", "info", "observed"],
  ["llms_txt_invalid", "ai_access", "low", "observed"],
  ["no_markdown_alternate", "ai_access", "info", "observed"],
];

/** The findings that read the page's HTML; without it they are not_applicable. */
const NEEDS_HTML = [
  "noindex",
  "nofollow",
  "canonical_missing",
  "canonical_elsewhere",
  "canonical_invalid",
  "likely_js_dependent",
  "no_main_content",
  "thin_content",
  "no_dates",
  "stale_content",
  "missing_h1",
  "multiple_h1",
  "heading_level_skips",
  "no_subheadings",
  "missing_title",
  "title_length",
  "missing_description",
  "description_length",
  "missing_lang",
  "missing_open_graph",
  "no_structured_data",
  "structured_data_errors",
  "no_author_or_publisher",
  "no_markdown_alternate",
];

const VARIETY: Record<string, AuditObservation> = {
  healthy: observation(),
  "not found": withoutHtml({ status: "client_error", http_status: 404 }),
  "timed out": withoutHtml({ status: "fetch_error", http_status: null, error: "timed out", elapsed_ms: 15000, robots_txt: null }, { fetched: { robots: { aiCrawlers: allCrawlers(null) } } }),
  "robots.txt forbids": withoutHtml(
    { status: "blocked", http_status: null, robots_txt: { allows_page: false } },
    { fetched: { robots: { aiCrawlers: allCrawlers(false), decidingLines: { geoscope: "Disallow: /" } } }, probes: { markdownAlternates: [] } },
  ),
  "a poor page": withMetadata({
    title: null,
    description: "Short.",
    canonical: "/x",
    lang: null,
    noindex: true,
    robots: "noindex,nofollow",
    nofollow: true,
    open_graph: {},
    dates: { published: "2001-01-01", modified: null, last_modified_header: null },
    structured_data_types: [],
    structured_data_blocks: 1,
    structured_data_errors: 1,
  }),
};

describe("evaluateFindings", () => {
  it("lists every catalog entry once, in the order of decisions.md, with its category, severity and evidence level", () => {
    expect(FINDING_CATALOG.map((entry) => [entry.key, entry.category, entry.severity, entry.evidence_level])).toEqual(DECISIONS_CATALOG);
    for (const obs of Object.values(VARIETY)) {
      const findings = evaluateFindings(obs);
      expect(findings.map((f) => [f.key, f.category, f.severity, f.evidence_level])).toEqual(DECISIONS_CATALOG);
      expect(new Set(findings.map((f) => f.version))).toEqual(new Set([1]));
    }
  });

  it("has a check for every entry and no other", () => {
    expect(Object.keys(findingChecks).sort()).toEqual(FINDING_CATALOG.map((entry) => entry.key).sort());
  });

  it("gives every entry a distinct name and texts written as sentences", () => {
    expect(new Set(FINDING_CATALOG.map((entry) => entry.name)).size).toBe(FINDING_CATALOG.length);
    for (const entry of FINDING_CATALOG) {
      expect(entry.name.trim(), entry.key).not.toBe("");
      expect(entry.why_it_matters, entry.key).toMatch(/^\S.*[.”]$/);
      expect(entry.recommendation, entry.key).toMatch(/^\S.*[.”]$/);
    }
  });

  it("passes everything on a healthy page", () => {
    const notPassing = evaluateFindings(observation()).filter((f) => f.status !== "pass");
    expect(notPassing.map((f) => [f.key, f.status, f.reason])).toEqual([]);
  });

  it.each(Object.entries(VARIETY))("gives valid findings with a reason, and items exactly when something is wrong (%s)", (_, obs) => {
    for (const f of evaluateFindings(obs)) {
      expect(() => AuditFinding.parse(f), f.key).not.toThrow();
      expect(f.reason, f.key).toMatch(/^\S.*\.$/);
      if (f.status === "fail" || f.status === "warn") {
        expect(f.items.length, f.key).toBeGreaterThan(0);
        for (const item of f.items) {
          expect(item.summary, f.key).not.toBe("");
          expect(item.evidence.length, f.key).toBeGreaterThan(0);
          for (const e of item.evidence) expect(e.source, f.key).not.toBe("");
        }
      } else {
        expect(f.items, f.key).toEqual([]);
      }
    }
  });

  it("makes every finding that reads the HTML not_applicable without it, saying how the fetch went", () => {
    const findings = evaluateFindings(withoutHtml({ status: "client_error", http_status: 404 }, { probes: { markdownAlternates: [] } }));
    const notApplicable = findings.filter((f) => f.status === "not_applicable" && f.reason === "The page was not fetched as HTML: client_error 404.");
    expect(notApplicable.map((f) => f.key)).toEqual(NEEDS_HTML);
    const forbidden = evaluateFindings(VARIETY["robots.txt forbids"] as AuditObservation).find((f) => f.key === "missing_title");
    expect(forbidden?.reason).toBe("The page was not fetched as HTML: blocked (robots.txt forbids the page).");
  });

  it("turns a check that throws into an error finding and runs the others", () => {
    const findings = evaluateFindings(observation(), {
      ...findingChecks,
      thin_content: () => {
        throw new Error("word_count is not a number");
      },
    });
    expect(findings.find((f) => f.key === "thin_content")).toMatchObject({ status: "error", reason: "The check failed: word_count is not a number.", items: [] });
    expect(findings.filter((f) => f.status !== "pass").map((f) => f.key)).toEqual(["thin_content"]);
  });

  it("survives an observation that breaks its checks", () => {
    const broken = observation();
    (broken.analysis as unknown as { structure: null }).structure = null;
    const findings = evaluateFindings(broken);
    expect(findings).toHaveLength(DECISIONS_CATALOG.length);
    const errors = findings.filter((f) => f.status === "error").map((f) => f.key);
    expect(errors).toEqual(["heading_level_skips", "no_subheadings"]);
    for (const f of findings) expect(() => AuditFinding.parse(f)).not.toThrow();
  });
});
