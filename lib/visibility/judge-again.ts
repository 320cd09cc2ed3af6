// Judging the answers of a stored visibility analysis, as its page offers it: the price on each
// judge engine before anything starts (rate card product `judge`, per counted run), and the judged
// analysis itself, of the same ids and entities, made exactly as POST /visibility-analyses with
// `judge` makes one (the same 400s, the same hold and 402, the same job).
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { priceLines } from "../billing/holds";
import { availableMicros, readBalance } from "../billing/ledger";
import { formatUsd } from "../billing/money";
import { priceOf } from "../billing/rate-card";
import { billingSettings, currentRateCard } from "../billing/settings";
import { engineConfig } from "../config/engines";
import { db } from "../db/client";
import { notFound } from "../http/errors";
import type { JudgeRequest } from "../schemas/visibility";
import { reachableAnalysis } from "../analyses/store";
import type { StoredVisibilityFigures } from "./analysis";
import { analyseVisibility } from "./create";

/** What judging an analysis's counted runs would cost on each enabled engine, and the credit there is. */
export type JudgeQuote = {
  runs: number;
  engines: { engine: string; unit_price_usd: string; amount_usd: string; sufficient: boolean | null }[];
  billing_enabled: boolean;
  available_usd: string | null;
  pricing_version: string;
};

/** The analysis the principal reaches, a visibility one, with what judging it needs: its workspace, the ids it was asked for and its figures. */
async function reachableVisibility(principal: Principal, analysisId: string) {
  const row = await reachableAnalysis(principal, analysisId, "visibility");
  if (!row) throw notFound("visibility analysis", analysisId);
  const input = row.input as { ids: string[] };
  const result = row.result as StoredVisibilityFigures | null;
  if (!result) throw notFound("visibility analysis", analysisId);
  const entities = result.entities.map((e) => ({ name: e.name, role: e.role, aliases: [...e.aliases], domains: [...e.domains], case_sensitive: e.case_sensitive }));
  return { workspaceId: row.workspaceId, ids: input.ids, runs: result.totals.runs, entities };
}

/** The price of judging the analysis's counted runs, per enabled engine the rate card prices, before anything is held. */
export async function judgeQuote(principal: Principal, analysisId: string): Promise<JudgeQuote> {
  const { workspaceId, runs } = await reachableVisibility(principal, analysisId);
  const card = currentRateCard();
  const settings = billingSettings();
  const available = settings.enabled ? availableMicros(await readBalance(db(), workspaceId)) : null;
  const engines = engineConfig().enabled.filter((engine) => priceOf(card, "judge", engine));
  return {
    runs,
    engines: engines.map((engine) => {
      const line = priceLines([{ product: "judge", engine, units: Math.max(1, runs) }], card).lines[0]!;
      const amount = runs > 0 ? line.amountMicros : 0n;
      return { engine, unit_price_usd: formatUsd(line.unitPriceMicros), amount_usd: formatUsd(amount), sufficient: available === null ? null : available >= amount };
    }),
    billing_enabled: settings.enabled,
    available_usd: available === null ? null : formatUsd(available < 0n ? 0n : available),
    pricing_version: card.version,
  };
}

/** A judged analysis of the same ids and entities as `analysisId`; answers its id (`va_…`, queued). */
export async function judgeAgain(principal: Principal, analysisId: string, judge: z.input<typeof JudgeRequest>): Promise<string> {
  const { ids, entities } = await reachableVisibility(principal, analysisId);
  return analyseVisibility(principal, { ids, entities, judge });
}
