// Accounts, credentials, workspaces, members, invitations and projects (spec 2.2, 4.2, 5).
import { z } from "zod";
import { DateTime, idOf } from "./common";
import { defineEndpoint } from "./endpoint";

export const WorkspaceRole = z.enum(["admin", "member"]).meta({ id: "WorkspaceRole" });
export const WorkspaceKind = z.enum(["personal", "team"]).meta({ id: "WorkspaceKind" });
export const CredentialKind = z.enum(["api_key", "cli_token", "session"]).meta({ id: "CredentialKind" });

export const WorkspaceId = idOf("ws");
export const ProjectId = idOf("pr");
export const ApiKeyId = idOf("ak");

const name = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { error: `must be 1 to ${max} characters` })
    .max(max, { error: `must be 1 to ${max} characters` });

export const Workspace = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: WorkspaceKind.describe("personal: yours alone; team: shared with members."),
    role: WorkspaceRole.describe("The caller's role in the workspace."),
    created_at: DateTime,
  })
  .meta({ id: "Workspace" });

export const WorkspaceList = z.object({ items: z.array(Workspace) }).meta({ id: "WorkspaceList" });

export const Credential = z
  .object({ kind: CredentialKind, id: z.string(), name: z.string() })
  .meta({ id: "Credential" });

export const Me = z
  .object({
    email: z.string(),
    credential: Credential,
    workspaces: z.array(Workspace).describe("Where the credential can act, own workspace first."),
    engines_simulated: z
      .boolean()
      .describe("True when this server answers prompts from its engine simulator instead of the real providers."),
  })
  .meta({ id: "Me" });

export const Member = z
  .object({
    id: z.number().int(),
    email: z.string(),
    name: z.string().optional(),
    role: WorkspaceRole,
    joined_at: DateTime,
  })
  .meta({ id: "Member" });

export const MemberList = z.object({ items: z.array(Member) }).meta({ id: "MemberList" });

export const InvitationStatus = z.enum(["pending", "accepted", "revoked", "expired"]).meta({ id: "InvitationStatus" });

export const Invitation = z
  .object({
    id: z.string(),
    email: z.string().describe("Who the admin meant; the link, not the address, admits."),
    role: WorkspaceRole,
    status: InvitationStatus,
    invited_by: z.string(),
    accepted_by: z.string().nullable().describe("Who took it, which may differ from the address."),
    created_at: DateTime,
    expires_at: DateTime,
  })
  .meta({ id: "Invitation" });

export const InvitationCreated = Invitation.extend({
  url: z.string().describe("The only copy of the link; the server keeps only a hash."),
  emailed: z.boolean().describe("Whether the server sent it by mail; otherwise the caller sends the link."),
}).meta({ id: "InvitationCreated" });

export const InvitationList = z.object({ items: z.array(Invitation) }).meta({ id: "InvitationList" });

export const ProjectContext = z
  .object({
    primary_domain: z.string().nullable().optional(),
    domains: z.array(z.string()).optional(),
    brands: z.array(z.string()).optional(),
    competitors: z.array(z.string()).optional(),
  })
  .meta({ id: "ProjectContext" });

export const Project = z
  .object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    workspace_id: z.string(),
    workspace_name: z.string(),
    created_by: z.string(),
    created_at: DateTime,
    context: ProjectContext.optional(),
  })
  .meta({ id: "Project" });

export const ProjectList = z.object({ items: z.array(Project) }).meta({ id: "ProjectList" });

export const ApiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().describe("The first 12 characters of the key: enough to recognise it, never to use it."),
    created_at: DateTime,
    workspace_id: z.string().nullable().describe("The one workspace the key acts in and whose credit it spends."),
    last_used_at: DateTime.nullable(),
    revoked_at: DateTime.nullable(),
  })
  .meta({ id: "ApiKey" });

export const ApiKeyCreated = ApiKey.extend({
  key: z.string().describe("The secret, returned once and never retrievable again."),
}).meta({ id: "ApiKeyCreated" });

export const ApiKeyList = z.object({ items: z.array(ApiKey) }).meta({ id: "ApiKeyList" });

export const CLIAuthStart = z
  .object({
    device_code: z.string().describe("Secret the CLI polls with; it stays in the CLI."),
    user_code: z.string().describe("Shown to the person, who compares it in the browser (XXXX-XXXX)."),
    verification_uri: z.string(),
    verification_uri_complete: z.string(),
    expires_in: z.number().int(),
    interval: z.number().int(),
  })
  .meta({ id: "CLIAuthStart" });

export const CLIAuthPollStatus = z.enum(["pending", "slow_down", "approved", "denied", "expired"]).meta({ id: "CLIAuthPollStatus" });

export const CLIAuthPoll = z
  .object({
    status: CLIAuthPollStatus.describe("RFC 8628 semantics; after `approved` has been answered once, the device code answers `expired`."),
    token: z.string().nullable(),
    token_id: z.string().nullable(),
    email: z.string().nullable(),
  })
  .meta({ id: "CLIAuthPoll" });

// Request bodies
export const ApiKeyCreateRequest = z
  .strictObject({
    name: name(100),
    workspace_id: WorkspaceId.nullable().optional().describe("Defaults to the caller's own workspace."),
  })
  .meta({ id: "ApiKeyCreateRequest" });

export const CLIAuthStartRequest = z.strictObject({ client_name: name(200) }).meta({ id: "CLIAuthStartRequest" });
export const CLIAuthPollRequest = z
  .strictObject({ device_code: z.string().min(1, { error: "is required" }) })
  .meta({ id: "CLIAuthPollRequest" });
export const WorkspaceCreateRequest = z.strictObject({ name: name(100) }).meta({ id: "WorkspaceCreateRequest" });
export const WorkspaceUpdateRequest = z.strictObject({ name: name(100) }).meta({ id: "WorkspaceUpdateRequest" });
export const MemberUpdateRequest = z.strictObject({ role: WorkspaceRole }).meta({ id: "MemberUpdateRequest" });
export const InvitationCreateRequest = z
  .strictObject({ email: z.email({ error: "must be an email address" }), role: WorkspaceRole.default("member") })
  .meta({ id: "InvitationCreateRequest" });
export const ProjectCreateRequest = z
  .strictObject({
    name: name(100),
    workspace_id: WorkspaceId.nullable().optional().describe("Defaults to the caller's own workspace, or the key's."),
    context: ProjectContext.nullable().optional(),
  })
  .meta({ id: "ProjectCreateRequest" });
export const ProjectUpdateRequest = z
  .strictObject({
    name: name(100).nullable().optional(),
    context: ProjectContext.nullable().optional().describe("Replaces the old context whole."),
  })
  .meta({ id: "ProjectUpdateRequest" });

// Endpoints
const workspaceParams = z.object({ workspace_id: WorkspaceId });
const memberParams = z.object({
  workspace_id: WorkspaceId,
  member_id: z.coerce.number({ error: "must be a whole number" }).int().positive(),
});
const invitationParams = z.object({ workspace_id: WorkspaceId, invitation_id: idOf("iv") });
const workspaceQuery = z.object({ workspace: WorkspaceId.optional().describe("Narrow to one workspace the caller belongs to.") });

export const getMe = defineEndpoint({
  method: "GET", path: "/me", operationId: "getMe", summary: "Who the credential belongs to and where it can act",
  tags: ["Accounts"], auth: "bearer", response: Me, status: 200,
});
export const listApiKeys = defineEndpoint({
  method: "GET", path: "/api-keys", operationId: "listApiKeys", summary: "The caller's API keys, revoked ones included",
  tags: ["API keys"], auth: "bearer", response: ApiKeyList, status: 200,
});
export const createApiKey = defineEndpoint({
  method: "POST", path: "/api-keys", operationId: "createApiKey", summary: "Create an API key; the secret is returned once",
  tags: ["API keys"], auth: "bearer", body: ApiKeyCreateRequest, response: ApiKeyCreated, status: 201, errors: ["not_found"],
});
export const revokeApiKey = defineEndpoint({
  method: "DELETE", path: "/api-keys/{key_id}", operationId: "revokeApiKey", summary: "Revoke an API key at once",
  tags: ["API keys"], auth: "bearer", params: z.object({ key_id: ApiKeyId }), status: 204,
});
export const startCliAuth = defineEndpoint({
  method: "POST", path: "/cli/auth/start", operationId: "startCliAuth", summary: "Start a CLI device login (RFC 8628)",
  tags: ["CLI login"], auth: "none", body: CLIAuthStartRequest, response: CLIAuthStart, status: 200,
});
export const pollCliAuth = defineEndpoint({
  method: "POST", path: "/cli/auth/poll", operationId: "pollCliAuth", summary: "Poll a CLI device login",
  tags: ["CLI login"], auth: "none", body: CLIAuthPollRequest, response: CLIAuthPoll, status: 200,
});
export const revokeCliToken = defineEndpoint({
  method: "DELETE", path: "/cli/auth/token", operationId: "revokeCliToken", summary: "Log out: revoke the CLI token this request used",
  tags: ["CLI login"], auth: "bearer", status: 204, errors: ["invalid_request"],
});
export const listWorkspaces = defineEndpoint({
  method: "GET", path: "/workspaces", operationId: "listWorkspaces", summary: "Workspaces the credential can act in, own first",
  tags: ["Workspaces"], auth: "bearer", response: WorkspaceList, status: 200,
});
export const createWorkspace = defineEndpoint({
  method: "POST", path: "/workspaces", operationId: "createWorkspace", summary: "Create a team workspace; the caller becomes its admin",
  tags: ["Workspaces"], auth: "bearer", body: WorkspaceCreateRequest, response: Workspace, status: 201, errors: ["permission_denied"],
});
export const getWorkspace = defineEndpoint({
  method: "GET", path: "/workspaces/{workspace_id}", operationId: "getWorkspace", summary: "One workspace",
  tags: ["Workspaces"], auth: "bearer", params: workspaceParams, response: Workspace, status: 200,
});
export const updateWorkspace = defineEndpoint({
  method: "PATCH", path: "/workspaces/{workspace_id}", operationId: "updateWorkspace", summary: "Rename a workspace (admin)",
  tags: ["Workspaces"], auth: "bearer", params: workspaceParams, body: WorkspaceUpdateRequest, response: Workspace, status: 200,
  errors: ["permission_denied"],
});
export const listMembers = defineEndpoint({
  method: "GET", path: "/workspaces/{workspace_id}/members", operationId: "listMembers", summary: "Members of a workspace",
  tags: ["Workspaces"], auth: "bearer", params: workspaceParams, response: MemberList, status: 200,
});
export const updateMember = defineEndpoint({
  method: "PATCH", path: "/workspaces/{workspace_id}/members/{member_id}", operationId: "updateMember",
  summary: "Change a member's role (admin); the last admin cannot be demoted",
  tags: ["Workspaces"], auth: "bearer", params: memberParams, body: MemberUpdateRequest, response: Member, status: 200,
  errors: ["permission_denied", "conflict"],
});
export const removeMember = defineEndpoint({
  method: "DELETE", path: "/workspaces/{workspace_id}/members/{member_id}", operationId: "removeMember",
  summary: "Remove a member (admin), or leave (yourself); the last admin cannot leave",
  tags: ["Workspaces"], auth: "bearer", params: memberParams, status: 204, errors: ["permission_denied", "conflict"],
});
export const listInvitations = defineEndpoint({
  method: "GET", path: "/workspaces/{workspace_id}/invitations", operationId: "listInvitations", summary: "Invitations of a workspace (admin)",
  tags: ["Workspaces"], auth: "bearer", params: workspaceParams, response: InvitationList, status: 200, errors: ["permission_denied"],
});
export const createInvitation = defineEndpoint({
  method: "POST", path: "/workspaces/{workspace_id}/invitations", operationId: "createInvitation",
  summary: "Invite someone (admin); the link is returned once", tags: ["Workspaces"], auth: "bearer", params: workspaceParams,
  body: InvitationCreateRequest, response: InvitationCreated, status: 201, errors: ["permission_denied"],
});
export const revokeInvitation = defineEndpoint({
  method: "DELETE", path: "/workspaces/{workspace_id}/invitations/{invitation_id}", operationId: "revokeInvitation",
  summary: "Revoke a pending invitation (admin)", tags: ["Workspaces"], auth: "bearer", params: invitationParams, status: 204,
  errors: ["permission_denied", "conflict"],
});
export const listProjects = defineEndpoint({
  method: "GET", path: "/projects", operationId: "listProjects", summary: "Projects in the workspaces the credential can act in",
  tags: ["Projects"], auth: "bearer", query: workspaceQuery, response: ProjectList, status: 200,
});
export const createProject = defineEndpoint({
  method: "POST", path: "/projects", operationId: "createProject", summary: "Create a project (any member)",
  tags: ["Projects"], auth: "bearer", body: ProjectCreateRequest, response: Project, status: 201,
});
export const getProject = defineEndpoint({
  method: "GET", path: "/projects/{project_id}", operationId: "getProject", summary: "One project",
  tags: ["Projects"], auth: "bearer", params: z.object({ project_id: ProjectId }), response: Project, status: 200,
});
export const updateProject = defineEndpoint({
  method: "PATCH", path: "/projects/{project_id}", operationId: "updateProject", summary: "Rename a project or replace its context (any member)",
  tags: ["Projects"], auth: "bearer", params: z.object({ project_id: ProjectId }), body: ProjectUpdateRequest, response: Project,
  status: 200,
});
