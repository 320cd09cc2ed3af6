// Workspaces and their members.
import type { z } from "zod";
import { credentialsRevoked } from "../auth/credential-cache";
import type { Principal } from "../auth/principal";
import { db, type Tx } from "../db/client";
import { newId } from "../db/ids";
import { ApiError, notFound } from "../http/errors";
import type { Member, Workspace, WorkspaceCreateRequest, WorkspaceUpdateRequest } from "../schemas/workspaces";
import { reachableWorkspaces, requireAdmin, requireWorkspace, withWorkspaceLocked, type WorkspaceAccess } from "./access";

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

/** Whether a workspace with this id exists, read inside the caller's transaction (the operator's commands). */
export async function workspaceExists(tx: Tx, workspaceId: string): Promise<boolean> {
  return (await tx.workspace.findUnique({ where: { id: workspaceId }, select: { id: true } })) !== null;
}

export function presentWorkspace(access: WorkspaceAccess): z.input<typeof Workspace> {
  return {
    id: access.workspace.id,
    name: access.workspace.name,
    kind: access.workspace.kind,
    role: access.role,
    created_at: access.workspace.createdAt.toISOString(),
  };
}

export async function listWorkspaces(principal: Principal) {
  return { items: (await reachableWorkspaces(principal)).map(presentWorkspace) };
}

export async function getWorkspace(principal: Principal, workspaceId: string) {
  return presentWorkspace(await requireWorkspace(principal, workspaceId));
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
  return presentWorkspace({ workspace, role: "admin", membershipId: workspace.memberships[0]!.id });
}

export async function updateWorkspace(principal: Principal, workspaceId: string, input: z.output<typeof WorkspaceUpdateRequest>) {
  const access = await requireAdmin(principal, workspaceId);
  const workspace = await db().workspace.update({ where: { id: workspaceId }, data: { name: input.name } });
  return presentWorkspace({ ...access, workspace });
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

export async function listMembers(principal: Principal, workspaceId: string) {
  await requireWorkspace(principal, workspaceId);
  const members = await db().membership.findMany({ where: { workspaceId }, include: { user: true }, orderBy: { id: "asc" } });
  return { items: members.map(presentMember) };
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
    return tx.apiKey.updateManyAndReturn({
      where: { workspaceId, userId: member.userId, revokedAt: null },
      data: { revokedAt: new Date() },
      select: { secretHash: true },
    });
  });
  credentialsRevoked(revoked.map((k) => k.secretHash));
}
