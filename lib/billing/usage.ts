// GET /billing/usage: what was charged, by UTC day, product and engine. Only captured holds
// count; work that failed was released, charged nothing and is absent.
import type { Principal } from "../auth/principal";
import { standalone } from "../db/sql";
import { formatUsd } from "./money";
import { presentUsageRow, type UsageAggregate } from "./present";
import { usageSince } from "./store";
import type { WorkspaceAccess } from "../workspaces/access";
import { billingWorkspace } from "./workspace";

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
