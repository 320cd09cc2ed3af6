// Answers requests under /api/v1 that no route file handles: an unknown path is 404 and a
// known path with the wrong method is 405, both in the API's error envelope.
import { NextResponse, type NextRequest } from "next/server";
import { ApiError } from "./lib/http/errors";
import { newRequestId, toErrorResponse } from "./lib/http/respond";
import { routeMatcher } from "./lib/http/routing";
import { endpoints, metaRoutes } from "./lib/schemas/registry";

const API_PREFIX = "/api/v1";
const match = routeMatcher([...endpoints, ...metaRoutes]);

export function proxy(request: NextRequest): Response {
  const path = request.nextUrl.pathname.slice(API_PREFIX.length) || "/";
  const found = match(request.method, path);
  if (found.kind === "found") return NextResponse.next();
  const requestId = newRequestId();
  if (found.kind === "unknown_path") {
    return toErrorResponse(new ApiError("not_found", `No endpoint ${request.method} ${API_PREFIX}${path}.`), requestId);
  }
  const allowed = found.allowed.join(", ");
  return toErrorResponse(
    new ApiError("method_not_allowed", `${API_PREFIX}${path} does not accept ${request.method}; it accepts ${allowed}.`, {
      headers: { Allow: allowed },
    }),
    requestId,
  );
}

export const config = { matcher: ["/api/v1", "/api/v1/:path*"] };
