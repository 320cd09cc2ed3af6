// Which workspace a billing request is about: `workspace` when the caller belongs to it (404
// otherwise, as for anything outside the credential's reach), else the personal one (an API
// key's own). Billing reads take the access this returns, never a bare workspace id, so none
// can be made without the check.
import type { Principal } from "../auth/principal";
import { defaultWorkspaceId, requireWorkspace, type WorkspaceAccess } from "../workspaces/access";

export async function billingWorkspace(principal: Principal, workspace?: string): Promise<WorkspaceAccess> {
  return requireWorkspace(principal, workspace ?? (await defaultWorkspaceId(principal)));
}
