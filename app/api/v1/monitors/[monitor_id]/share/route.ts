// GET/POST/DELETE /monitors/{monitor_id}/share: whether the monitor is shared, share it, revoke its link.
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { getMonitorShare, shareMonitor, unshareMonitor } from "@/lib/schemas/shares";
import { createShare, revokeShare } from "@/lib/shares/create";
import { getShareStatus } from "@/lib/shares/read";

export const GET = route(getMonitorShare, ({ principal, params }) => getShareStatus(principal, "monitor", params.monitor_id!));
export const POST = route(shareMonitor, ({ principal, params }) => createShare(principal, "monitor", params.monitor_id!));
export const DELETE = route(unshareMonitor, ({ principal, params }) => revokeShare(principal, "monitor", params.monitor_id!));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { PUT, PATCH, OPTIONS } = otherMethods({ GET, POST, DELETE });
