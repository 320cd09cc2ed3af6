import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { monitorOverview } from "@/lib/monitors/read";
import * as endpoints from "@/lib/schemas/overview";

export const GET = route(endpoints.getProjectMonitorOverview, ({ principal, params }) => monitorOverview(principal, params.project_id));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
