// A comparison analysis as the API shows it (decisions.md "Comparison analyses"): the analysis
// row's own fields, the figures it stores and the summary made from them, every object rebuilt in
// the schema's field order, so that the body POST answers (from the figures as computed) and the
// body GET answers (from the figures as stored, whose keys jsonb has reordered) are the same bytes.
import type { z } from "zod";
import type { ComparisonAnalysis } from "../schemas/comparison";
import { comparisonSummary } from "../words/comparison";
import type { StoredComparisonFigures } from "./compute";

/** What the presenter reads of an analysis row (lib/analyses/present.ts analysisColumns). */
export type ComparisonRow = {
  id: string;
  status: z.input<typeof ComparisonAnalysis>["status"];
  subject: string;
  createdAt: Date;
  completedAt: Date | null;
  projectId: string;
  createdBy: { email: string } | null;
  result: unknown;
  error: unknown;
};

type Body = z.input<typeof ComparisonAnalysis>;
type Engine = Body["a"];

const pair = (i: readonly [number, number]): [number, number] => [i[0], i[1]];
const pairOrNull = (i: readonly [number, number] | null): [number, number] | null => (i === null ? null : pair(i));
const side = (s: StoredComparisonFigures["rows"][number]["a"]) => ({ runs: s.runs, runs_mentioning: s.runs_mentioning, visibility: s.visibility, visibility_interval: pair(s.visibility_interval) });

export function presentComparisonAnalysis(row: ComparisonRow): Body {
  const f = row.result as StoredComparisonFigures;
  const body: Omit<Body, "summary"> & { summary: string[] } = {
    id: row.id,
    kind: "comparison",
    status: row.status,
    subject: row.subject,
    summary: [],
    run_count: f.run_ids.length,
    created_at: row.createdAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
    project_id: row.projectId,
    created_by: row.createdBy?.email ?? null,
    error: (row.error ?? null) as Body["error"],
    method: f.method,
    a: f.a as Engine,
    b: f.b as Engine,
    confidence: f.confidence,
    entities: f.entities.map((e) => ({ name: e.name, role: e.role, aliases: [...e.aliases], domains: [...e.domains], case_sensitive: e.case_sensitive })),
    run_ids: [...f.run_ids],
    excluded_runs: f.excluded_runs.map((x) => ({ run_id: x.run_id, reason: x.reason })),
    excluded_prompts: f.excluded_prompts.map((x) => ({ prompt: x.prompt, engine: x.engine as Engine, runs: x.runs })),
    prompts_compared: f.prompts_compared,
    rows: f.rows.map((r) => ({ name: r.name, role: r.role, a: side(r.a), b: side(r.b), diff: r.diff, diff_interval: pair(r.diff_interval), significant: r.significant })),
    sources: {
      jaccard: f.sources.jaccard,
      jaccard_interval: pairOrNull(f.sources.jaccard_interval),
      prompts: f.sources.prompts,
      only_a: f.sources.only_a.map((d) => ({ domain: d.domain, runs_citing: d.runs_citing })),
      only_b: f.sources.only_b.map((d) => ({ domain: d.domain, runs_citing: d.runs_citing })),
    },
    searches: f.searches === null ? null : { overlap: f.searches.overlap, overlap_interval: pairOrNull(f.searches.overlap_interval), prompts: f.searches.prompts },
    order: { rbo: f.order.rbo, rbo_interval: pairOrNull(f.order.rbo_interval), prompts: f.order.prompts, pairs: f.order.pairs },
    by_prompt: f.by_prompt.map((p) => ({
      prompt: p.prompt,
      runs_a: p.runs_a,
      runs_b: p.runs_b,
      jaccard: p.jaccard,
      query_overlap: p.query_overlap,
      rbo: p.rbo,
      entities: p.entities.map((e) => ({ name: e.name, a: e.a, b: e.b, diff: e.diff })),
    })),
    charge: null,
  };
  body.summary = comparisonSummary(body);
  return body;
}
