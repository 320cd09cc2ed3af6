// GET /monitors/{id}/digests: a monitor's weekly digests newest first (one statement per page), and
// the one presenter of a digest.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { date, defineStatement, int, text, type RowOf } from "../db/statement";
import { standalone } from "../db/sql";
import { decodeCursor, pageOf } from "../http/pagination";
import { reachableMonitorRow } from "../monitors/read";
import type { Digest, DigestList } from "../schemas/digests";

const digestColumns = {
  id: text("d.id"),
  monitorId: text("d.monitor_id"),
  week: text("d.week"),
  tickId: text("d.tick_id").nullable,
  status: text<z.output<typeof Digest>["status"]>("d.status"),
  reason: text("d.reason").nullable,
  recipient: text("d.recipient").nullable,
  subject: text("d.subject"),
  attempts: int("d.attempts"),
  createdAt: date("d.created_at"),
  sentAt: date("d.sent_at").nullable,
};

export type DigestRow = RowOf<typeof digestColumns>;

const DIGESTS = defineStatement({
  label: "monitor_digests",
  params: ["monitor", "before", "limit"],
  columns: digestColumns,
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM monitor_digests d WHERE d.monitor_id = ${p.monitor}` + (given.before ? ` AND d.id < ${p.before}` : "") + ` ORDER BY d.id DESC LIMIT ${p.limit}::int`,
});

export function presentDigest(row: DigestRow): z.input<typeof Digest> {
  return {
    id: row.id,
    monitor_id: row.monitorId,
    week: row.week,
    tick_id: row.tickId,
    status: row.status,
    reason: row.reason,
    recipient: row.recipient,
    subject: row.subject,
    attempts: row.attempts,
    created_at: row.createdAt.toISOString(),
    sent_at: row.sentAt?.toISOString() ?? null,
  };
}

/** GET /monitors/{id}/digests: newest first; 404 for a monitor out of reach, as for a missing one. */
export async function listDigests(principal: Principal, monitorId: string, query: { limit: number; cursor?: string }): Promise<z.input<typeof DigestList>> {
  const monitor = await reachableMonitorRow(principal, monitorId);
  const rows = await DIGESTS.query(standalone(), { monitor: monitor.id, before: query.cursor ? decodeCursor(query.cursor, "dg") : undefined, limit: query.limit + 1 });
  const page = pageOf(rows, query.limit);
  return { items: page.items.map(presentDigest), next_cursor: page.next_cursor };
}
