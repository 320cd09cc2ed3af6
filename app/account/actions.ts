"use server";
// The account page's form actions: each calls the same service as the API, as the signed-in person.
import { revalidatePath } from "next/cache";
import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { revokeCliToken } from "@/lib/auth/cli-tokens";
import { requireSessionPrincipal } from "@/lib/auth/session";
import { ApiError } from "@/lib/http/errors";
import { describeZodError, issueWording } from "@/lib/http/input";
import { createProject, updateProject } from "@/lib/projects/projects";
import { ApiKeyCreateRequest } from "@/lib/schemas/auth";
import { ProjectCreateRequest, ProjectUpdateRequest } from "@/lib/schemas/projects";
import { InvitationCreateRequest, MemberUpdateRequest, WorkspaceCreateRequest, WorkspaceUpdateRequest } from "@/lib/schemas/workspaces";
import { createInvitation, revokeInvitation } from "@/lib/workspaces/invitations";
import { createWorkspace, removeMember, updateMember, updateWorkspace } from "@/lib/workspaces/workspaces";
import type { z } from "zod";

export type ActionState = { ok: boolean; message?: string; secret?: string; secretLabel?: string };

function field(form: FormData, name: string): string | undefined {
  const v = form.get(name);
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** A comma-separated field as a list, blanks dropped. */
function list(form: FormData, name: string): string[] {
  return (field(form, name) ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value, { error: issueWording });
  if (!result.success) throw new ApiError("invalid_request", describeZodError(result.error, "form"));
  return result.data;
}

async function act(work: () => Promise<Omit<ActionState, "ok"> | void>): Promise<ActionState> {
  try {
    const out = (await work()) ?? {};
    revalidatePath("/account");
    return { ok: true, ...out };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, message: error.message };
    throw error;
  }
}

export async function createApiKeyAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const principal = await requireSessionPrincipal("/account");
  return act(async () => {
    const body = parse(ApiKeyCreateRequest, { name: field(form, "name"), workspace_id: field(form, "workspace_id") });
    const key = await createApiKey(principal, body);
    return { secret: key.key, secretLabel: `API key “${key.name}”`, message: "Copy the key now: it is shown only once." };
  });
}

export async function revokeApiKeyAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const principal = await requireSessionPrincipal("/account");
  return act(async () => {
    await revokeApiKey(principal, String(field(form, "key_id")));
    return { message: "Key revoked." };
  });
}

export async function revokeCliTokenAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const principal = await requireSessionPrincipal("/account");
  return act(async () => {
    await revokeCliToken(principal, String(field(form, "token_id")));
    return { message: "CLI login revoked." };
  });
}

export async function createWorkspaceAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const principal = await requireSessionPrincipal("/account");
  return act(async () => {
    await createWorkspace(principal, parse(WorkspaceCreateRequest, { name: field(form, "name") }));
    return { message: "Workspace created." };
  });
}

export async function renameWorkspaceAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const principal = await requireSessionPrincipal("/account");
  return act(async () => {
    await updateWorkspace(principal, String(field(form, "workspace_id")), parse(WorkspaceUpdateRequest, { name: field(form, "name") }));
    return { message: "Workspace renamed." };
  });
}

export async function changeRoleAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const principal = await requireSessionPrincipal("/account");
  return act(async () => {
    const { role } = parse(MemberUpdateRequest, { role: field(form, "role") });
    await updateMember(principal, String(field(form, "workspace_id")), Number(field(form, "member_id")), role);
    return { message: "Role changed." };
  });
}

export async function removeMemberAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const principal = await requireSessionPrincipal("/account");
  return act(async () => {
    await removeMember(principal, String(field(form, "workspace_id")), Number(field(form, "member_id")));
    return { message: "Member removed." };
  });
}

export async function createInvitationAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const principal = await requireSessionPrincipal("/account");
  return act(async () => {
    const body = parse(InvitationCreateRequest, { email: field(form, "email"), role: field(form, "role") });
    const invitation = await createInvitation(principal, String(field(form, "workspace_id")), body);
    return {
      secret: invitation.url,
      secretLabel: `Invitation link for ${invitation.email}`,
      message: invitation.emailed
        ? "The link was mailed, and is shown here once."
        : "No mail was sent: copy the link now and send it yourself. It is shown only once.",
    };
  });
}

export async function revokeInvitationAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const principal = await requireSessionPrincipal("/account");
  return act(async () => {
    await revokeInvitation(principal, String(field(form, "workspace_id")), String(field(form, "invitation_id")));
    return { message: "Invitation revoked." };
  });
}

export async function createProjectAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const principal = await requireSessionPrincipal("/account");
  return act(async () => {
    const body = parse(ProjectCreateRequest, {
      name: field(form, "name"),
      workspace_id: field(form, "workspace_id"),
      context: { primary_domain: field(form, "primary_domain") ?? null, brands: list(form, "brands"), competitors: list(form, "competitors") },
    });
    const project = await createProject(principal, body);
    return { message: `Project ${project.name} created (${project.id}).` };
  });
}

export async function updateProjectAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const principal = await requireSessionPrincipal("/account");
  return act(async () => {
    // The form shows the whole context, so what it sends replaces the old one whole, as PATCH does.
    const body = parse(ProjectUpdateRequest, {
      name: field(form, "name"),
      context: {
        primary_domain: field(form, "primary_domain") ?? null,
        domains: list(form, "domains"),
        brands: list(form, "brands"),
        competitors: list(form, "competitors"),
      },
    });
    const project = await updateProject(principal, String(field(form, "project_id")), body);
    return { message: `Project ${project.name} saved.` };
  });
}
