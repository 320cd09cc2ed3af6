// Reading a monitor's alerts with their deliveries (one statement, a page of alerts and each one's
// deliveries aggregated with it), and the one presenter of an alert; the ping, POST …/alerts/test.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { date, defineStatement, isoSql, json, text, type RowOf } from "../db/statement";
import { standalone } from "../db/sql";
import { ApiError, notFound } from "../http/errors";
import { decodeCursor, pageOf } from "../http/pagination";
import { reachableMonitorRow } from "../monitors/read";
import type { Alert, AlertDelivery, AlertList } from "../schemas/alerts";
import { raisePing } from "./raise";
import { changeFields, type SignificantChange } from "./words";

type DeliveryJson = z.input<typeof AlertDelivery>;

/** Each delivery of alert `a` (its webhook, its tick's email) as the API's JSON, webhook first. */
const deliveriesSql = (a: string) =>
  `(SELECT COALESCE(json_agg(json_build_object('channel', d.channel, 'status', d.status, 'attempts', d.attempts, 'last_status', d.last_status, ` +
  `'last_error', d.last_error, 'last_attempt_at', ${isoSql("d.last_attempt_at")}, 'next_attempt_at', ${isoSql("d.next_attempt_at")}, 'history', d.history) ` +
  `ORDER BY d.channel), '[]'::json) FROM alert_deliveries d WHERE d.alert_id = ${a}.id OR d.id = ${a}.email_delivery_id)`;

const alertColumns = {
  id: text("a.id"),
  kind: text<z.output<typeof Alert>["kind"]>("a.kind"),
  tickId: text("a.tick_id").nullable,
  reason: text("a.reason").nullable,
  change: json<SignificantChange>("a.change").nullable,
  summary: text("a.summary"),
  createdAt: date("a.created_at"),
  deliveries: json<DeliveryJson[]>(deliveriesSql("a")),
};

export type AlertRow = RowOf<typeof alertColumns>;

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

export function presentAlert(row: AlertRow): z.input<typeof Alert> {
  const fields = changeFields(row.change);
  return {
    id: row.id,
    kind: row.kind,
    tick_id: row.tickId,
    reason: row.reason,
    ...fields,
    engine: fields.engine as z.input<typeof Alert>["engine"],
    summary: row.summary,
    created_at: row.createdAt.toISOString(),
    deliveries: row.deliveries,
  };
}

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

/** POST /monitors/{id}/alerts/test: a ping to the webhook now, answered as its alert (its delivery pending). */
export async function testWebhook(principal: Principal, monitorId: string, now = new Date()): Promise<z.input<typeof Alert>> {
  const monitor = await reachableMonitorRow(principal, monitorId);
  if (!monitor.alerts.webhook_url) {
    throw new ApiError(
      "conflict",
      `alerts.webhook_url: the monitor has no webhook URL to send a ping to; set one with PATCH /monitors/${monitor.id} {"alerts": {"webhook_url": "https://…"}}.`,
    );
  }
  const id = await raisePing(monitor.id, now);
  const alert = id ? await alertOf(monitor.id, id) : null;
  // The monitor was deleted between the check and the ping.
  if (!alert) throw notFound("monitor", monitor.id);
  return alert;
}
