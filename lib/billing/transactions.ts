// GET /billing/transactions: every change to the balance, newest first, a page at a time.
import type { Principal } from "../auth/principal";
import { db } from "../db/client";
import { isId } from "../db/ids";
import { ApiError } from "../http/errors";
import { presentTransaction } from "./present";
import { billingWorkspaceId } from "./workspace";

// Opaque to clients so the ordering key can change without breaking them; versioned so a
// cursor from an older server is refused clearly rather than misread.
const CURSOR_VERSION = "t1";

export function encodeCursor(lastId: string): string {
  return Buffer.from(`${CURSOR_VERSION}:${lastId}`, "utf8").toString("base64url");
}

export function decodeCursor(cursor: string): string {
  const refuse = () =>
    new ApiError("invalid_request", "cursor: is not a cursor this server issued; pass the next_cursor of the previous page");
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw refuse();
  const [version, id, ...rest] = Buffer.from(cursor, "base64url").toString("utf8").split(":");
  if (version !== CURSOR_VERSION || !id || rest.length || !isId(id, "tx")) throw refuse();
  return id;
}

export async function workspaceTransactions(workspaceId: string, page: { limit: number; cursor?: string }) {
  const before = page.cursor ? decodeCursor(page.cursor) : undefined;
  const rows = await db().ledgerTransaction.findMany({
    where: { workspaceId, ...(before ? { id: { lt: before } } : {}) },
    orderBy: { id: "desc" },
    take: page.limit + 1,
    include: { actor: { select: { email: true } } },
  });
  const items = rows.slice(0, page.limit);
  const last = items.at(-1);
  return {
    items: items.map(presentTransaction),
    next_cursor: rows.length > page.limit && last ? encodeCursor(last.id) : null,
  };
}

export async function listBillingTransactions(principal: Principal, query: { workspace?: string; limit: number; cursor?: string }) {
  // The cursor is checked before the workspace so a bad one is 400 whatever else is wrong.
  if (query.cursor) decodeCursor(query.cursor);
  return workspaceTransactions(await billingWorkspaceId(principal, query.workspace), query);
}
