// The fanout's observed queries as CSV, its cells written as every CSV of the server's is
// (lib/http/csv.ts: RFC 4180, formulas guarded).
import type { z } from "zod";
import { csvCell, type CsvValue } from "@/lib/http/csv";
import type { FanoutQueryReport } from "@/lib/schemas/fanouts";
import { percent, percentEnds } from "@/lib/words/format";

export { csvCell, type CsvValue };

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
 * `share` and its 95% interval are the API's, written as the pages write them ("33%", the
 * interval rounded outward: spreadsheets read them as numbers); `country` and `language` the prompt's market, so a
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
      percent(q.share),
      ...percentEnds(q.share_interval),
      q.occurrences,
      sources.get(g.prompt_index) ?? "",
      markets.get(g.prompt_index)?.country ?? "",
      markets.get(g.prompt_index)?.language ?? "",
      report.fanout_id,
    ]),
  );
  return csvOf(FANOUT_QUERY_COLUMNS, rows);
}
