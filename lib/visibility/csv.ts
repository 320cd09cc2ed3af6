// A visibility analysis's figures as lines, one per entity and group (all runs, each engine, each
// prompt, each country): the one definition of `geoscope visibility get --format csv|jsonl` and of
// the analysis page's CSV download. Pure (no server code): the CLI bundles it.
import type { z } from "zod";
import { csvCell } from "../http/csv";
import { inEngineOrder } from "../order";
import type { VisibilityAnalysis } from "../schemas/visibility";

type Analysis = z.output<typeof VisibilityAnalysis>;
type Row = Analysis["rows"][number];
type Figures = Omit<Row, "name" | "role" | "by_engine" | "by_prompt" | "by_country" | "sentiment">;

/** The columns, in order: every rate with its 95% interval's ends (`_low`, `_high`), every figure with its n. */
export const VISIBILITY_COLUMNS = [
  "entity", "role", "group_by", "group", "runs", "runs_mentioning", "visibility", "visibility_low", "visibility_high",
  "share_of_voice", "share_of_voice_n", "average_position", "average_position_low", "average_position_high",
  "runs_top1", "top1_rate", "top1_rate_low", "top1_rate_high", "runs_top3", "top3_rate", "top3_rate_low", "top3_rate_high",
  "prominence", "prominence_low", "prominence_high",
  "runs_citing", "cited_rate", "cited_rate_low", "cited_rate_high", "mentioned_and_cited", "mentioned_not_cited", "cited_not_mentioned",
  "mentions", "prompt_echo", "absence",
] as const;

export type VisibilityLine = Record<(typeof VISIBILITY_COLUMNS)[number], string | number | null>;

function line(entity: Row, groupBy: string, group: string | null, f: Figures): VisibilityLine {
  return {
    entity: entity.name, role: entity.role, group_by: groupBy, group,
    runs: f.runs, runs_mentioning: f.runs_mentioning, visibility: f.visibility, visibility_low: f.visibility_interval[0], visibility_high: f.visibility_interval[1],
    share_of_voice: f.share_of_voice, share_of_voice_n: f.share_of_voice_n,
    average_position: f.average_position, average_position_low: f.average_position_interval?.[0] ?? null, average_position_high: f.average_position_interval?.[1] ?? null,
    runs_top1: f.runs_top1, top1_rate: f.top1_rate, top1_rate_low: f.top1_rate_interval[0], top1_rate_high: f.top1_rate_interval[1],
    runs_top3: f.runs_top3, top3_rate: f.top3_rate, top3_rate_low: f.top3_rate_interval[0], top3_rate_high: f.top3_rate_interval[1],
    prominence: f.prominence, prominence_low: f.prominence_interval[0], prominence_high: f.prominence_interval[1],
    runs_citing: f.runs_citing, cited_rate: f.cited_rate, cited_rate_low: f.cited_rate_interval[0], cited_rate_high: f.cited_rate_interval[1],
    mentioned_and_cited: f.mentioned_and_cited, mentioned_not_cited: f.mentioned_not_cited, cited_not_mentioned: f.cited_not_mentioned,
    mentions: f.mentions, prompt_echo: f.mentions_not_counted.prompt_echo, absence: f.mentions_not_counted.absence,
  };
}

/** Every entity's figures over all runs, then by engine (in the engines' order), prompt and country. */
export function visibilityLines(a: Analysis): VisibilityLine[] {
  return a.rows.flatMap((row) => [
    line(row, "all", null, row),
    ...inEngineOrder(row.by_engine, (g) => g.engine).map((g) => line(row, "engine", g.engine, g)),
    ...row.by_prompt.map((g) => line(row, "prompt", g.prompt, g)),
    ...row.by_country.map((g) => line(row, "country", g.country, g)),
  ]);
}

/** The lines as CSV (RFC 4180, CRLF, a header line; text that a spreadsheet would run as a formula guarded). */
export function visibilityCsv(a: Analysis): string {
  return [VISIBILITY_COLUMNS, ...visibilityLines(a).map((l) => VISIBILITY_COLUMNS.map((c) => l[c]))]
    .map((cells) => `${cells.map(csvCell).join(",")}\r\n`)
    .join("");
}
