import { revokeCurrentCliToken } from "@/lib/auth/create";
import { route } from "@/lib/http/route";
import { revokeCliToken } from "@/lib/schemas/auth";
import { otherMethods } from "@/lib/http/methods";

export const DELETE = route(revokeCliToken, ({ principal }) => revokeCurrentCliToken(principal));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { GET, POST, PUT, PATCH, HEAD, OPTIONS } = otherMethods({ DELETE });
