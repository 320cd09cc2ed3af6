import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { getMonitor } from "@/lib/monitors/read";
import { deleteMonitor, updateMonitor } from "@/lib/monitors/create";
import * as endpoints from "@/lib/schemas/monitors";

export const GET = route(endpoints.getMonitor, ({ principal, params }) => getMonitor(principal, params.monitor_id));
export const PATCH = route(endpoints.updateMonitor, ({ principal, params, body }) => updateMonitor(principal, params.monitor_id, body));
export const DELETE = route(endpoints.deleteMonitor, ({ principal, params }) => deleteMonitor(principal, params.monitor_id));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { POST, PUT, OPTIONS } = otherMethods({ GET, PATCH, DELETE });
