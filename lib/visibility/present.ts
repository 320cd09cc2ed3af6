// A visibility analysis as the API shows it (decisions.md "Visibility analyses"): the analysis
// row's own fields and the figures it stores, every object rebuilt in the schema's field order, so
// that the body POST answers (from the figures as computed) and the body GET answers (from the
// figures as stored, whose keys jsonb has reordered) are the same bytes.
import type { z } from "zod";
import type { DiscoveredEntity, EntityFigures, EntitySentiment, EntityVisibility, VisibilityAnalysis } from "../schemas/visibility";
import { visibilitySummary } from "../words/visibility";
import type { StoredEntityVisibility, StoredJudgement } from "./analysis";
import { figuresOfRow, type StoredVisibilityResult } from "./store-result";

/** What the presenter reads of an analysis row (lib/analyses/present.ts analysisColumns). */
export type VisibilityRow = {
  id: string;
  status: z.input<typeof VisibilityAnalysis>["status"];
  subject: string;
  createdAt: Date;
  completedAt: Date | null;
  projectId: string;
  createdBy: { email: string } | null;
  result: unknown;
  error: unknown;
  /**
   * The stored body, read only when the result keeps its by-prompt rows there (`prompts_in_body`,
   * ./store-result.ts); null or absent otherwise.
   */
  promptRows?: string | null;
};

const pair = (interval: readonly [number, number]): [number, number] => [interval[0], interval[1]];

/** One group's figures, in EntityFigures' order. */
function figuresOf(f: EntityFigures): EntityFigures {
  const positions: Record<string, number> = {};
  for (let k = 1; f.position_counts[String(k)] !== undefined; k++) positions[String(k)] = f.position_counts[String(k)]!;
  return {
    runs: f.runs,
    runs_mentioning: f.runs_mentioning,
    visibility: f.visibility,
    visibility_interval: pair(f.visibility_interval),
    share_of_voice: f.share_of_voice,
    share_of_voice_basis: f.share_of_voice_basis,
    share_of_voice_n: f.share_of_voice_n,
    average_position: f.average_position,
    average_position_interval: f.average_position_interval === null ? null : pair(f.average_position_interval),
    position_counts: positions,
    runs_top1: f.runs_top1,
    top1_rate: f.top1_rate,
    top1_rate_interval: pair(f.top1_rate_interval),
    runs_top3: f.runs_top3,
    top3_rate: f.top3_rate,
    top3_rate_interval: pair(f.top3_rate_interval),
    prominence: f.prominence,
    prominence_interval: pair(f.prominence_interval),
    runs_citing: f.runs_citing,
    cited_rate: f.cited_rate,
    cited_rate_interval: pair(f.cited_rate_interval),
    mentioned_and_cited: f.mentioned_and_cited,
    mentioned_not_cited: f.mentioned_not_cited,
    cited_not_mentioned: f.cited_not_mentioned,
    mentions: f.mentions,
    mentions_not_counted: { prompt_echo: f.mentions_not_counted.prompt_echo, absence: f.mentions_not_counted.absence, link: f.mentions_not_counted.link ?? 0 },
  };
}

function sentimentOf(s: EntitySentiment | null | undefined): EntitySentiment | null {
  if (!s) return null;
  return {
    runs_judged: s.runs_judged,
    positive: s.positive,
    neutral: s.neutral,
    negative: s.negative,
    score: s.score,
    score_interval: pair(s.score_interval),
    quotes: s.quotes.map((q) => ({ run_id: q.run_id, engine: q.engine, sentiment: q.sentiment, quote: q.quote })),
  };
}

function rowOf(r: StoredEntityVisibility, sentiment: EntitySentiment | null | undefined): EntityVisibility {
  return {
    name: r.name,
    role: r.role,
    ...figuresOf(r),
    by_engine: r.by_engine.map((g) => ({ engine: g.engine, ...figuresOf(g) })),
    by_prompt: r.by_prompt.map((g) => ({ prompt: g.prompt, ...figuresOf(g) })),
    by_country: r.by_country.map((g) => ({ country: g.country, ...figuresOf(g) })),
    sentiment: sentimentOf(sentiment),
  };
}

/** A stored discovered entity: judged before the merge, it has no aliases. */
function discoveredOf(d: Omit<DiscoveredEntity, "aliases"> & { aliases?: string[] }): DiscoveredEntity {
  return {
    name: d.name,
    aliases: [...(d.aliases ?? [])],
    runs_mentioning: d.runs_mentioning,
    visibility: d.visibility,
    visibility_interval: pair(d.visibility_interval),
    by_engine: d.by_engine.map((g) => ({ engine: g.engine, runs: g.runs, runs_mentioning: g.runs_mentioning, visibility: g.visibility, visibility_interval: pair(g.visibility_interval) })),
  };
}

function judgeOf(j: StoredJudgement["judge"]): StoredJudgement["judge"] {
  return {
    engine: j.engine,
    model: j.model,
    prompt_version: j.prompt_version,
    prompt_sha: j.prompt_sha,
    sentiment: j.sentiment,
    discover: j.discover,
    runs: j.runs,
    runs_done: j.runs_done,
    runs_judged: j.runs_judged,
    runs_not_judged: j.runs_not_judged.map((x) => ({ run_id: x.run_id, reason: x.reason })),
    quotes_rejected: j.quotes_rejected,
    names_dropped: j.names_dropped,
  };
}

export function presentVisibilityAnalysis(row: VisibilityRow): z.input<typeof VisibilityAnalysis> {
  const figures = figuresOfRow(row.id, row.result as StoredVisibilityResult, row.promptRows ?? null);
  const judged = figures.judged;
  const totals = {
    runs: figures.totals.runs,
    prompts: figures.totals.prompts,
    engines: figures.totals.engines,
    mentions: figures.totals.mentions,
    mentions_not_counted: { prompt_echo: figures.totals.mentions_not_counted.prompt_echo, absence: figures.totals.mentions_not_counted.absence, link: figures.totals.mentions_not_counted.link ?? 0 },
  };
  const rows = figures.rows.map((r, e) => rowOf(r, judged?.sentiment?.[e]));
  const judge = judged ? judgeOf(judged.judge) : null;
  const discovered = judged?.discovered ? judged.discovered.map(discoveredOf) : null;
  return {
    id: row.id,
    kind: "visibility",
    status: row.status,
    subject: row.subject,
    // From the figures as stored, so an analysis stored before summaries existed has one too.
    summary: visibilitySummary({ status: row.status, run_count: figures.run_ids.length, totals, rows, judge, discovered }),
    run_count: figures.run_ids.length,
    created_at: row.createdAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
    project_id: row.projectId,
    created_by: row.createdBy?.email ?? null,
    error: (row.error ?? null) as z.input<typeof VisibilityAnalysis>["error"],
    method: figures.method,
    // Stored before Student's t: their intervals are the bootstrap's, and say so.
    interval_method: figures.interval_method ?? "bootstrap",
    entities: figures.entities.map((e) => ({ name: e.name, role: e.role, aliases: [...e.aliases], domains: [...e.domains], case_sensitive: e.case_sensitive })),
    run_ids: figures.run_ids,
    excluded_runs: figures.excluded_runs.map((x) => ({ run_id: x.run_id, reason: x.reason })),
    totals,
    rows,
    judge,
    discovered,
    agreement: judged?.agreement
      ? { runs: judged.agreement.runs, agreeing: judged.agreement.agreeing, pairs: judged.agreement.pairs, pairs_agreeing: judged.agreement.pairs_agreeing, kappa: judged.agreement.kappa }
      : null,
    // Unjudged: computed from stored runs, nothing is held or captured.
    charge: judged?.charge
      ? { status: judged.charge.status, amount_usd: judged.charge.amount_usd, unit: judged.charge.unit, units: judged.charge.units, unit_price_usd: judged.charge.unit_price_usd, pricing_version: judged.charge.pricing_version }
      : null,
  };
}
