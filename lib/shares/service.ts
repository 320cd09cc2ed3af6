// Share links (decisions.md "Sharing"): at most one working link per finished run, analysis,
// fanout or prompt batch (the kinds: lib/schemas/shares.ts SHARE_TARGETS and ./kinds.ts).
// The token is never stored: it is derived from the share's id with an HMAC keyed by the server's
// secret, so the same link can be shown again (spec: asking again returns the same link) while the
// database holds only its SHA-256. A revoked share never works again; sharing again makes a new one.
import { createHmac } from "node:crypto";
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { hashSecret, hashesEqual } from "../auth/secrets";
import { config } from "../config/env";
import { authSecret } from "../config/secret";
import { db } from "../db/client";
import { newId } from "../db/ids";
import { ApiError, notFound } from "../http/errors";
import { SHARE_TARGETS, type ShareKind, type ShareState, type ShareStatus, type ShareTarget as TargetSpec } from "../schemas/shares";
import { SHARE_KINDS, shareKindEntry } from "./kinds";

/** The statuses a kind that must have finished can be shared in (a run or analysis is never partial). */
const FINISHED = new Set(["completed", "partial", "failed"]);

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** 62^43 > 2^256: every bit of the HMAC is kept. */
export const SHARE_TOKEN_LENGTH = 43;
const TOKEN_PATTERN = new RegExp(`^[0-9A-Za-z]{${SHARE_TOKEN_LENGTH}}$`);

/** The share's token: HMAC-SHA256(server secret, share id) in base62. */
export function tokenOf(shareId: string): string {
  const mac = createHmac("sha256", authSecret()).update(`geoscope share token\u0000${shareId}`).digest("hex");
  let n = BigInt(`0x${mac}`);
  let out = "";
  for (let i = 0; i < SHARE_TOKEN_LENGTH; i++) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out;
}

export function shareUrl(shareId: string): string {
  return `${config().PUBLIC_BASE_URL}/s/${tokenOf(shareId)}`;
}

type ShareRow = { id: string; targetKind: string; targetId: string; createdAt: Date; revokedAt: Date | null; rotatedFromId: string | null };

function present(row: ShareRow): z.input<typeof ShareState> {
  return {
    id: row.id,
    url: shareUrl(row.id),
    target_id: row.targetId,
    target_kind: row.targetKind as ShareKind,
    created_at: row.createdAt.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
    rotated_from: row.rotatedFromId,
  };
}

type Target = { kind: ShareKind; id: string; workspaceId: string; status: string };

/** The object the caller can reach, or 404 exactly as reading it would. */
async function targetOrThrow(principal: Principal, kind: ShareKind, id: string): Promise<Target> {
  const found = await SHARE_KINDS[kind].target(principal, id);
  if (!found) throw notFound(kind, id);
  return { kind, id, workspaceId: found.workspaceId, status: found.status };
}

const liveShare = (target: Target) => db().share.findFirst({ where: { targetKind: target.kind, targetId: target.id, revokedAt: null } });

export async function getShareStatus(principal: Principal, kind: ShareKind, id: string): Promise<z.input<typeof ShareStatus>> {
  const target = await targetOrThrow(principal, kind, id);
  const live = await liveShare(target);
  if (live) return { shared: true, share: present(live) };
  const last = await db().share.findFirst({ where: { targetKind: kind, targetId: id }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  return { shared: false, share: last ? present(last) : null };
}

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
  if (live) return present(live);
  const shareId = newId("share");
  try {
    const row = await db().share.create({
      data: { id: shareId, workspaceId: target.workspaceId, targetKind: kind, targetId: id, tokenHash: hashSecret(tokenOf(shareId)), createdByUserId: principal.user.id },
    });
    return present(row);
  } catch (error) {
    // Another request shared it first (shares_live_target_key): its link is the link.
    if (!isUniqueViolation(error)) throw error;
    const winner = await liveShare(target);
    if (!winner) throw error;
    return present(winner);
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
    if (live) return present(live);
  }
  if (!rotated || rotated === "lost") {
    throw new ApiError("conflict", `The ${SHARE_TARGETS[kind].noun} ${JSON.stringify(id)} is not shared, so there is no link to rotate; share it first.`, { retryable: false });
  }
  return present(rotated);
}

/**
 * The share a public token names while it works, else null (unknown, malformed, revoked or rotated
 * away alike; and a kind this server does not share).
 */
export async function workingShare(token: string): Promise<{ id: string; targetKind: ShareKind; targetId: string } | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const hash = hashSecret(token);
  const row = await db().share.findUnique({ where: { tokenHash: hash }, select: { id: true, targetKind: true, targetId: true, tokenHash: true, revokedAt: true } });
  if (!row || row.revokedAt !== null || !hashesEqual(row.tokenHash, hash) || !shareKindEntry(row.targetKind)) return null;
  return { id: row.id, targetKind: row.targetKind as ShareKind, targetId: row.targetId };
}
