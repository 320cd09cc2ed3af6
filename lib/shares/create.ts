// Share links (decisions.md "Sharing"): at most one working link per finished run, analysis,
// fanout or prompt batch, or per monitor (the kinds: lib/schemas/shares.ts SHARE_TARGETS and
// ./read.ts). The token is never stored (./token.ts): the database holds only its SHA-256. A
// revoked share never works again; sharing again makes a new one.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { hashSecret } from "../auth/secrets";
import { db } from "../db/client";
import { newId } from "../db/ids";
import { ApiError } from "../http/errors";
import { SHARE_TARGETS, type ShareKind, type ShareState, type ShareTarget as TargetSpec } from "../schemas/shares";
import { presentShare } from "./present";
import { liveShare, targetOrThrow } from "./read";
import { tokenOf } from "./token";

/** The statuses a kind that must have finished can be shared in (a run or analysis is never partial). */
const FINISHED = new Set(["completed", "partial", "failed"]);

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === "P2002" || /shares_live_target_key|unique constraint/i.test(String((error as Error).message));
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
  const shareId = newId("share");
  try {
    const row = await db().share.create({
      data: { id: shareId, workspaceId: target.workspaceId, targetKind: kind, targetId: id, tokenHash: hashSecret(tokenOf(shareId)), createdByUserId: principal.user.id },
    });
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
  await db().share.updateMany({ where: { targetKind: kind, targetId: target.id, revokedAt: null }, data: { revokedAt: new Date() } });
}

/** Replaces the working link with a new one; the old one stops working in the same transaction. */
export async function rotateShare(principal: Principal, kind: ShareKind, id: string): Promise<z.input<typeof ShareState>> {
  const target = await targetOrThrow(principal, kind, id);
  const rotated = await db().$transaction(async (tx) => {
    const live = await tx.share.findFirst({ where: { targetKind: kind, targetId: id, revokedAt: null } });
    if (!live) return null;
    // Conditional: of two rotations at once, one revokes this share; the other finds it revoked.
    const { count } = await tx.share.updateMany({ where: { id: live.id, revokedAt: null }, data: { revokedAt: new Date() } });
    if (count !== 1) return "lost" as const;
    const shareId = newId("share");
    return tx.share.create({
      data: {
        id: shareId, workspaceId: target.workspaceId, targetKind: kind, targetId: id, tokenHash: hashSecret(tokenOf(shareId)),
        createdByUserId: principal.user.id, rotatedFromId: live.id,
      },
    });
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
