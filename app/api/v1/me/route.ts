import { getMe as getMeEndpoint } from "@/lib/schemas/accounts";
import { getMe } from "@/lib/accounts/read";
import { route } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/methods";

export const GET = route(getMeEndpoint, ({ principal }) => getMe(principal));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
