import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { estimateMonitor } from "@/lib/monitors/create";
import * as endpoints from "@/lib/schemas/monitors";

export const POST = route(endpoints.estimateMonitor, ({ principal, body }) => estimateMonitor(principal, body));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
