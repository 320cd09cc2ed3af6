// The one place geoscope sees a request before Next.js does, for the two kinds Next.js cannot
// route and would answer with a bare plain-text 500 (docs/decisions.md, "What Next.js cannot route"):
//
// - A path segment that does not percent-decode (`/api/v1/runs/%ZZ`, `%C3%28`, `100%`): Next.js
//   throws while it matches dynamic routes. The segment is taken literally (its `%` as `%25`) in
//   the request's URL before Next.js reads it, so the route or page answers as for any malformed
//   id (after authentication, 404 naming the segment as sent). A proxy (middleware) cannot do this:
//   Next.js reads a dynamic route's parameters from the URL as sent, not from the rewrite.
// - A method Next.js's route handlers cannot take: TRACE (building its Request throws: a 500) and
//   any method but its seven (an empty 400). On /api/v1 it is 405 `method_not_allowed` with Allow in
//   the envelope, as PUT gets (404 on a path no route serves, as PUT gets there too); TRACE elsewhere
//   is 501 (the app serves it nowhere). A proxy never sees these: Next.js fails before calling it.
// - A query parameter named `__proto__`, which Next.js drops on the way to the route: the query as
//   sent is handed over in a header the route's query parsing reads (./raw-query.ts).
//
// Installed by instrumentation.ts on the server Next.js listens with (`next start`, `next dev`).
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { log } from "../log";
import { endpoints, metaRoutes } from "../schemas/registry";
import { methodNotAllowed, noEndpoint } from "./methods";
import { decodedPath, literalPath } from "./path-encoding";
import { nextDropsParameter, RAW_QUERY_HEADER } from "./raw-query";
import { newRequestId, toErrorResponse } from "./respond";

/** The methods a Next.js route handler can be called with (next/dist/server/web/http.js). */
const NEXT_METHODS = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH"]);
const API = "/api/v1";

type Template = { segments: string[]; methods: string[] };
let templates: Template[] | undefined;

/** Every path a route file under app/api/v1 serves, with its methods (the registry test keeps the two equal). */
function apiTemplates(): Template[] {
  if (templates) return templates;
  const byPath = new Map<string, string[]>();
  for (const { method, path } of [...endpoints, ...metaRoutes]) byPath.set(path, [...(byPath.get(path) ?? []), method]);
  templates = [...byPath].map(([path, methods]) => ({ segments: path.split("/").filter(Boolean), methods }));
  return templates;
}

const isParam = (segment: string) => segment.startsWith("{");

/** The methods the route file serving `path` (under /api/v1, decoded) takes, as Next.js picks it: a static segment before a parameter. Null: none serves it. */
export function methodsServedAt(path: string): string[] | null {
  const parts = path.slice(API.length).split("/").filter(Boolean);
  const matching = apiTemplates().filter(
    (t) => t.segments.length === parts.length && t.segments.every((s, i) => isParam(s) || s === parts[i]),
  );
  matching.sort((a, b) => {
    for (let i = 0; i < a.segments.length; i++) {
      const order = Number(isParam(a.segments[i]!)) - Number(isParam(b.segments[i]!));
      if (order !== 0) return order;
    }
    return 0;
  });
  return matching[0]?.methods ?? null;
}

function isApiPath(path: string): boolean {
  return path === API || path.startsWith(`${API}/`);
}

async function sendEnvelope(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(await response.text());
}

/**
 * Makes the request routable by Next.js, or answers it: true when it has been answered (the
 * caller then leaves it alone). Cheap for every ordinary request: a method lookup and a search for `%`.
 */
export function guardRequest(req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? "/";
  const queryAt = url.indexOf("?");
  let path = queryAt < 0 ? url : url.slice(0, queryAt);
  if (path.includes("%")) {
    const literal = literalPath(path);
    if (literal !== null) {
      // Page paths can hold secrets (/invite/<token>, /s/<token>): only API paths are logged whole.
      const shown = path.startsWith("/api/") ? path.slice(0, 300) : `/${path.split("/")[1] ?? ""}/…`;
      log.info("path segment does not percent-decode; taken literally", { method: req.method, path: shown });
      req.url = `${literal}${queryAt < 0 ? "" : url.slice(queryAt)}`;
      path = literal;
    }
  }
  // Only the guard may say what the query was (./raw-query.ts), never the client.
  if (req.headers[RAW_QUERY_HEADER] !== undefined) delete req.headers[RAW_QUERY_HEADER];
  if (queryAt >= 0 && isApiPath(path) && nextDropsParameter(url.slice(queryAt))) req.headers[RAW_QUERY_HEADER] = url.slice(queryAt);
  const method = req.method ?? "GET";
  if (NEXT_METHODS.has(method)) return false;

  if (isApiPath(path)) {
    const shown = decodedPath(path);
    const served = methodsServedAt(shown.replace(/\/+$/, "") || "/");
    const error = served ? methodNotAllowed(shown, method, served) : noEndpoint(method, shown);
    void sendEnvelope(res, toErrorResponse(error, newRequestId()));
    return true;
  }
  if (method === "TRACE") {
    res.writeHead(501, { "Content-Type": "text/plain; charset=utf-8" });
    res.end("TRACE is not served here.\n");
    return true;
  }
  return false;
}

type GuardGlobal = {
  __geoscopeRequestGuard?: { isAppServer: (server: http.Server) => boolean; uninstall: () => void };
};
const holder = globalThis as unknown as GuardGlobal;

/**
 * Puts guardRequest in front of the request listener of the app's HTTP server (and of no other
 * server of the process: the in-process engine simulator, the operator endpoint). Next.js gives
 * no hook before its routing, and its server object is not reachable, so the guard sits in
 * http.Server's `emit` and acts only for the server `isAppServer` recognises: by default the
 * one listening on the port Next.js announced in PORT. Installed once per process; the latest
 * `isAppServer` wins. Returns a function that takes it out again (tests).
 */
export function installRequestGuard(isAppServer: (server: http.Server) => boolean = listensOnNextPort): () => void {
  const installed = holder.__geoscopeRequestGuard;
  if (installed) {
    installed.isAppServer = isAppServer;
    return installed.uninstall;
  }
  const emit = http.Server.prototype.emit;
  const guarded = function (this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "request" && holder.__geoscopeRequestGuard?.isAppServer(this)) {
      if (guardRequest(args[0] as IncomingMessage, args[1] as ServerResponse)) return true;
    }
    return (emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean).call(this, event, ...args);
  } as typeof emit;
  http.Server.prototype.emit = guarded;
  const uninstall = () => {
    if (http.Server.prototype.emit === guarded) http.Server.prototype.emit = emit;
    delete holder.__geoscopeRequestGuard;
  };
  holder.__geoscopeRequestGuard = { isAppServer, uninstall };
  return uninstall;
}

const appServers = new WeakMap<http.Server, boolean>();

function listensOnNextPort(server: http.Server): boolean {
  const known = appServers.get(server);
  if (known !== undefined) return known;
  const address = server.address();
  if (!address || typeof address === "string" || !process.env.PORT) return false;
  const isApp = address.port === Number(process.env.PORT);
  appServers.set(server, isApp);
  return isApp;
}
