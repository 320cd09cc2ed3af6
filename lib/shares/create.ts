// Share links (decisions.md "Sharing"): at most one working link per finished run, analysis,
// fanout or prompt batch, or per monitor (the kinds: lib/schemas/shares.ts SHARE_TARGETS and
// ./read.ts). The token is never stored (./token.ts): the database holds only its SHA-256. A
// revoked share never works again; sharing again makes a new one.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { hashSecret } from "../auth/secrets";
import { currentDb } from "../db/client";
import { newId } from "../db/ids";
import { textTransaction } from "../db/sql";
import { atUtc, defineStatement, standalone, text, type SqlSession } from "../db/statement";
import { ApiError } from "../http/errors";
import { SHARE_TARGETS, type ShareKind, type ShareState, type ShareTarget as TargetSpec } from "../schemas/shares";
import { presentShare } from "./present";
import { LIVE_SHARE, liveShare, shareColumns, targetOrThrow, type Target } from "./read";
import { tokenOf } from "./token";

/** The statuses a kind that must have finished can be shared in (a run or analysis is never partial). */
const FINISHED = new Set(["completed", "partial", "failed"]);

/** PostgreSQL's unique violation (23505), as the pg driver and PGlite report it. */
function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === "23505" || /shares_live_target_key|unique constraint/i.test(String((error as Error).message));
}

/** A new share, answered with its columns. */
const INSERT_SHARE = defineStatement({
  label: "share_insert",
  params: ["id", "workspace", "kind", "target", "hash", "user", "from", "now"],
  columns: shareColumns,
  sql: ({ select, p }) =>
    `WITH s AS (INSERT INTO shares (id, workspace_id, target_kind, target_id, token_hash, created_by_user_id, rotated_from_id, created_at)
      VALUES (${p.id}, ${p.workspace}, ${p.kind}::text::"ShareTargetKind", ${p.target}, ${p.hash}, ${p.user}, ${p.from}, ${atUtc(p.now)}) RETURNING *)
    SELECT ${select} FROM s`,
});

/** Revokes the target's working share, if any. */
const REVOKE_LIVE = defineStatement({
  label: "shares_revoke",
  params: ["kind", "target", "now"],
  sql: ({ p }) =>
    `UPDATE shares SET revoked_at = ${atUtc(p.now)} WHERE target_kind = ${p.kind}::text::"ShareTargetKind" AND target_id = ${p.target} AND revoked_at IS NULL`,
});

/** Revokes this share while it works; answers it only when this call revoked it. */
const REVOKE_ONE = defineStatement({
  label: "share_revoke_one",
  params: ["id", "now"],
  columns: { id: text("id") },
  sql: ({ select, p }) => `UPDATE shares SET revoked_at = ${atUtc(p.now)} WHERE id = ${p.id} AND revoked_at IS NULL RETURNING ${select}`,
});

/** A new share of the target (its token made from its id), replacing `from` when given. */
function insertShare(session: SqlSession, principal: Principal, target: Target, from: string | null) {
  const id = newId("share");
  return INSERT_SHARE.first(session, {
    id, workspace: target.workspaceId, kind: target.kind, target: target.id, hash: hashSecret(tokenOf(id)), user: principal.user.id, from, now: new Date(),
  });
}

/** Shares a finished object; an object already shared answers its link unchanged. */
export async function createShare(principal: Principal, kind: ShareKind, id: string): Promise<z.input<typeof ShareState>> {
  const target = await targetOrThrow(principal, kind, id);
  const { noun, finished } = SHARE_TARGETS[kind] as TargetSpec;
  if (finished !== null && !FINISHED.has(target.status)) {
    throw new ApiError(
      "conflict",
      `The ${noun} ${JSON.stringify(id)} is ${target.status}; only a finished ${noun} (${finished}) can be shared. Share it once it has finished.`,
      { retryable: true },
    );
  }
  const live = await liveShare(target);
  if (live) return presentShare(live);
  try {
    const row = (await insertShare(standalone(), principal, target, null))!;
    return presentShare(row);
  } catch (error) {
    // Another request shared it first (shares_live_target_key): its link is the link.
    if (!isUniqueViolation(error)) throw error;
    const winner = await liveShare(target);
    if (!winner) throw error;
    return presentShare(winner);
  }
}

/** Revokes the working link, if any: it stops working at once and never works again. */
export async function revokeShare(principal: Principal, kind: ShareKind, id: string): Promise<void> {
  const target = await targetOrThrow(principal, kind, id);
  await REVOKE_LIVE.query(standalone(), { kind, target: target.id, now: new Date() });
}

/** Replaces the working link with a new one; the old one stops working in the same transaction. */
export async function rotateShare(principal: Principal, kind: ShareKind, id: string): Promise<z.input<typeof ShareState>> {
  const target = await targetOrThrow(principal, kind, id);
  const rotated = await textTransaction(currentDb(), async (sql) => {
    const live = await LIVE_SHARE.first(sql, { kind, target: id });
    if (!live) return null;
    // Conditional: of two rotations at once, one revokes this share; the other finds it revoked.
    const revoked = await REVOKE_ONE.query(sql, { id: live.id, now: new Date() });
    if (revoked.length !== 1) return "lost" as const;
    return (await insertShare(sql, principal, target, live.id))!;
  });
  if (rotated === "lost") {
    // Another rotation won: its new link is the working one.
    const live = await liveShare(target);
    if (live) return presentShare(live);
  }
  if (!rotated || rotated === "lost") {
    throw new ApiError("conflict", `The ${SHARE_TARGETS[kind].noun} ${JSON.stringify(id)} is not shared, so there is no link to rotate; share it first.`, { retryable: false });
  }
  return presentShare(rotated);
}
