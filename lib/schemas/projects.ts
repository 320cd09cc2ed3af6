// Projects (spec 2.2, 4.2), served by lib/projects.
import { z } from "zod";
import { DateTime, idOf, name } from "./common";
import { defineEndpoint } from "./endpoint";
import { exampleProject, exampleProjectContext, exampleProjectCreateRequest } from "./examples";
import { WorkspaceId } from "./workspaces";

export const ProjectId = idOf("pr");

/**
 * The host a person meant by a domain or a URL: "https://WWW.Acme.com/pricing" is
 * "www.acme.com", "acme.com." is "acme.com"; null for anything that is not a public-style
 * domain name (spaces, one label, an IP address, a non-http scheme, user info).
 */
export function domainNameOf(text: string): string | null {
  const given = text.trim();
  if (given === "" || /\s/.test(given)) return null;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(given)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== "http" && scheme !== "https") return null;
  let url: URL;
  try {
    url = new URL(scheme ? given : `http://${given}`);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  const host = url.hostname.replace(/\.$/, "");
  const labels = host.split(".");
  if (host.length > 253 || labels.length < 2) return null;
  if (!labels.every((label) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label))) return null;
  // A top-level label is letters (or an IDN's xn--), so an IPv4 address is refused too.
  if (!/^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(labels[labels.length - 1]!)) return null;
  return host;
}

const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
const PORT = "(?:[0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])";
/**
 * What DomainName accepts, as a pattern for OpenAPI (every string it matches domainNameOf takes):
 * optional http(s) scheme, labels of letters, digits and inner hyphens, a last label of 2 to 63
 * letters, an optional trailing dot, port and path.
 */
export const DOMAIN_NAME_PATTERN = `^\\s*(?:[Hh][Tt][Tt][Pp][Ss]?://)?(?:${LABEL}\\.){1,3}[A-Za-z]{2,24}\\.?(?::${PORT})?(?:[/?#][^\\s\\u0000]*)?\\s*$`;

/** A domain name, or a URL whose host is kept (domainNameOf); the service stores the host. */
export const DomainName = z
  .string()
  .refine((text) => domainNameOf(text) !== null, { error: "must be a domain name like acme.com (a URL is cut to its host)" })
  .meta({
    pattern: DOMAIN_NAME_PATTERN,
    description:
      "A domain name of at least two labels (`acme.com`, `docs.acme.co.uk`), its last label letters (so no IP address: `0.0` and `10.0.0.1` are refused). The pattern states the ASCII form; an IDN in Unicode (`bücher.de`) or `xn--` form is accepted too. An `http://` or `https://` URL is accepted and stored as its host, lower-cased, without a trailing dot: `https://www.acme.com/pricing` is `www.acme.com`. Refused with 400: spaces, a single label (`localhost`), an IP address, another scheme, user info.",
  });

/** Bounds of a context's other names and competitor domains, as a visibility analysis takes them (lib/schemas/visibility.ts). */
export const CONTEXT_LIMITS = { aliases: 20, domains: 20 } as const;

const ALIASES_DESCRIPTION =
  "Other names of a brand or competitor, by its name as `brands` or `competitors` give it (\"HubSpot\": [\"HubSpot CRM\"]); a visibility analysis counts them as the entity. A key that names no brand or competitor is refused, as is a key \"__proto__\" (in any object of a request).";
const COMPETITOR_DOMAINS_DESCRIPTION =
  "A competitor's domains, by its name as `competitors` gives it; a visibility analysis counts a cited page on them (or a subdomain) as citing it. A key that names no competitor is refused, as is a key \"__proto__\" (in any object of a request).";

const projectContextFields = {
  primary_domain: DomainName.nullable().optional(),
  domains: z.array(DomainName).optional().describe("Domain names; each stored as its host, duplicates dropped. A domain covers its subdomains."),
  brands: z.array(z.string()).optional().describe("Your brand and product names, counted in answers as terms."),
  competitors: z.array(z.string()).optional().describe("Competitors' names, counted in answers as terms."),
  aliases: z.record(z.string(), z.array(z.string())).optional().describe(ALIASES_DESCRIPTION),
  competitor_domains: z.record(z.string(), z.array(z.string())).optional().describe(`${COMPETITOR_DOMAINS_DESCRIPTION} Stored as hosts.`),
};

/** A project's context as answers carry it: a client drops fields it does not know (a newer server's). */
export const ProjectContext = z.object(projectContextFields).meta({ id: "ProjectContext", examples: [exampleProjectContext] });

/** The trimmed names `brands` and `competitors` give (what `aliases` and `competitor_domains` keys must name). */
const namesOf = (list: readonly string[] | undefined) => new Set((list ?? []).map((n) => n.trim()));

/**
 * The context a request gives: the same fields and no others, refused like unknown top-level
 * fields; each brand and competitor a name of 1 to 100 characters after trimming, stored trimmed;
 * `aliases` and `competitor_domains` keyed by those names (a key naming none is refused).
 */
const contextInputShape = {
  ...projectContextFields,
  brands: z
    .array(name(100))
    .optional()
    .describe("Your brand and product names, each 1 to 100 characters after trimming (a blank name is refused); counted in answers as terms."),
  competitors: z
    .array(name(100))
    .optional()
    .describe("Competitors' names, each 1 to 100 characters after trimming (a blank name is refused); counted in answers as terms."),
  aliases: z
    .record(
      name(100),
      z
        .array(name(100))
        .max(CONTEXT_LIMITS.aliases, { error: `must have at most ${CONTEXT_LIMITS.aliases} aliases` })
        .describe(`0 to ${CONTEXT_LIMITS.aliases} names, each 1 to 100 characters after trimming (a blank one is refused).`),
    )
    .optional()
    .describe(ALIASES_DESCRIPTION),
  competitor_domains: z
    .record(
      name(100),
      z
        .array(DomainName)
        .max(CONTEXT_LIMITS.domains, { error: `must have at most ${CONTEXT_LIMITS.domains} domains` })
        .describe(`0 to ${CONTEXT_LIMITS.domains} domain names, each stored as its host.`),
    )
    .optional()
    .describe(`${COMPETITOR_DOMAINS_DESCRIPTION} Each domain is stored as its host.`),
};

/**
 * Where `aliases` and `competitor_domains` name no brand or competitor of the context: one
 * refusal a key, its path inside the context and its message. The request schemas use it on a
 * new context; PATCH /projects uses it on the context the update leaves (lib/projects/create.ts).
 */
export function contextRefusals(context: { brands?: readonly string[]; competitors?: readonly string[]; aliases?: Record<string, unknown>; competitor_domains?: Record<string, unknown> }): { path: string[]; message: string }[] {
  const entities = new Set([...namesOf(context.brands), ...namesOf(context.competitors)]);
  const competitors = namesOf(context.competitors);
  const listed = (names: Set<string>) => (names.size ? [...names].map((n) => JSON.stringify(n)).join(", ") : "none");
  const refusals: { path: string[]; message: string }[] = [];
  for (const key of Object.keys(context.aliases ?? {})) {
    if (!entities.has(key)) refusals.push({ path: ["aliases", key], message: `names no brand or competitor of the context (${JSON.stringify(key)}; its brands and competitors: ${listed(entities)})` });
  }
  for (const key of Object.keys(context.competitor_domains ?? {})) {
    if (!competitors.has(key)) refusals.push({ path: ["competitor_domains", key], message: `names no competitor of the context (${JSON.stringify(key)}; its competitors: ${listed(competitors)})` });
  }
  return refusals;
}

const ProjectContextInput = z.strictObject(contextInputShape).superRefine((context, ctx) => {
  for (const refusal of contextRefusals(context)) ctx.addIssue({ code: "custom", path: refusal.path, message: refusal.message });
});

/** What PATCH /projects takes as `context`: the fields to change; the keys are checked against the context the update leaves. */
const ProjectContextPatch = z.strictObject(contextInputShape);

/** How PATCH /projects/{id} treats `context` (docs/decisions.md "Updating a project's context"). */
export const CONTEXT_PATCH_RULE =
  "Merged into the stored context field by field: each field given replaces that field whole (`competitors` the whole list, `competitor_domains` the whole map), a field not given is kept, `primary_domain: null` removes it, and `context: null` removes the whole context. So `{\"context\":{\"competitor_domains\":{\"HubSpot\":[\"hubspot.com\"]}}}` keeps the stored brands and competitors. Every key of `aliases` and `competitor_domains` must name a brand or competitor (for `competitor_domains`, a competitor) of the context as it is after the update; otherwise 400 naming the key and the names the context has.";

export const Project = z
  .object({
    id: ProjectId,
    name: z.string(),
    slug: z.string(),
    workspace_id: WorkspaceId,
    workspace_name: z.string(),
    created_by: z.string().describe("Email of who created it."),
    created_at: DateTime,
    context: ProjectContext.optional(),
  })
  .meta({ id: "Project", examples: [exampleProject] });

export const ProjectList = z.object({ items: z.array(Project) }).meta({ id: "ProjectList", examples: [{ items: [exampleProject] }] });

// Request bodies
export const ProjectCreateRequest = z
  .strictObject({
    name: name(100),
    workspace_id: WorkspaceId.nullable().optional().describe("Defaults to the caller's own workspace, or the key's."),
    context: ProjectContextInput.nullable().optional(),
  })
  .meta({ id: "ProjectCreateRequest", examples: [exampleProjectCreateRequest] });
export const ProjectUpdateRequest = z
  .strictObject({
    name: name(100).nullable().optional(),
    context: ProjectContextPatch.nullable().optional().describe(CONTEXT_PATCH_RULE),
  })
  .meta({ id: "ProjectUpdateRequest", examples: [{ name: "Acme CRM (EU)" }] });

// Endpoints
const workspaceQuery = z.object({ workspace: WorkspaceId.optional().describe("Narrow to one workspace the caller belongs to.") });

export const listProjects = defineEndpoint({
  method: "GET", path: "/projects", operationId: "listProjects", summary: "Projects in the workspaces the credential can act in",
  description:
    "Across the workspaces the credential can act in, or one `workspace`. Every member sees every project of a workspace and everything under it.",
  tags: ["Projects"], auth: "bearer", query: workspaceQuery, response: ProjectList, status: 200,
});
export const createProject = defineEndpoint({
  method: "POST", path: "/projects", operationId: "createProject", summary: "Create a project (any member)",
  description:
    "In `workspace_id` (default: the caller's own, or the API key's). The slug is made from the name and kept on rename. `context` gives the domains, brands and competitors analyses can use. Refused with 400 naming the key: a key of `context.aliases` that names no brand or competitor of the context, and a key of `context.competitor_domains` that names no competitor of it (a brand's own domains go in `domains`).",
  tags: ["Projects"], auth: "bearer", body: ProjectCreateRequest, response: Project, status: 201,
});
export const getProject = defineEndpoint({
  method: "GET", path: "/projects/{project_id}", operationId: "getProject", summary: "One project",
  description:
    "With its context. A project the credential cannot reach answers 404.",
  tags: ["Projects"], auth: "bearer", params: z.object({ project_id: ProjectId }), response: Project, status: 200,
});
export const updateProject = defineEndpoint({
  method: "PATCH", path: "/projects/{project_id}", operationId: "updateProject", summary: "Rename a project or change its context (any member)",
  description:
    `\`name\` renames it (the slug stays). \`context\`: ${CONTEXT_PATCH_RULE} Any member may update.`,
  tags: ["Projects"], auth: "bearer", params: z.object({ project_id: ProjectId }), body: ProjectUpdateRequest, response: Project,
  status: 200,
});
