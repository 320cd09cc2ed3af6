// The main-content cascade (decisions.md "Audits"): which arm finds the content, what is stripped
// from it, and the figures read from it.
import { describe, expect, it } from "vitest";
import { contentFigures, excerptOf, extractMainContent, isDataTable } from "@/lib/audits/analyse/main-content";
import { countWords } from "@/lib/audits/analyse/words";
import { page, prose, WORDS_PER_PARAGRAPH } from "./helpers";

const main = (html: string) => extractMainContent(page(html));
const figures = (html: string) => contentFigures(main(html));
const NAV = '<nav><a href="/a">Home</a> <a href="/b">News</a> <a href="/c">Sport</a> <a href="/d">Weather</a></nav>';

describe("extraction cascade", () => {
  it("takes a single <article>", () => {
    const m = main(`<body>${NAV}<article><h1>Title</h1>${prose(3)}</article><footer>© 2024</footer></body>`);
    expect(m.method).toBe("article");
    expect(m.text.startsWith("Title The")).toBe(true);
    expect(countWords(m.text)).toBe(1 + 3 * WORDS_PER_PARAGRAPH);
  });

  it("takes the dominant article among teaser cards, and not one of many alike", () => {
    const teasers = Array.from({ length: 4 }, (_, i) => `<article><a href="/t${i}"><h3>Teaser ${i}</h3><p>Short summary of another story.</p></a></article>`).join("");
    expect(main(`<body><article>${prose(4)}</article><section>${teasers}</section></body>`).method).toBe("article");
    const cards = Array.from({ length: 5 }, () => `<article>${prose(1)}</article>`).join("");
    expect(main(`<body><main>${cards}</main></body>`).method).toBe("main");
  });

  it("ignores an article holding too little of the page (an author card beside div content)", () => {
    const m = main(`<body><div class="post"><div class="copy">${prose(5)}</div></div><article class="card"><p>About the author, a short bio line here.</p></article></body>`);
    expect(m.method).toBe("content_score");
    expect(m.text).not.toContain("About the author");
  });

  it("takes <main>, then [role=main]", () => {
    expect(main(`<body>${NAV}<main>${prose(2)}</main></body>`).method).toBe("main");
    expect(main(`<body>${NAV}<div role="main">${prose(2)}</div></body>`).method).toBe("role_main");
  });

  it("passes over a <main> that holds a sliver of the page (a hero banner)", () => {
    const m = main(`<body><main><p>Walk 27 · 6 km</p></main><div class="page">${prose(4)}</div></body>`);
    expect(m.method).toBe("content_score");
    expect(countWords(m.text)).toBe(4 * WORDS_PER_PARAGRAPH);
  });

  it("scores div soup and keeps the content block, its sibling paragraphs and its title", () => {
    const html = `<body><div id="top"><a href="/">Logo</a> <a href="/x">X</a> <a href="/y">Y</a></div>
      <div id="links"><a href="/1">One</a><br><a href="/2">Two</a><br><a href="/3">Three</a><br><a href="/4">Four</a></div>
      <div id="wrap"><h1>Restoring an old machine</h1><div class="txt">${prose(4, "div")}</div></div>
      <div id="bottom">Page last updated 2006. Best viewed in 800x600.</div></body>`;
    const m = main(html);
    expect(m.method).toBe("content_score");
    expect(m.text.startsWith("Restoring an old machine The")).toBe(true);
    expect(m.text).not.toContain("Best viewed");
    expect(m.text).not.toContain("Three");
  });

  it("falls back to the body when no block scores", () => {
    expect(main("<body><p>Short.</p><p>Also short.</p></body>").method).toBe("body");
    const empty = main("");
    expect(empty.method).toBe("body");
    expect(empty.text).toBe("");
  });

  it("reads a document without <html> or <body>", () => {
    const m = main(`<title>t</title><meta name="x" content="y"><article>${prose(2)}</article>`);
    expect(m.method).toBe("article");
    expect(m.text).not.toContain("t The");
  });
});

describe("what is left out", () => {
  it("strips scripts, styles, templates, svg, forms, controls and hidden parts", () => {
    const m = main(`<article>${prose(1)}<script>var secret = 1;</script><style>.x{}</style><noscript>Enable JS</noscript>
      <template><p>templated</p></template><svg><text>svgtext</text></svg><form><label>Email</label><input value="v"></form>
      <p hidden>hidden one</p><p style="display:none">hidden two</p><div aria-hidden="true">hidden three</div><button>Click</button></article>`);
    expect(m.text).not.toMatch(/secret|Enable|templated|svgtext|Email|hidden|Click/);
    expect(countWords(m.text)).toBe(WORDS_PER_PARAGRAPH);
  });

  it("strips nav, aside and the page's header and footer, but keeps an article's own header", () => {
    const m = main(`<body><header><a href="/">Site</a></header><main>${NAV}<article><header><h1>Title</h1><p>Standfirst line.</p></header>${prose(2)}<aside>Pull quote</aside><footer>Tags</footer></article></main><footer>© Site</footer></body>`);
    expect(m.text).toContain("Title Standfirst line.");
    expect(m.text).not.toMatch(/Site|Home|Pull quote/);
    expect(m.text).toContain("Tags");
  });

  it("strips boilerplate by class and id: comments, share bars, related posts, cookie banners", () => {
    const m = main(`<main><div id="cookie-notice">We use cookies to improve things.</div><div class="entry-content">${prose(3)}</div>
      <div class="social-share">Share on X</div><section class="related-posts"><h2>Related</h2><p>Another story worth reading, with a long summary text.</p></section>
      <div id="comments" class="comments-area"><p>Great post, thanks for writing it up in so much detail!</p></div></main>`);
    expect(m.text).not.toMatch(/cookies|Share|Related|Another|Great post/);
    expect(countWords(m.text)).toBe(3 * WORDS_PER_PARAGRAPH);
  });

  it("keeps a content wrapper whose class only mentions a sidebar, and a page-wide modifier", () => {
    const m = main(`<body class="has-sidebar"><div class="content-sidebar-wrap has-sidebar"><div class="content">${prose(3)}</div><div class="sidebar"><p>Popular posts from the archive this week.</p></div></div></body>`);
    expect(countWords(m.text)).toBe(3 * WORDS_PER_PARAGRAPH);
  });

  it("keeps a boilerplate-named block that is the title (entry-header), drops a site header with a logo h1", () => {
    const kept = main(`<article><div class="entry-header"><h1>The real title</h1></div>${prose(2)}</article>`);
    expect(kept.text).toContain("The real title");
    const dropped = main(`<body><div id="page-header"><h1>Forum name</h1><p>Growing your own since 2004. <a href="/faq">FAQ</a> <a href="/s">Search</a> <a href="/m">Members</a></p></div><div class="posts">${prose(3, "div")}</div></body>`);
    expect(dropped.text).not.toContain("Forum name");
  });

  it("keeps an ASP.NET-style form that wraps the whole page", () => {
    expect(countWords(main(`<body><form id="aspnetForm"><div class="body">${prose(3)}</div></form></body>`).text)).toBe(3 * WORDS_PER_PARAGRAPH);
  });

  it("strips link lists that are a small part of the content (tag clouds, tables of contents)", () => {
    const m = main(`<article>${prose(4)}<ul class="x"><li><a href="/a">Alpha topic</a></li><li><a href="/b">Beta topic</a></li><li><a href="/c">Gamma topic</a></li></ul></article>`);
    expect(m.text).not.toContain("Alpha");
    const index = main(`<main><h1>All guides</h1><ul>${Array.from({ length: 8 }, (_, i) => `<li><a href="/g${i}">Guide number ${i}</a></li>`).join("")}</ul></main>`);
    expect(index.text).toContain("Guide number 7");
  });
});

describe("figures", () => {
  it("counts blocks that hold text: paragraphs, list items, quotes, text-holding divs", () => {
    const f = figures(`<article><h1>T</h1><p>One.</p><ul><li>Two</li><li><p>Three</p></li></ul><blockquote><p>Four</p></blockquote><div>Five</div><div><p>Six</p></div><p> </p><table><tr><td>cell</td></tr></table></article>`);
    expect(f.blocks).toBe(6);
  });

  it("counts pre blocks and multi-line code, not inline code", () => {
    const f = figures(`<article>${prose(1)}<pre><code>a = 1
b = 2</code></pre><p>Call <code>run()</code> first.</p><code>line one
line two</code><pre>plain</pre></article>`);
    expect(f.code_blocks).toBe(3);
  });

  it("counts data tables, not layout tables", () => {
    const f = figures(`<article>${prose(1)}
      <table><caption>Prices</caption><tr><td>a</td><td>1</td></tr></table>
      <table><thead><tr><th>k</th><th>v</th></tr></thead><tr><td>a</td><td>1</td></tr></table>
      <table role="presentation"><tr><td>${prose(1)}</td></tr></table>
      <table><tr><td>one cell</td></tr></table></article>`);
    expect(f.tables).toBe(2);
  });

  it("gives an excerpt of the lead's first 300 characters, whitespace collapsed", () => {
    const f = figures(`<article><h1>  Title\n\n here </h1><p>The  committee\n met on Tuesday to discuss the proposal, which had been delayed twice since spring. ${"More words follow here. ".repeat(20)}</p></article>`);
    expect(f.excerpt.startsWith("The committee met on Tuesday")).toBe(true);
    // 300 code points, less the space it would end on.
    expect([...f.excerpt].length).toBeGreaterThanOrEqual(299);
    expect([...f.excerpt].length).toBeLessThanOrEqual(300);
    expect(excerptOf("😀".repeat(400))).toBe("😀".repeat(300));
  });

  it("counts words in the text between blocks, not across them", () => {
    expect(figures("<article><p>alpha</p><p>beta</p><div>gamma<b>delta</b></div><p>x<br>y</p></article>").word_count).toBe(5);
  });

  it("counts Japanese words with the segmenter", () => {
    const f = figures("<article><p>在宅勤務が当たり前になってから、腰や肩の不調を感じる人が増えています。</p></article>");
    expect(f.word_count).toBeGreaterThan(10);
    expect(f.word_count).toBeLessThan(30);
  });
});

describe("robustness", () => {
  it("copes with malformed HTML", () => {
    const m = main(`<body><div><p>Unclosed paragraph <b>bold <i>both</b> italic?</i><article><p>${"text ".repeat(50)}<div></span></td></article></body></html></html>`);
    expect(countWords(m.text)).toBeGreaterThanOrEqual(50);
  });

  it("keeps content after a stray </body>", () => {
    // htmlparser2 closes the open elements at </body>; what follows lands beside the body.
    const m = main(`<html><body><p>Intro line.</p></body>${prose(3)}</html>`);
    expect(countWords(m.text)).toBeGreaterThanOrEqual(3 * WORDS_PER_PARAGRAPH);
  });

  it("copes with huge attribute noise", () => {
    const noise = Array.from({ length: 2000 }, (_, i) => `data-x${i}="${"v".repeat(20)}"`).join(" ");
    const classes = Array.from({ length: 5000 }, (_, i) => `c${i}`).join(" ");
    const m = main(`<body><div ${noise} class="${classes}">${prose(3)}</div></body>`);
    expect(countWords(m.text)).toBe(3 * WORDS_PER_PARAGRAPH);
  });

  it("reads the page again without class names when they strip nearly everything", () => {
    const m = main(`<body><div class="sidebar-layout"><div>${prose(3)}</div></div><div class="sidebar">Popular this week</div></body>`);
    expect(countWords(m.text)).toBeGreaterThanOrEqual(3 * WORDS_PER_PARAGRAPH);
  });

  it("tells data tables by Readability's rules", () => {
    const t = (inner: string, attrs = "") => isDataTable(page(`<table${attrs}>${inner}</table>`).doc.children[0] as Parameters<typeof isDataTable>[0]);
    const rows = (r: number, c: number) => Array.from({ length: r }, () => `<tr>${"<td>x</td>".repeat(c)}</tr>`).join("");
    expect(t(rows(3, 4))).toBe(true);
    expect(t(rows(2, 2))).toBe(false);
    expect(t(rows(12, 1))).toBe(false);
    expect(t(rows(10, 2))).toBe(true);
    expect(t(rows(3, 4), ' role="presentation"')).toBe(false);
    expect(t(rows(1, 2), ' summary="s"')).toBe(true);
    expect(t(`<tr><td><table>${rows(3, 4)}</table></td><td>x</td></tr><tr><td>y</td><td>z</td></tr>`)).toBe(false);
  });
});

describe("the lead (content.excerpt)", () => {
  const LEAD = "The committee met on Tuesday to discuss the proposal, which had been delayed twice since spring.";
  const excerpt = (body: string, description: string | null = null) => contentFigures(main(body), description).excerpt;

  it("is the first real paragraph, not the section label, title, byline and date above it", () => {
    const html = `<article><p class="kicker"><a href="/news">Biz &amp; IT</a></p><h1>Just-released exploit makes it easy to crash servers</h1>
      <p class="byline">by Ann Writer - Apr 16, 2015 8:02 pm UTC</p><p><time datetime="2015-04-16">April 16, 2015</time></p>
      <p>${LEAD}</p>${prose(2)}</article>`;
    expect(excerpt(html)).toBe(LEAD);
  });

  it("skips a byline without a class, a caption, an ad label and a share bar", () => {
    const html = `<article><h1>A title</h1><p>By Ann Writer and Bob Reporter, Staff Writers</p>
      <figure><img src="/a.jpg" alt=""><figcaption>The committee room on Tuesday, before the vote began.</figcaption></figure>
      <p class="caption">Residents queue outside the town hall to read the proposal, which was posted there.</p>
      <div>Advertisement</div><div class="tools"><a href="/s/fb">Share on Facebook</a> <a href="/s/x">Share on X</a> <a href="/s/mail">Email this article to a friend</a></div>
      <p>${LEAD}</p>${prose(2)}</article>`;
    expect(excerpt(html)).toBe(LEAD);
  });

  it("cuts a date stamp before the lead's text, not a place", () => {
    expect(excerpt(`<article><p>Feb. 23, 2015 -- ${LEAD}</p>${prose(2)}</article>`)).toBe(LEAD);
    expect(excerpt(`<article><p>2015-02-23 \u2014 ${LEAD}</p>${prose(2)}</article>`)).toBe(LEAD);
    expect(excerpt(`<article><p>CAIRO \u2014 ${LEAD}</p>${prose(2)}</article>`)).toBe(`CAIRO \u2014 ${LEAD}`);
  });

  it("prefers the first <p>, as Readability does; a page of divs gives its first block of prose", () => {
    expect(excerpt(`<article><div>Residents said the new timetable would make it easier to reach the hospital.</div><p>${LEAD}</p>${prose(2)}</article>`)).toBe(LEAD);
    expect(excerpt(`<article><div>Short label</div><div>${LEAD}</div><div>Residents said the new timetable would help.</div></article>`)).toBe(LEAD);
  });

  it("is the page's description when the main content has no paragraph of prose, else the start of the text", () => {
    const list = "<article><h1>Opening hours</h1><ul><li>Monday 9 to 5</li><li>Tuesday 9 to 5</li><li>Friday closed</li></ul></article>";
    expect(excerpt(list, "When the town hall is open, day by day.")).toBe("When the town hall is open, day by day.");
    expect(excerpt(list)).toBe("Opening hours Monday 9 to 5 Tuesday 9 to 5 Friday closed");
  });
});
