import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/accounts";
import { getWorkspace, updateWorkspace } from "@/lib/workspaces/workspaces";

export const GET = route(endpoints.getWorkspace, ({ principal, params }) => getWorkspace(principal, params.workspace_id));
export const PATCH = route(endpoints.updateWorkspace, ({ principal, params, body }) =>
  updateWorkspace(principal, params.workspace_id, body),
);
