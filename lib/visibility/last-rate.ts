// A project's brand's last visibility rate: the first brand row of its newest completed visibility
// analysis, for the estimates' margins (decisions.md "Statistics users can plan with"). The caller
// has checked the project is the principal's.
import { lastBrandRow } from "../analyses/store";

export type LastBrandRate = { analysisId: string; entity: string; runs: number; runsMentioning: number; visibility: number };

/** The brand's visibility in the project's newest completed visibility analysis that tracks one; null when none. */
export async function lastBrandRate(projectId: string): Promise<LastBrandRate | null> {
  return (await lastBrandRow(projectId)) ?? null;
}
