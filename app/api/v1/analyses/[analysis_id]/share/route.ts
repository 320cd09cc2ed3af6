// GET/POST/DELETE /analyses/{analysis_id}/share: whether the analysis is shared, share it, revoke its link.
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { getAnalysisShare, shareAnalysis, unshareAnalysis } from "@/lib/schemas/shares";
import { createShare, revokeShare } from "@/lib/shares/create";
import { getShareStatus } from "@/lib/shares/read";

export const GET = route(getAnalysisShare, ({ principal, params }) => getShareStatus(principal, "analysis", params.analysis_id!));
export const POST = route(shareAnalysis, ({ principal, params }) => createShare(principal, "analysis", params.analysis_id!));
export const DELETE = route(unshareAnalysis, ({ principal, params }) => revokeShare(principal, "analysis", params.analysis_id!));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { PUT, PATCH, OPTIONS } = otherMethods({ GET, POST, DELETE });
