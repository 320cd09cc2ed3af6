// `/s/<token>.json` (rewritten here by next.config.mjs): the shared object exactly as the API
// answers it, with who and where left out (lib/shares/read.ts); 404 in the API's envelope for
// any token that does not work.
import { notFound } from "@/lib/http/errors";
import { jsonResponse } from "@/lib/http/respond";
import { sharedObject } from "@/lib/shares/read";
import { SHARE_HEADERS } from "../../_lib/headers";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await params;
  const shared = await sharedObject(token);
  if (!shared) {
    const error = notFound("share link");
    return jsonResponse(error.toBody(), error.status, SHARE_HEADERS);
  }
  return jsonResponse(shared.body, 200, SHARE_HEADERS);
}
