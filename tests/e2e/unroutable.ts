// Requests Next.js cannot route by itself, sent raw (node:http: no URL normalisation, any method,
// TRACE included) to a built server, and what each must answer: a path segment that does not
// percent-decode on every {id} path, methods Next.js's route handlers cannot take, a member id
// beyond PostgreSQL's integer. Used by unroutable.spec.ts against servers started both ways.
import http from "node:http";
import { expect } from "@playwright/test";
import { endpoints } from "../../lib/schemas/registry";

export type RawAnswer = { status: number; headers: http.IncomingHttpHeaders; text: string };

/** One request exactly as given: the path is sent byte for byte, the method as written. */
export function rawRequest(base: string, method: string, path: string, options: { token?: string; body?: string } = {}): Promise<RawAnswer> {
  const url = new URL(base);
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) {
    headers["content-type"] = "application/json";
    headers["content-length"] = String(Buffer.byteLength(options.body));
  }
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

function envelope(answer: RawAnswer, what: string): { code: string; message: string; engine: unknown; retryable: unknown } {
  expect(answer.headers["content-type"], `${what}: ${answer.status} ${answer.text.slice(0, 200)}`).toContain("application/json");
  expect(answer.headers["x-request-id"], what).toMatch(/^req_[0-9A-HJKMNP-TV-Z]{26}$/);
  const body = JSON.parse(answer.text) as { error: { code: string; message: string; engine: unknown; retryable: unknown } };
  expect(Object.keys(body), what).toEqual(["error"]);
  return body.error;
}

const UNDECODABLE = ["%ZZ", "%C3%28", "100%"];

/** Every operation with an id in its path, each id in turn replaced by a segment that does not decode: 404 naming it, after authentication. */
export async function expectUndecodableIdsNotFound(base: string, token: string, workspaceId: string): Promise<number> {
  let checked = 0;
  const fill: Record<string, string> = { workspace_id: workspaceId, member_id: "1" };
  for (const endpoint of endpoints.filter((e) => e.params)) {
    const names = Object.keys(endpoint.params!.shape);
    for (const name of names) {
      for (const junk of UNDECODABLE) {
        const path = `/api/v1${endpoint.path.replace(/\{(\w+)\}/g, (_, p: string) => (p === name ? junk : (fill[p] ?? `${p}_missing`)))}`;
        const body = endpoint.body ? "{}" : undefined;
        const what = `${endpoint.method} ${path}`;
        const anonymous = await rawRequest(base, endpoint.method, path, { body });
        expect(anonymous.status, what).toBe(401);
        expect(envelope(anonymous, what).code).toBe("unauthenticated");
        const signedIn = await rawRequest(base, endpoint.method, path, { token, body });
        expect(signedIn.status, what).toBe(404);
        const error = envelope(signedIn, what);
        expect(error.code, what).toBe("not_found");
        // The 404 names the undecodable segment, or an id before it that the path names as missing
        // (a tick's monitor: a monitor that does not exist has no ticks to look for).
        const named = [junk, ...names.slice(0, names.indexOf(name)).filter((p) => fill[p] === undefined).map((p) => `${p}_missing`)];
        expect(error.message, what).toMatch(new RegExp(`^No such [A-Za-z ]+ "(${named.map((n) => n.replace(/[%()]/g, "\\$&")).join("|")})"\\.$`));
        checked++;
      }
    }
  }
  return checked;
}

/** Methods a Next.js route handler cannot take, on paths that exist and one that does not. */
export async function expectOtherMethodsRefused(base: string, token: string, workspaceId: string): Promise<void> {
  const cases: [path: string, allow: string | null][] = [
    ["/api/v1/runs", "GET"],
    ["/api/v1/runs/%ZZ", "GET"],
    ["/api/v1/version", "GET"],
    ["/api/v1/fanouts/estimate", "POST"],
    ["/api/v1/fanouts/fo_01JAAAAAAAAAAAAAAAAAAAAAAA", "GET"],
    [`/api/v1/workspaces/${workspaceId}/members/1`, "PATCH, DELETE"],
    ["/api/v1/openapi.json", "GET"],
    ["/api/v1/nope", null],
  ];
  for (const method of ["TRACE", "PROPFIND", "COPY", "PURGE"]) {
    for (const [path, allow] of cases) {
      const what = `${method} ${path}`;
      for (const credential of [undefined, token]) {
        const answer = await rawRequest(base, method, path, { token: credential });
        const error = envelope(answer, what);
        const shown = decodeURIComponentOr(path);
        if (allow === null) {
          expect(answer.status, what).toBe(404);
          expect(error).toEqual({ code: "not_found", message: `No endpoint ${method} ${shown}.`, engine: null, retryable: false });
        } else {
          expect(answer.status, what).toBe(405);
          expect(answer.headers.allow, what).toBe(allow);
          expect(error).toEqual({ code: "method_not_allowed", message: `${shown} does not accept ${method}; it accepts ${allow}.`, engine: null, retryable: false });
        }
      }
    }
  }
  // A page path: TRACE is served nowhere (not a 500).
  expect((await rawRequest(base, "TRACE", "/account")).status).toBe(501);
}

function decodeURIComponentOr(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** A member id past PostgreSQL's integer (the schema once allowed up to 2^53 - 1): 404, not a database error. */
export async function expectHugeMemberIdsNotFound(base: string, token: string, workspaceId: string): Promise<void> {
  for (const id of ["2147483648", "9007199254740991", "2147483647"]) {
    const path = `/api/v1/workspaces/${workspaceId}/members/${id}`;
    for (const [method, body] of [["PATCH", JSON.stringify({ role: "member" })], ["DELETE", undefined]] as const) {
      const answer = await rawRequest(base, method, path, { token, body });
      expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(404);
      expect(envelope(answer, path)).toEqual({ code: "not_found", message: `No such member "${id}".`, engine: null, retryable: false });
    }
  }
}
