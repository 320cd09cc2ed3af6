// A comparison's per-prompt figures as lines, one per prompt and tracked entity: the one
// definition of `geoscope compare --format csv|jsonl` and of the comparison page's CSV download.
// Pure (no server code): the CLI bundles it.
import type { z } from "zod";
import { csvCell } from "../http/csv";
import type { ComparisonAnalysis } from "../schemas/comparison";
import { percent, percentDiffCell } from "../words/format";

type Analysis = z.output<typeof ComparisonAnalysis>;

/** The columns, in order: the prompt's figures (the same on each of its lines), then one entity's visibility on each engine and the difference. */
export const COMPARISON_COLUMNS = ["prompt", "engine_a", "engine_b", "runs_a", "runs_b", "jaccard", "query_overlap", "rbo", "entity", "visibility_a", "visibility_b", "diff"] as const;

export type ComparisonLine = Record<(typeof COMPARISON_COLUMNS)[number], string | number | null>;

/**
 * Every prompt compared, once per entity, in the analysis's order. `as` "read" writes figures as
 * the pages do (the CSV: "92%", a difference "-4.5%"), "stated" as the API states them (JSON lines).
 */
export function comparisonLines(a: Analysis, as: "read" | "stated" = "stated"): ComparisonLine[] {
  const rate = (x: number | null) => (x === null ? null : as === "read" ? percent(x) : x);
  const diff = (x: number) => (as === "read" ? percentDiffCell(x) : x);
  return a.by_prompt.flatMap((p) =>
    p.entities.map((e) => ({
      prompt: p.prompt, engine_a: a.a, engine_b: a.b, runs_a: p.runs_a, runs_b: p.runs_b,
      jaccard: rate(p.jaccard), query_overlap: rate(p.query_overlap), rbo: rate(p.rbo),
      entity: e.name, visibility_a: rate(e.a), visibility_b: rate(e.b), diff: diff(e.diff),
    })),
  );
}

/** The columns holding text from people and engines; the others hold figures this module wrote. */
const TEXT_COLUMNS = new Set<string>(["prompt", "engine_a", "engine_b", "entity"]);

/**
 * The lines as people read them, as CSV (RFC 4180, CRLF, a header line). Text a spreadsheet would
 * run as a formula is guarded; a figure is not, so a difference "-33%" stays a number to it.
 */
export function comparisonCsv(a: Analysis): string {
  const cell = (column: string, value: string | number | null) => (TEXT_COLUMNS.has(column) || value === null ? csvCell(value) : String(value));
  return [COMPARISON_COLUMNS.join(","), ...comparisonLines(a, "read").map((l) => COMPARISON_COLUMNS.map((c) => cell(c, l[c])).join(","))]
    .map((line) => `${line}\r\n`)
    .join("");
}
