import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/workspaces";
import { revokeInvitation } from "@/lib/workspaces/create";
import { otherMethods } from "@/lib/http/methods";

export const DELETE = route(endpoints.revokeInvitation, ({ principal, params }) =>
  revokeInvitation(principal, params.workspace_id, params.invitation_id),
);

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { GET, POST, PUT, PATCH, HEAD, OPTIONS } = otherMethods({ DELETE });
