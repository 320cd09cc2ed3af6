import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { getTick } from "@/lib/monitors/read";
import * as endpoints from "@/lib/schemas/monitors";

export const GET = route(endpoints.getMonitorTick, ({ principal, params, query, request }) =>
  getTick(principal, params.monitor_id, params.tick_id, { wait: query.wait, signal: request.signal }),
);

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
