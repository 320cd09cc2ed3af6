import { getMe as getMeEndpoint } from "@/lib/schemas/accounts";
import { getMe } from "@/lib/accounts/me";
import { route } from "@/lib/http/route";

export const GET = route(getMeEndpoint, ({ principal }) => getMe(principal));
