"use server";
// The account page's form actions: each calls the same service as the API, as the signed-in person.
import { revalidatePath } from "next/cache";
import { createApiKey, revokeApiKey } from "@/lib/auth/create";
import { revokeCliToken } from "@/lib/auth/cli-tokens";
import { requireSessionPrincipal } from "@/lib/auth/session";
import { ApiError } from "@/lib/http/errors";
import { parseInput, parseParams } from "@/lib/http/input";
import { createProject, updateProject } from "@/lib/projects/create";
import { getProject } from "@/lib/projects/read";
import * as auth from "@/lib/schemas/auth";
import { idOf } from "@/lib/schemas/common";
import * as projects from "@/lib/schemas/projects";
import * as workspaces from "@/lib/schemas/workspaces";
import { createInvitation, createWorkspace, removeMember, revokeInvitation, updateMember, updateWorkspace } from "@/lib/workspaces/create";
import { z } from "zod";
import { inFormWords, type FieldLabels } from "../_lib/form-words";

export type ActionState = { ok: boolean; message?: string; secret?: string; secretLabel?: string };

function field(form: FormData, name: string): string | undefined {
  const v = form.get(name);
  return typeof v === "string" && v !== "" ? v : undefined;
}

/**
 * A comma-separated field as a list, each item trimmed, as typed: an empty item between two
 * commas stays, so the schema refuses it and every refusal numbers the items as the field shows
 * them ("HubSpot, , Zoho": item 2 is the blank one); a comma at the end adds no item.
 */
function list(form: FormData, name: string): string[] {
  const items = (field(form, name) ?? "").split(",").map((s) => s.trim());
  while (items.length > 0 && items[items.length - 1] === "") items.pop();
  return items;
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

// Each form's labels by the request paths its fields fill: refusals are shown in these words.
const KEY_LABELS: FieldLabels = { name: "Name", workspace_id: "Workspace" };
const WORKSPACE_LABELS: FieldLabels = { name: "Workspace name" };
const INVITATION_LABELS: FieldLabels = { email: "Email to invite", role: "Role" };
const PROJECT_LABELS: FieldLabels = {
  name: "Project name",
  workspace_id: "Workspace",
  "context.primary_domain": "Primary domain",
  "context.domains": "Other domains",
  "context.brands": "Brands",
  "context.competitors": "Competitors",
};

async function act(work: () => Promise<Omit<ActionState, "ok"> | void>, labels: FieldLabels = {}): Promise<ActionState> {
  try {
    const out = (await work()) ?? {};
    revalidatePath("/account");
    return { ok: true, ...out };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, message: inFormWords(error.message, labels) };
    throw error;
  }
}

export async function createApiKeyAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const principal = await requireSessionPrincipal("/account");
  return act(async () => {
    const body = parse(auth.ApiKeyCreateRequest, { name: field(form, "name"), workspace_id: field(form, "workspace_id") });
    const key = await createApiKey(principal, body);
    return { secret: key.key, secretLabel: `API key “${key.name}”`, message: "Copy the key now: it is shown only once." };
  }, KEY_LABELS);
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
  }, WORKSPACE_LABELS);
}

export async function renameWorkspaceAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const principal = await requireSessionPrincipal("/account");
  return act(async () => {
    const { workspace_id } = ids(workspaces.updateWorkspace.params, form);
    await updateWorkspace(principal, workspace_id, parse(workspaces.WorkspaceUpdateRequest, { name: field(form, "name") }));
    return { message: "Workspace renamed." };
  }, WORKSPACE_LABELS);
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
  }, INVITATION_LABELS);
}

export async function revokeInvitationAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const principal = await requireSessionPrincipal("/account");
  return act(async () => {
    const { workspace_id, invitation_id } = ids(workspaces.revokeInvitation.params, form);
    await revokeInvitation(principal, workspace_id, invitation_id);
    return { message: "Invitation revoked." };
  });
}

/** The context fields the project forms show, as typed. */
function shownContext(form: FormData, prefix = "") {
  return {
    primary_domain: field(form, `${prefix}primary_domain`)?.trim() || null,
    domains: list(form, `${prefix}domains`),
    brands: list(form, `${prefix}brands`),
    competitors: list(form, `${prefix}competitors`),
  };
}

export async function createProjectAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const principal = await requireSessionPrincipal("/account");
  return act(async () => {
    const body = parse(projects.ProjectCreateRequest, { name: field(form, "name"), workspace_id: field(form, "workspace_id"), context: shownContext(form) });
    const project = await createProject(principal, body);
    return { message: `Project ${project.name} created (${project.id}).` };
  }, PROJECT_LABELS);
}

/**
 * A context without the other names and domains of brands and competitors it no longer lists: a
 * brand removed here takes its aliases (edited on the project page) with it, rather than the
 * save being refused for naming it.
 */
function withoutOrphanNames<C extends { brands?: string[]; competitors?: string[]; aliases?: Record<string, string[]>; competitor_domains?: Record<string, string[]> }>(context: C): C {
  const names = new Set([...(context.brands ?? []), ...(context.competitors ?? [])]);
  const competitors = new Set(context.competitors ?? []);
  const keep = (map: Record<string, string[]> | undefined, known: Set<string>) => (map ? Object.fromEntries(Object.entries(map).filter(([k]) => known.has(k))) : undefined);
  return { ...context, aliases: keep(context.aliases, names), competitor_domains: keep(context.competitor_domains, competitors) };
}

/**
 * The edit sends a whole context (PATCH would merge fields given alone, but a form sends all it shows): the project's context as
 * stored now, with only the fields changed in the form (each form field carries, in `was.…`,
 * what it showed). A field left as shown keeps what is stored, even when it changed elsewhere
 * since the page was shown (the CLI, a colleague), and fields the form does not show are kept.
 */
export async function updateProjectAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const principal = await requireSessionPrincipal("/account");
  return act(async () => {
    const { project_id } = ids(projects.updateProject.params, form);
    const stored = await getProject(principal, project_id);
    const typed = shownContext(form);
    const shown = shownContext(form, "was.");
    const edited = (Object.keys(typed) as (keyof typeof typed)[]).filter((key) => !form.has(`was.${key}`) || JSON.stringify(typed[key]) !== JSON.stringify(shown[key]));
    const name = field(form, "name");
    const renamed = !form.has("was.name") || name !== field(form, "was.name");
    const context = { ...stored.context, ...Object.fromEntries(edited.map((key) => [key, typed[key]])) };
    const body = parse(projects.ProjectUpdateRequest, { ...(renamed ? { name } : {}), context: withoutOrphanNames(context) });
    const project = await updateProject(principal, project_id, body);
    return { message: `Project ${project.name} saved.` };
  }, PROJECT_LABELS);
}
