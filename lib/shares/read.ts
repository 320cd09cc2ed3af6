// The reads of sharing (decisions.md "Sharing", "Sharing, wave 3"): for each kind of shared object,
// how a credential's access to it and its status are looked up (to share it) and how a working
// link reads it (the API's own read, through the share: ./access.ts); whether an object is shared
// (GET …/share); the share a public token names, and what its link shows (the public copy of each
// kind: ./present.ts). A kind is one entry here and one in ./present.ts beside its entry in
// SHARE_TARGETS (lib/schemas/shares.ts).
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { hashSecret, hashesEqual } from "../auth/secrets";
import { readAnalysisText } from "../analyses/read";
import { reachableAnalysisTarget } from "../analyses/store";
import { readFanoutText } from "../fanouts/read";
import { notFound } from "../http/errors";
import { readMonitor } from "../monitors/read";
import { runStartsByStatus } from "../runs/page-reads";
import { readBatch, readRun } from "../runs/read";
import { statusOfCounts, type RunCounts } from "../runs/status";
import type { ShareKind, ShareStatus } from "../schemas/shares";
import { date, defineStatement, standalone, text } from "../db/statement";
import { reachableSql, reachOf } from "../workspaces/access";
import type { ShareReader } from "./access";
import { PUBLIC_COPIES, presentShare, type PublicBodies } from "./present";
import { TOKEN_PATTERN } from "./token";

/** What sharing needs to know of an object the credential reaches. */
type ShareTarget = { workspaceId: string; status: string };

type KindReads = {
  /** The object the credential can reach, or null (404 exactly as a missing one). */
  target(principal: Principal, id: string): Promise<ShareTarget | null>;
  /** The object as GET answers it (JSON text), read through the working share; null once it is not. */
  read(reader: ShareReader, id: string): Promise<{ text: string } | null>;
};

/** The workspace and status of a shareable object the credential reaches, by table (alias `t`). */
const targetOf = (label: string, table: string, status: string | null) =>
  defineStatement({
    label,
    params: ["id", "user", "own"],
    columns: { workspaceId: text("t.workspace_id"), status: text(status ? `t.${status}` : "''") },
    sql: ({ select, p }) => `SELECT ${select} FROM ${table} t WHERE t.id = ${p.id} AND ${reachableSql("t", p)}`,
  });
const TARGETS = {
  run: targetOf("share_target_run", "runs", "status"),
  analysis: targetOf("share_target_analysis", "analyses", "status"),
  fanout: targetOf("share_target_fanout", "fanouts", null),
  batch: targetOf("share_target_batch", "batches", null),
  monitor: targetOf("share_target_monitor", "monitors", "status"),
};

/** The object `id` of a kind, as sharing needs it, when the credential reaches it. */
async function reachedTarget(kind: keyof typeof TARGETS, principal: Principal, id: string): Promise<ShareTarget | null> {
  return (await TARGETS[kind].first(standalone(), { id, ...reachOf(principal) })) ?? null;
}

/** A batch's or fanout's status, derived from its runs as their reads derive it (lib/runs/status.ts). */
async function statusOfRuns(where: { batchId: string } | { fanoutId: string }): Promise<string> {
  const groups = await runStartsByStatus(where);
  const counts: RunCounts = { queued: 0, running: 0, completed: 0, failed: 0 };
  for (const g of groups) counts[g.status] = g.count;
  return statusOfCounts(counts, groups.some((g) => g.status !== "queued" || g.lastStartedAt !== null));
}

const SHARE_KINDS: Record<ShareKind, KindReads> = {
  run: {
    target: (principal, id) => reachedTarget("run", principal, id),
    read: (reader, id) => readRun(reader, id),
  },
  analysis: {
    target: async (principal, id) => (await reachableAnalysisTarget(principal, id)) ?? null,
    read: (reader, id) => readAnalysisText(reader, id),
  },
  fanout: {
    async target(principal, id) {
      const fanout = await reachedTarget("fanout", principal, id);
      return fanout && { workspaceId: fanout.workspaceId, status: await statusOfRuns({ fanoutId: id }) };
    },
    read: (reader, id) => readFanoutText(reader, id),
  },
  batch: {
    async target(principal, id) {
      const batch = await reachedTarget("batch", principal, id);
      return batch && { workspaceId: batch.workspaceId, status: await statusOfRuns({ batchId: id }) };
    },
    read: (reader, id) => readBatch(reader, id),
  },
  monitor: {
    // Shared at any time (a live dashboard); its status (active or paused) does not matter.
    target: (principal, id) => reachedTarget("monitor", principal, id),
    async read(reader, id) {
      const monitor = await readMonitor(reader, id);
      return monitor && { text: JSON.stringify(monitor) };
    },
  },
};

/** Whether a kind stored on a share row is one this server shares. */
function isSharedKind(kind: string): boolean {
  return Object.hasOwn(SHARE_KINDS, kind);
}

export type Target = { kind: ShareKind; id: string; workspaceId: string; status: string };

/** The object the caller can reach, or 404 exactly as reading it would. */
export async function targetOrThrow(principal: Principal, kind: ShareKind, id: string): Promise<Target> {
  const found = await SHARE_KINDS[kind].target(principal, id);
  if (!found) throw notFound(kind, id);
  return { kind, id, workspaceId: found.workspaceId, status: found.status };
}

/** A share's columns (alias s): what its state (./present.ts presentShare) shows. */
export const shareColumns = {
  id: text("s.id"),
  targetKind: text("s.target_kind"),
  targetId: text("s.target_id"),
  createdAt: date("s.created_at"),
  revokedAt: date("s.revoked_at").nullable,
  rotatedFromId: text("s.rotated_from_id").nullable,
};

/** The target's working share (at most one: shares_live_target_key), in the caller's transaction or on its own. */
export const LIVE_SHARE = defineStatement({
  label: "share_live",
  params: ["kind", "target"],
  columns: shareColumns,
  sql: ({ select, p }) =>
    `SELECT ${select} FROM shares s WHERE s.target_kind = ${p.kind}::text::"ShareTargetKind" AND s.target_id = ${p.target} AND s.revoked_at IS NULL LIMIT 1`,
});

/** The target's latest share, working or not. */
const LAST_SHARE = defineStatement({
  label: "share_last",
  params: ["kind", "target"],
  columns: shareColumns,
  sql: ({ select, p }) =>
    `SELECT ${select} FROM shares s WHERE s.target_kind = ${p.kind}::text::"ShareTargetKind" AND s.target_id = ${p.target} ORDER BY s.created_at DESC, s.id DESC LIMIT 1`,
});

/** The share whose token has this hash. */
const SHARE_BY_TOKEN = defineStatement({
  label: "share_by_token",
  params: ["hash"],
  columns: { id: text("s.id"), targetKind: text("s.target_kind"), targetId: text("s.target_id"), tokenHash: text("s.token_hash"), revokedAt: date("s.revoked_at").nullable },
  sql: ({ select, p }) => `SELECT ${select} FROM shares s WHERE s.token_hash = ${p.hash}`,
});

/** The object's working share, if any. */
export const liveShare = (target: Target) => LIVE_SHARE.first(standalone(), { kind: target.kind, target: target.id });

export async function getShareStatus(principal: Principal, kind: ShareKind, id: string): Promise<z.input<typeof ShareStatus>> {
  const target = await targetOrThrow(principal, kind, id);
  const live = await liveShare(target);
  if (live) return { shared: true, share: presentShare(live) };
  const last = await LAST_SHARE.first(standalone(), { kind, target: id });
  return { shared: false, share: last ? presentShare(last) : null };
}

/**
 * The share a public token names while it works, else null (unknown, malformed, revoked or rotated
 * away alike; and a kind this server does not share).
 */
export async function workingShare(token: string): Promise<{ id: string; targetKind: ShareKind; targetId: string } | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const hash = hashSecret(token);
  const row = await SHARE_BY_TOKEN.first(standalone(), { hash });
  if (!row || row.revokedAt !== null || !hashesEqual(row.tokenHash, hash) || !isSharedKind(row.targetKind)) return null;
  return { id: row.id, targetKind: row.targetKind as ShareKind, targetId: row.targetId };
}

export type SharedObject = { [K in ShareKind]: { kind: K; shareId: string; body: PublicBodies[K] } }[ShareKind];

/**
 * The shared object a token names while its link works, else null (the same for every reason): the
 * object as the API answers it, read by the API's own read through the working share, with what
 * identifies or bills the workspace left out (each kind's public copy: ./present.ts).
 */
export async function sharedObject(token: string): Promise<SharedObject | null> {
  const share = await workingShare(token);
  if (!share) return null;
  // Null when the link was revoked since, or the object is gone: the read checks the share again.
  const read = await SHARE_KINDS[share.targetKind].read({ share: share.id }, share.targetId);
  if (!read) return null;
  const publicCopy = PUBLIC_COPIES[share.targetKind] as (body: PublicBodies[ShareKind]) => PublicBodies[ShareKind];
  return { kind: share.targetKind, shareId: share.id, body: publicCopy(JSON.parse(read.text)) } as SharedObject;
}
