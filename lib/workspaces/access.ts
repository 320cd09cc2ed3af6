// Where a credential can act. Everything outside answers 404, exactly as a missing object;
// admin-only actions inside answer 403.
//
// The access rule is written once, as SQL (`reachable` below), and every read folds it into its
// own statement: reachableSql for a row with a workspace_id, and the workspace reads of this file
// for the workspaces themselves. Nothing else in lib/ builds a membership filter
// (tests/unit/structure.test.ts).
import type { Principal } from "../auth/principal";
import { currentDb } from "../db/client";
import { textTransaction } from "../db/sql";
import { date, defineStatement, group, int, standalone, text, type SqlSession } from "../db/statement";
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

/** The person's personal workspace (at most one: owner_user_id is unique). */
const WORKSPACE_OWNED = defineStatement({
  label: "workspace_owned",
  params: ["user"],
  columns: { id: text("w.id") },
  sql: ({ select, p }) => `SELECT ${select} FROM workspaces w WHERE w.owner_user_id = ${p.user}`,
});

/** The id of the person's personal workspace, or undefined (`sql`: the caller's session, standalone() outside a transaction). */
export async function personalWorkspaceId(sql: SqlSession, userId: string): Promise<string | undefined> {
  return (await WORKSPACE_OWNED.first(sql, { user: userId }))?.id;
}

/**
 * The workspace new things go to when the request names none: an API key's own workspace,
 * otherwise the person's personal workspace.
 */
export async function defaultWorkspaceId(principal: Principal): Promise<string> {
  if (principal.workspaceId) return principal.workspaceId;
  const own = await personalWorkspaceId(standalone(), principal.user.id);
  if (own) return own;
  const first = (await reachableWorkspaces(principal))[0];
  if (!first) throw new ApiError("invalid_request", "You belong to no workspace; name one with workspace_id.");
  return first.workspace.id;
}

const WORKSPACE_LOCK = defineStatement({
  label: "workspace_lock",
  params: ["workspace"],
  columns: { id: text("w.id") },
  sql: ({ select, p }) => `SELECT ${select} FROM workspaces w WHERE w.id = ${p.workspace} FOR UPDATE`,
});

/**
 * A change to a workspace's people (members, invitations) made with the workspace row locked,
 * so two concurrent changes are decided one after the other.
 */
export async function withWorkspaceLocked<T>(workspaceId: string, change: (sql: SqlSession) => Promise<T>): Promise<T> {
  return textTransaction(currentDb(), async (sql) => {
    await WORKSPACE_LOCK.query(sql, { workspace: workspaceId });
    return change(sql);
  });
}

// The statements that read memberships (or delete from them) are here, with the access rule,
// although the people's services are in ./read.ts and ./create.ts: this file is the one place in
// lib/ whose SQL reads the memberships table (tests/unit/structure.test.ts "the access rule").

const memberColumns = {
  id: int("m.id"),
  role: text<"admin" | "member">("m.role"),
  joinedAt: date("m.joined_at"),
  user: group({ email: text("u.email"), name: text("u.name").nullable }),
};

/** The members of a workspace, oldest membership first (GET /workspaces/{id}/members; the caller checked access). */
const WORKSPACE_MEMBERS = defineStatement({
  label: "workspace_members",
  params: ["workspace"],
  columns: memberColumns,
  sql: ({ select, p }) => `SELECT ${select} FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.workspace_id = ${p.workspace} ORDER BY m.id`,
});

export function membersOf(workspaceId: string) {
  return WORKSPACE_MEMBERS.query(standalone(), { workspace: workspaceId });
}

/** A member of the workspace, with the workspace's owner and its admins counted (a change to its people). */
const WORKSPACE_MEMBER = defineStatement({
  label: "workspace_member",
  params: ["workspace", "member"],
  columns: {
    ...memberColumns,
    userId: text("m.user_id"),
    ownerUserId: text("w.owner_user_id").nullable,
    admins: int("(SELECT count(*) FROM memberships a WHERE a.workspace_id = m.workspace_id AND a.role = 'admin')"),
  },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM memberships m JOIN users u ON u.id = m.user_id JOIN workspaces w ON w.id = m.workspace_id ` +
    `WHERE m.id = ${p.member}::int AND m.workspace_id = ${p.workspace}`,
});

/** The member `memberId` of the workspace, or undefined; in the caller's session (under withWorkspaceLocked). */
export function memberOfWorkspace(sql: SqlSession, workspaceId: string, memberId: number) {
  return WORKSPACE_MEMBER.first(sql, { workspace: workspaceId, member: memberId });
}

const MEMBER_DELETE = defineStatement({
  label: "workspace_member_delete",
  params: ["member"],
  sql: ({ p }) => `DELETE FROM memberships WHERE id = ${p.member}::int`,
});

/** Deletes a membership, in the caller's session (under withWorkspaceLocked). */
export async function deleteMembership(sql: SqlSession, memberId: number): Promise<void> {
  await MEMBER_DELETE.query(sql, { member: memberId });
}
