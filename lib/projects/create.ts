// Projects: a named home for work inside one workspace, for life. Any member creates and edits
// (POST /projects, PATCH /projects/{project_id}).
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { newId } from "../db/ids";
import { atUtc, defineStatement, standalone, text } from "../db/statement";
import { ApiError, notFound } from "../http/errors";
import { contextRefusals, domainNameOf, type ProjectContext, type ProjectCreateRequest, type ProjectUpdateRequest } from "../schemas/projects";
import { defaultWorkspaceId, requireWorkspace } from "../workspaces/access";
import { presentProject } from "./present";
import { getProjectOrThrow, projectColumns, projectNames } from "./read";

/** The slugs of a workspace's projects that start with `base` ("crm", "crm-2"…). */
const SLUGS_TAKEN = defineStatement({
  label: "project_slugs_taken",
  params: ["workspace", "base"],
  columns: { slug: text("p.slug") },
  sql: ({ select, p }) => `SELECT ${select} FROM projects p WHERE p.workspace_id = ${p.workspace} AND starts_with(p.slug, ${p.base})`,
});

/** A new project, answered as the reads answer it (its workspace's name and its creator's email joined). */
const PROJECT_INSERT = defineStatement({
  label: "project_insert",
  params: ["id", "workspace", "name", "slug", "context", "user", "now"],
  columns: projectColumns,
  sql: ({ select, p }) =>
    `WITH p AS (INSERT INTO projects (id, workspace_id, name, slug, context, created_by_user_id, created_at, updated_at) ` +
    `VALUES (${p.id}, ${p.workspace}, ${p.name}, ${p.slug}, ${p.context}::jsonb, ${p.user}, ${atUtc(p.now)}, ${atUtc(p.now)}) RETURNING *) ` +
    `SELECT ${select} FROM p ${projectNames}`,
});

/** A project's name and context, each set only when given (a null context removes it). */
const PROJECT_UPDATE = defineStatement({
  label: "project_update",
  params: ["project", "name", "context", "now"],
  columns: projectColumns,
  sql: ({ select, p, given }) => {
    const set = [given.name && `name = ${p.name}`, given.context && `context = ${p.context}::jsonb`, `updated_at = ${atUtc(p.now)}`];
    return (
      `WITH p AS (UPDATE projects SET ${set.filter(Boolean).join(", ")} WHERE id = ${p.project} RETURNING *) ` +
      `SELECT ${select} FROM p ${projectNames}`
    );
  },
});

/** A unique index refused the row (PostgreSQL's unique_violation, from pg or PGlite). */
function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === "23505";
}

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

export async function createProject(principal: Principal, input: z.output<typeof ProjectCreateRequest>) {
  const workspaceId = input.workspace_id ?? (await defaultWorkspaceId(principal));
  await requireWorkspace(principal, workspaceId);
  const base = slugify(input.name);
  // The slug is unique within the workspace: "crm", then "crm-2", "crm-3"… The unique index
  // settles races between two creations of the same name.
  for (let attempt = 0; ; attempt++) {
    const taken = await SLUGS_TAKEN.query(standalone(), { workspace: workspaceId, base });
    const used = new Set(taken.map((t) => t.slug));
    let slug = base;
    for (let n = 2; used.has(slug); n++) slug = `${base}-${n}`;
    try {
      const context = cleanContext(input.context);
      const row = await PROJECT_INSERT.first(standalone(), {
        id: newId("project"),
        workspace: workspaceId,
        name: input.name,
        slug,
        context: context === null ? null : JSON.stringify(context),
        user: principal.user.id,
        now: new Date(),
      });
      return presentProject(row!);
    } catch (error) {
      if (attempt < 5 && isUniqueViolation(error)) continue;
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
  // A context that cleans to nothing is stored as SQL NULL, as a null one.
  const context =
    input.context === undefined ? undefined : input.context === null ? null : cleanContext(mergedContext(project.context, input.context));
  const row = await PROJECT_UPDATE.first(standalone(), {
    project: projectId,
    name: input.name || undefined,
    context: context === undefined || context === null ? context : JSON.stringify(context),
    now: new Date(),
  });
  if (!row) throw notFound("project", projectId);
  return presentProject(row);
}
