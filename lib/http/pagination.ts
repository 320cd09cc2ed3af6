// Cursor pagination of newest-first lists (spec 4.1). A cursor is the id of the last item of the
// previous page, wrapped so that it stays opaque to clients and its format can change.
import type { IdPrefix } from "../db/ids";
import { isId } from "../db/ids";
import { ApiError } from "./errors";

// Versioned so a cursor from an older server is refused clearly rather than misread.
const CURSOR_VERSION = "t1";

export function encodeCursor(lastId: string): string {
  return Buffer.from(`${CURSOR_VERSION}:${lastId}`, "utf8").toString("base64url");
}

/** The id a cursor points after, or 400 naming `cursor` when this server did not issue it for this list. */
export function decodeCursor(cursor: string, prefix: IdPrefix): string {
  const refuse = () =>
    new ApiError("invalid_request", "cursor: is not a cursor this server issued; pass the next_cursor of the previous page");
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw refuse();
  const [version, id, ...rest] = Buffer.from(cursor, "base64url").toString("utf8").split(":");
  if (version !== CURSOR_VERSION || !id || rest.length || !isId(id, prefix)) throw refuse();
  return id;
}

/** Splits `limit + 1` rows fetched newest first into the page and the next cursor. */
export function pageOf<T extends { id: string }>(rows: T[], limit: number): { items: T[]; next_cursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, next_cursor: rows.length > limit && last ? encodeCursor(last.id) : null };
}
