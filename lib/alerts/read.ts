// Reading a monitor's alerts with their deliveries (one statement, a page of alerts and each one's
// deliveries aggregated with it, ./rows.ts), shown by ./present.ts; and where its alerts go on its charts.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { defineStatement, text } from "../db/statement";
import { standalone } from "../db/sql";
import { decodeCursor, pageOf } from "../http/pagination";
import { reachableMonitorRow } from "../monitors/read";
import type { Alert, AlertList } from "../schemas/alerts";
import { presentAlert } from "./present";
import { alertColumns } from "./rows";

const ALERTS = defineStatement({
  label: "monitor_alerts",
  params: ["monitor", "alert", "before", "limit"],
  columns: alertColumns,
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM monitor_alerts a WHERE a.monitor_id = ${p.monitor}` +
    (given.alert ? ` AND a.id = ${p.alert}` : "") +
    (given.before ? ` AND a.id < ${p.before}` : "") +
    ` ORDER BY a.id DESC LIMIT ${p.limit}::int`,
});

/** GET /monitors/{id}/alerts: newest first; 404 for a monitor out of reach, as for a missing one. */
export async function listAlerts(principal: Principal, monitorId: string, query: { limit: number; cursor?: string }): Promise<z.input<typeof AlertList>> {
  const monitor = await reachableMonitorRow(principal, monitorId);
  const rows = await ALERTS.query(standalone(), { monitor: monitor.id, before: query.cursor ? decodeCursor(query.cursor, "al") : undefined, limit: query.limit + 1 });
  const page = pageOf(rows, query.limit);
  return { items: page.items.map(presentAlert), next_cursor: page.next_cursor };
}

/** One alert of a monitor (no access check: the caller decided), or null. */
export async function alertOf(monitorId: string, alertId: string): Promise<z.input<typeof Alert> | null> {
  const row = await ALERTS.first(standalone(), { monitor: monitorId, alert: alertId, limit: 1 });
  return row ? presentAlert(row) : null;
}

const CHART_ALERTS = defineStatement({
  label: "monitor_chart_alerts",
  params: ["monitor"],
  columns: { tickId: text("a.tick_id"), entity: text("a.entity").nullable, engine: text("a.engine").nullable },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM monitor_alerts a WHERE a.monitor_id = ${p.monitor} AND a.kind = 'significant_change' AND a.tick_id IS NOT NULL ORDER BY a.id`,
});

/**
 * Where a monitor's significant-change alerts go on its charts: each one's tick, entity and
 * engine ("all" for every engine together), nothing about its deliveries. No access check: the
 * caller has read the monitor (through a credential or a working share).
 */
export async function chartAlerts(monitorId: string): Promise<Array<{ tick_id: string; entity: string | null; engine: string | null }>> {
  const rows = await CHART_ALERTS.query(standalone(), { monitor: monitorId });
  return rows.map((r) => ({ tick_id: r.tickId, entity: r.entity, engine: r.engine }));
}
