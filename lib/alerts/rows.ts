// An alert's row as the reads answer it (./read.ts) and the presenter reads it (./present.ts): its
// columns (its deliveries aggregated with it) and type. Rows in, JSON out: neither of the two
// imports the other.
import type { z } from "zod";
import { date, isoSql, json, text, type RowOf } from "../db/statement";
import type { Alert, AlertDelivery } from "../schemas/alerts";
import type { SignificantChange } from "./words";

type DeliveryJson = z.input<typeof AlertDelivery>;

/** Each delivery of alert `a` (its webhook, its tick's email) as the API's JSON, webhook first. */
const deliveriesSql = (a: string) =>
  `(SELECT COALESCE(json_agg(json_build_object('channel', d.channel, 'status', d.status, 'attempts', d.attempts, 'last_status', d.last_status, ` +
  `'last_error', d.last_error, 'last_attempt_at', ${isoSql("d.last_attempt_at")}, 'next_attempt_at', ${isoSql("d.next_attempt_at")}, 'history', d.history) ` +
  `ORDER BY d.channel), '[]'::json) FROM alert_deliveries d WHERE d.alert_id = ${a}.id OR d.id = ${a}.email_delivery_id)`;

export const alertColumns = {
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
