import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/workspaces";
import { createInvitation } from "@/lib/workspaces/create";
import { listInvitations } from "@/lib/workspaces/read";
import { otherMethods } from "@/lib/http/methods";

export const GET = route(endpoints.listInvitations, ({ principal, params }) => listInvitations(principal, params.workspace_id));
export const POST = route(endpoints.createInvitation, ({ principal, params, body }) =>
  createInvitation(principal, params.workspace_id, body),
);

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
