// GET /billing: balance by bucket, held, available and this month's spend.
import type { Principal } from "../auth/principal";
import { db } from "../db/client";
import { readBalance, spentSince } from "./ledger";
import { presentSummary } from "./present";
import { billingSettings } from "./settings";
import { billingWorkspaceId } from "./workspace";

export function startOfMonthUtc(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

export async function workspaceBillingSummary(workspaceId: string, now: Date = new Date()) {
  const settings = billingSettings();
  const [balance, spend] = await Promise.all([
    readBalance(db(), workspaceId),
    spentSince(db(), workspaceId, startOfMonthUtc(now)),
  ]);
  return presentSummary({
    workspaceId,
    enabled: settings.enabled,
    balance,
    spendMonthToDateMicros: spend,
    addCreditUrl: settings.addCreditUrl,
  });
}

export async function getBillingSummary(principal: Principal, query: { workspace?: string }) {
  return workspaceBillingSummary(await billingWorkspaceId(principal, query.workspace));
}
