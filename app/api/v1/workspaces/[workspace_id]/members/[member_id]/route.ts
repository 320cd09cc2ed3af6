import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/workspaces";
import { removeMember, updateMember } from "@/lib/workspaces/create";
import { otherMethods } from "@/lib/http/methods";

export const PATCH = route(endpoints.updateMember, ({ principal, params, body }) =>
  updateMember(principal, params.workspace_id, params.member_id, body.role),
);
export const DELETE = route(endpoints.removeMember, ({ principal, params }) =>
  removeMember(principal, params.workspace_id, params.member_id),
);

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { GET, POST, PUT, HEAD, OPTIONS } = otherMethods({ PATCH, DELETE });
