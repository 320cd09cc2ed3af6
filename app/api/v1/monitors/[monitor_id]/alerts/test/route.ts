import { testWebhook } from "@/lib/alerts/create";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/alerts";

export const POST = route(endpoints.testMonitorWebhook, ({ principal, params }) => testWebhook(principal, params.monitor_id));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
