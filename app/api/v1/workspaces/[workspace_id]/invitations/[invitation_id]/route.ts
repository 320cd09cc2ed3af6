import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/accounts";
import { revokeInvitation } from "@/lib/workspaces/invitations";

export const DELETE = route(endpoints.revokeInvitation, ({ principal, params }) =>
  revokeInvitation(principal, params.workspace_id, params.invitation_id),
);
