// The changes to workspaces, their members and invitations (POST/PATCH/DELETE /workspaces…, the
// first sign-in, accepting an invitation). Invitations: an admin makes a link (returned once, kept
// as a hash); whoever opens it while signed in joins, once. It expires after INVITATION_TTL_DAYS.
import type { z } from "zod";
import { revokeKeysOfMember } from "../auth/api-keys";
import { credentialsRevoked } from "../auth/credential-cache";
import type { Principal } from "../auth/principal";
import { hashSecret, newSecret } from "../auth/secrets";
import { config } from "../config/env";
import { currentDb } from "../db/client";
import { newId } from "../db/ids";
import { textTransaction } from "../db/sql";
import { atUtc, date, defineStatement, standalone, text, type SqlSession } from "../db/statement";
import { ApiError, notFound } from "../http/errors";
import { sendMail } from "../mail/mailer";
import type { InvitationCreateRequest, WorkspaceCreateRequest, WorkspaceUpdateRequest } from "../schemas/workspaces";
import { deleteMembership, memberOfWorkspace, requireAdmin, requireWorkspace, withWorkspaceLocked } from "./access";
import { invitationStatus, PERSONAL_INVITATION_REFUSED, presentInvitation, presentMember, presentWorkspace } from "./present";
import { invitationByTokenHash, invitationColumns, invitationPeople } from "./read";

/** A workspace (alias `w`) as presentWorkspace takes it. */
const workspaceColumns = {
  id: text("w.id"),
  name: text("w.name"),
  kind: text<"personal" | "team">("w.kind"),
  createdAt: date("w.created_at"),
};

/** A workspace and its first member, an admin, in one statement. */
const WORKSPACE_INSERT = defineStatement({
  label: "workspace_insert",
  params: ["id", "name", "kind", "owner", "user", "now"],
  columns: workspaceColumns,
  sql: ({ select, p }) =>
    `WITH w AS (INSERT INTO workspaces (id, name, kind, owner_user_id, created_at, updated_at) ` +
    `VALUES (${p.id}, ${p.name}, ${p.kind}::text::"WorkspaceKind", ${p.owner}, ${atUtc(p.now)}, ${atUtc(p.now)}) RETURNING *), ` +
    `m AS (INSERT INTO memberships (workspace_id, user_id, role, joined_at) ` +
    `SELECT w.id, ${p.user}::text, 'admin'::"WorkspaceRole", ${atUtc(p.now)} FROM w) ` +
    `SELECT ${select} FROM w`,
});

const WORKSPACE_RENAME = defineStatement({
  label: "workspace_rename",
  params: ["workspace", "name", "now"],
  columns: workspaceColumns,
  sql: ({ select, p }) => `UPDATE workspaces w SET name = ${p.name}, updated_at = ${atUtc(p.now)} WHERE w.id = ${p.workspace} RETURNING ${select}`,
});

const MEMBER_SET_ROLE = defineStatement({
  label: "workspace_member_role",
  params: ["member", "role"],
  sql: ({ p }) => `UPDATE memberships SET role = ${p.role}::text::"WorkspaceRole" WHERE id = ${p.member}::int`,
});

/** Pending invitations of an address to a workspace, revoked (a new one replaces them). */
const INVITATIONS_REPLACED = defineStatement({
  label: "invitations_replaced",
  params: ["workspace", "email", "now"],
  sql: ({ p }) =>
    `UPDATE invitations SET revoked_at = ${atUtc(p.now)} WHERE workspace_id = ${p.workspace} AND email = ${p.email} ` +
    `AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ${atUtc(p.now)}`,
});

const INVITATION_INSERT = defineStatement({
  label: "invitation_insert",
  params: ["id", "workspace", "email", "role", "hash", "user", "now", "expires"],
  columns: invitationColumns,
  sql: ({ select, p }) =>
    `WITH i AS (INSERT INTO invitations (id, workspace_id, email, role, token_hash, invited_by_user_id, expires_at, emailed, created_at) ` +
    `VALUES (${p.id}, ${p.workspace}, ${p.email}, ${p.role}::text::"WorkspaceRole", ${p.hash}, ${p.user}, ${atUtc(p.expires)}, false, ${atUtc(p.now)}) RETURNING *) ` +
    `SELECT ${select} FROM i ${invitationPeople}`,
});

const INVITATION_EMAILED = defineStatement({
  label: "invitation_emailed",
  params: ["invitation"],
  sql: ({ p }) => `UPDATE invitations SET emailed = true WHERE id = ${p.invitation}`,
});

const INVITATION_OF_WORKSPACE = defineStatement({
  label: "invitation_of_workspace",
  params: ["invitation", "workspace"],
  columns: { id: text("i.id"), acceptedAt: date("i.accepted_at").nullable },
  sql: ({ select, p }) => `SELECT ${select} FROM invitations i WHERE i.id = ${p.invitation} AND i.workspace_id = ${p.workspace}`,
});

const INVITATION_REVOKE = defineStatement({
  label: "invitation_revoke",
  params: ["invitation", "now"],
  sql: ({ p }) => `UPDATE invitations SET revoked_at = ${atUtc(p.now)} WHERE id = ${p.invitation} AND revoked_at IS NULL AND accepted_at IS NULL`,
});

/** Claims a usable invitation for a person: exactly one of two concurrent claims answers a row. */
const INVITATION_CLAIM = defineStatement({
  label: "invitation_claim",
  params: ["hash", "user", "now"],
  columns: { id: text("id") },
  sql: ({ select, p }) =>
    `UPDATE invitations SET accepted_at = ${atUtc(p.now)}, accepted_by_user_id = ${p.user} ` +
    `WHERE token_hash = ${p.hash} AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ${atUtc(p.now)} RETURNING ${select}`,
});

/** The person joins with the invitation's role; a member already there is only ever raised to admin. */
const MEMBERSHIP_JOIN = defineStatement({
  label: "workspace_member_join",
  params: ["workspace", "user", "role", "now"],
  sql: ({ p }) =>
    `INSERT INTO memberships AS m (workspace_id, user_id, role, joined_at) VALUES (${p.workspace}, ${p.user}, ${p.role}::text::"WorkspaceRole", ${atUtc(p.now)}) ` +
    `ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = 'admin' WHERE m.role = 'member' AND EXCLUDED.role = 'admin'`,
});

/**
 * Creates a new user's personal workspace, with them as its owner and admin, in the caller's
 * session (the first sign-in's transaction). It is named after the name they gave, or their
 * email's local part without one.
 */
export async function createPersonalWorkspace(sql: SqlSession, owner: { userId: string; email: string; name: string | null }) {
  const row = await WORKSPACE_INSERT.first(sql, {
    id: newId("workspace"),
    // Within the 1 to 100 characters of every workspace name: "'s workspace" takes 12.
    name: `${[...(owner.name?.trim() || owner.email.split("@")[0]!)].slice(0, 88).join("")}'s workspace`,
    kind: "personal",
    owner: owner.userId,
    user: owner.userId,
    now: new Date(),
  });
  return row!;
}

export async function createWorkspace(principal: Principal, input: z.output<typeof WorkspaceCreateRequest>) {
  if (principal.credential.kind === "api_key") {
    throw new ApiError(
      "permission_denied",
      "An API key acts only in the workspace it was made for; create workspaces with the CLI (geoscope login) or in the browser.",
    );
  }
  const workspace = await WORKSPACE_INSERT.first(standalone(), {
    id: newId("workspace"),
    name: input.name,
    kind: "team",
    owner: null,
    user: principal.user.id,
    now: new Date(),
  });
  return presentWorkspace({ workspace: workspace!, role: "admin" });
}

export async function updateWorkspace(principal: Principal, workspaceId: string, input: z.output<typeof WorkspaceUpdateRequest>) {
  const access = await requireAdmin(principal, workspaceId);
  const workspace = await WORKSPACE_RENAME.first(standalone(), { workspace: workspaceId, name: input.name, now: new Date() });
  if (!workspace) throw notFound("workspace", workspaceId);
  return presentWorkspace({ ...access, workspace });
}

/**
 * Runs `change` with the workspace row locked, so that two admins demoting or removing each other
 * at once cannot leave the workspace without an admin.
 */
export async function updateMember(principal: Principal, workspaceId: string, memberId: number, role: "admin" | "member") {
  await requireAdmin(principal, workspaceId);
  return withWorkspaceLocked(workspaceId, async (sql) => {
    const member = await memberOfWorkspace(sql, workspaceId, memberId);
    if (!member) throw notFound("member", memberId);
    if (member.role === "admin" && role === "member" && member.admins <= 1) {
      throw new ApiError("conflict", "A workspace keeps at least one admin: make another member admin first.");
    }
    await MEMBER_SET_ROLE.query(sql, { member: memberId, role });
    return presentMember({ ...member, role });
  });
}

/** An admin removes anyone; anyone removes themselves. Their work stays with the workspace. */
export async function removeMember(principal: Principal, workspaceId: string, memberId: number): Promise<void> {
  const access = await requireWorkspace(principal, workspaceId);
  const removingSelf = access.membershipId === memberId;
  if (!removingSelf && access.role !== "admin") {
    throw new ApiError("permission_denied", "Only an admin can remove other members; anyone can leave.");
  }
  const revoked = await withWorkspaceLocked(workspaceId, async (sql) => {
    const member = await memberOfWorkspace(sql, workspaceId, memberId);
    if (!member) throw notFound("member", memberId);
    if (member.ownerUserId === member.userId) {
      throw new ApiError("conflict", "A personal workspace always keeps its owner.");
    }
    if (member.role === "admin" && member.admins <= 1) {
      throw new ApiError("conflict", "A workspace keeps at least one admin: make another member admin first.");
    }
    await deleteMembership(sql, memberId);
    // Keys made for this workspace stop working with the membership they stood for.
    return revokeKeysOfMember(sql, workspaceId, member.userId);
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
  const row = await withWorkspaceLocked(workspaceId, async (sql) => {
    const now = new Date();
    await INVITATIONS_REPLACED.query(sql, { workspace: workspaceId, email, now });
    const inserted = await INVITATION_INSERT.first(sql, {
      id: newId("invitation"),
      workspace: workspaceId,
      email,
      role: input.role,
      hash: hashSecret(token),
      user: principal.user.id,
      now,
      expires: new Date(now.getTime() + ttlMs),
    });
    return inserted!;
  });
  const url = invitationUrl(token);
  const emailed = await sendMail({
    to: row.email,
    subject: `${principal.user.email} invited you to ${access.workspace.name} on geoscope`,
    text: `${principal.user.email} invited you to the workspace "${access.workspace.name}" on geoscope as ${row.role}.\n\nOpen this link while signed in to join (it works once, until ${row.expiresAt.toISOString()}):\n${url}\n`,
  });
  if (emailed) await INVITATION_EMAILED.query(standalone(), { invitation: row.id });
  return { ...presentInvitation(row), url, emailed };
}

export async function revokeInvitation(principal: Principal, workspaceId: string, invitationId: string): Promise<void> {
  await requireAdmin(principal, workspaceId);
  const row = await INVITATION_OF_WORKSPACE.first(standalone(), { invitation: invitationId, workspace: workspaceId });
  if (!row) throw notFound("invitation", invitationId);
  if (row.acceptedAt) throw new ApiError("conflict", "This invitation was already accepted; remove the member instead.");
  await INVITATION_REVOKE.query(standalone(), { invitation: invitationId, now: new Date() });
}

/**
 * Accepts an invitation for the signed-in person. Single use even under concurrent acceptance:
 * exactly one conditional update can claim it.
 */
export async function acceptInvitation(userId: string, token: string): Promise<{ workspaceId: string }> {
  const tokenHash = hashSecret(token);
  return textTransaction(currentDb(), async (sql) => {
    const now = new Date();
    const claimed = await INVITATION_CLAIM.query(sql, { hash: tokenHash, user: userId, now });
    const row = await invitationByTokenHash(sql, tokenHash);
    if (!row) throw notFound("invitation");
    if (claimed.length !== 1) {
      throw new ApiError("conflict", `This invitation is ${invitationStatus(row, now)} and cannot be used.`);
    }
    // A link made before personal workspaces refused invitations admits nobody (the claim rolls back).
    if (row.workspace.kind === "personal") throw new ApiError("conflict", PERSONAL_INVITATION_REFUSED);
    await MEMBERSHIP_JOIN.query(sql, { workspace: row.workspaceId, user: userId, role: row.role, now });
    return { workspaceId: row.workspaceId };
  });
}
