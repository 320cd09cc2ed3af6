// The request guard (lib/http/request-guard.ts) on a real node:http server standing in for
// Next.js: what it makes routable, what it answers itself, and that other servers are left alone.
// The built server is tested in tests/e2e/unroutable.spec.ts.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installRequestGuard, methodsServedAt } from "@/lib/http/request-guard";

type Seen = { method: string; url: string; rawQuery?: string };

function server(seen: Seen[]): Promise<http.Server> {
  const s = http.createServer((req, res) => {
    const rawQuery = req.headers["x-geoscope-raw-query"] as string | undefined;
    seen.push({ method: req.method!, url: req.url!, ...(rawQuery !== undefined ? { rawQuery } : {}) });
    res.end("next");
  });
  return new Promise((resolve) => s.listen(0, "127.0.0.1", () => resolve(s)));
}

function send(s: http.Server, method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: (s.address() as AddressInfo).port, method, path, headers }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on("error", reject);
    req.end();
  });
}

const appSeen: Seen[] = [];
const otherSeen: Seen[] = [];
let app: http.Server;
let other: http.Server;
let uninstall: () => void;

beforeAll(async () => {
  app = await server(appSeen);
  other = await server(otherSeen);
  uninstall = installRequestGuard((s) => s === app);
});

afterAll(() => {
  uninstall();
  app.close();
  other.close();
});

describe("methodsServedAt", () => {
  it("finds the route file Next.js would pick, a static segment before a parameter", () => {
    expect(methodsServedAt("/api/v1/fanouts/estimate")).toEqual(["POST"]);
    expect(methodsServedAt("/api/v1/fanouts/fo_x")).toEqual(["GET"]);
    expect(methodsServedAt("/api/v1/runs")).toEqual(["GET"]);
    expect(methodsServedAt("/api/v1/workspaces/ws_x/members/1")?.sort()).toEqual(["DELETE", "PATCH"]);
    expect(methodsServedAt("/api/v1/openapi.json")).toEqual(["GET"]);
    expect(methodsServedAt("/api/v1/nope")).toBeNull();
    expect(methodsServedAt("/api/v1")).toBeNull();
  });
});

describe("the guard", () => {
  it("passes ordinary requests through untouched", async () => {
    expect((await send(app, "GET", "/api/v1/runs/caf%C3%A9?x=%ZZ")).text).toBe("next");
    expect(appSeen.at(-1)).toEqual({ method: "GET", url: "/api/v1/runs/caf%C3%A9?x=%ZZ" });
  });

  it("takes a segment that does not percent-decode literally, query kept, before the app sees it", async () => {
    await send(app, "DELETE", "/api/v1/runs/%ZZ/share?wait=1");
    expect(appSeen.at(-1)).toEqual({ method: "DELETE", url: "/api/v1/runs/%25ZZ/share?wait=1" });
    await send(app, "GET", "/s/%C3%28");
    expect(appSeen.at(-1)!.url).toBe("/s/%25C3%2528");
  });

  it("answers TRACE and methods outside Next.js's seven on /api/v1 in the envelope: 405 with Allow, 404 where no route is", async () => {
    const before = appSeen.length;
    const trace = await send(app, "TRACE", "/api/v1/workspaces/ws_x/members/%ZZ");
    expect(trace.status).toBe(405);
    expect(trace.headers.allow).toBe("PATCH, DELETE");
    expect(trace.headers["x-request-id"]).toMatch(/^req_/);
    expect(JSON.parse(trace.text)).toEqual({
      error: { code: "method_not_allowed", message: "/api/v1/workspaces/ws_x/members/%ZZ does not accept TRACE; it accepts PATCH, DELETE.", engine: null, retryable: false },
    });
    const propfind = await send(app, "PROPFIND", "/api/v1/nope");
    expect(propfind.status).toBe(404);
    expect(JSON.parse(propfind.text).error.message).toBe("No endpoint PROPFIND /api/v1/nope.");
    expect((await send(app, "TRACE", "/account")).status).toBe(501);
    expect(appSeen.length).toBe(before);
    // A method outside the seven on a page is left to Next.js.
    await send(app, "PROPFIND", "/account");
    expect(appSeen.at(-1)).toEqual({ method: "PROPFIND", url: "/account" });
  });

  it("hands a query holding __proto__ (which Next.js drops) to the route as sent, and never a client's own", async () => {
    await send(app, "GET", "/api/v1/runs?limit=5&__proto__=1");
    expect(appSeen.at(-1)).toEqual({ method: "GET", url: "/api/v1/runs?limit=5&__proto__=1", rawQuery: "?limit=5&__proto__=1" });
    await send(app, "GET", "/api/v1/runs?%5F%5Fproto%5F%5F=1");
    expect(appSeen.at(-1)!.rawQuery).toBe("?%5F%5Fproto%5F%5F=1");
    await send(app, "GET", "/api/v1/runs?limit=5", { "x-geoscope-raw-query": "?limit=500" });
    expect(appSeen.at(-1)).toEqual({ method: "GET", url: "/api/v1/runs?limit=5" });
  });

  it("leaves other servers of the process alone", async () => {
    expect((await send(other, "TRACE", "/api/v1/runs")).text).toBe("next");
    await send(other, "GET", "/api/v1/runs/%ZZ");
    expect(otherSeen.at(-1)).toEqual({ method: "GET", url: "/api/v1/runs/%ZZ" });
  });
});
