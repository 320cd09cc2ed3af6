// An analysis row -> its API shape, by kind (citations here; questions, visibility and comparison in their domains).
import type { z } from "zod";
import type { AnalysisRow } from "./store";
import { type Analysis, type CitationAnalysis } from "../schemas/analyses";
import { presentComparisonAnalysis } from "../comparison/present";
import { presentVisibilityAnalysis } from "../visibility/present";
import { presentOpportunityAnalysis } from "../opportunities/present";
import { type CitationFigures } from "./citations";

export const CITATION_METHOD = "stored_results_v1";

export function presentCitationAnalysis(row: AnalysisRow): z.input<typeof CitationAnalysis> {
  const figures = row.result as unknown as CitationFigures;
  return {
    id: row.id,
    kind: "citations",
    status: row.status,
    subject: row.subject,
    run_ids: figures.run_ids,
    created_at: row.createdAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
    project_id: row.projectId,
    created_by: row.createdBy?.email ?? null,
    error: (row.error ?? null) as z.input<typeof CitationAnalysis>["error"],
    method: CITATION_METHOD,
    brands: figures.brands,
    target_domains: figures.target_domains,
    totals: figures.totals,
    engines: figures.engines,
    domains: figures.domains,
    pages: figures.pages,
    retrieved_not_cited: figures.retrieved_not_cited,
    textual_mentions: figures.textual_mentions,
    domain_coverage: figures.domain_coverage,
    by_country: figures.by_country,
    overlap: figures.overlap,
    excluded_runs: figures.excluded_runs,
    // Citations are free on the rate card: nothing is held or captured.
    charge: null,
  };
}

/**
 * How each kind of analysis is presented from its row, beside its member of the `Analysis` union
 * (lib/schemas/analyses.ts). A questions analysis also shows its run and that run's charge, which
 * its row does not hold: lib/questions/read.ts reads them and presents it.
 */
const presenters: { [K in Exclude<AnalysisRow["kind"], "questions">]: (row: AnalysisRow) => z.input<typeof Analysis> } = {
  citations: presentCitationAnalysis,
  visibility: presentVisibilityAnalysis,
  comparison: presentComparisonAnalysis,
  opportunities: presentOpportunityAnalysis,
};

export function presentAnalysis(row: AnalysisRow & { kind: keyof typeof presenters }): z.input<typeof Analysis> {
  return presenters[row.kind](row);
}
