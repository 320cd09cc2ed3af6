// The main content's outline (AuditStructure) and the page's h1 count (the missing_h1 finding).
import type { AuditStructure } from "../../schemas/audits";
import { type Element, isRendered, type ParsedPage, textOf } from "./dom";
import type { MainContent } from "./main-content";

type Heading = AuditStructure["headings"][number];
type LevelSkip = AuditStructure["level_skips"][number];

/** Headings without text (not even an image's alt) are no part of an outline. */
export function outline(headings: readonly Element[]): Heading[] {
  const out: Heading[] = [];
  for (const el of headings) {
    const text = textOf(el);
    if (text !== "") out.push({ level: Number(el.name.slice(1)), text });
  }
  return out;
}

/** A heading more than one level deeper than the one before it; the first heading never skips. */
export function levelSkips(headings: readonly Heading[]): LevelSkip[] {
  const skips: LevelSkip[] = [];
  for (let i = 1; i < headings.length; i++) {
    const from = headings[i - 1]!;
    const to = headings[i]!;
    if (to.level > from.level + 1) skips.push({ from_level: from.level, to_level: to.level, at: to.text });
  }
  return skips;
}

export function analyseHeadings(main: MainContent): AuditStructure {
  const headings = outline(main.headings);
  return { headings, h1_count: headings.filter((h) => h.level === 1).length, level_skips: levelSkips(headings) };
}

/** h1 elements anywhere in the page that are rendered and have text. */
export function pageH1Count(page: ParsedPage): number {
  let count = 0;
  for (const h1 of page.byTag.get("h1") ?? []) if (isRendered(h1) && textOf(h1) !== "") count++;
  return count;
}
