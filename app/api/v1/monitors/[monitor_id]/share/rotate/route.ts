// POST /monitors/{monitor_id}/share/rotate: replace the monitor's link.
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { rotateMonitorShare } from "@/lib/schemas/shares";
import { rotateShare } from "@/lib/shares/create";

export const POST = route(rotateMonitorShare, ({ principal, params }) => rotateShare(principal, "monitor", params.monitor_id!));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
