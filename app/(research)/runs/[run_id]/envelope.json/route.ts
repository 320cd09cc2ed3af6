// A run's raw provider envelope (what was sent and received), downloaded from the run page with
// the browser session: the same read as GET /runs/{id}?include=raw_envelope.
import { sessionPrincipal } from "@/lib/auth/session";
import { ApiError } from "@/lib/http/errors";
import { parseParams } from "@/lib/http/input";
import { newRequestId, toErrorResponse } from "@/lib/http/respond";
import { getRun } from "@/lib/runs/read";
import { getRun as getRunEndpoint } from "@/lib/schemas/runs";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ run_id: string }> }): Promise<Response> {
  const requestId = newRequestId();
  try {
    const principal = await sessionPrincipal();
    if (!principal) throw new ApiError("unauthenticated", "Sign in to download the envelope.");
    const { run_id } = parseParams(getRunEndpoint.params, await params, getRunEndpoint.path);
    const run = await getRun(principal, run_id, { include: "raw_envelope" });
    return new Response(`${JSON.stringify(run.raw_envelope ?? null, null, 2)}\n`, {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="${run_id}-envelope.json"`,
        "Cache-Control": "private, no-store",
        "X-Request-Id": requestId,
      },
    });
  } catch (error) {
    return toErrorResponse(error, requestId, request);
  }
}
