// An opportunity list page's CSV downloads, one section each (?section=lost_prompts,
// citation_targets, own_pages or query_gaps), as `geoscope opportunities get --format csv
// --section` writes them (one definition, lib/opportunities/csv.ts), for the signed-in person. Not
// signed in is the API's 401 envelope; a list outside the person's workspaces, missing or of
// another kind is the API's 404; an unknown section is 400 naming the ones there are.
import { sessionPrincipal } from "@/lib/auth/session";
import { getAnalysis } from "@/lib/analyses/read";
import { ApiError, notFound } from "@/lib/http/errors";
import { newRequestId, toErrorResponse } from "@/lib/http/respond";
import { OPPORTUNITY_SECTIONS, opportunitiesCsv, type OpportunitySection } from "@/lib/opportunities/csv";
import { Analysis } from "@/lib/schemas/analyses";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ analysis_id: string }> }): Promise<Response> {
  const requestId = newRequestId();
  try {
    const principal = await sessionPrincipal();
    if (!principal) throw new ApiError("unauthenticated", "Sign in to download this list.");
    const { analysis_id } = await params;
    const section = new URL(request.url).searchParams.get("section") ?? "";
    if (!(OPPORTUNITY_SECTIONS as readonly string[]).includes(section)) {
      throw new ApiError("invalid_request", `section: must be one of ${OPPORTUNITY_SECTIONS.join(", ")}`);
    }
    const analysis = Analysis.parse(await getAnalysis(principal, analysis_id));
    if (analysis.kind !== "opportunities") throw notFound("analysis", analysis_id);
    return new Response(opportunitiesCsv(analysis, section as OpportunitySection), {
      status: 200,
      headers: {
        "Content-Type": "text/csv; charset=utf-8; header=present",
        "Content-Disposition": `attachment; filename="${analysis.id}-${section}.csv"`,
        "Cache-Control": "no-store",
        "X-Request-Id": requestId,
      },
    });
  } catch (error) {
    return toErrorResponse(error, requestId, request);
  }
}
