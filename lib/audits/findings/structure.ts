// Structure findings: the page's headings as an outline.
import type { FindingKey } from "./catalog";
import { type Check, evidence, fail, pass, plural, quote, withAnalysis } from "./check";

/** A main content longer than this wants h2/h3 sections. */
export const SUBHEADINGS_AFTER_WORDS = 600;

const missingH1: Check = withAnalysis(({ pageH1Count }) => {
  if (pageH1Count > 0) return pass(`The page has ${plural(pageH1Count, "h1 heading")}.`);
  return fail("The page has no h1 heading.", [{ summary: "No <h1> on the page", evidence: [evidence("h1 headings", 0, "html:<h1>")] }]);
});

const multipleH1: Check = withAnalysis(({ pageH1Count, structure }) => {
  if (pageH1Count <= 1) return pass(`The page has ${plural(pageH1Count, "h1 heading")}.`);
  // The outline holds the main content's h1s only; the count is the whole page's.
  const shown = structure.headings.filter((heading) => heading.level === 1).map((heading) => heading.text);
  return fail(`The page has ${pageH1Count} h1 headings.`, [
    {
      summary: `${pageH1Count} h1 headings`,
      details: { count: pageH1Count, main_content_h1s: shown },
      evidence: [evidence("h1 headings", pageH1Count, "html:<h1>"), ...shown.map((heading) => evidence("h1", `<h1>${heading}</h1>`, "html:<h1>"))],
    },
  ]);
});

const headingLevelSkips: Check = withAnalysis(({ structure }) => {
  const skips = structure.level_skips;
  if (skips.length === 0) return pass(`No heading skips a level (${plural(structure.headings.length, "heading")} in the main content).`);
  return fail(
    `${plural(skips.length, "heading")} ${skips.length === 1 ? "skips" : "skip"} a level.`,
    skips.map((skip) => ({
      summary: `h${skip.from_level} → h${skip.to_level} at ${quote(skip.at)}`,
      subtype: `h${skip.from_level}_to_h${skip.to_level}`,
      details: { from_level: skip.from_level, to_level: skip.to_level, at: skip.at },
      evidence: [evidence("heading", `<h${skip.to_level}>${skip.at}</h${skip.to_level}>`, `html:<h${skip.to_level}>`)],
    })),
  );
});

const noSubheadings: Check = withAnalysis(({ content, structure }) => {
  const words = content.word_count;
  const subheadings = structure.headings.filter((heading) => heading.level === 2 || heading.level === 3).length;
  if (subheadings > 0) return pass(`The main content has ${plural(subheadings, "h2/h3 subheading")} for ${plural(words, "word")}.`);
  if (words <= SUBHEADINGS_AFTER_WORDS) return pass(`The main content has ${plural(words, "word")}, few enough to need no subheadings.`);
  return fail(`The main content has ${words} words and no h2 or h3 heading.`, [
    {
      summary: `${words} words without a subheading`,
      details: { word_count: words, headings: structure.headings.length },
      evidence: [evidence("words in the main content", words, "html"), evidence("h2/h3 headings", 0, "html:<h2>, <h3>")],
    },
  ]);
});

export const structureChecks = {
  missing_h1: missingH1,
  multiple_h1: multipleH1,
  heading_level_skips: headingLevelSkips,
  no_subheadings: noSubheadings,
} satisfies Partial<Record<FindingKey, Check>>;
