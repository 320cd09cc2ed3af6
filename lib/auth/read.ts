// The services of the auth requests that read: GET /api-keys.
import { findOwnApiKeys } from "./api-keys";
import { presentApiKey } from "./present";
import type { Principal } from "./principal";

export async function listApiKeys(principal: Principal) {
  const keys = await findOwnApiKeys(principal);
  return { items: keys.map(presentApiKey) };
}
