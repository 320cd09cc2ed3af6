// CSV for researchers' spreadsheets (RFC 4180: CRLF line ends, fields with a comma, quote or line
// break quoted, quotes doubled) and the fanout's observed queries as CSV. Query and prompt texts
// come from engines and people, so a text cell a spreadsheet would read as a formula gets a
// leading apostrophe (OWASP "CSV injection").
import type { z } from "zod";
import type { FanoutQueryReport } from "@/lib/schemas/fanouts";

export type CsvValue = string | number | null | undefined;

/** What a spreadsheet takes for the start of a formula (tab and CR as OWASP lists them too). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One field: text guarded against formulas, then quoted when it must be; numbers as written. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A header line and the rows, each line ended by CRLF. */
export function csvOf(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [header, ...rows].map((row) => `${row.map(csvCell).join(",")}\r\n`).join("");
}

export const FANOUT_QUERY_COLUMNS = [
  "prompt_index",
  "prompt",
  "engine",
  "query",
  "runs",
  "completed_runs",
  "share",
  "share_low",
  "share_high",
  "occurrences",
  "prompt_source",
  "country",
  "language",
  "fanout_id",
] as const;

/** Where a prompt came from, as "fa_…:q3", by its 1-based index. */
export type PromptSources = ReadonlyMap<number, string>;

/** The searcher's country and language a prompt ran for, by its 1-based index. */
export type PromptMarkets = ReadonlyMap<number, { country: string | null; language: string | null }>;

/**
 * One line per prompt × engine × distinct query (prompt, then engine, then the report's order:
 * share descending). `runs` is how many completed runs issued the query, of `completed_runs`;
 * `share` and its 95% interval are the API's; `country` and `language` the prompt's market, so a
 * spreadsheet can group by market. A cell whose runs searched nothing has no line.
 */
export function fanoutQueriesCsv(report: z.input<typeof FanoutQueryReport>, sources: PromptSources = new Map(), markets: PromptMarkets = new Map()): string {
  const rows = report.groups.flatMap((g) =>
    g.queries.map((q) => [
      g.prompt_index,
      g.prompt,
      g.engine,
      q.query,
      q.runs,
      g.completed_runs,
      q.share,
      q.share_interval[0],
      q.share_interval[1],
      q.occurrences,
      sources.get(g.prompt_index) ?? "",
      markets.get(g.prompt_index)?.country ?? "",
      markets.get(g.prompt_index)?.language ?? "",
      report.fanout_id,
    ]),
  );
  return csvOf(FANOUT_QUERY_COLUMNS, rows);
}
