import { route } from "@/lib/http/route";
import { createProject } from "@/lib/projects/create";
import { listProjects } from "@/lib/projects/read";
import * as endpoints from "@/lib/schemas/projects";
import { otherMethods } from "@/lib/http/methods";

export const GET = route(endpoints.listProjects, ({ principal, query }) => listProjects(principal, query.workspace));
export const POST = route(endpoints.createProject, ({ principal, body }) => createProject(principal, body));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
