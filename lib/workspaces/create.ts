// The changes to workspaces, their members and invitations (POST/PATCH/DELETE /workspaces…, the
// first sign-in, accepting an invitation). Invitations: an admin makes a link (returned once, kept
// as a hash); whoever opens it while signed in joins, once. It expires after INVITATION_TTL_DAYS.
import type { z } from "zod";
import { revokeKeysOfMember } from "../auth/api-keys";
import { credentialsRevoked } from "../auth/credential-cache";
import type { Principal } from "../auth/principal";
import { hashSecret, newSecret } from "../auth/secrets";
import { config } from "../config/env";
import { db, type Tx } from "../db/client";
import { newId } from "../db/ids";
import { ApiError, notFound } from "../http/errors";
import { sendMail } from "../mail/mailer";
import type { InvitationCreateRequest, WorkspaceCreateRequest, WorkspaceUpdateRequest } from "../schemas/workspaces";
import { requireAdmin, requireWorkspace, withWorkspaceLocked } from "./access";
import { invitationStatus, PERSONAL_INVITATION_REFUSED, presentInvitation, presentMember, presentWorkspace } from "./present";
import { withPeople } from "./read";

/**
 * Creates a new user's personal workspace, with them as its owner and admin, inside the caller's
 * transaction (the first sign-in's). It is named after the name they gave, or their email's local
 * part without one.
 */
export function createPersonalWorkspace(tx: Tx, owner: { userId: string; email: string; name: string | null }) {
  return tx.workspace.create({
    data: {
      id: newId("workspace"),
      // Within the 1 to 100 characters of every workspace name: "'s workspace" takes 12.
      name: `${[...(owner.name?.trim() || owner.email.split("@")[0]!)].slice(0, 88).join("")}'s workspace`,
      kind: "personal",
      ownerUserId: owner.userId,
      memberships: { create: { userId: owner.userId, role: "admin" } },
    },
  });
}

export async function createWorkspace(principal: Principal, input: z.output<typeof WorkspaceCreateRequest>) {
  if (principal.credential.kind === "api_key") {
    throw new ApiError(
      "permission_denied",
      "An API key acts only in the workspace it was made for; create workspaces with the CLI (geoscope login) or in the browser.",
    );
  }
  const workspace = await db().workspace.create({
    data: {
      id: newId("workspace"),
      name: input.name,
      kind: "team",
      memberships: { create: { userId: principal.user.id, role: "admin" } },
    },
    include: { memberships: true },
  });
  return presentWorkspace({ workspace, role: "admin" });
}

export async function updateWorkspace(principal: Principal, workspaceId: string, input: z.output<typeof WorkspaceUpdateRequest>) {
  const access = await requireAdmin(principal, workspaceId);
  const workspace = await db().workspace.update({ where: { id: workspaceId }, data: { name: input.name } });
  return presentWorkspace({ ...access, workspace });
}

/**
 * Runs `change` with the workspace row locked, so that two admins demoting or removing each other
 * at once cannot leave the workspace without an admin.
 */
export async function updateMember(principal: Principal, workspaceId: string, memberId: number, role: "admin" | "member") {
  await requireAdmin(principal, workspaceId);
  return withWorkspaceLocked(workspaceId, async (tx) => {
    const member = await tx.membership.findFirst({ where: { id: memberId, workspaceId }, include: { user: true } });
    if (!member) throw notFound("member", memberId);
    if (member.role === "admin" && role === "member") {
      const admins = await tx.membership.count({ where: { workspaceId, role: "admin" } });
      if (admins <= 1) throw new ApiError("conflict", "A workspace keeps at least one admin: make another member admin first.");
    }
    const updated = await tx.membership.update({ where: { id: memberId }, data: { role }, include: { user: true } });
    return presentMember(updated);
  });
}

/** An admin removes anyone; anyone removes themselves. Their work stays with the workspace. */
export async function removeMember(principal: Principal, workspaceId: string, memberId: number): Promise<void> {
  const access = await requireWorkspace(principal, workspaceId);
  const removingSelf = access.membershipId === memberId;
  if (!removingSelf && access.role !== "admin") {
    throw new ApiError("permission_denied", "Only an admin can remove other members; anyone can leave.");
  }
  const revoked = await withWorkspaceLocked(workspaceId, async (tx) => {
    const member = await tx.membership.findFirst({ where: { id: memberId, workspaceId }, include: { workspace: true } });
    if (!member) throw notFound("member", memberId);
    if (member.workspace.ownerUserId === member.userId) {
      throw new ApiError("conflict", "A personal workspace always keeps its owner.");
    }
    if (member.role === "admin") {
      const admins = await tx.membership.count({ where: { workspaceId, role: "admin" } });
      if (admins <= 1) throw new ApiError("conflict", "A workspace keeps at least one admin: make another member admin first.");
    }
    await tx.membership.delete({ where: { id: memberId } });
    // Keys made for this workspace stop working with the membership they stood for.
    return revokeKeysOfMember(tx, workspaceId, member.userId);
  });
  credentialsRevoked(revoked);
}

function invitationUrl(token: string): string {
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
