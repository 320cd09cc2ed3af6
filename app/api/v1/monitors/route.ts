import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { listMonitors } from "@/lib/monitors/read";
import { createMonitor } from "@/lib/monitors/create";
import * as endpoints from "@/lib/schemas/monitors";

export const GET = route(endpoints.listMonitors, ({ principal, query }) => listMonitors(principal, query));
export const POST = route(endpoints.createMonitor, ({ principal, body }) => createMonitor(principal, body));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
