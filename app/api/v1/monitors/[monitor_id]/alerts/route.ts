import { listAlerts } from "@/lib/alerts/read";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/alerts";

export const GET = route(endpoints.listMonitorAlerts, ({ principal, params, query }) => listAlerts(principal, params.monitor_id, query));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
