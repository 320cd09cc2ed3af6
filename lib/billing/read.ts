// Billing's GET requests: the summary (GET /billing: balance by bucket, held, available and this
// month's spend), the ledger (GET /billing/transactions: every change to the balance, newest
// first, a page at a time), the usage (GET /billing/usage: what was charged, by UTC day, product
// and engine) and the rate card (GET /pricing). Only captured holds count as usage; work that
// failed was released, charged nothing and is absent.
import type { Principal } from "../auth/principal";
import { db } from "../db/client";
import { standalone } from "../db/sql";
import { decodeCursor, pageOf } from "../http/pagination";
import { availableMicros, readBalance, spentSince } from "./ledger";
import { formatUsd } from "./money";
import { presentRateCard, presentSummary, presentTransaction, presentUsageRow, type UsageAggregate } from "./present";
import { billingSettings, currentRateCard } from "./settings";
import { transactionsOf, usageSince } from "./store";
import type { WorkspaceAccess } from "../workspaces/access";
import { billingWorkspace } from "./workspace";

// ---------------------------------------------------------------------------
// GET /billing
// ---------------------------------------------------------------------------

export function startOfMonthUtc(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

async function summaryOf(workspaceId: string, now: Date) {
  const settings = billingSettings();
  const [balance, spend] = await Promise.all([
    readBalance(db(), workspaceId),
    spentSince(db(), workspaceId, startOfMonthUtc(now)),
  ]);
  return presentSummary({
    workspaceId,
    enabled: settings.enabled,
    balance,
    availableMicros: availableMicros(balance),
    spendMonthToDateMicros: spend,
    addCreditUrl: settings.addCreditUrl,
  });
}

/** The summary of a workspace the caller was checked into (requireWorkspace, reachableWorkspaces). */
export async function workspaceBillingSummary(access: WorkspaceAccess, now: Date = new Date()) {
  return summaryOf(access.workspace.id, now);
}

/** The operator's admin command only: it runs on the server with no principal, so there is no access to check. */
export async function workspaceBillingSummaryForOperator(workspaceId: string, now: Date = new Date()) {
  return summaryOf(workspaceId, now);
}

export async function getBillingSummary(principal: Principal, query: { workspace?: string }) {
  return workspaceBillingSummary(await billingWorkspace(principal, query.workspace));
}

// ---------------------------------------------------------------------------
// GET /billing/transactions
// ---------------------------------------------------------------------------

/** A page of the ledger of a workspace the caller was checked into (requireWorkspace, reachableWorkspaces). */
export async function workspaceTransactions(access: WorkspaceAccess, page: { limit: number; cursor?: string }) {
  const workspaceId = access.workspace.id;
  const before = page.cursor ? decodeCursor(page.cursor, "tx") : undefined;
  const rows = await transactionsOf(standalone(), workspaceId, { before, limit: page.limit + 1 });
  const { items, next_cursor } = pageOf(rows, page.limit);
  return { items: items.map(presentTransaction), next_cursor };
}

export async function listBillingTransactions(principal: Principal, query: { workspace?: string; limit: number; cursor?: string }) {
  // The cursor is checked before the workspace so a bad one is 400 whatever else is wrong.
  if (query.cursor) decodeCursor(query.cursor, "tx");
  return workspaceTransactions(await billingWorkspace(principal, query.workspace), query);
}

// ---------------------------------------------------------------------------
// GET /billing/usage
// ---------------------------------------------------------------------------

const DAY_MS = 24 * 60 * 60 * 1000;

/** The first instant of the window: midnight UTC `days - 1` days before today, so today counts as one. */
export function usageWindowStart(days: number, now: Date): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS);
}

/** What a workspace the caller was checked into (requireWorkspace, reachableWorkspaces) was charged. */
export async function workspaceUsage(access: WorkspaceAccess, days: number, now: Date = new Date()) {
  const aggregates: UsageAggregate[] = await usageSince(standalone(), access.workspace.id, usageWindowStart(days, now));
  return {
    days,
    total_usd: formatUsd(aggregates.reduce((sum, r) => sum + r.chargedMicros, 0n)),
    rows: aggregates.map(presentUsageRow),
  };
}

export async function getUsageReport(principal: Principal, query: { workspace?: string; days: number }) {
  return workspaceUsage(await billingWorkspace(principal, query.workspace), query.days);
}

// ---------------------------------------------------------------------------
// GET /pricing
// ---------------------------------------------------------------------------

/** The rate card in force (RATE_CARD_FILE), as the API shows it. */
export function getPricing() {
  return presentRateCard(currentRateCard());
}
