// Stage 3 of a page audit: every catalog finding once, in catalog order, from what stages 1 and 2
// observed. Each check is pure and runs on its own, so one that throws becomes an `error` finding
// instead of taking the audit down.
import type { AuditFinding } from "@/lib/schemas/audits";
import type { AuditObservation } from "../types";
import { accessChecks } from "./access";
import { aiAccessChecks } from "./ai-access";
import { type CatalogEntry, FINDING_CATALOG, FINDING_VERSION, type FindingKey } from "./catalog";
import type { Check, Outcome } from "./check";
import { contentChecks } from "./content";
import { indexingChecks } from "./indexing";
import { metadataChecks } from "./metadata";
import { structureChecks } from "./structure";
import { structuredDataChecks } from "./structured-data";

export { FINDING_CATALOG, FINDING_VERSION, type CatalogEntry, type FindingKey } from "./catalog";
export type { Check, Outcome } from "./check";

/** One check per catalog key; the type makes a missing one a compile error. */
export const findingChecks: Record<FindingKey, Check> = {
  ...accessChecks,
  ...indexingChecks,
  ...contentChecks,
  ...structureChecks,
  ...metadataChecks,
  ...structuredDataChecks,
  ...aiAccessChecks,
};

function run(check: Check, observation: AuditObservation): Outcome {
  try {
    return check(observation);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { status: "error", reason: `The check failed: ${/[.!?]$/.test(message) ? message : `${message}.`}`, items: [] };
  }
}

function present(entry: CatalogEntry, outcome: Outcome): AuditFinding {
  return {
    key: entry.key,
    version: FINDING_VERSION,
    name: entry.name,
    category: entry.category,
    severity: entry.severity,
    evidence_level: entry.evidence_level,
    status: outcome.status,
    reason: outcome.reason,
    why_it_matters: entry.why_it_matters,
    recommendation: entry.recommendation,
    items: outcome.items.map((item) => ({
      summary: item.summary,
      severity: item.severity ?? entry.severity,
      subtype: item.subtype ?? null,
      details: item.details ?? {},
      evidence: item.evidence,
    })),
  };
}

/** `checks` is for tests (a check that throws); the audit uses the catalog's own. */
export function evaluateFindings(observation: AuditObservation, checks: Record<FindingKey, Check> = findingChecks): AuditFinding[] {
  return FINDING_CATALOG.map((entry) => present(entry, run(checks[entry.key], observation)));
}
