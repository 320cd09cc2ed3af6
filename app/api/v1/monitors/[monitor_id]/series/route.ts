import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { getSeries } from "@/lib/monitors/read";
import * as endpoints from "@/lib/schemas/monitors";

export const GET = route(endpoints.getMonitorSeries, ({ principal, params, query }) => getSeries(principal, params.monitor_id, query));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
