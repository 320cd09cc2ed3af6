// GET /me as the API shows it: the credential's person and where it can act.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import type { Me } from "../schemas/accounts";
import { presentWorkspace } from "../workspaces/present";

export function presentMe(
  principal: Principal,
  workspaces: Parameters<typeof presentWorkspace>[0][],
  enginesSimulated: boolean,
): z.input<typeof Me> {
  return {
    email: principal.user.email,
    credential: principal.credential,
    workspaces: workspaces.map(presentWorkspace),
    engines_simulated: enginesSimulated,
  };
}
