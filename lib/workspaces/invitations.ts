// Invitations: an admin makes a link (returned once, kept as a hash); whoever opens it while
// signed in joins, once. It expires after INVITATION_TTL_DAYS.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { hashSecret, newSecret } from "../auth/secrets";
import { config } from "../config/env";
import { db } from "../db/client";
import { newId } from "../db/ids";
import { ApiError, notFound } from "../http/errors";
import { sendMail } from "../mail/mailer";
import type { Invitation, InvitationCreateRequest } from "../schemas/workspaces";
import { requireAdmin, withWorkspaceLocked } from "./access";

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

const withPeople = { invitedBy: true, acceptedBy: true } as const;

export async function listInvitations(principal: Principal, workspaceId: string) {
  await requireAdmin(principal, workspaceId);
  const rows = await db().invitation.findMany({ where: { workspaceId }, include: withPeople, orderBy: { id: "desc" } });
  return { items: rows.map(presentInvitation) };
}

export function invitationUrl(token: string): string {
  return `${config().PUBLIC_BASE_URL}/invite/${token}`;
}

/**
 * Invites an address to a team workspace. Inviting an address that already has a pending
 * invitation replaces it: the old link is revoked in the same transaction, so one address has
 * at most one working link (with the latest role) and a resent invitation is simply a new one.
 */
export async function createInvitation(principal: Principal, workspaceId: string, input: z.output<typeof InvitationCreateRequest>) {
  const access = await requireAdmin(principal, workspaceId);
  if (access.workspace.kind === "personal") {
    throw new ApiError(
      "conflict",
      "A personal workspace has no other members: create a team workspace (POST /workspaces) and invite people there.",
    );
  }
  const token = newSecret();
  const ttlMs = config().INVITATION_TTL_DAYS * 24 * 60 * 60 * 1000;
  const email = input.email.trim().toLowerCase();
  const row = await withWorkspaceLocked(workspaceId, async (tx) => {
    const now = new Date();
    await tx.invitation.updateMany({
      where: { workspaceId, email, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
      data: { revokedAt: now },
    });
    return tx.invitation.create({
      data: {
        id: newId("invitation"),
        workspaceId,
        email,
        role: input.role,
        tokenHash: hashSecret(token),
        invitedByUserId: principal.user.id,
        createdAt: now,
        expiresAt: new Date(now.getTime() + ttlMs),
      },
      include: withPeople,
    });
  });
  const url = invitationUrl(token);
  const emailed = await sendMail({
    to: row.email,
    subject: `${principal.user.email} invited you to ${access.workspace.name} on geoscope`,
    text: `${principal.user.email} invited you to the workspace "${access.workspace.name}" on geoscope as ${row.role}.\n\nOpen this link while signed in to join (it works once, until ${row.expiresAt.toISOString()}):\n${url}\n`,
  });
  if (emailed) await db().invitation.update({ where: { id: row.id }, data: { emailed: true } });
  return { ...presentInvitation(row), url, emailed };
}

export async function revokeInvitation(principal: Principal, workspaceId: string, invitationId: string): Promise<void> {
  await requireAdmin(principal, workspaceId);
  const row = await db().invitation.findFirst({ where: { id: invitationId, workspaceId } });
  if (!row) throw notFound("invitation", invitationId);
  if (row.acceptedAt) throw new ApiError("conflict", "This invitation was already accepted; remove the member instead.");
  await db().invitation.updateMany({ where: { id: invitationId, revokedAt: null, acceptedAt: null }, data: { revokedAt: new Date() } });
}

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

/**
 * Accepts an invitation for the signed-in person. Single use even under concurrent acceptance:
 * exactly one conditional update can claim it.
 */
export async function acceptInvitation(userId: string, token: string): Promise<{ workspaceId: string }> {
  const tokenHash = hashSecret(token);
  return db().$transaction(async (tx) => {
    const now = new Date();
    const claimed = await tx.invitation.updateMany({
      where: { tokenHash, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
      data: { acceptedAt: now, acceptedByUserId: userId },
    });
    const row = await tx.invitation.findUnique({ where: { tokenHash }, include: { workspace: { select: { kind: true } } } });
    if (!row) throw notFound("invitation");
    if (claimed.count !== 1) {
      throw new ApiError("conflict", `This invitation is ${invitationStatus(row, now)} and cannot be used.`);
    }
    // A link made before personal workspaces refused invitations admits nobody (the claim rolls back).
    if (row.workspace.kind === "personal") throw new ApiError("conflict", PERSONAL_INVITATION_REFUSED);
    const existing = await tx.membership.findUnique({ where: { workspaceId_userId: { workspaceId: row.workspaceId, userId } } });
    if (!existing) {
      await tx.membership.create({ data: { workspaceId: row.workspaceId, userId, role: row.role } });
    } else if (existing.role === "member" && row.role === "admin") {
      await tx.membership.update({ where: { id: existing.id }, data: { role: "admin" } });
    }
    return { workspaceId: row.workspaceId };
  });
}
