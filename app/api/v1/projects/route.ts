import { route } from "@/lib/http/route";
import { createProject, listProjects } from "@/lib/projects/projects";
import * as endpoints from "@/lib/schemas/accounts";

export const GET = route(endpoints.listProjects, ({ principal, query }) => listProjects(principal, query.workspace));
export const POST = route(endpoints.createProject, ({ principal, body }) => createProject(principal, body));
