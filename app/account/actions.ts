"use server";
// The account page's form actions: each calls the same service as the API, as the signed-in person.
import { revalidatePath } from "next/cache";
import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { revokeCliToken } from "@/lib/auth/cli-tokens";
import { requireSessionPrincipal } from "@/lib/auth/session";
import { ApiError } from "@/lib/http/errors";
import { parseInput, parseParams } from "@/lib/http/input";
import { createProject, updateProject } from "@/lib/projects/projects";
import * as auth from "@/lib/schemas/auth";
import { idOf } from "@/lib/schemas/common";
import * as projects from "@/lib/schemas/projects";
import * as workspaces from "@/lib/schemas/workspaces";
import { createInvitation, revokeInvitation } from "@/lib/workspaces/invitations";
import { createWorkspace, removeMember, updateMember, updateWorkspace } from "@/lib/workspaces/workspaces";
import { z } from "zod";

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

/** A form's fields through the API's input parsing and the endpoint's request schema (400 naming the field). */
function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  return parseInput(schema, value, "form");
}

/**
 * The ids a form names, checked as the API checks them in a path (the endpoint's own params
 * schema): a malformed one is a missing object, 404, and never reaches the database.
 */
function ids<S extends z.ZodObject>(schema: S, form: FormData): z.output<S> {
  return parseParams(schema, Object.fromEntries(Object.keys(schema.shape).map((name) => [name, field(form, name) ?? ""])));
}

const cliTokenIds = z.object({ token_id: idOf("ct") });

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
    const body = parse(auth.ApiKeyCreateRequest, { name: field(form, "name"), workspace_id: field(form, "workspace_id") });
    const key = await createApiKey(principal, body);
    return { secret: key.key, secretLabel: `API key “${key.name}”`, message: "Copy the key now: it is shown only once." };
  });
}

export async function revokeApiKeyAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const principal = await requireSessionPrincipal("/account");
  return act(async () => {
    await revokeApiKey(principal, ids(auth.revokeApiKey.params, form).key_id);
    return { message: "Key revoked." };
  });
}

export async function revokeCliTokenAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const principal = await requireSessionPrincipal("/account");
  return act(async () => {
    await revokeCliToken(principal, ids(cliTokenIds, form).token_id);
    return { message: "CLI login revoked." };
  });
}

export async function createWorkspaceAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const principal = await requireSessionPrincipal("/account");
  return act(async () => {
    await createWorkspace(principal, parse(workspaces.WorkspaceCreateRequest, { name: field(form, "name") }));
    return { message: "Workspace created." };
  });
}

export async function renameWorkspaceAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const principal = await requireSessionPrincipal("/account");
  return act(async () => {
    const { workspace_id } = ids(workspaces.updateWorkspace.params, form);
    await updateWorkspace(principal, workspace_id, parse(workspaces.WorkspaceUpdateRequest, { name: field(form, "name") }));
    return { message: "Workspace renamed." };
  });
}

export async function changeRoleAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const principal = await requireSessionPrincipal("/account");
  return act(async () => {
    const { workspace_id, member_id } = ids(workspaces.updateMember.params, form);
    const { role } = parse(workspaces.MemberUpdateRequest, { role: field(form, "role") });
    await updateMember(principal, workspace_id, member_id, role);
    return { message: "Role changed." };
  });
}

export async function removeMemberAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const principal = await requireSessionPrincipal("/account");
  return act(async () => {
    const { workspace_id, member_id } = ids(workspaces.removeMember.params, form);
    await removeMember(principal, workspace_id, member_id);
    return { message: "Member removed." };
  });
}

export async function createInvitationAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const principal = await requireSessionPrincipal("/account");
  return act(async () => {
    const { workspace_id } = ids(workspaces.createInvitation.params, form);
    const body = parse(workspaces.InvitationCreateRequest, { email: field(form, "email"), role: field(form, "role") });
    const invitation = await createInvitation(principal, workspace_id, body);
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
    const { workspace_id, invitation_id } = ids(workspaces.revokeInvitation.params, form);
    await revokeInvitation(principal, workspace_id, invitation_id);
    return { message: "Invitation revoked." };
  });
}

export async function createProjectAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const principal = await requireSessionPrincipal("/account");
  return act(async () => {
    const body = parse(projects.ProjectCreateRequest, {
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
    const body = parse(projects.ProjectUpdateRequest, {
      name: field(form, "name"),
      context: {
        primary_domain: field(form, "primary_domain") ?? null,
        domains: list(form, "domains"),
        brands: list(form, "brands"),
        competitors: list(form, "competitors"),
      },
    });
    const project = await updateProject(principal, ids(projects.updateProject.params, form).project_id, body);
    return { message: `Project ${project.name} saved.` };
  });
}
