import { describe, expect, it } from "vitest";
import type { LlmsTxtProbe } from "@/lib/schemas/audits";
import { finding, MARKDOWN_URL, observation, PAGE_URL, withoutHtml } from "./observation";

const LLMS = "https://www.acme.example/llms.txt";
const LLMS_FULL = "https://www.acme.example/llms-full.txt";
const probe = (kind: "llms.txt" | "llms-full.txt", http_status: number | null, found: boolean, links = 0): LlmsTxtProbe => ({
  kind,
  url: kind === "llms.txt" ? LLMS : LLMS_FULL,
  http_status,
  found,
  links,
});
const llmsTxt = (...probes: LlmsTxtProbe[]) => observation({ probes: { llmsTxt: probes } });

describe("llms_txt_missing", () => {
  it("passes when /llms.txt or /llms-full.txt is there", () => {
    expect(finding(observation(), "llms_txt_missing")).toMatchObject({ status: "pass", reason: `/llms.txt found at ${LLMS}.` });
    expect(finding(llmsTxt(probe("llms.txt", 404, false), probe("llms-full.txt", 200, true)), "llms_txt_missing").status).toBe("pass");
  });

  it("warns when neither is, one item per probe", () => {
    const f = finding(llmsTxt(probe("llms.txt", 404, false), probe("llms-full.txt", 200, false)), "llms_txt_missing");
    expect(f).toMatchObject({
      status: "warn",
      severity: "info",
      reason: "/llms.txt answered 404 and /llms-full.txt answered 200 with an HTML page, not a text file.",
    });
    expect(f.items.map((item) => item.subtype)).toEqual(["llms.txt", "llms-full.txt"]);
    expect(f.items[0]?.evidence).toEqual([
      { label: "URL", value: LLMS, source: "llms.txt" },
      { label: "HTTP status", value: 404, source: "llms.txt" },
    ]);
  });

  it("is not applicable when the site did not answer the probes or none was made", () => {
    expect(finding(llmsTxt(probe("llms.txt", null, false), probe("llms-full.txt", null, false)), "llms_txt_missing").status).toBe("not_applicable");
    expect(finding(llmsTxt(), "llms_txt_missing")).toMatchObject({ status: "not_applicable", reason: "/llms.txt was not probed." });
  });
});

describe("llms_txt_invalid", () => {
  it("passes when /llms.txt has links", () => {
    expect(finding(observation(), "llms_txt_invalid")).toMatchObject({ status: "pass", reason: "/llms.txt lists 12 markdown links." });
  });

  it("fails when /llms.txt has none", () => {
    expect(finding(llmsTxt(probe("llms.txt", 200, true, 0)), "llms_txt_invalid")).toMatchObject({
      status: "fail",
      items: [{ subtype: "no_links", evidence: [{ label: "URL", value: LLMS, source: "llms.txt" }, { label: "markdown links", value: 0, source: "llms.txt" }] }],
    });
  });

  it("is not applicable without /llms.txt, even when /llms-full.txt (which need not link) is there", () => {
    expect(finding(llmsTxt(probe("llms.txt", 404, false), probe("llms-full.txt", 200, true, 0)), "llms_txt_invalid").status).toBe("not_applicable");
  });
});

describe("no_markdown_alternate", () => {
  it("passes when a markdown version answers", () => {
    expect(finding(observation(), "no_markdown_alternate")).toMatchObject({ status: "pass", reason: `A markdown version answers at ${MARKDOWN_URL}.` });
  });

  it("warns when none does, one item per linked version that did not answer", () => {
    const linked = finding(observation({ probes: { markdownAlternates: [] } }), "no_markdown_alternate");
    expect(linked).toMatchObject({
      status: "warn",
      items: [{ subtype: "link_not_answering", evidence: [{ label: "markdown link", value: MARKDOWN_URL, source: 'html:<link rel="alternate" type="text/markdown">' }] }],
    });
    const none = finding(observation({ analysis: { markdownLinks: [] }, probes: { markdownAlternates: [] } }), "no_markdown_alternate");
    expect(none).toMatchObject({ status: "warn", items: [{ subtype: "none", details: { page: PAGE_URL } }] });
  });

  it("is not applicable without HTML", () => {
    expect(finding(withoutHtml({ status: "client_error", http_status: 404 }, { probes: { markdownAlternates: [] } }), "no_markdown_alternate").status).toBe(
      "not_applicable",
    );
  });
});
