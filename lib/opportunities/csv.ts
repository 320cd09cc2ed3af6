// An opportunity list's sections as CSV, one file per section: the one definition of `geoscope
// opportunities --format csv --section …` (and of a page's download). Figures as people read them
// (lib/words/format.ts), every count with its n, the evidence run ids joined by spaces. Pure (no
// server code): the CLI bundles it.
import type { z } from "zod";
import { csvCell } from "../http/csv";
import type { OpportunityAnalysis } from "../schemas/opportunities";
import { percent, percentDiffCell, percentDiffEnds, percentEnds } from "../words/format";

type List = z.output<typeof OpportunityAnalysis>;

export const OPPORTUNITY_SECTIONS = ["lost_prompts", "citation_targets", "own_pages", "query_gaps"] as const;
export type OpportunitySection = (typeof OPPORTUNITY_SECTIONS)[number];

export const OPPORTUNITY_COLUMNS: Record<OpportunitySection, readonly string[]> = {
  lost_prompts: [
    "rank", "prompt", "n", "competitor", "competitor_runs_mentioning", "competitor_visibility", "competitor_visibility_low", "competitor_visibility_high",
    "brand", "brand_runs_mentioning", "brand_visibility", "brand_visibility_low", "brand_visibility_high", "diff", "diff_low", "diff_high", "sentence", "run_ids",
  ],
  citation_targets: ["rank", "url", "domain", "owner", "runs_citing", "n", "competitors", "run_ids"],
  own_pages: ["rank", "url", "domain", "runs_citing", "n", "cited_not_mentioned", "by_engine", "run_ids"],
  query_gaps: ["rank", "query", "engine", "runs", "n", "prompts", "run_ids"],
};

function rows(list: List, section: OpportunitySection): (string | number)[][] {
  switch (section) {
    case "lost_prompts":
      return list.lost_prompts.map((l, i) => [
        i + 1, l.prompt, l.n, l.competitor.name, l.competitor.runs_mentioning, percent(l.competitor.visibility), ...percentEnds(l.competitor.visibility_interval),
        list.brand, l.brand.runs_mentioning, percent(l.brand.visibility), ...percentEnds(l.brand.visibility_interval),
        percentDiffCell(l.diff), ...percentDiffEnds(l.diff_interval), l.evidence[0]?.sentence ?? "", l.run_ids.join(" "),
      ]);
    case "citation_targets":
      return list.citation_targets.map((t, i) => [i + 1, t.url, t.domain, t.owner ?? "", t.runs_citing, t.n, t.competitors.map((c) => `${c.name} (${c.runs})`).join("; "), t.run_ids.join(" ")]);
    case "own_pages":
      return list.own_pages.map((o, i) => [i + 1, o.url, o.domain, o.runs_citing, o.n, o.cited_not_mentioned, o.by_engine.map((g) => `${g.engine}: ${g.runs_citing}`).join("; "), o.run_ids.join(" ")]);
    case "query_gaps":
      return list.query_gaps.map((q, i) => [i + 1, q.query, q.engine, q.runs, q.n, q.prompts.join(" | "), q.run_ids.join(" ")]);
  }
}

/** One section as RFC 4180 CSV: a header line, then one line per row, in rank order. */
export function opportunitiesCsv(list: List, section: OpportunitySection): string {
  return [OPPORTUNITY_COLUMNS[section], ...rows(list, section)].map((cells) => `${cells.map((c) => csvCell(c)).join(",")}\r\n`).join("");
}
