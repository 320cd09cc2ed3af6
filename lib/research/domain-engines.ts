// Citations of each domain by engine, for the citation analysis page's chart. The stored analysis
// gives a domain's citations and which engines cited it, not how many each engine did; this reads
// them from run_sources (through lib/runs/analysis-reads.ts) for the analysis's counted runs,
// weighted as the analysis weighs them (a cited source counts its citation marks, at least 1:
// lib/analyses/citations.ts).
import { citationsOfDomainsByEngine } from "@/lib/runs/analysis-reads";
import type { CitationAnalysis } from "@/lib/schemas/analyses";

/** The runs the analysis counted: every run it names but those left out at their first naming. */
export function countedRuns(analysis: Pick<CitationAnalysis, "run_ids" | "excluded_runs">): string[] {
  const left = new Set(analysis.excluded_runs.filter((e) => e.reason !== "duplicate").map((e) => e.run_id));
  return analysis.run_ids.filter((id) => !left.has(id));
}

/** domain → engine → citations, for the named domains. */
export async function citationsByEngine(runIds: readonly string[], domains: readonly string[]): Promise<Map<string, Map<string, number>>> {
  const out = new Map<string, Map<string, number>>();
  if (runIds.length === 0 || domains.length === 0) return out;
  const rows = await citationsOfDomainsByEngine(runIds, domains);
  for (const row of rows) {
    const byEngine = out.get(row.domain) ?? new Map<string, number>();
    byEngine.set(row.engine ?? "unknown", Number(row.citations));
    out.set(row.domain, byEngine);
  }
  return out;
}
