import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import * as endpoints from "@/lib/schemas/shares";
import { createShare, getShareStatus, revokeShare } from "@/lib/shares/service";

export const GET = route(endpoints.getAnalysisShare, ({ principal, params }) => getShareStatus(principal, "analysis", params.analysis_id));
export const POST = route(endpoints.shareAnalysis, ({ principal, params }) => createShare(principal, "analysis", params.analysis_id));
export const DELETE = route(endpoints.unshareAnalysis, ({ principal, params }) => revokeShare(principal, "analysis", params.analysis_id));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { PUT, PATCH, OPTIONS } = otherMethods({ GET, POST, DELETE });
