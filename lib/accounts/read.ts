// GET /me: who the credential belongs to and where it can act.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { enginesSimulated } from "../config/engines";
import type { Me } from "../schemas/accounts";
import { reachableWorkspaces } from "../workspaces/access";
import { presentMe } from "./present";

export async function getMe(principal: Principal): Promise<z.input<typeof Me>> {
  return presentMe(principal, await reachableWorkspaces(principal), enginesSimulated());
}
