// "Audit these pages" on an opportunity list's page (decisions.md "Opportunities"): page audits
// of the citation targets and own pages chosen, each started as POST /audits starts one (its run,
// its hold, its job), priced before anything starts: the rate card's audit price per page and the
// credit available. All or nothing on credit: when it does not cover every page chosen, 402 and
// nothing is started.
import type { Principal } from "../auth/principal";
import { createAudit } from "../audits/create";
import { insufficientCredit, priceLines } from "../billing/holds";
import { availableMicros, readBalance } from "../billing/ledger";
import { formatUsd } from "../billing/money";
import { billingSettings, currentRateCard } from "../billing/settings";
import { db } from "../db/client";
import { ApiError } from "../http/errors";
import { reachableAnalysisOfKind } from "../analyses/read";
import type { StoredOpportunities } from "./present";

/** Most pages one click audits. */
export const AUDIT_PAGES_LIMIT = 20;

export type AuditQuote = {
  unit_price_usd: string;
  /** The same in micro-dollars, as a decimal string: what a page multiplies by the pages ticked. */
  unit_price_micros: string;
  billing_enabled: boolean;
  available_usd: string | null;
  available_micros: string | null;
  pricing_version: string;
};

/** The list (through the analyses' owner, lib/analyses/read.ts), or 404 as a missing one. */
async function reachableList(principal: Principal, listId: string) {
  const { workspaceId, projectId, result } = await reachableAnalysisOfKind(principal, listId, "opportunities");
  return { workspaceId, projectId, figures: result as StoredOpportunities };
}

/** What auditing a page costs and the credit there is, before anything starts. */
export async function auditQuote(principal: Principal, listId: string): Promise<AuditQuote> {
  const { workspaceId } = await reachableList(principal, listId);
  const card = currentRateCard();
  const settings = billingSettings();
  const unit = priceLines([{ product: "audit", units: 1 }], card).lines[0]!.unitPriceMicros;
  const available = settings.enabled ? availableMicros(await readBalance(db(), workspaceId)) : null;
  const shown = available === null ? null : available < 0n ? 0n : available;
  return {
    unit_price_usd: formatUsd(unit),
    unit_price_micros: unit.toString(),
    billing_enabled: settings.enabled,
    available_usd: shown === null ? null : formatUsd(shown),
    available_micros: shown === null ? null : shown.toString(),
    pricing_version: card.version,
  };
}

/** Starts an audit of each chosen page (each one of the list's targets or own pages); answers the audit runs' ids. */
export async function auditPages(principal: Principal, listId: string, urls: readonly string[]): Promise<string[]> {
  const { workspaceId, projectId, figures } = await reachableList(principal, listId);
  const chosen = [...new Set(urls)];
  if (chosen.length === 0) throw new ApiError("invalid_request", "Tick the pages to audit.");
  if (chosen.length > AUDIT_PAGES_LIMIT) throw new ApiError("invalid_request", `Tick at most ${AUDIT_PAGES_LIMIT} pages (${chosen.length} are ticked).`);
  const listed = new Set([...figures.citation_targets.map((t) => t.url), ...figures.own_pages.map((o) => o.url)]);
  const foreign = chosen.find((u) => !listed.has(u));
  if (foreign !== undefined) throw new ApiError("invalid_request", `url: ${foreign} is not a page of this list`);
  const settings = billingSettings();
  if (settings.enabled) {
    const { totalMicros } = priceLines(chosen.map(() => ({ product: "audit" as const, units: 1 })), currentRateCard());
    const available = availableMicros(await readBalance(db(), workspaceId));
    if (available < totalMicros) throw insufficientCredit(totalMicros, available, settings.addCreditUrl);
  }
  const runs: string[] = [];
  for (const url of chosen) runs.push((await createAudit(principal, { url, project: projectId })).id);
  return runs;
}
