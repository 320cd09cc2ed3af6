// Only for paths holding a `%` (the matcher): Next.js throws on a segment it cannot
// percent-decode (`/api/v1/projects/%ZZ`, `%C3%28`) while matching routes, before any route of
// ours runs, and answers a plain-text 500 that nothing logs. Such a segment is taken literally
// instead (lib/http/path-encoding.ts), so the route answers as for any malformed id: after
// authentication, 404 in the envelope naming the segment as sent (pages: their not-found). Every
// other request never reaches this file: see docs/decisions.md, "Paths that do not percent-decode".
import { NextResponse, type NextRequest } from "next/server";
import { literalPath } from "./lib/http/path-encoding";
import { log } from "./lib/log";

export function proxy(request: NextRequest): NextResponse {
  const pathname = request.nextUrl.pathname;
  const literal = literalPath(pathname);
  if (literal === null) return NextResponse.next();
  // Page paths can hold secrets (/invite/<token>, /s/<token>): only API paths are logged whole.
  const shown = pathname.startsWith("/api/") ? pathname.slice(0, 300) : `/${pathname.split("/")[1] ?? ""}/…`;
  log.info("path segment does not percent-decode; taken literally", { method: request.method, path: shown });
  const url = request.nextUrl.clone();
  url.pathname = literal;
  return NextResponse.rewrite(url);
}

export const config = { matcher: ["/(.*%.*)"] };
