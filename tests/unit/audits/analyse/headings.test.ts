// The main content's outline, its level skips, and the page-wide h1 count.
import { describe, expect, it } from "vitest";
import { analyseHeadings, levelSkips, outline, pageH1Count } from "@/lib/audits/analyse/headings";
import { extractMainContent } from "@/lib/audits/analyse/main-content";
import { page, prose } from "./helpers";

const structure = (html: string) => analyseHeadings(extractMainContent(page(html)));

describe("outline", () => {
  it("lists the main content's headings in order, text collapsed, and counts its h1s", () => {
    const s = structure(`<body><header><h1>Site name</h1><nav><a href="/">Home</a></nav></header><article><h1>  The
      title </h1>${prose(2)}<h2>First <em>part</em></h2>${prose(1)}<h3>Detail</h3><h2>Second part</h2>${prose(1)}</article>
      <aside><h2>Popular</h2></aside></body>`);
    expect(s.headings).toEqual([
      { level: 1, text: "The title" },
      { level: 2, text: "First part" },
      { level: 3, text: "Detail" },
      { level: 2, text: "Second part" },
    ]);
    expect(s.h1_count).toBe(1);
    expect(s.level_skips).toEqual([]);
  });

  it("leaves out empty headings and reads an image's alt text", () => {
    const s = structure(`<article><h1><img src="logo.png" alt="Brand guide"></h1><h2> </h2>${prose(2)}<h2><a href="#x"></a></h2></article>`);
    expect(s.headings).toEqual([{ level: 1, text: "Brand guide" }]);
  });

  it("reports a heading deeper by more than one level than the one before it", () => {
    expect(
      levelSkips([
        { level: 3, text: "Starts at three" },
        { level: 5, text: "Too deep" },
        { level: 2, text: "Back up" },
        { level: 3, text: "Fine" },
        { level: 6, text: "Way down" },
      ]),
    ).toEqual([
      { from_level: 3, to_level: 5, at: "Too deep" },
      { from_level: 3, to_level: 6, at: "Way down" },
    ]);
    expect(levelSkips([])).toEqual([]);
    expect(levelSkips([{ level: 4, text: "only" }])).toEqual([]);
  });

  it("is empty for a page without headings", () => {
    expect(structure(`<body>${prose(3, "div")}</body>`)).toEqual({ headings: [], h1_count: 0, level_skips: [] });
    expect(outline([])).toEqual([]);
  });
});

describe("pageH1Count", () => {
  it("counts rendered h1s with text anywhere in the page", () => {
    const p = page(`<body><header><h1>Logo</h1></header><main><h1>Title</h1></main><h1 hidden>Hidden</h1>
      <div style="display:none"><h1>Also hidden</h1></div><noscript><h1>No script</h1></noscript><template><h1>T</h1></template><h1> </h1></body>`);
    expect(pageH1Count(p)).toBe(2);
  });

  it("is 0 without h1", () => {
    expect(pageH1Count(page("<h2>x</h2>"))).toBe(0);
    expect(pageH1Count(page(""))).toBe(0);
  });
});
