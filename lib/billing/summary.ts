// GET /billing: balance by bucket, held, available and this month's spend.
import type { Principal } from "../auth/principal";
import { db } from "../db/client";
import { readBalance, spentSince } from "./ledger";
import { presentSummary } from "./present";
import { billingSettings } from "./settings";
import type { WorkspaceAccess } from "../workspaces/access";
import { billingWorkspace } from "./workspace";

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
