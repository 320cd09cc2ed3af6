import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/workspaces";
import { listMembers } from "@/lib/workspaces/read";
import { otherMethods } from "@/lib/http/methods";

export const GET = route(endpoints.listMembers, ({ principal, params }) => listMembers(principal, params.workspace_id));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
