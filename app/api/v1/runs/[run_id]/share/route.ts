import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/shares";
import { createShare, getShareStatus, revokeShare } from "@/lib/shares/service";

export const GET = route(endpoints.getRunShare, ({ principal, params }) => getShareStatus(principal, "run", params.run_id));
export const POST = route(endpoints.shareRun, ({ principal, params }) => createShare(principal, "run", params.run_id));
export const DELETE = route(endpoints.unshareRun, ({ principal, params }) => revokeShare(principal, "run", params.run_id));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { PUT, PATCH, OPTIONS } = otherMethods({ GET, POST, DELETE });
