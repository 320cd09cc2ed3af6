// POST /analyses/{analysis_id}/share/rotate: replace the analysis's link.
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { rotateAnalysisShare } from "@/lib/schemas/shares";
import { rotateShare } from "@/lib/shares/create";

export const POST = route(rotateAnalysisShare, ({ principal, params }) => rotateShare(principal, "analysis", params.analysis_id!));

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
