import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/workspaces";
import { createWorkspace } from "@/lib/workspaces/create";
import { listWorkspaces } from "@/lib/workspaces/read";
import { otherMethods } from "@/lib/http/methods";

export const GET = route(endpoints.listWorkspaces, ({ principal }) => listWorkspaces(principal));
export const POST = route(endpoints.createWorkspace, ({ principal, body }) => createWorkspace(principal, body));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
