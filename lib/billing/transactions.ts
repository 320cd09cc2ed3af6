// GET /billing/transactions: every change to the balance, newest first, a page at a time.
import type { Principal } from "../auth/principal";
import { standalone } from "../db/sql";
import { decodeCursor, pageOf } from "../http/pagination";
import { presentTransaction } from "./present";
import { transactionsOf } from "./store";
import type { WorkspaceAccess } from "../workspaces/access";
import { billingWorkspace } from "./workspace";

/** A page of the ledger of a workspace the caller was checked into (requireWorkspace, reachableWorkspaces). */
export async function workspaceTransactions(access: WorkspaceAccess, page: { limit: number; cursor?: string }) {
  const workspaceId = access.workspace.id;
  const before = page.cursor ? decodeCursor(page.cursor, "tx") : undefined;
  const rows = await transactionsOf(standalone(), workspaceId, { before, limit: page.limit + 1 });
  const { items, next_cursor } = pageOf(rows, page.limit);
  return { items: items.map(presentTransaction), next_cursor };
}

export async function listBillingTransactions(principal: Principal, query: { workspace?: string; limit: number; cursor?: string }) {
  // The cursor is checked before the workspace so a bad one is 400 whatever else is wrong.
  if (query.cursor) decodeCursor(query.cursor, "tx");
  return workspaceTransactions(await billingWorkspace(principal, query.workspace), query);
}
