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

/** A domain name, or a URL whose host is kept (domainNameOf); the service stores the host. */
export const DomainName = z
  .string()
  .refine((text) => domainNameOf(text) !== null, { error: "must be a domain name like acme.com (a URL is cut to its host)" })
  .meta({
    pattern: "^\\s*(?:[Hh][Tt][Tt][Pp][Ss]?://)?[^\\s/?#@:]+\\.[^\\s/?#@:]+(?::[0-9]+)?(?:[/?#]\\S*)?\\s*$",
    description:
      "A domain name of at least two labels (`acme.com`, `docs.acme.co.uk`; an IDN in Unicode or `xn--` form). An `http://` or `https://` URL is accepted and stored as its host, lower-cased, without a trailing dot: `https://www.acme.com/pricing` is `www.acme.com`. Refused with 400: spaces, a single label (`localhost`), an IP address, another scheme, user info.",
  });

const projectContextFields = {
  primary_domain: DomainName.nullable().optional(),
  domains: z.array(DomainName).optional().describe("Domain names; each stored as its host, duplicates dropped. A domain covers its subdomains."),
  brands: z.array(z.string()).optional().describe("Your brand and product names, counted in answers as terms."),
  competitors: z.array(z.string()).optional().describe("Competitors' names, counted in answers as terms."),
};

/** A project's context as answers carry it: a client drops fields it does not know (a newer server's). */
export const ProjectContext = z.object(projectContextFields).meta({ id: "ProjectContext", examples: [exampleProjectContext] });

/**
 * The context a request gives: the same fields and no others, refused like unknown top-level
 * fields; each brand and competitor a name of 1 to 100 characters after trimming, stored trimmed.
 */
const ProjectContextInput = z.strictObject({
  ...projectContextFields,
  brands: z
    .array(name(100))
    .optional()
    .describe("Your brand and product names, each 1 to 100 characters after trimming (a blank name is refused); counted in answers as terms."),
  competitors: z
    .array(name(100))
    .optional()
    .describe("Competitors' names, each 1 to 100 characters after trimming (a blank name is refused); counted in answers as terms."),
});

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
    context: ProjectContextInput.nullable().optional().describe("Replaces the old context whole."),
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
    "In `workspace_id` (default: the caller's own, or the API key's). The slug is made from the name and kept on rename. `context` gives the domains, brands and competitors analyses can use.",
  tags: ["Projects"], auth: "bearer", body: ProjectCreateRequest, response: Project, status: 201,
});
export const getProject = defineEndpoint({
  method: "GET", path: "/projects/{project_id}", operationId: "getProject", summary: "One project",
  description:
    "With its context. A project the credential cannot reach answers 404.",
  tags: ["Projects"], auth: "bearer", params: z.object({ project_id: ProjectId }), response: Project, status: 200,
});
export const updateProject = defineEndpoint({
  method: "PATCH", path: "/projects/{project_id}", operationId: "updateProject", summary: "Rename a project or replace its context (any member)",
  description:
    "`name` renames it (the slug stays); `context` replaces the old context whole (send every field you want kept). Any member may update.",
  tags: ["Projects"], auth: "bearer", params: z.object({ project_id: ProjectId }), body: ProjectUpdateRequest, response: Project,
  status: 200,
});
