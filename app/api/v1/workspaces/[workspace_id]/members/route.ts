import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/accounts";
import { listMembers } from "@/lib/workspaces/workspaces";

export const GET = route(endpoints.listMembers, ({ principal, params }) => listMembers(principal, params.workspace_id));
