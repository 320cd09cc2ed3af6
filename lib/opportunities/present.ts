// An opportunity list as the API shows it: the analysis row's own fields and the figures it
// stores, every object rebuilt in the schema's field order, so the body POST answers (from the
// figures as computed) and the body GET answers (from the figures as stored, whose keys jsonb has
// reordered) are the same bytes. Its summary is made here, from the figures (lib/words).
import type { z } from "zod";
import type { OpportunityAnalysis } from "../schemas/opportunities";
import { opportunitySummary } from "../words/opportunities";

type Output = z.input<typeof OpportunityAnalysis>;

/** What the list stores as its result. */
export type StoredOpportunities = Pick<
  Output,
  "method" | "analysis_id" | "run_count" | "brand" | "brand_domains" | "competitors" | "totals" | "lost_prompts" | "citation_targets" | "own_pages" | "query_gaps"
>;

/** What the presenter reads of an analysis row (lib/analyses/present.ts analysisColumns). */
export type OpportunityRow = {
  id: string;
  status: Output["status"];
  subject: string;
  createdAt: Date;
  completedAt: Date | null;
  projectId: string;
  createdBy: { email: string } | null;
  result: unknown;
  error: unknown;
};

const pair = (x: readonly [number, number]): [number, number] => [x[0], x[1]];
const own = (o: { runs_citing: number; cited_not_mentioned: number }) => ({ runs_citing: o.runs_citing, cited_not_mentioned: o.cited_not_mentioned });

export function presentOpportunityAnalysis(row: OpportunityRow): Output {
  const f = row.result as StoredOpportunities;
  const t = f.totals;
  const figures = {
    brand: f.brand,
    brand_domains: [...f.brand_domains],
    competitors: [...f.competitors],
    totals: {
      runs: t.runs, prompts: t.prompts, lost_prompts: t.lost_prompts, lost_runs: t.lost_runs, target_runs: t.target_runs,
      own_runs_citing: t.own_runs_citing, own_cited_not_mentioned: t.own_cited_not_mentioned,
    },
    lost_prompts: f.lost_prompts.map((l) => ({
      prompt: l.prompt,
      n: l.n,
      brand: { name: l.brand.name, runs: l.brand.runs, runs_mentioning: l.brand.runs_mentioning, visibility: l.brand.visibility, visibility_interval: pair(l.brand.visibility_interval) },
      competitor: { name: l.competitor.name, runs_mentioning: l.competitor.runs_mentioning, visibility: l.competitor.visibility, visibility_interval: pair(l.competitor.visibility_interval) },
      diff: l.diff,
      diff_interval: pair(l.diff_interval),
      run_ids: [...l.run_ids],
      evidence: l.evidence.map((e) => ({ run_id: e.run_id, engine: e.engine, sentence: e.sentence })),
    })),
    citation_targets: f.citation_targets.map((c) => ({
      url: c.url, domain: c.domain, owner: c.owner ?? null, runs_citing: c.runs_citing, n: c.n,
      competitors: c.competitors.map((x) => ({ name: x.name, runs: x.runs })),
      run_ids: [...c.run_ids],
    })),
    own_pages: f.own_pages.map((o) => ({
      url: o.url, domain: o.domain, n: o.n, ...own(o),
      by_engine: o.by_engine.map((g) => ({ engine: g.engine, ...own(g) })),
      by_prompt: o.by_prompt.map((g) => ({ prompt: g.prompt, ...own(g) })),
      run_ids: [...o.run_ids],
    })),
    query_gaps: f.query_gaps.map((q) => ({ query: q.query, engine: q.engine, runs: q.runs, n: q.n, prompts: [...q.prompts], run_ids: [...q.run_ids] })),
  };
  return {
    id: row.id,
    kind: "opportunities",
    status: row.status,
    subject: row.subject,
    summary: opportunitySummary(figures),
    run_count: f.run_count,
    created_at: row.createdAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
    project_id: row.projectId,
    created_by: row.createdBy?.email ?? null,
    error: (row.error ?? null) as Output["error"],
    method: "opportunities-v1",
    analysis_id: f.analysis_id,
    ...figures,
    charge: null,
  };
}
