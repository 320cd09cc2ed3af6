// Billing shapes (spec 2.8).
import { z } from "zod";
import { defineEndpoint } from "./endpoint";
import { DateTime, PageQuery, Usd, idOf, intParam, listOf } from "./common";
import {
  exampleBillingSummary,
  exampleCapturedCharge,
  examplePriceRows,
  examplePromoTransaction,
  exampleRateCard,
  exampleUsageReport,
  exampleUsageRows,
  exampleUsageTransaction,
} from "./examples";

export const BillingProduct = z.enum(["prompt", "questions", "audit", "citations", "judge"]).meta({ id: "BillingProduct" });
export const BillingUnit = z.enum(["prompt", "question", "url", "analysis", "run"]).meta({ id: "BillingUnit" });

export const PriceRow = z
  .object({
    product: BillingProduct,
    engine: z.string().nullable().describe("Set where the price depends on the engine."),
    unit: BillingUnit,
    unit_price_usd: Usd.describe("Per unit; 0 means included."),
  })
  .meta({ id: "PriceRow", examples: [examplePriceRows[0]] });

export const RateCard = z
  .object({
    version: z.string().describe("The pricing_version that charges and estimates carry."),
    effective_from: DateTime,
    currency: z.string(),
    prices: z.array(PriceRow),
  })
  .meta({
    id: "RateCard",
    description: "A prompt on several engines costs the sum of its engines' prices; there is no separate all-engines price.",
    examples: [exampleRateCard],
  });

export const getPricing = defineEndpoint({
  method: "GET",
  path: "/pricing",
  operationId: "getPricing",
  summary: "The current rate card",
  description:
    "Prices per engine and product, with the rate card's `pricing_version` and `effective_from`. Work is held at these prices when it is queued. Needs no credential.",
  tags: ["Billing"],
  auth: "none",
  response: RateCard,
  status: 200,
});

export const TransactionKind = z.enum(["promo_grant", "purchase", "usage", "reversal", "adjustment"]).meta({ id: "TransactionKind" });
export const CreditBucket = z.enum(["promo", "purchased"]).meta({ id: "CreditBucket" });
export const ChargeStatus = z.enum(["held", "captured", "released"]).meta({ id: "ChargeStatus" });

const WorkspaceParam = idOf("ws")
  .optional()
  .describe("A workspace the caller belongs to; defaults to the caller's personal workspace (an API key's own workspace).");

export const BillingSummary = z
  .object({
    workspace_id: idOf("ws").nullable(),
    enabled: z.boolean().describe("False while the server charges for nothing."),
    balance_usd: Usd.describe("Purchased plus promotional."),
    purchased_usd: Usd.describe("Bought; does not expire."),
    promotional_usd: Usd.describe("Given by the service; spent first."),
    held_usd: Usd.describe("Set aside for queued or running work (0.00 when nothing is held, as while billing is off)."),
    available_usd: Usd.describe("Balance less held: what new work can use."),
    spend_month_to_date_usd: Usd.describe("Charged since the 1st of this month, UTC."),
    add_credit_url: z.string().describe("Where to add credit: the account page's billing section."),
  })
  .meta({ id: "BillingSummary", examples: [exampleBillingSummary] });

export const RunCharge = z
  .object({
    status: ChargeStatus,
    amount_usd: Usd.describe("The held amount while held, the paid amount once captured, 0 if released."),
    unit: BillingUnit,
    units: z.int().min(0),
    unit_price_usd: Usd,
    pricing_version: z.string(),
  })
  .meta({ id: "RunCharge", examples: [exampleCapturedCharge] });

export const Transaction = z
  .object({
    id: idOf("tx"),
    kind: TransactionKind,
    bucket: CreditBucket,
    amount_usd: Usd.describe("Signed; above zero adds credit."),
    description: z.string(),
    created_at: DateTime,
    operation_id: idOf("rq", "fo", "fa", "ca", "va", "dr").nullable().describe("For usage: the batch, fanout, analysis or run charged."),
    run_id: idOf("dr").nullable(),
    actor: z.string().nullable().describe("Email of who started the work or recorded the change; null for credit the service gave."),
    api_key_id: idOf("ak").nullable().describe("The API key the charged work was started with."),
  })
  .meta({ id: "Transaction", description: "One change to the balance; holds are not transactions.", examples: [exampleUsageTransaction] });

export const TransactionList = listOf(Transaction, "TransactionList", {
  examples: [{ items: [exampleUsageTransaction, examplePromoTransaction], next_cursor: null }],
});

export const UsageRow = z
  .object({
    day: z.iso.date().describe("UTC day the work was charged."),
    product: BillingProduct,
    engine: z.string().nullable(),
    unit: BillingUnit,
    operations: z.int().positive().describe("Runs (or analyses) that were charged."),
    units: z.int().positive(),
    charged_usd: Usd,
  })
  .meta({ id: "UsageRow", examples: [exampleUsageRows[0]] });

export const UsageReport = z
  .object({
    days: z.int().min(1).max(366),
    total_usd: Usd.describe("The sum of the rows' charged_usd."),
    rows: z.array(UsageRow).describe("Newest day first; failed work was not charged and is absent."),
  })
  .meta({ id: "UsageReport", examples: [exampleUsageReport] });

export const UsageQuery = z.object({
  workspace: WorkspaceParam,
  days: intParam(1, 366, 30, "UTC days to report, today included:"),
});

export const getBilling = defineEndpoint({
  method: "GET", path: "/billing", operationId: "getBilling", summary: "Balance by bucket, held, available and this month's spend",
  description:
    "For `workspace` (default: the caller's own, or the API key's): purchased and promotional credit, what queued or running work holds, what is available for new work, and this month's spend. Money is decimal strings.",
  tags: ["Billing"], auth: "bearer", query: z.object({ workspace: WorkspaceParam }), response: BillingSummary, status: 200,
});
export const listTransactions = defineEndpoint({
  method: "GET", path: "/billing/transactions", operationId: "listTransactions",
  summary: "Every change to the balance, newest first, with the actor",
  description:
    "Purchases, promotional grants, usage (one per captured charge, with the run or operation it paid for) and corrections, newest first, paginated. Holds are not transactions.",
  tags: ["Billing"], auth: "bearer", query: PageQuery.extend({ workspace: WorkspaceParam }), response: TransactionList, status: 200,
});
export const getUsage = defineEndpoint({
  method: "GET", path: "/billing/usage", operationId: "getUsage",
  summary: "What was charged, by day, product and engine",
  description: "Failed work was not charged and is not listed.",
  tags: ["Billing"], auth: "bearer", query: UsageQuery, response: UsageReport, status: 200,
});
