// Where a credential can act. Everything outside answers 404, exactly as a missing object;
// admin-only actions inside answer 403.
//
// The access rule is written once, as SQL (`reachable` below), and every read folds it into its
// own statement: reachableSql for a row with a workspace_id, and the workspace reads of this file
// for the workspaces themselves. Nothing else in lib/ builds a membership filter
// (tests/unit/structure.test.ts).
import type { Principal } from "../auth/principal";
import { db, type Tx } from "../db/client";
import { date, defineStatement, int, standalone, text } from "../db/statement";
import { ApiError, notFound } from "../http/errors";

export type WorkspaceAccess = {
  workspace: { id: string; name: string; kind: "personal" | "team"; ownerUserId: string | null; createdAt: Date };
  role: "admin" | "member";
  membershipId: number;
};

/** The placeholders of a statement's access check (lib/db/statement.ts): the user, and the API key's workspace or null. */
export type ReachPlaceholders = { readonly user: string; readonly own: string };

/** The values of those parameters for a credential. */
export function reachOf(principal: Principal): { user: string; own: string | null } {
  return { user: principal.user.id, own: principal.workspaceId };
}

/**
 * THE access rule: the workspace id `column` is one the credential can act in — a workspace the
 * user belongs to, and the API key's own when the credential is one. As `= ANY(ARRAY(…))` the
 * workspaces are found once per statement (an index scan of the user's memberships), so a list
 * scans its (workspace_id, …) index and a read by id checks one value.
 */
const reachable = (column: string, p: ReachPlaceholders) =>
  `${column} = ANY(ARRAY(SELECT reach.workspace_id FROM memberships reach WHERE reach.user_id = ${p.user} AND (${p.own}::text IS NULL OR reach.workspace_id = ${p.own})))`;

/**
 * The access rule for the row (alias `t`, any table with a workspace_id: runs, batches, fanouts,
 * analyses, projects, monitors…) in the statement that reads it, so that loading an object and
 * checking access is one query. A row it leaves out answers 404, as a missing one.
 */
export const reachableSql = (t: string, p: ReachPlaceholders) => reachable(`${t}.workspace_id`, p);

/** The workspaces the credential can act in (or the one named), with the user's role in each. */
const WORKSPACES_REACHED = defineStatement({
  label: "workspaces_reached",
  params: ["user", "own", "workspace"],
  columns: {
    id: text("w.id"),
    name: text("w.name"),
    kind: text<"personal" | "team">("w.kind"),
    ownerUserId: text("w.owner_user_id").nullable,
    createdAt: date("w.created_at"),
    role: text<"admin" | "member">("m.role"),
    membershipId: int("m.id"),
  },
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM workspaces w JOIN memberships m ON m.workspace_id = w.id AND m.user_id = ${p.user} ` +
    `WHERE ${reachable("w.id", p)}${given.workspace ? ` AND w.id = ${p.workspace}` : ""}`,
});

async function workspacesReached(principal: Principal, workspaceId?: string): Promise<WorkspaceAccess[]> {
  const rows = await WORKSPACES_REACHED.query(standalone(), { ...reachOf(principal), workspace: workspaceId });
  return rows.map(({ role, membershipId, ...workspace }) => ({ workspace, role, membershipId }));
}

/** Every workspace the credential can act in, the person's own first, then by age. */
export async function reachableWorkspaces(principal: Principal): Promise<WorkspaceAccess[]> {
  return (await workspacesReached(principal)).sort((a, b) => {
    const own = Number(b.workspace.ownerUserId === principal.user.id) - Number(a.workspace.ownerUserId === principal.user.id);
    return own || a.workspace.createdAt.getTime() - b.workspace.createdAt.getTime() || a.workspace.id.localeCompare(b.workspace.id);
  });
}

export async function reachableWorkspaceIds(principal: Principal): Promise<string[]> {
  return (await reachableWorkspaces(principal)).map((w) => w.workspace.id);
}

/** The caller's access to one workspace, or 404 when the credential cannot act there. */
export async function requireWorkspace(
  principal: Principal,
  workspaceId: string,
  missing: () => ApiError = () => notFound("workspace", workspaceId),
): Promise<WorkspaceAccess> {
  const [access] = await workspacesReached(principal, workspaceId);
  if (!access) throw missing();
  return access;
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
