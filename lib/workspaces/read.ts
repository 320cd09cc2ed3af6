// The reads of workspaces, their members and invitations (GET /workspaces…, the account and
// invitation pages).
import type { Principal } from "../auth/principal";
import { hashSecret } from "../auth/secrets";
import { date, defineStatement, group, optional, standalone, text, type SqlSession } from "../db/statement";
import { membersOf, reachableWorkspaces, requireAdmin, requireWorkspace } from "./access";
import { invitationStatus, presentInvitation, presentMember, presentWorkspace, type InvitationPreview } from "./present";

const WORKSPACE_EXISTS = defineStatement({
  label: "workspace_exists",
  params: ["workspace"],
  columns: { id: text("w.id") },
  sql: ({ select, p }) => `SELECT ${select} FROM workspaces w WHERE w.id = ${p.workspace}`,
});

/** Whether a workspace with this id exists, read in the caller's session (the operator's commands' transaction). */
export async function workspaceExists(sql: SqlSession, workspaceId: string): Promise<boolean> {
  return (await WORKSPACE_EXISTS.first(sql, { workspace: workspaceId })) !== undefined;
}

export async function listWorkspaces(principal: Principal) {
  return { items: (await reachableWorkspaces(principal)).map(presentWorkspace) };
}

export async function getWorkspace(principal: Principal, workspaceId: string) {
  return presentWorkspace(await requireWorkspace(principal, workspaceId));
}

export async function listMembers(principal: Principal, workspaceId: string) {
  await requireWorkspace(principal, workspaceId);
  const members = await membersOf(workspaceId);
  return { items: members.map(presentMember) };
}

/** An invitation (alias `i`) as presentInvitation takes it, with who invited and who accepted (joined by invitationPeople). */
export const invitationColumns = {
  id: text("i.id"),
  email: text("i.email"),
  role: text<"admin" | "member">("i.role"),
  createdAt: date("i.created_at"),
  expiresAt: date("i.expires_at"),
  acceptedAt: date("i.accepted_at").nullable,
  revokedAt: date("i.revoked_at").nullable,
  invitedBy: group({ email: text("ib.email") }),
  acceptedBy: optional({ email: text("ab.email") }, "ab.id IS NOT NULL"),
};
export const invitationPeople = "JOIN users ib ON ib.id = i.invited_by_user_id LEFT JOIN users ab ON ab.id = i.accepted_by_user_id";

/** A workspace's invitations, newest first. */
const INVITATION_LIST = defineStatement({
  label: "invitations",
  params: ["workspace"],
  columns: invitationColumns,
  sql: ({ select, p }) => `SELECT ${select} FROM invitations i ${invitationPeople} WHERE i.workspace_id = ${p.workspace} ORDER BY i.id DESC`,
});

export async function listInvitations(principal: Principal, workspaceId: string) {
  await requireAdmin(principal, workspaceId);
  const rows = await INVITATION_LIST.query(standalone(), { workspace: workspaceId });
  return { items: rows.map(presentInvitation) };
}

/** The invitation with this token hash, with its workspace and who invited (the invitation page, accepting it). */
const INVITATION_BY_TOKEN = defineStatement({
  label: "invitation_by_token",
  params: ["hash"],
  columns: {
    workspaceId: text("i.workspace_id"),
    role: text<"admin" | "member">("i.role"),
    acceptedAt: date("i.accepted_at").nullable,
    revokedAt: date("i.revoked_at").nullable,
    expiresAt: date("i.expires_at"),
    workspace: group({ name: text("w.name"), kind: text<"personal" | "team">("w.kind") }),
    invitedBy: group({ email: text("ib.email") }),
  },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM invitations i JOIN workspaces w ON w.id = i.workspace_id JOIN users ib ON ib.id = i.invited_by_user_id WHERE i.token_hash = ${p.hash}`,
});

/** The invitation with this token hash, or undefined; in the caller's session (standalone() outside a transaction). */
export function invitationByTokenHash(sql: SqlSession, tokenHash: string) {
  return INVITATION_BY_TOKEN.first(sql, { hash: tokenHash });
}

export async function previewInvitation(token: string): Promise<InvitationPreview | null> {
  const row = await invitationByTokenHash(standalone(), hashSecret(token));
  if (!row) return null;
  return {
    workspaceName: row.workspace.name,
    invitedBy: row.invitedBy.email,
    role: row.role,
    status: invitationStatus(row),
    toPersonalWorkspace: row.workspace.kind === "personal",
  };
}
