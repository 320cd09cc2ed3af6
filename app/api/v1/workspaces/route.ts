import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/accounts";
import { createWorkspace, listWorkspaces } from "@/lib/workspaces/workspaces";

export const GET = route(endpoints.listWorkspaces, ({ principal }) => listWorkspaces(principal));
export const POST = route(endpoints.createWorkspace, ({ principal, body }) => createWorkspace(principal, body));
