import { revokeCurrentCliToken } from "@/lib/auth/device";
import { route } from "@/lib/http/route";
import { revokeCliToken } from "@/lib/schemas/accounts";

export const DELETE = route(revokeCliToken, ({ principal }) => revokeCurrentCliToken(principal));
