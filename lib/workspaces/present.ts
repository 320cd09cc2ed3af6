// Workspaces, their members and invitations as the API shows them: rows in, JSON out.
import type { z } from "zod";
import type { Invitation, Member, Workspace } from "../schemas/workspaces";

/** A workspace with the caller's role in it (a WorkspaceAccess of ./access.ts). */
type WorkspaceRow = {
  workspace: { id: string; name: string; kind: "personal" | "team"; createdAt: Date };
  role: "admin" | "member";
};

export function presentWorkspace(access: WorkspaceRow): z.input<typeof Workspace> {
  return {
    id: access.workspace.id,
    name: access.workspace.name,
    kind: access.workspace.kind,
    role: access.role,
    created_at: access.workspace.createdAt.toISOString(),
  };
}

type MemberRow = { id: number; role: "admin" | "member"; joinedAt: Date; user: { email: string; name: string | null } };

export function presentMember(m: MemberRow): z.input<typeof Member> {
  return {
    id: m.id,
    email: m.user.email,
    ...(m.user.name ? { name: m.user.name } : {}),
    role: m.role,
    joined_at: m.joinedAt.toISOString(),
  };
}

type InvitationRow = {
  id: string;
  email: string;
  role: "admin" | "member";
  createdAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
  invitedBy: { email: string };
  acceptedBy: { email: string } | null;
};

export function invitationStatus(row: Pick<InvitationRow, "acceptedAt" | "revokedAt" | "expiresAt">, now = new Date()) {
  if (row.acceptedAt) return "accepted" as const;
  if (row.revokedAt) return "revoked" as const;
  if (row.expiresAt <= now) return "expired" as const;
  return "pending" as const;
}

export function presentInvitation(row: InvitationRow): z.input<typeof Invitation> {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: invitationStatus(row),
    invited_by: row.invitedBy.email,
    accepted_by: row.acceptedBy?.email ?? null,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
  };
}

/** What the invitation page shows of a link (./read.ts previewInvitation). */
export type InvitationPreview = {
  workspaceName: string;
  invitedBy: string;
  role: string;
  status: ReturnType<typeof invitationStatus>;
  /** A link made before personal workspaces refused invitations: it admits nobody (acceptInvitation). */
  toPersonalWorkspace: boolean;
};

export const PERSONAL_INVITATION_REFUSED =
  "This invitation is to a personal workspace, which has no other members: ask to be invited to a team workspace instead.";
