import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/workspaces";
import { getWorkspace } from "@/lib/workspaces/read";
import { updateWorkspace } from "@/lib/workspaces/create";
import { otherMethods } from "@/lib/http/methods";

export const GET = route(endpoints.getWorkspace, ({ principal, params }) => getWorkspace(principal, params.workspace_id));
export const PATCH = route(endpoints.updateWorkspace, ({ principal, params, body }) =>
  updateWorkspace(principal, params.workspace_id, body),
);

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { POST, PUT, DELETE, OPTIONS } = otherMethods({ GET, PATCH });
