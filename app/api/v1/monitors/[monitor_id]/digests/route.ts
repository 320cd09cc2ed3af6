import { listDigests } from "@/lib/digests/read";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/digests";

export const GET = route(endpoints.listMonitorDigests, ({ principal, params, query }) => listDigests(principal, params.monitor_id, query));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
