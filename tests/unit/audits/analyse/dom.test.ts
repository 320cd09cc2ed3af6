// The shared parse and DOM helpers: one parse, the page root, <base href>, visibility, deep trees.
import { describe, expect, it } from "vitest";
import { isHidden, isRendered, parsePage, SKIP, textOf, walk } from "@/lib/audits/analyse/dom";

const first = (html: string, tag: string) => parsePage(html, "https://example.com/").byTag.get(tag)![0]!;

describe("parsePage", () => {
  it("finds <body> as the root, or falls back to the document", () => {
    const withBody = parsePage("<html><body><p>x</p></body></html>", "https://example.com/");
    expect(withBody.root.type).toBe("tag");
    const without = parsePage("<p>only a fragment</p>", "https://example.com/");
    expect(without.root.type).toBe("root");
    expect(without.html).toBeNull();
  });

  it("reads the whole document when content follows a stray </body> or </html>", () => {
    const stray = parsePage("<html><body><p>one</p></body><p>two</p></html>", "https://example.com/");
    expect(stray.root.type).toBe("root");
    const tracking = parsePage('<html><body><p>one</p></body></html>\n<script>track()</script><img src="/pixel.gif">', "https://example.com/");
    expect(tracking.root.type).toBe("tag");
  });

  it("resolves <base href> against the page URL, and keeps the page URL without one", () => {
    const page = parsePage('<head><base href="/docs/v2/"></head>', "https://example.com/a/b");
    expect(page.baseUrl?.href).toBe("https://example.com/docs/v2/");
    expect(parsePage("<p>x</p>", "https://example.com/a/b").baseUrl?.href).toBe("https://example.com/a/b");
    expect(parsePage("<p>x</p>", "not a url").baseUrl).toBeNull();
  });

  it("indexes head elements but not those inside <template> or <svg>", () => {
    const page = parsePage("<svg><title>icon</title></svg><template><title>t</title></template><title>Real</title>", "https://example.com/");
    expect(page.byTag.get("title")).toHaveLength(1);
    expect(textOf(page.byTag.get("title")![0]!)).toBe("Real");
  });

  it("survives the empty document and very deep malformed nesting", () => {
    expect(parsePage("", "https://example.com/").root.type).toBe("root");
    const deep = parsePage(`${"<div>".repeat(20_000)}deep text`, "https://example.com/");
    let texts = 0;
    walk(deep.doc, null, () => null, () => texts++);
    expect(texts).toBe(1);
  });
});

describe("visibility", () => {
  it("recognises the ways a page hides an element", () => {
    expect(isHidden(first("<h1 hidden>x</h1>", "h1"))).toBe(true);
    expect(isHidden(first('<h1 aria-hidden="true">x</h1>', "h1"))).toBe(true);
    expect(isHidden(first('<h1 style="color:red; display : none">x</h1>', "h1"))).toBe(true);
    expect(isHidden(first('<h1 style="visibility:hidden">x</h1>', "h1"))).toBe(true);
    expect(isHidden(first('<h1 style="display:block">x</h1>', "h1"))).toBe(false);
    expect(isHidden(first("<h1>x</h1>", "h1"))).toBe(false);
  });

  it("treats noscript and hidden ancestors as not rendered", () => {
    expect(isRendered(first("<noscript><h1>x</h1></noscript>", "h1"))).toBe(false);
    expect(isRendered(first("<div hidden><h1>x</h1></div>", "h1"))).toBe(false);
    expect(isRendered(first("<div><h1>x</h1></div>", "h1"))).toBe(true);
  });
});

describe("walk and textOf", () => {
  it("visits in document order and skips subtrees on SKIP", () => {
    const page = parsePage("<div>a<span>b</span><em>c<i>d</i></em>e</div>", "https://example.com/");
    const seen: string[] = [];
    walk(page.doc, null, (el) => (el.name === "em" ? SKIP : null), (data) => seen.push(data));
    expect(seen.join("")).toBe("abe");
  });

  it("collapses whitespace, reads img alt and leaves scripts and hidden parts out", () => {
    const h1 = first('<h1>  Hello\n <img alt="big"> <script>x()</script><span hidden>no</span>world </h1>', "h1");
    expect(textOf(h1)).toBe("Hello big world");
  });
});
