import { revokeApiKey } from "@/lib/auth/create";
import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/auth";
import { otherMethods } from "@/lib/http/methods";

export const DELETE = route(endpoints.revokeApiKey, ({ principal, params }) => revokeApiKey(principal, params.key_id));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { GET, POST, PUT, PATCH, HEAD, OPTIONS } = otherMethods({ DELETE });
