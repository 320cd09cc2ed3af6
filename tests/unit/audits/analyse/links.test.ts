// LinkCounts (spec 2.4): which hrefs are links, main versus navigation, internal versus external.
import { describe, expect, it } from "vitest";
import { isNavigationElement, countLinks } from "@/lib/audits/analyse/links";
import { extractMainContent } from "@/lib/audits/analyse/main-content";
import { page, PAGE_URL, prose } from "./helpers";

const links = (html: string, url = PAGE_URL) => {
  const p = page(html, url);
  return countLinks(p, extractMainContent(p));
};

describe("which hrefs count", () => {
  it("counts http(s) links, resolved against the page, and nothing else", () => {
    const counts = links(`<article>${prose(2)}
      <a href="/about">relative</a> <a href="other">sibling path</a> <a href="//cdn.example.net/x">protocol-relative</a>
      <a href="https://elsewhere.org/">absolute</a> <a href="HTTP://WWW.EXAMPLE.COM/caps">caps</a>
      <a href="#section">anchor</a> <a href="${PAGE_URL}#top">same page with fragment</a> <a href="">empty</a>
      <a href="mailto:a@b.c">mail</a> <a href="tel:+441234">tel</a> <a href="javascript:void(0)">js</a>
      <a href="ftp://files.example.com/">ftp</a> <a href="http://[bad">broken</a> <a>no href</a></article>`);
    expect(counts.total).toBe(5);
  });

  it("counts a link to the page itself without a fragment", () => {
    expect(links(`<a href="${PAGE_URL}">self</a>`).total).toBe(1);
  });

  it("resolves against <base href>", () => {
    const counts = links(`<head><base href="https://docs.other.org/v2/"></head><body><a href="guide">g</a></body>`);
    expect(counts).toMatchObject({ total: 1, external: 1, internal: 0 });
  });

  it("counts hidden links (crawlers see them) but not links inside templates", () => {
    expect(links(`<div hidden><a href="/x">x</a></div><template><a href="/y">y</a></template>`).total).toBe(1);
  });
});

describe("internal and external", () => {
  it("compares registered domains (Public Suffix List)", () => {
    const counts = links(`<a href="https://blog.example.com/">sub</a> <a href="http://example.com/">apex</a>
      <a href="https://example.co.uk/">other suffix</a> <a href="https://notexample.com/">lookalike</a>`);
    expect(counts).toMatchObject({ total: 4, internal: 2, external: 2 });
  });

  it("tells sites apart under a multi-part public suffix", () => {
    const counts = links(`<a href="https://www.shop.co.uk/a">same</a> <a href="https://other.co.uk/b">other</a>`, "https://shop.co.uk/");
    expect(counts).toMatchObject({ internal: 1, external: 1 });
  });

  it("compares hosts for IP addresses", () => {
    const counts = links(`<a href="/a">a</a> <a href="http://10.0.0.2/b">b</a>`, "http://10.0.0.1/");
    expect(counts).toMatchObject({ internal: 1, external: 1 });
  });
});

describe("main and navigation", () => {
  const html = `<body>
    <header><a href="/">Logo</a></header>
    <nav><a href="/a">A</a> <a href="/b">B</a></nav>
    <div class="sidebar"><a href="/s">Side</a></div>
    <div role="contentinfo"><a href="/c">Contact</a></div>
    <main class="menu-and-content"><article><header><a href="/author">Author</a></header>${prose(3)}
      <p>Read <a href="https://source.org/">the source</a> and <a href="/more">more</a>.</p></article></main>
    <aside><a href="/popular">Popular</a></aside>
    <div class="comments"><a href="https://commenter.blog/">Commenter</a></div>
    <footer><a href="/privacy">Privacy</a></footer></body>`;

  it("splits main from navigation; other boilerplate is neither", () => {
    expect(links(html)).toEqual({ total: 11, main: 3, navigation: 7, internal: 9, external: 2 });
  });

  it("knows a navigation element by tag, role and class, and an article's own header is not one", () => {
    const el = (h: string) => page(h).doc.children[0] as Parameters<typeof isNavigationElement>[0];
    expect(isNavigationElement(el("<nav></nav>"), false)).toBe(true);
    expect(isNavigationElement(el("<footer></footer>"), false)).toBe(true);
    expect(isNavigationElement(el("<footer></footer>"), true)).toBe(false);
    expect(isNavigationElement(el('<div role="banner"></div>'), false)).toBe(true);
    expect(isNavigationElement(el('<div id="site-footer"></div>'), false)).toBe(true);
    expect(isNavigationElement(el('<ul class="breadcrumbs"></ul>'), false)).toBe(true);
    expect(isNavigationElement(el('<div class="has-sidebar"></div>'), false)).toBe(false);
    expect(isNavigationElement(el('<div class="content"></div>'), false)).toBe(false);
  });

  it("does not count the main content as navigation when its container's class says menu", () => {
    const counts = links(`<div class="sidebar-layout"><div class="post">${prose(3)}<p>See <a href="/x">this</a>.</p></div></div>`);
    expect(counts).toMatchObject({ total: 1, main: 1, navigation: 0 });
  });

  it("counts nothing on an empty page or with an unparseable page URL", () => {
    expect(links("")).toEqual({ total: 0, main: 0, navigation: 0, internal: 0, external: 0 });
    expect(links(`<a href="/relative">r</a><a href="https://x.org/">x</a>`, "not a url")).toMatchObject({ total: 1, external: 1 });
  });
});
