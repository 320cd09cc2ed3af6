// GET /monitors/{id}/digests: a monitor's weekly digests newest first (one statement per page),
// shown by ./present.ts.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { defineStatement } from "../db/statement";
import { standalone } from "../db/sql";
import { decodeCursor, pageOf } from "../http/pagination";
import { reachableMonitorRow } from "../monitors/read";
import type { DigestList } from "../schemas/digests";
import { presentDigest } from "./present";
import { digestColumns } from "./rows";

const DIGESTS = defineStatement({
  label: "monitor_digests",
  params: ["monitor", "before", "limit"],
  columns: digestColumns,
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM monitor_digests d WHERE d.monitor_id = ${p.monitor}` + (given.before ? ` AND d.id < ${p.before}` : "") + ` ORDER BY d.id DESC LIMIT ${p.limit}::int`,
});

/** GET /monitors/{id}/digests: newest first; 404 for a monitor out of reach, as for a missing one. */
export async function listDigests(principal: Principal, monitorId: string, query: { limit: number; cursor?: string }): Promise<z.input<typeof DigestList>> {
  const monitor = await reachableMonitorRow(principal, monitorId);
  const rows = await DIGESTS.query(standalone(), { monitor: monitor.id, before: query.cursor ? decodeCursor(query.cursor, "dg") : undefined, limit: query.limit + 1 });
  const page = pageOf(rows, query.limit);
  return { items: page.items.map(presentDigest), next_cursor: page.next_cursor };
}
