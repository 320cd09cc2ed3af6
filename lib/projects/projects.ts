// Projects: a named home for work inside one workspace, for life. Any member creates and edits.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { newId } from "../db/ids";
import { ApiError, notFound } from "../http/errors";
import { contextRefusals, domainNameOf, type Project, type ProjectContext, type ProjectCreateRequest, type ProjectUpdateRequest } from "../schemas/projects";
import { date, defineStatement, group, json, standalone, text } from "../db/statement";
import type { EntityContext } from "../visibility/entities";
import { defaultWorkspaceId, reachableSql, reachOf, requireWorkspace } from "../workspaces/access";

type ProjectRow = {
  id: string;
  name: string;
  slug: string;
  workspaceId: string;
  context: unknown;
  createdAt: Date;
  workspace: { name: string };
  createdBy: { email: string };
};

export function presentProject(p: ProjectRow): z.input<typeof Project> {
  return {
    id: p.id,
    name: p.name,
    slug: p.slug,
    workspace_id: p.workspaceId,
    workspace_name: p.workspace.name,
    created_by: p.createdBy.email,
    created_at: p.createdAt.toISOString(),
    ...(p.context ? { context: p.context as z.input<typeof ProjectContext> } : {}),
  };
}

const withNames = { workspace: { select: { name: true } }, createdBy: { select: { email: true } } } as const;

export function slugify(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/g, "");
  return slug || "project";
}

/** A name -> list map as stored: each list cleaned (`clean` null drops an item), repeats and empty lists dropped; null when nothing is left. */
function keyedLists(map: Record<string, string[]> | undefined, clean: (item: string) => string | null): Record<string, string[]> | null {
  const entries = Object.entries(map ?? {})
    .map(([key, items]): [string, string[]] => [key, [...new Set(items.map(clean).filter((i): i is string => i !== null))]])
    .filter(([, items]) => items.length > 0);
  return entries.length ? Object.fromEntries(entries) : null;
}

/**
 * Context as stored: domains as hosts (the schema refused what has none), duplicates dropped,
 * empty lists and nulls dropped, so "no context" has one form.
 */
function cleanContext(context: z.output<typeof ProjectContext> | null | undefined) {
  if (!context) return null;
  const primary = context.primary_domain ? domainNameOf(context.primary_domain) : null;
  const domains = [...new Set((context.domains ?? []).map(domainNameOf).filter((d): d is string => d !== null))];
  const aliases = keyedLists(context.aliases, (a) => a);
  const competitorDomains = keyedLists(context.competitor_domains, domainNameOf);
  const clean = {
    ...(primary ? { primary_domain: primary } : {}),
    ...(domains.length ? { domains } : {}),
    ...(context.brands?.length ? { brands: context.brands } : {}),
    ...(context.competitors?.length ? { competitors: context.competitors } : {}),
    ...(aliases ? { aliases } : {}),
    ...(competitorDomains ? { competitor_domains: competitorDomains } : {}),
  };
  return Object.keys(clean).length ? clean : null;
}

const projectColumns = {
  id: text("p.id"),
  name: text("p.name"),
  slug: text("p.slug"),
  workspaceId: text("p.workspace_id"),
  context: json("p.context").nullable,
  createdAt: date("p.created_at"),
  workspace: group({ name: text("w.name") }),
  createdBy: group({ email: text("u.email") }),
};
const projectFrom = "projects p JOIN workspaces w ON w.id = p.workspace_id JOIN users u ON u.id = p.created_by_user_id";

/** The projects of one workspace (checked reachable first), or of every one the credential can act in, newest first. */
const PROJECT_LIST = defineStatement({
  label: "projects",
  params: ["user", "own", "workspace"],
  columns: projectColumns,
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM ${projectFrom} WHERE ${given.workspace ? `p.workspace_id = ${p.workspace}` : reachableSql("p", p)} ORDER BY p.id DESC`,
});

/** A project the credential can reach. */
const PROJECT_BY_ID = defineStatement({
  label: "project_by_id",
  params: ["project", "user", "own"],
  columns: projectColumns,
  sql: ({ select, p }) => `SELECT ${select} FROM ${projectFrom} WHERE p.id = ${p.project} AND ${reachableSql("p", p)}`,
});

export async function listProjects(principal: Principal, workspace?: string) {
  const workspaceId = workspace ? (await requireWorkspace(principal, workspace)).workspace.id : undefined;
  const rows = await PROJECT_LIST.query(standalone(), { ...reachOf(principal), workspace: workspaceId });
  return { items: rows.map(presentProject) };
}

/** A project the credential can act on, or 404. */
export async function getProjectOrThrow(principal: Principal, projectId: string): Promise<ProjectRow> {
  const row = await PROJECT_BY_ID.first(standalone(), { project: projectId, ...reachOf(principal) });
  if (!row) throw notFound("project", projectId);
  return row;
}

export async function getProject(principal: Principal, projectId: string) {
  return presentProject(await getProjectOrThrow(principal, projectId));
}

export async function createProject(principal: Principal, input: z.output<typeof ProjectCreateRequest>) {
  const workspaceId = input.workspace_id ?? (await defaultWorkspaceId(principal));
  await requireWorkspace(principal, workspaceId);
  const base = slugify(input.name);
  // The slug is unique within the workspace: "crm", then "crm-2", "crm-3"… The unique index
  // settles races between two creations of the same name.
  for (let attempt = 0; ; attempt++) {
    const taken = await db().project.findMany({
      where: { workspaceId, slug: { startsWith: base } },
      select: { slug: true },
    });
    const used = new Set(taken.map((t) => t.slug));
    let slug = base;
    for (let n = 2; used.has(slug); n++) slug = `${base}-${n}`;
    try {
      const row = await db().project.create({
        data: {
          id: newId("project"),
          workspaceId,
          name: input.name,
          slug,
          context: cleanContext(input.context) ?? undefined,
          createdByUserId: principal.user.id,
        },
        include: withNames,
      });
      return presentProject(row);
    } catch (error) {
      if (attempt < 5 && (error as { code?: string }).code === "P2002") continue;
      throw error;
    }
  }
}

/**
 * The context an update leaves (docs/decisions.md "Updating a project's context"): the stored one
 * with each field the update gives replaced whole, the others kept; `primary_domain: null` removes
 * it. Refused with 400 when a key of `aliases` or `competitor_domains` then names no entity.
 */
function mergedContext(stored: unknown, given: NonNullable<z.output<typeof ProjectUpdateRequest>["context"]>): z.output<typeof ProjectContext> {
  const base = (stored && typeof stored === "object" ? stored : {}) as z.output<typeof ProjectContext>;
  const changes = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
  const merged = { ...base, ...changes } as z.output<typeof ProjectContext>;
  const refusals = contextRefusals(merged);
  if (refusals.length) throw new ApiError("invalid_request", refusals.map((r) => `context.${r.path.join(".")}: ${r.message}`).join("; "));
  return merged;
}

export async function updateProject(principal: Principal, projectId: string, input: z.output<typeof ProjectUpdateRequest>) {
  const project = await getProjectOrThrow(principal, projectId);
  const data: Prisma.ProjectUpdateInput = {};
  if (input.name) data.name = input.name;
  if (input.context === null) data.context = Prisma.DbNull;
  else if (input.context !== undefined) data.context = cleanContext(mergedContext(project.context, input.context)) ?? Prisma.DbNull;
  const row = await db().project.update({ where: { id: projectId }, data, include: withNames });
  return presentProject(row);
}

const PROJECT_CONTEXT = defineStatement({
  label: "visibility_project",
  params: ["project"],
  columns: { workspaceId: text("p.workspace_id"), context: json<EntityContext>("p.context").nullable },
  sql: ({ select, p }) => `SELECT ${select} FROM projects p WHERE p.id = ${p.project}`,
});

/** A project's workspace and context (its brands and competitors), without any access check: for work on runs already found reachable. */
export function readProjectContext(projectId: string): Promise<{ workspaceId: string; context: EntityContext | null } | undefined> {
  return PROJECT_CONTEXT.first(standalone(), { project: projectId });
}

