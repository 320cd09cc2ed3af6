import { describe, expect, it } from "vitest";
import { finding, observation, withoutHtml } from "./observation";

const serverError = withoutHtml({ status: "server_error", http_status: 500 });
const words = (word_count: number, extraction_method: "article" | "body" | null = "article") => observation({ analysis: { content: { word_count, extraction_method } } });
const dates = (published: string | null, modified: string | null, last_modified_header: string | null) =>
  observation({ analysis: { metadata: { dates: { published, modified, last_modified_header } } } });

describe("likely_js_dependent", () => {
  it("passes when the HTML carries the content", () => {
    expect(finding(observation(), "likely_js_dependent")).toMatchObject({ status: "pass", reason: "The served HTML carries the content itself (1184 words of main content)." });
  });

  it("fails on a JavaScript shell, its rendering signals as evidence", () => {
    const shell = observation({ analysis: { content: { likely_js_dependent: true, word_count: 3, rendering_signals: { framework: "next", empty_app_root: true } } } });
    const f = finding(shell, "likely_js_dependent");
    expect(f).toMatchObject({ status: "fail", severity: "high", evidence_level: "heuristic" });
    // The overrides merge into the healthy page's signals, so its other signals are there too.
    expect(f.items[0]?.evidence[0]).toEqual({ label: "words in the main content", value: 3, source: "html" });
    expect(f.items[0]?.evidence).toEqual(
      expect.arrayContaining([
        { label: "framework", value: "next", source: "html" },
        { label: "empty_app_root", value: true, source: "html" },
      ]),
    );
  });

  it("is not applicable when the analyser could not tell, or without HTML", () => {
    expect(finding(observation({ analysis: { content: { likely_js_dependent: null } } }), "likely_js_dependent").status).toBe("not_applicable");
    expect(finding(serverError, "likely_js_dependent")).toMatchObject({ status: "not_applicable", reason: "The page was not fetched as HTML: server_error 500." });
  });
});

describe("no_main_content", () => {
  it("passes with main content, including a body fallback with enough text", () => {
    expect(finding(observation(), "no_main_content")).toMatchObject({ status: "pass", reason: "Main content was found (article, 1184 words)." });
    expect(finding(words(100, "body"), "no_main_content").status).toBe("pass");
  });

  it("fails with no words, or a body fallback with under 100", () => {
    expect(finding(words(0), "no_main_content")).toMatchObject({ status: "fail", reason: "No main text was found in the served HTML (0 words)." });
    expect(finding(words(99, "body"), "no_main_content")).toMatchObject({ status: "fail", items: [{ subtype: "body", details: { word_count: 99 } }] });
  });

  it("is not applicable without HTML", () => {
    expect(finding(serverError, "no_main_content").status).toBe("not_applicable");
  });
});

describe("thin_content", () => {
  it("passes at 300 words", () => {
    expect(finding(words(300), "thin_content").status).toBe("pass");
  });

  it("fails under 300", () => {
    expect(finding(words(299), "thin_content")).toMatchObject({ status: "fail", reason: "The main content has 299 words, under 300.", items: [{ details: { word_count: 299 } }] });
  });

  it("is not applicable when no_main_content fails, or without HTML", () => {
    expect(finding(words(0), "thin_content").status).toBe("not_applicable");
    expect(finding(words(50, "body"), "thin_content").status).toBe("not_applicable");
    expect(finding(serverError, "thin_content").status).toBe("not_applicable");
  });
});

describe("no_dates", () => {
  it("passes with any one date, the Last-Modified header included", () => {
    expect(finding(observation(), "no_dates").status).toBe("pass");
    expect(finding(dates(null, null, "Tue, 03 Nov 2026 08:00:00 GMT"), "no_dates")).toMatchObject({
      status: "pass",
      reason: "The page has a date: Last-Modified header Tue, 03 Nov 2026 08:00:00 GMT.",
    });
  });

  it("fails with none, showing where it looked", () => {
    const f = finding(dates(null, "", null), "no_dates");
    expect(f.status).toBe("fail");
    expect(f.items[0]?.evidence.map((e) => e.source)).toEqual(["html:<meta> or json-ld", "html:<meta> or json-ld", "header:last-modified"]);
  });

  it("is not applicable without HTML", () => {
    expect(finding(serverError, "no_dates").status).toBe("not_applicable");
  });
});

describe("stale_content", () => {
  it("passes when modified within 365 days of the audit", () => {
    expect(finding(observation(), "stale_content")).toMatchObject({ status: "pass", reason: "The modified date is 2026-11-03T08:00:00Z, 12 days before the audit." });
    expect(finding(dates(null, "2025-11-15", null), "stale_content").status).toBe("pass");
  });

  it("fails over 365 days, trusting modified, then published, then Last-Modified", () => {
    expect(finding(dates(null, "2025-11-14", null), "stale_content")).toMatchObject({ status: "fail", items: [{ subtype: "modified", details: { age_days: 366 } }] });
    // A recent Last-Modified header (often the deploy time) does not hide an old published date.
    const published = finding(dates("2019-05-01", null, "Tue, 03 Nov 2026 08:00:00 GMT"), "stale_content");
    expect(published).toMatchObject({ status: "fail", items: [{ subtype: "published", evidence: [{ label: "published date", value: "2019-05-01", source: "html:<meta> or json-ld" }] }] });
    expect(finding(dates(null, null, "Wed, 01 Jan 2020 00:00:00 GMT"), "stale_content").items[0]?.evidence[0]?.source).toBe("header:last-modified");
    // The newer modified date wins over an old published one.
    expect(finding(dates("2019-05-01", "2026-10-01", null), "stale_content").status).toBe("pass");
  });

  it("is not applicable without a date, with an unreadable one, or without HTML", () => {
    expect(finding(dates(null, null, null), "stale_content").status).toBe("not_applicable");
    expect(finding(dates("2019-05-01", "last Tuesday", null), "stale_content")).toMatchObject({
      status: "not_applicable",
      reason: "The modified date “last Tuesday” could not be read as a date.",
    });
    expect(finding(dates(null, "3", null), "stale_content").status).toBe("not_applicable");
    expect(finding(serverError, "stale_content").status).toBe("not_applicable");
  });
});
