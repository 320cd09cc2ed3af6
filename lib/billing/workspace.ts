// Which workspace a billing request is about: `workspace` when the caller belongs to it (404
// otherwise, as for anything outside the credential's reach), else the personal one (an API
// key's own).
import type { Principal } from "../auth/principal";
import { defaultWorkspaceId, requireWorkspace } from "../workspaces/access";

export async function billingWorkspaceId(principal: Principal, workspace?: string): Promise<string> {
  if (workspace) return (await requireWorkspace(principal, workspace)).workspace.id;
  return defaultWorkspaceId(principal);
}
