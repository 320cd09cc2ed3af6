import { revokeApiKey } from "@/lib/auth/api-keys";
import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/accounts";

export const DELETE = route(endpoints.revokeApiKey, ({ principal, params }) => revokeApiKey(principal, params.key_id));
