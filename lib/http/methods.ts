// The 404 and 405 answers of /api/v1 in the error envelope, produced by route files rather than
// by a Next.js proxy (middleware): a proxy runs on every request and cost about half of the
// server's capacity on GET /runs/{id} (docs/decisions.md, "No proxy in front of the API").
//
// - A known path with a method it does not serve: every route file also exports the methods it
//   does not serve, from `otherMethods`, which answer 405 with Allow. Next.js would otherwise
//   answer those with an empty 405 (tests/api/registry.test.ts checks every file does this).
// - A path no route file serves: the optional catch-all app/api/v1/[[...path]] answers 404.
import type { HttpMethod } from "../schemas/endpoint";
import { ApiError } from "./errors";
import { decodedPath } from "./path-encoding";
import { newRequestId, toErrorResponse } from "./respond";

/** The methods an endpoint may have (lib/schemas/endpoint.ts), in the order Allow names them. */
export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const satisfies readonly HttpMethod[];
type Method = HttpMethod;
type Handler = (request: Request) => Response;

/** Marks the handlers below, so the registry test tells them from real endpoints. */
export const NOT_AN_ENDPOINT = Symbol.for("geoscope.notAnEndpoint");

function mark(handler: Handler): Handler {
  return Object.assign(handler, { [NOT_AN_ENDPOINT]: true });
}

/** Whether a route file's export is one of these stand-ins rather than an endpoint. */
export function isStandIn(value: unknown): boolean {
  return typeof value === "function" && NOT_AN_ENDPOINT in value;
}

// Decoded: a segment the request guard took literally (`%ZZ` sent, `%25ZZ` here) is named as it was sent.
const pathOf = (request: Request) => decodedPath(new URL(request.url).pathname);

/** 405 `method_not_allowed` for `method` on `path` (as the client meant it), naming the served methods in Allow. */
export function methodNotAllowed(path: string, method: string, served: readonly string[]): ApiError {
  const allow = METHODS.filter((m) => served.includes(m)).join(", ");
  return new ApiError("method_not_allowed", `${path} does not accept ${method}; it accepts ${allow}.`, { headers: { Allow: allow } });
}

/** 404 `not_found` for a path no route file serves. */
export function noEndpoint(method: string, path: string): ApiError {
  return new ApiError("not_found", `No endpoint ${method} ${path}.`);
}

type Others<T> = Exclude<Method, keyof T> | ("GET" extends keyof T ? never : "HEAD") | "OPTIONS";

/**
 * Handlers for the methods a route file does not serve: 405 `method_not_allowed` naming the ones
 * it does in Allow. Also HEAD where there is no GET (Next.js answers HEAD from GET otherwise), and
 * OPTIONS: 204 with Allow, which Next.js would compute from the exports, these stand-ins included.
 *   export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
 */
export function otherMethods<const T extends Partial<Record<Method, unknown>>>(served: T): Record<Others<T>, Handler> {
  const allowed = METHODS.filter((m) => m in served);
  const refuse = mark((request) => toErrorResponse(methodNotAllowed(pathOf(request), request.method, allowed), newRequestId()));
  const options = [...allowed, ...("GET" in served ? ["HEAD"] : []), "OPTIONS"].sort().join(", ");
  const OPTIONS = mark(() => new Response(null, { status: 204, headers: { Allow: options } }));
  const others: string[] = METHODS.filter((m) => !(m in served));
  if (!("GET" in served)) others.push("HEAD");
  return { ...Object.fromEntries(others.map((m) => [m, refuse])), OPTIONS } as Record<Others<T>, Handler>;
}

/** Every method of a path no route file serves: 404 `not_found`, like any missing object. */
export const unknownPath: Handler = mark((request) =>
  toErrorResponse(noEndpoint(request.method, pathOf(request)), newRequestId()),
);
