// Who reads an object through the API's reads (lib/runs/read.ts, lib/fanouts/read.ts, the
// analyses' read): a credential, which reaches the objects of its workspaces
// (lib/workspaces/access.ts), or a share link whose token has been checked, which reaches its one
// object while it works. The reads take either, so a public page reads exactly what GET answers,
// by the same statements and presenters.
import type { Principal } from "../auth/principal";
import { reachableSql, reachOf, type ReachPlaceholders } from "../workspaces/access";

/** A working share (its `sh_` id): it reads its target, and nothing else, while not revoked. */
export type ShareReader = { readonly share: string };

export type Reader = Principal | ShareReader;

export function isShareReader(reader: Reader): reader is ShareReader {
  return "share" in reader;
}

/** The parameters `readableSql` reads: the credential's, or the share's (never both). */
export function readerOf(reader: Reader): { user?: string; own?: string | null; share?: string } {
  return isShareReader(reader) ? { share: reader.share } : reachOf(reader);
}

export type ReaderPlaceholders = ReachPlaceholders & { readonly share: string };

/**
 * The row (alias `t`, whose `id` a share names) is one the reader may read: in a workspace the
 * credential reaches, or the target of the given share while it is not revoked. A statement given
 * `share` and not `user` renders the second (a statement of its own); given neither, it fails to
 * render, so a read never runs without one of the two checks.
 */
export function readableSql(t: string, p: ReaderPlaceholders, given: { readonly share: boolean }): string {
  return given.share
    ? `EXISTS (SELECT 1 FROM shares s WHERE s.id = ${p.share} AND s.target_id = ${t}.id AND s.revoked_at IS NULL)`
    : reachableSql(t, p);
}
