// Projects: a named home for work inside one workspace, for life. Any member creates and edits
// (POST /projects, PATCH /projects/{project_id}).
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { newId } from "../db/ids";
import { ApiError } from "../http/errors";
import { contextRefusals, domainNameOf, type ProjectContext, type ProjectCreateRequest, type ProjectUpdateRequest } from "../schemas/projects";
import { defaultWorkspaceId, requireWorkspace } from "../workspaces/access";
import { presentProject } from "./present";
import { getProjectOrThrow } from "./read";

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
