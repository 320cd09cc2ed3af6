import { createApiKey, listApiKeys } from "@/lib/auth/api-keys";
import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/accounts";

export const GET = route(endpoints.listApiKeys, ({ principal }) => listApiKeys(principal));
export const POST = route(endpoints.createApiKey, ({ principal, body }) => createApiKey(principal, body));
