// AuditMetadata from the head and the response headers.
import { describe, expect, it } from "vitest";
import { header, headerDirectives, readMetadata } from "@/lib/audits/analyse/metadata";
import { readStructuredData } from "@/lib/audits/analyse/structured-data";
import { page } from "./helpers";

const meta = (html: string, headers: Record<string, string> = {}, url?: string) => {
  const p = page(html, url);
  return readMetadata(p, headers, readStructuredData(p));
};

describe("title, description, canonical, lang", () => {
  it("reads them, collapsed, with the canonical made absolute", () => {
    const m = meta(`<html lang=" en-GB "><head><title>
      My   page </title><title>Second</title><meta name="Description" content=" A  short
      summary "><link rel="Canonical" href="/blog/post?x=1"></head><body><svg><title>icon</title></svg></body></html>`);
    expect(m).toMatchObject({ title: "My page", description: "A short summary", canonical: "https://www.example.com/blog/post?x=1", lang: "en-GB" });
  });

  it("ignores an svg title and resolves the canonical against <base href>", () => {
    const m = meta(`<svg><title>icon</title></svg><base href="https://cdn.example.com/"><link rel="alternate canonical" href="page">`);
    expect(m.title).toBeNull();
    expect(m.canonical).toBe("https://cdn.example.com/page");
  });

  it("gives null for what is missing or blank, and the canonical as written when it cannot resolve", () => {
    expect(meta("<title> </title><meta name=description content=''><link rel=canonical href=' '>")).toMatchObject({
      title: null,
      description: null,
      canonical: null,
      lang: null,
    });
    expect(meta('<link rel="canonical" href="http://[bad">').canonical).toBe("http://[bad");
    expect(meta('<link rel="canonical" href="/x">', {}, "not a url").canonical).toBe("/x");
  });
});

describe("robots", () => {
  it("is null when neither the meta tag nor the header exists", () => {
    expect(meta("<title>t</title>")).toMatchObject({ robots: null, x_robots_tag: null, noindex: null, nofollow: null });
  });

  it("is false when a source exists but says nothing", () => {
    expect(meta('<meta name="robots" content="index, follow, max-snippet:-1">')).toMatchObject({ noindex: false, nofollow: false });
    expect(meta("", { "x-robots-tag": "max-image-preview: large" })).toMatchObject({ noindex: false, nofollow: false });
  });

  it("reads noindex, nofollow and none from the meta tags, all of them", () => {
    expect(meta('<meta name="ROBOTS" content="NOINDEX">')).toMatchObject({ robots: "NOINDEX", noindex: true, nofollow: false });
    expect(meta('<meta name="robots" content="none">')).toMatchObject({ noindex: true, nofollow: true });
    expect(meta('<meta name="robots" content="index"><meta name="robots" content="nofollow">')).toMatchObject({
      robots: "index, nofollow",
      noindex: false,
      nofollow: true,
    });
    expect(meta('<meta name="googlebot" content="noindex">').noindex).toBeNull();
  });

  it("reads X-Robots-Tag, whatever the header name's case", () => {
    expect(meta("", { "X-Robots-Tag": "noindex, nofollow" })).toMatchObject({ x_robots_tag: "noindex, nofollow", noindex: true, nofollow: true });
    expect(meta("", { "x-robots-tag": "none" })).toMatchObject({ noindex: true, nofollow: true });
  });

  it("applies only unprefixed and * directives of X-Robots-Tag", () => {
    expect(meta("", { "x-robots-tag": "googlebot: noindex" })).toMatchObject({ noindex: false, nofollow: false });
    expect(meta("", { "x-robots-tag": "*: noindex" }).noindex).toBe(true);
    expect([...headerDirectives("nofollow, googlebot: noindex, noarchive, *: noimageindex")]).toEqual(["nofollow", "noimageindex"]);
    // A directive with a value is not a crawler name.
    expect(headerDirectives("max-snippet: 20, noindex").has("noindex")).toBe(true);
    expect(headerDirectives("unavailable_after: 2030-01-01, nofollow").has("nofollow")).toBe(true);
  });

  it("combines the meta tag and the header", () => {
    expect(meta('<meta name="robots" content="nofollow">', { "x-robots-tag": "noindex" })).toMatchObject({ noindex: true, nofollow: true });
  });
});

describe("open graph", () => {
  it("collects og: properties, first one wins, name= accepted", () => {
    const m = meta(`<meta property="og:title" content="First"><meta property="og:title" content="Second"><meta property="OG:Image" content=" https://x/y.png ">
      <meta name="og:site_name" content="Site"><meta property="og:empty" content=""><meta property="article:author" content="A"><meta property="twitter:card" content="summary">`);
    expect(m.open_graph).toEqual({ "og:title": "First", "og:image": "https://x/y.png", "og:site_name": "Site" });
  });
});

describe("dates", () => {
  it("prefers article:published_time, then JSON-LD, then itemprop, then meta date names", () => {
    const all = `<meta property="article:published_time" content="2024-01-01"><script type="application/ld+json">{"datePublished":"2024-02-02","dateModified":"2024-02-03"}</script>
      <time itemprop="datePublished" datetime="2024-03-03">March</time><meta name="dc.date" content="2024-04-04">`;
    expect(meta(all).dates?.published).toBe("2024-01-01");
    expect(meta(all.replace(/<meta property="article:published_time"[^>]*>/, "")).dates).toMatchObject({ published: "2024-02-02", modified: "2024-02-03" });
    expect(meta(`<time itemprop="datePublished">5 May 2024</time><meta name="date" content="2024-04-04">`).dates?.published).toBe("5 May 2024");
    expect(meta(`<meta itemprop="datePublished" content="2024-06-06">`).dates?.published).toBe("2024-06-06");
    expect(meta(`<meta name="DC.date.issued" content="2024-04-04">`).dates?.published).toBe("2024-04-04");
  });

  it("reads modified dates and the Last-Modified header as found", () => {
    const m = meta(`<meta property="og:updated_time" content="2024-07-07T10:00:00+02:00">`, { "last-modified": "Wed, 21 Oct 2015 07:28:00 GMT" });
    expect(m.dates).toEqual({ published: null, modified: "2024-07-07T10:00:00+02:00", last_modified_header: "Wed, 21 Oct 2015 07:28:00 GMT" });
    expect(meta(`<meta property="article:modified_time" content="b"><meta property="og:updated_time" content="c">`).dates?.modified).toBe("b");
  });

  it("is all null without any", () => {
    expect(meta("<p>x</p>").dates).toEqual({ published: null, modified: null, last_modified_header: null });
  });
});

describe("header", () => {
  it("finds a header by name in any case", () => {
    expect(header({ "Last-Modified": "x" }, "last-modified")).toBe("x");
    expect(header({}, "last-modified")).toBeNull();
  });
});
