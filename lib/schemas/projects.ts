// Projects (spec 2.2, 4.2), served by lib/projects.
import { z } from "zod";
import { DateTime, idOf, name } from "./common";
import { defineEndpoint } from "./endpoint";
import { WorkspaceId } from "./workspaces";

export const ProjectId = idOf("pr");

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

// Request bodies
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
const workspaceQuery = z.object({ workspace: WorkspaceId.optional().describe("Narrow to one workspace the caller belongs to.") });

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
