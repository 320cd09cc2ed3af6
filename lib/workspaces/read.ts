// The reads of workspaces, their members and invitations (GET /workspaces…, the account and
// invitation pages).
import type { Principal } from "../auth/principal";
import { hashSecret } from "../auth/secrets";
import { db, type Tx } from "../db/client";
import { reachableWorkspaces, requireAdmin, requireWorkspace } from "./access";
import { invitationStatus, presentInvitation, presentMember, presentWorkspace, type InvitationPreview } from "./present";

/** Whether a workspace with this id exists, read inside the caller's transaction (the operator's commands). */
export async function workspaceExists(tx: Tx, workspaceId: string): Promise<boolean> {
  return (await tx.workspace.findUnique({ where: { id: workspaceId }, select: { id: true } })) !== null;
}

export async function listWorkspaces(principal: Principal) {
  return { items: (await reachableWorkspaces(principal)).map(presentWorkspace) };
}

export async function getWorkspace(principal: Principal, workspaceId: string) {
  return presentWorkspace(await requireWorkspace(principal, workspaceId));
}

export async function listMembers(principal: Principal, workspaceId: string) {
  await requireWorkspace(principal, workspaceId);
  const members = await db().membership.findMany({ where: { workspaceId }, include: { user: true }, orderBy: { id: "asc" } });
  return { items: members.map(presentMember) };
}

export const withPeople = { invitedBy: true, acceptedBy: true } as const;

export async function listInvitations(principal: Principal, workspaceId: string) {
  await requireAdmin(principal, workspaceId);
  const rows = await db().invitation.findMany({ where: { workspaceId }, include: withPeople, orderBy: { id: "desc" } });
  return { items: rows.map(presentInvitation) };
}

export async function previewInvitation(token: string): Promise<InvitationPreview | null> {
  const row = await db().invitation.findUnique({ where: { tokenHash: hashSecret(token) }, include: { workspace: true, invitedBy: true } });
  if (!row) return null;
  return {
    workspaceName: row.workspace.name,
    invitedBy: row.invitedBy.email,
    role: row.role,
    status: invitationStatus(row),
    toPersonalWorkspace: row.workspace.kind === "personal",
  };
}
