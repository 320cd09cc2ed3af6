import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/accounts";
import { removeMember, updateMember } from "@/lib/workspaces/workspaces";

export const PATCH = route(endpoints.updateMember, ({ principal, params, body }) =>
  updateMember(principal, params.workspace_id, params.member_id, body.role),
);
export const DELETE = route(endpoints.removeMember, ({ principal, params }) =>
  removeMember(principal, params.workspace_id, params.member_id),
);
