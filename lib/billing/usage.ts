// GET /billing/usage: what was charged, by UTC day, product and engine. Only captured holds
// count; work that failed was released, charged nothing and is absent.
import type { Principal } from "../auth/principal";
import { db } from "../db/client";
import type { BillingProductName } from "./holds";
import { formatUsd } from "./money";
import { presentUsageRow, type UsageAggregate } from "./present";
import type { WorkspaceAccess } from "../workspaces/access";
import { billingWorkspace } from "./workspace";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The first instant of the window: midnight UTC `days - 1` days before today, so today counts as one. */
export function usageWindowStart(days: number, now: Date): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS);
}

type Row = { day: string; product: string; engine: string | null; unit: string; operations: number; units: string; charged: string };

async function usageAggregates(workspaceId: string, since: Date): Promise<UsageAggregate[]> {
  // settled_at is a UTC timestamp without zone (Prisma's DateTime), so its date is the UTC day;
  // `since` goes in as text cast to the same type, so the session's TimeZone plays no part.
  // Captures of zero units (a questions analysis that produced none) delivered nothing and are left out.
  const rows = await db().$queryRaw<Row[]>`
    SELECT to_char(settled_at, 'YYYY-MM-DD') AS day, product::text AS product, engine, unit,
           count(*)::int AS operations, sum(captured_units)::text AS units, sum(captured_micros)::text AS charged
    FROM credit_holds
    WHERE workspace_id = ${workspaceId} AND status = 'captured' AND settled_at >= ${since.toISOString()}::timestamp AND captured_units > 0
    GROUP BY 1, 2, 3, 4
    ORDER BY 1 DESC, 2, 3 NULLS FIRST, 4`;
  return rows.map((r) => ({
    day: r.day,
    product: r.product as BillingProductName,
    engine: r.engine,
    unit: r.unit,
    operations: Number(r.operations),
    units: Number(r.units),
    chargedMicros: BigInt(r.charged),
  }));
}

/** What a workspace the caller was checked into (requireWorkspace, reachableWorkspaces) was charged. */
export async function workspaceUsage(access: WorkspaceAccess, days: number, now: Date = new Date()) {
  const aggregates = await usageAggregates(access.workspace.id, usageWindowStart(days, now));
  return {
    days,
    total_usd: formatUsd(aggregates.reduce((sum, r) => sum + r.chargedMicros, 0n)),
    rows: aggregates.map(presentUsageRow),
  };
}

export async function getUsageReport(principal: Principal, query: { workspace?: string; days: number }) {
  return workspaceUsage(await billingWorkspace(principal, query.workspace), query.days);
}
