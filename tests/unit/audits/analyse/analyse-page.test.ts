// analysePage end to end: one call, every part of PageAnalysis, valid against the result schemas.
import { describe, expect, it } from "vitest";
import { analysePage } from "@/lib/audits/analyse";
import { AuditContent, AuditMetadata, AuditStructure } from "@/lib/schemas/audits";
import { PAGE_URL, prose } from "./helpers";

function valid(analysis: ReturnType<typeof analysePage>) {
  AuditContent.parse(analysis.content);
  AuditStructure.parse(analysis.structure);
  // llms_txt and markdown_alternates come from the probes, not from the page.
  AuditMetadata.omit({ llms_txt: true, markdown_alternates: true }).parse(analysis.metadata);
  return analysis;
}

const ARTICLE = `<!doctype html><html lang="en"><head><title>A post</title><meta name="description" content="About a post.">
  <link rel="canonical" href="/blog/post"><link rel="alternate" type="text/markdown" href="/blog/post.md">
  <meta property="og:title" content="A post"><meta property="article:published_time" content="2024-05-01">
  <script type="application/ld+json">{"@type":"BlogPosting","author":{"@type":"Person","name":"Ann"}}</script></head>
  <body><header><a href="/">Home</a></header><article><h1>A post</h1>${prose(3)}<h3>Aside</h3><p>See <a href="https://other.org/">this</a>.</p></article>
  <footer><a href="/privacy">Privacy</a></footer><script src="/app.js"></script></body></html>`;

describe("analysePage", () => {
  it("fills every part of PageAnalysis from one parse", () => {
    const a = valid(analysePage(ARTICLE, PAGE_URL, { "x-robots-tag": "noarchive", "last-modified": "Tue, 07 May 2024 10:00:00 GMT" }));
    expect(a.content).toMatchObject({
      extraction_method: "article",
      word_count: 2 + 3 * 69 + 1 + 2,
      blocks: 4,
      code_blocks: 0,
      tables: 0,
      likely_js_dependent: false,
      links: { total: 3, main: 1, navigation: 2, internal: 2, external: 1 },
    });
    // The lead, not the title above it.
    expect(a.content.excerpt.startsWith("The committee met on Tuesday")).toBe(true);
    expect(a.content.rendering_signals).toMatchObject({ scripts: 1, external_scripts: 1, framework: null });
    expect(a.structure).toEqual({
      headings: [
        { level: 1, text: "A post" },
        { level: 3, text: "Aside" },
      ],
      h1_count: 1,
      level_skips: [{ from_level: 1, to_level: 3, at: "Aside" }],
    });
    expect(a.metadata).toEqual({
      title: "A post",
      description: "About a post.",
      canonical: "https://www.example.com/blog/post",
      lang: "en",
      robots: null,
      x_robots_tag: "noarchive",
      noindex: false,
      nofollow: false,
      open_graph: { "og:title": "A post" },
      dates: { published: "2024-05-01", modified: null, last_modified_header: "Tue, 07 May 2024 10:00:00 GMT" },
      structured_data_types: ["BlogPosting"],
      structured_data_blocks: 1,
      structured_data_errors: 0,
    });
    expect(a.pageH1Count).toBe(1);
    expect(a.markdownLinks).toEqual(["https://www.example.com/blog/post.md"]);
    expect(a.hasAuthorOrPublisher).toBe(true);
  });

  it("answers for an empty document", () => {
    const a = valid(analysePage("", PAGE_URL, {}));
    expect(a.content).toMatchObject({ extraction_method: "body", word_count: 0, excerpt: "", likely_js_dependent: false });
    expect(a.structure).toEqual({ headings: [], h1_count: 0, level_skips: [] });
    expect(a.metadata).toMatchObject({ title: null, noindex: null, structured_data_types: [] });
    expect(a.pageH1Count).toBe(0);
  });

  it("answers for a fragment without <html> or <body>, and for malformed and binary-looking input", () => {
    expect(valid(analysePage(`<h1>Hi</h1>${prose(2)}`, PAGE_URL, {})).content.word_count).toBe(1 + 2 * 69);
    valid(analysePage("<<<>>><div<p>></span></html><body></head>\u0000\uFFFD", PAGE_URL, {}));
    valid(analysePage("<html><body><p>x", "not a url", {}));
  });

  it("flags a JavaScript shell", () => {
    const a = valid(analysePage('<html><head><script src="/main.js"></script></head><body><div id="root"></div></body></html>', PAGE_URL, {}));
    expect(a.content.likely_js_dependent).toBe(true);
    expect(a.content.word_count).toBe(0);
  });

  it("analyses a large page in reasonable time", () => {
    const big = `<html><body><nav>${'<a href="/x">link</a>'.repeat(2000)}</nav><article>${prose(2500)}</article></body></html>`;
    expect(big.length).toBeGreaterThan(1_000_000);
    // CPU time of this process, not wall time: a busy machine slows the clock, not the work.
    const started = process.cpuUsage();
    const a = analysePage(big, PAGE_URL, {});
    expect(a.content.word_count).toBe(2500 * 69);
    const { user, system } = process.cpuUsage(started);
    expect((user + system) / 1000).toBeLessThan(5_000);
  });
});
