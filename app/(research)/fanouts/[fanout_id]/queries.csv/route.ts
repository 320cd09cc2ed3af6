// The fanout page's CSV download: the observed queries per prompt × engine (GET
// /fanouts/{id}/queries as a spreadsheet), for the signed-in person. Not signed in is the API's
// 401 envelope; a fanout outside the person's workspaces (or none) is the API's 404.
import { sessionPrincipal } from "@/lib/auth/session";
import { getFanout } from "@/lib/fanouts/read";
import { queryReportOf } from "@/lib/fanouts/present";
import { ApiError } from "@/lib/http/errors";
import { newRequestId, toErrorResponse } from "@/lib/http/respond";
import { fanoutQueriesCsv } from "../../../_lib/csv";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ fanout_id: string }> }): Promise<Response> {
  const requestId = newRequestId();
  try {
    const principal = await sessionPrincipal();
    if (!principal) throw new ApiError("unauthenticated", "Sign in to download this fanout's queries.");
    const { fanout_id } = await params;
    const fanout = await getFanout(principal, fanout_id);
    const report = queryReportOf(fanout);
    const sources = new Map(fanout.prompts.flatMap((p) => (p.source ? [[p.index, `${p.source.analysis_id}:${p.source.question_id}`] as const] : [])));
    const markets = new Map(fanout.prompts.map((p) => [p.index, { country: p.location?.country ?? null, language: p.language ?? null }] as const));
    return new Response(fanoutQueriesCsv(report, sources, markets), {
      status: 200,
      headers: {
        "Content-Type": "text/csv; charset=utf-8; header=present",
        "Content-Disposition": `attachment; filename="${report.fanout_id}-queries.csv"`,
        "Cache-Control": "no-store",
        "X-Request-Id": requestId,
      },
    });
  } catch (error) {
    return toErrorResponse(error, requestId, request);
  }
}
