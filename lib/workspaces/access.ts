// Where a credential can act. Everything outside answers 404, exactly as a missing object;
// admin-only actions inside answer 403.
import type { Principal } from "../auth/principal";
import { db, type Tx } from "../db/client";
import { ApiError, notFound } from "../http/errors";

export type WorkspaceAccess = {
  workspace: { id: string; name: string; kind: "personal" | "team"; ownerUserId: string | null; createdAt: Date };
  role: "admin" | "member";
  membershipId: number;
};

/** Every workspace the credential can act in, the person's own first, then by age. */
export async function reachableWorkspaces(principal: Principal): Promise<WorkspaceAccess[]> {
  const memberships = await db().membership.findMany({
    where: { userId: principal.user.id, ...(principal.workspaceId ? { workspaceId: principal.workspaceId } : {}) },
    include: { workspace: true },
  });
  return memberships
    .map((m) => ({ workspace: m.workspace, role: m.role, membershipId: m.id }))
    .sort((a, b) => {
      const own = Number(b.workspace.ownerUserId === principal.user.id) - Number(a.workspace.ownerUserId === principal.user.id);
      return own || a.workspace.createdAt.getTime() - b.workspace.createdAt.getTime() || a.workspace.id.localeCompare(b.workspace.id);
    });
}

export async function reachableWorkspaceIds(principal: Principal): Promise<string[]> {
  return (await reachableWorkspaces(principal)).map((w) => w.workspace.id);
}

/**
 * A filter for rows (runs, batches, projects…) in a workspace the credential can act in: the
 * same rule as requireWorkspace, folded into the read itself so that loading an object and
 * checking access is one query. A row it filters out answers 404, as a missing one.
 */
export function reachableBy(principal: Principal): {
  workspaceId?: string;
  workspace: { memberships: { some: { userId: string } } };
} {
  return {
    ...(principal.workspaceId ? { workspaceId: principal.workspaceId } : {}),
    workspace: { memberships: { some: { userId: principal.user.id } } },
  };
}

/** The placeholders of a statement's access check (lib/db/statement.ts): the user, and the API key's workspace or null. */
export type ReachPlaceholders = { readonly user: string; readonly own: string };

/** The values of those parameters for a credential. */
export function reachOf(principal: Principal): { user: string; own: string | null } {
  return { user: principal.user.id, own: principal.workspaceId };
}

/**
 * reachableBy's rule in SQL, for the typed statements of the reads (lib/runs/read.ts and the
 * like): the row (alias `t`) is in a workspace the user belongs to, and in the API key's own
 * when the credential is one.
 */
export const reachableSql = (t: string, p: ReachPlaceholders) =>
  `(${p.own}::text IS NULL OR ${t}.workspace_id = ${p.own}) AND EXISTS (SELECT 1 FROM memberships m WHERE m.workspace_id = ${t}.workspace_id AND m.user_id = ${p.user})`;

/**
 * reachableWorkspaceIds's rule in SQL, in the same statement as the read: `${t}.workspace_id` is
 * a workspace the credential can act in.
 */
export const inReachableWorkspaceSql = (t: string, p: ReachPlaceholders) =>
  `${t}.workspace_id = ANY(ARRAY(SELECT m.workspace_id FROM memberships m WHERE m.user_id = ${p.user} AND (${p.own}::text IS NULL OR m.workspace_id = ${p.own})))`;

/** The caller's access to one workspace, or 404 when the credential cannot act there. */
export async function requireWorkspace(
  principal: Principal,
  workspaceId: string,
  missing: () => ApiError = () => notFound("workspace", workspaceId),
): Promise<WorkspaceAccess> {
  if (principal.workspaceId && principal.workspaceId !== workspaceId) throw missing();
  const membership = await db().membership.findUnique({
    where: { workspaceId_userId: { workspaceId, userId: principal.user.id } },
    include: { workspace: true },
  });
  if (!membership) throw missing();
  return { workspace: membership.workspace, role: membership.role, membershipId: membership.id };
}

export async function requireAdmin(principal: Principal, workspaceId: string): Promise<WorkspaceAccess> {
  const access = await requireWorkspace(principal, workspaceId);
  if (access.role !== "admin") {
    throw new ApiError("permission_denied", "Only an admin of this workspace can do this.");
  }
  return access;
}

/**
 * The workspace new things go to when the request names none: an API key's own workspace,
 * otherwise the person's personal workspace.
 */
export async function defaultWorkspaceId(principal: Principal): Promise<string> {
  if (principal.workspaceId) return principal.workspaceId;
  const own = await db().workspace.findUnique({ where: { ownerUserId: principal.user.id }, select: { id: true } });
  if (own) return own.id;
  const first = (await reachableWorkspaces(principal))[0];
  if (!first) throw new ApiError("invalid_request", "You belong to no workspace; name one with workspace_id.");
  return first.workspace.id;
}

/**
 * A change to a workspace's people (members, invitations) made with the workspace row locked,
 * so two concurrent changes are decided one after the other.
 */
export async function withWorkspaceLocked<T>(workspaceId: string, change: (tx: Tx) => Promise<T>): Promise<T> {
  return db().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM workspaces WHERE id = ${workspaceId} FOR UPDATE`;
    return change(tx);
  });
}
