// Billing rows as the API shows them (spec 2.8, RunCharge of 2.3) and the rate card (GET /pricing):
// bigint micro-dollars become decimal strings here and nowhere else.
import type { z } from "zod";
import type { BillingSummary, RateCard, RunCharge, Transaction, UsageRow } from "../schemas/billing";
import { formatUsd } from "./money";
import type { LoadedRateCard } from "./rate-card";
import type { BalanceMicros, HoldRow, TransactionRow } from "./store";


export function presentTransaction(row: TransactionRow): z.input<typeof Transaction> {
  return {
    id: row.id,
    kind: row.kind,
    bucket: row.bucket,
    amount_usd: formatUsd(row.amountMicros),
    description: row.description,
    created_at: row.createdAt.toISOString(),
    operation_id: row.operationId,
    run_id: row.runId,
    actor: row.actor?.email ?? null,
    api_key_id: row.apiKeyId,
  };
}

export function presentSummary(input: {
  workspaceId: string;
  enabled: boolean;
  balance: BalanceMicros;
  /** What the balance leaves available (ledger.ts availableMicros). */
  availableMicros: bigint;
  spendMonthToDateMicros: bigint;
  addCreditUrl: string;
}): z.input<typeof BillingSummary> {
  const { balance, enabled } = input;
  return {
    workspace_id: input.workspaceId,
    enabled,
    balance_usd: formatUsd(balance.promoMicros + balance.purchasedMicros),
    purchased_usd: formatUsd(balance.purchasedMicros),
    promotional_usd: formatUsd(balance.promoMicros),
    // Strings whether or not billing is on (spec 2.8): with billing off nothing new is held, so
    // held is 0.00 unless work queued while billing was on is still unfinished.
    held_usd: formatUsd(balance.heldMicros),
    available_usd: formatUsd(input.availableMicros),
    spend_month_to_date_usd: formatUsd(input.spendMonthToDateMicros),
    add_credit_url: input.addCreditUrl,
  };
}

/** A run's charge: the held amount while held, the paid amount once captured, 0 if released. Null if not billed. */
export function presentRunCharge(hold: Pick<HoldRow, "status" | "amountMicros" | "capturedMicros" | "unit" | "units" | "capturedUnits" | "unitPriceMicros" | "pricingVersion"> | null, billingEnabled: boolean): z.input<typeof RunCharge> | null {
  if (!hold || !billingEnabled) return null;
  const amount = hold.status === "held" ? hold.amountMicros : hold.status === "captured" ? (hold.capturedMicros ?? 0n) : 0n;
  return {
    status: hold.status,
    amount_usd: formatUsd(amount),
    unit: hold.unit as z.input<typeof RunCharge>["unit"],
    units: hold.status === "captured" ? (hold.capturedUnits ?? hold.units) : hold.units,
    unit_price_usd: formatUsd(hold.unitPriceMicros),
    pricing_version: hold.pricingVersion,
  };
}

export type UsageAggregate = {
  day: string;
  product: z.input<typeof UsageRow>["product"];
  engine: string | null;
  unit: string;
  operations: number;
  units: number;
  chargedMicros: bigint;
};

/** What was charged, whether or not billing is on now (charges made before it was switched off stay charged). */
export function presentUsageRow(row: UsageAggregate): z.input<typeof UsageRow> {
  return {
    day: row.day,
    product: row.product,
    engine: row.engine,
    unit: row.unit as z.input<typeof UsageRow>["unit"],
    operations: row.operations,
    units: row.units,
    charged_usd: formatUsd(row.chargedMicros),
  };
}

export function presentRateCard(card: LoadedRateCard): z.input<typeof RateCard> {
  return {
    version: card.version,
    effective_from: card.effectiveFrom,
    currency: card.currency,
    prices: card.prices.map((p) => ({
      product: p.product,
      engine: p.engine,
      unit: p.unit,
      unit_price_usd: formatUsd(p.unitPriceMicros),
    })),
  };
}
