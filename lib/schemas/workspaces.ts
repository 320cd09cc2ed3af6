// Workspaces, their members and invitations (spec 2.2, 4.2), served by lib/workspaces.
import { z } from "zod";
import { DateTime, idOf, name, readDecimal } from "./common";
import { defineEndpoint } from "./endpoint";
import {
  exampleInvitation,
  exampleInvitationCreated,
  exampleMember,
  examplePersonalWorkspace,
  exampleWorkspace,
} from "./examples";

/** Member ids are PostgreSQL `integer`s: a larger number names no member (404), never a database error. */
export const MAX_MEMBER_ID = 2_147_483_647;

export const WorkspaceRole = z.enum(["admin", "member"]).meta({ id: "WorkspaceRole" });

export const WorkspaceKind = z.enum(["personal", "team"]).meta({ id: "WorkspaceKind" });

export const WorkspaceId = idOf("ws");

export const Workspace = z
  .object({
    id: WorkspaceId,
    name: z.string(),
    kind: WorkspaceKind.describe("personal: yours alone; team: shared with members."),
    role: WorkspaceRole.describe("The caller's role in the workspace."),
    created_at: DateTime,
  })
  .meta({ id: "Workspace", examples: [exampleWorkspace] });

export const WorkspaceList = z
  .object({ items: z.array(Workspace) })
  .meta({ id: "WorkspaceList", examples: [{ items: [examplePersonalWorkspace, exampleWorkspace] }] });

export const Member = z
  .object({
    id: z.int().positive().max(MAX_MEMBER_ID),
    email: z.string(),
    name: z.string().optional(),
    role: WorkspaceRole,
    joined_at: DateTime,
  })
  .meta({ id: "Member", examples: [exampleMember] });

export const MemberList = z.object({ items: z.array(Member) }).meta({ id: "MemberList", examples: [{ items: [exampleMember] }] });

/** The secret of an invitation link (/invite/{token}), as lib/auth/secrets.ts makes it: what its page's forms accept. */
export const InvitationToken = z.string().regex(/^[0-9A-Za-z]{20,100}$/, "is not an invitation token");

export const InvitationStatus = z.enum(["pending", "accepted", "revoked", "expired"]).meta({ id: "InvitationStatus" });

export const Invitation = z
  .object({
    id: idOf("iv"),
    email: z.string().describe("Who the admin meant; the link, not the address, admits."),
    role: WorkspaceRole,
    status: InvitationStatus,
    invited_by: z.string().describe("Email of the admin who invited."),
    accepted_by: z.string().nullable().describe("Who took it, which may differ from the address."),
    created_at: DateTime,
    expires_at: DateTime,
  })
  .meta({ id: "Invitation", examples: [exampleInvitation] });

export const InvitationCreated = Invitation.extend({
  url: z.string().describe("The only copy of the link; the server keeps only a hash."),
  emailed: z.boolean().describe("Whether the server sent it by mail; otherwise the caller sends the link."),
}).meta({ id: "InvitationCreated", examples: [exampleInvitationCreated] });

export const InvitationList = z
  .object({ items: z.array(Invitation) })
  .meta({ id: "InvitationList", examples: [{ items: [exampleInvitation] }] });

// Request bodies
export const WorkspaceCreateRequest = z
  .strictObject({ name: name(100) })
  .meta({ id: "WorkspaceCreateRequest", examples: [{ name: exampleWorkspace.name }] });
export const WorkspaceUpdateRequest = z
  .strictObject({ name: name(100) })
  .meta({ id: "WorkspaceUpdateRequest", examples: [{ name: "Acme growth team" }] });
export const MemberUpdateRequest = z.strictObject({ role: WorkspaceRole }).meta({ id: "MemberUpdateRequest", examples: [{ role: "admin" }] });
export const InvitationCreateRequest = z
  .strictObject({ email: z.email({ error: "must be an email address" }), role: WorkspaceRole.default("member") })
  .meta({ id: "InvitationCreateRequest", examples: [{ email: exampleInvitation.email, role: "member" }] });

// Endpoints
const workspaceParams = z.object({ workspace_id: WorkspaceId });
const memberParams = z.object({
  workspace_id: WorkspaceId,
  member_id: z.preprocess(readDecimal, z.int().positive().max(MAX_MEMBER_ID)),
});
const invitationParams = z.object({ workspace_id: WorkspaceId, invitation_id: idOf("iv") });

export const listWorkspaces = defineEndpoint({
  method: "GET", path: "/workspaces", operationId: "listWorkspaces", summary: "Workspaces the credential can act in, own first",
  description:
    "The caller's personal workspace first, then team workspaces, with the caller's role in each. An API key sees only its own workspace.",
  tags: ["Workspaces"], auth: "bearer", response: WorkspaceList, status: 200,
});
export const createWorkspace = defineEndpoint({
  method: "POST", path: "/workspaces", operationId: "createWorkspace", summary: "Create a team workspace; the caller becomes its admin",
  description:
    "A team workspace (kind `team`) with the caller as its admin and no credit of its own yet. An API key cannot create one (403): it could never act in it.",
  tags: ["Workspaces"], auth: "bearer", body: WorkspaceCreateRequest, response: Workspace, status: 201, errors: ["permission_denied"],
});
export const getWorkspace = defineEndpoint({
  method: "GET", path: "/workspaces/{workspace_id}", operationId: "getWorkspace", summary: "One workspace",
  description:
    "Its name, kind and the caller's role. A workspace the credential cannot act in answers 404.",
  tags: ["Workspaces"], auth: "bearer", params: workspaceParams, response: Workspace, status: 200,
});
export const updateWorkspace = defineEndpoint({
  method: "PATCH", path: "/workspaces/{workspace_id}", operationId: "updateWorkspace", summary: "Rename a workspace (admin)",
  description:
    "The name is 1 to 100 characters after trimming. Admins only (403 for a member).",
  tags: ["Workspaces"], auth: "bearer", params: workspaceParams, body: WorkspaceUpdateRequest, response: Workspace, status: 200,
  errors: ["permission_denied"],
});
export const listMembers = defineEndpoint({
  method: "GET", path: "/workspaces/{workspace_id}/members", operationId: "listMembers", summary: "Members of a workspace",
  description:
    "Everyone in the workspace with their role and when they joined; any member may list them.",
  tags: ["Workspaces"], auth: "bearer", params: workspaceParams, response: MemberList, status: 200,
});
export const updateMember = defineEndpoint({
  method: "PATCH", path: "/workspaces/{workspace_id}/members/{member_id}", operationId: "updateMember",
  summary: "Change a member's role (admin); the last admin cannot be demoted",
  description:
    "Promote to `admin` or demote to `member`. Admins only. Demoting the last admin is 409; the check holds under concurrent changes.",
  tags: ["Workspaces"], auth: "bearer", params: memberParams, body: MemberUpdateRequest, response: Member, status: 200,
  errors: ["permission_denied", "conflict"],
});
export const removeMember = defineEndpoint({
  method: "DELETE", path: "/workspaces/{workspace_id}/members/{member_id}", operationId: "removeMember",
  summary: "Remove a member (admin), or leave (yourself); the last admin cannot leave",
  description:
    "An admin removes anyone, anyone removes themselves. The person's API keys for the workspace are revoked; their work stays. The last admin, and the owner of a personal workspace, cannot be removed (409).",
  tags: ["Workspaces"], auth: "bearer", params: memberParams, status: 204, errors: ["permission_denied", "conflict"],
});
export const listInvitations = defineEndpoint({
  method: "GET", path: "/workspaces/{workspace_id}/invitations", operationId: "listInvitations", summary: "Invitations of a workspace (admin)",
  description:
    "Pending, accepted, revoked and expired invitations, newest first. Admins only. The links are not shown again.",
  tags: ["Workspaces"], auth: "bearer", params: workspaceParams, response: InvitationList, status: 200, errors: ["permission_denied"],
});
export const createInvitation = defineEndpoint({
  method: "POST", path: "/workspaces/{workspace_id}/invitations", operationId: "createInvitation",
  summary: "Invite someone (admin); the link is returned once",
  description:
    "Team workspaces only (a personal workspace answers 409). Inviting an address that already has a pending invitation replaces it: the old link is revoked and the new one (with the new role) is the only one that works.",
  tags: ["Workspaces"], auth: "bearer", params: workspaceParams,
  body: InvitationCreateRequest, response: InvitationCreated, status: 201, errors: ["permission_denied", "conflict"],
});
export const revokeInvitation = defineEndpoint({
  method: "DELETE", path: "/workspaces/{workspace_id}/invitations/{invitation_id}", operationId: "revokeInvitation",
  summary: "Revoke a pending invitation (admin)",
  description:
    "A pending link stops working at once. Revoking a revoked invitation answers 204; an accepted one is 409.", tags: ["Workspaces"], auth: "bearer", params: invitationParams, status: 204,
  errors: ["permission_denied", "conflict"],
});
