// A visibility analysis's figures as lines, one per entity and group (all runs, each engine, each
// prompt, each country): the one definition of `geoscope visibility get --format csv|jsonl` and of
// the analysis page's CSV download. Pure (no server code): the CLI bundles it.
import type { z } from "zod";
import { csvCell } from "../http/csv";
import { inEngineOrder } from "../order";
import type { VisibilityAnalysis } from "../schemas/visibility";
import { percent, percentEnds, place, placeEnds } from "../words/format";

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
  "mentions", "prompt_echo", "absence", "link",
] as const;

export type VisibilityLine = Record<(typeof VISIBILITY_COLUMNS)[number], string | number | null>;

/** How a line's figures are written: as the API states them (JSON lines), or as people read them (CSV, lib/words/format.ts). */
type Cells = {
  rate: (x: number) => string | number;
  rateEnds: (i: readonly [number, number]) => readonly [string | number, string | number];
  place: (x: number) => string | number;
  placeEnds: (i: readonly [number, number]) => readonly [string | number, string | number];
};
const AS_STATED: Cells = { rate: (x) => x, rateEnds: (i) => i, place: (x) => x, placeEnds: (i) => i };
/** Spreadsheets read "92%" as the number 0.92, so the CSV says what the pages say and still sorts. */
const AS_READ: Cells = { rate: percent, rateEnds: percentEnds, place, placeEnds };

function line(entity: Row, groupBy: string, group: string | null, f: Figures, c: Cells): VisibilityLine {
  const [visibilityLow, visibilityHigh] = c.rateEnds(f.visibility_interval);
  const [positionLow, positionHigh] = f.average_position_interval ? c.placeEnds(f.average_position_interval) : [null, null];
  const [top1Low, top1High] = c.rateEnds(f.top1_rate_interval);
  const [top3Low, top3High] = c.rateEnds(f.top3_rate_interval);
  const [prominenceLow, prominenceHigh] = c.rateEnds(f.prominence_interval);
  const [citedLow, citedHigh] = c.rateEnds(f.cited_rate_interval);
  return {
    entity: entity.name, role: entity.role, group_by: groupBy, group,
    runs: f.runs, runs_mentioning: f.runs_mentioning, visibility: c.rate(f.visibility), visibility_low: visibilityLow, visibility_high: visibilityHigh,
    share_of_voice: f.share_of_voice === null ? null : c.rate(f.share_of_voice), share_of_voice_n: f.share_of_voice_n,
    average_position: f.average_position === null ? null : c.place(f.average_position), average_position_low: positionLow, average_position_high: positionHigh,
    runs_top1: f.runs_top1, top1_rate: c.rate(f.top1_rate), top1_rate_low: top1Low, top1_rate_high: top1High,
    runs_top3: f.runs_top3, top3_rate: c.rate(f.top3_rate), top3_rate_low: top3Low, top3_rate_high: top3High,
    prominence: c.rate(f.prominence), prominence_low: prominenceLow, prominence_high: prominenceHigh,
    runs_citing: f.runs_citing, cited_rate: c.rate(f.cited_rate), cited_rate_low: citedLow, cited_rate_high: citedHigh,
    mentioned_and_cited: f.mentioned_and_cited, mentioned_not_cited: f.mentioned_not_cited, cited_not_mentioned: f.cited_not_mentioned,
    mentions: f.mentions, prompt_echo: f.mentions_not_counted.prompt_echo, absence: f.mentions_not_counted.absence, link: f.mentions_not_counted.link,
  };
}

/**
 * Every entity's figures over all runs, then by engine (in the engines' order), prompt and country.
 * `as` "read" writes them as the pages do (the CSV), "stated" as the API states them (JSON lines).
 */
export function visibilityLines(a: Analysis, as: "read" | "stated" = "stated"): VisibilityLine[] {
  const c = as === "read" ? AS_READ : AS_STATED;
  return a.rows.flatMap((row) => [
    line(row, "all", null, row, c),
    ...inEngineOrder(row.by_engine, (g) => g.engine).map((g) => line(row, "engine", g.engine, g, c)),
    ...row.by_prompt.map((g) => line(row, "prompt", g.prompt, g, c)),
    ...row.by_country.map((g) => line(row, "country", g.country, g, c)),
  ]);
}

/** The lines as people read them, as CSV (RFC 4180, CRLF, a header line; text that a spreadsheet would run as a formula guarded). */
export function visibilityCsv(a: Analysis): string {
  return [VISIBILITY_COLUMNS, ...visibilityLines(a, "read").map((l) => VISIBILITY_COLUMNS.map((c) => l[c]))]
    .map((cells) => `${cells.map(csvCell).join(",")}\r\n`)
    .join("");
}
