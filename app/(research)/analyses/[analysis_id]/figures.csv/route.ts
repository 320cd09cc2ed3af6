// The visibility analysis page's CSV download: every figure per entity and group (all runs, each
// engine, prompt and country), as `geoscope visibility get --format csv` writes it (one definition,
// lib/visibility/csv.ts), for the signed-in person; a comparison's per-prompt lines as `geoscope
// compare get --format csv` writes them (lib/comparison/csv.ts). Not signed in is the API's 401 envelope; an
// analysis outside the person's workspaces, missing or of another kind is the API's 404.
import { sessionPrincipal } from "@/lib/auth/session";
import { getAnalysis } from "@/lib/analyses/read";
import { ApiError, notFound } from "@/lib/http/errors";
import { newRequestId, toErrorResponse } from "@/lib/http/respond";
import { Analysis } from "@/lib/schemas/analyses";
import { visibilityCsv } from "@/lib/visibility/csv";
import { comparisonCsv } from "@/lib/comparison/csv";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ analysis_id: string }> }): Promise<Response> {
  const requestId = newRequestId();
  try {
    const principal = await sessionPrincipal();
    if (!principal) throw new ApiError("unauthenticated", "Sign in to download this analysis's figures.");
    const { analysis_id } = await params;
    const analysis = Analysis.parse(await getAnalysis(principal, analysis_id));
    if (analysis.kind !== "visibility" && analysis.kind !== "comparison") throw notFound("visibility analysis", analysis_id);
    return new Response(analysis.kind === "comparison" ? comparisonCsv(analysis) : visibilityCsv(analysis), {
      status: 200,
      headers: {
        "Content-Type": "text/csv; charset=utf-8; header=present",
        "Content-Disposition": `attachment; filename="${analysis.id}-figures.csv"`,
        "Cache-Control": "no-store",
        "X-Request-Id": requestId,
      },
    });
  } catch (error) {
    return toErrorResponse(error, requestId, request);
  }
}
