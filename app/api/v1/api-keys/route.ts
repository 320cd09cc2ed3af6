import { createApiKey } from "@/lib/auth/create";
import { listApiKeys } from "@/lib/auth/read";
import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/auth";
import { otherMethods } from "@/lib/http/methods";

export const GET = route(endpoints.listApiKeys, ({ principal }) => listApiKeys(principal));
export const POST = route(endpoints.createApiKey, ({ principal, body }) => createApiKey(principal, body));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
