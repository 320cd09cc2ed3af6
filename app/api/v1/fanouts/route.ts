import { createFanout } from "@/lib/fanouts/create";
import { listFanouts } from "@/lib/fanouts/read";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/fanouts";

export const GET = route(endpoints.listFanouts, ({ principal, query }) => listFanouts(principal, query));
export const POST = route(endpoints.createFanout, ({ principal, body }) => createFanout(principal, body));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
