// The request path every endpoint shares: version gate, authentication, parsing, the handler,
// and the error envelope of spec 7 on every non-2xx answer.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { GET as getVersion } from "@/app/api/v1/version/route";
import { GET as getPricing, POST as postPricing } from "@/app/api/v1/pricing/route";
import { GET as unknownGet } from "@/app/api/v1/[[...path]]/route";
import { POST as postMembers, HEAD as headMember, OPTIONS as optionsMember } from "@/app/api/v1/workspaces/[workspace_id]/members/[member_id]/route";
import { ensureUser } from "@/lib/accounts/users";
import { issueApiKey } from "@/lib/auth/api-keys";
import { revokeApiKey } from "@/lib/auth/create";
import { ApiError, ERROR_STATUS, type ErrorCode } from "@/lib/http/errors";
import { route } from "@/lib/http/route";
import { idOf } from "@/lib/schemas/common";
import { defineEndpoint } from "@/lib/schemas/endpoint";
import { useTestDatabase } from "../helpers/app";
import { call } from "../helpers/http";

useTestDatabase();

const echo = defineEndpoint({
  method: "POST",
  path: "/echo/{run_id}",
  operationId: "echo",
  summary: "test",
  tags: ["Test"],
  auth: "bearer",
  params: z.object({ run_id: idOf("dr") }),
  query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }),
  body: z.strictObject({ prompt: z.string().min(1).max(4000), engines: z.array(z.string()).min(1).optional() }),
  response: z.object({ prompt: z.string(), limit: z.number(), user: z.string() }),
  status: 202,
});
const echoHandler = route(echo, ({ body, query, principal }) => ({ prompt: body.prompt, limit: query.limit, user: principal.user.email }));
const RUN = "dr_01ARZ3NDEKTSV4RRFFQ69G5FAV";

let key: string;
let revokedKey: string;

beforeAll(async () => {
  const user = await ensureUser("envelope@example.com");
  key = (await issueApiKey(user.id, user.personalWorkspaceId, "test")).key;
  const revoked = await issueApiKey(user.id, user.personalWorkspaceId, "old");
  revokedKey = revoked.key;
  await revokeApiKey(
    { user: { id: user.id, email: user.email }, credential: { kind: "cli_token", id: "ct_x", name: "x" }, workspaceId: null, apiKeyId: null },
    revoked.id,
  );
});

function post(options: Parameters<typeof call>[3] = {}) {
  return call(echoHandler, "POST", `/echo/${RUN}`, { params: { run_id: RUN }, token: key, ...options });
}

describe("a valid request", () => {
  it("reaches the handler with parsed body, query and principal, and answers the endpoint's status", async () => {
    const res = await post({ body: { prompt: "hi" }, query: { limit: 7 } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ prompt: "hi", limit: 7, user: "envelope@example.com" });
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });
});

describe("400 invalid_request", () => {
  it("names the field and the rule", async () => {
    const res = await post({ body: { prompt: "" } });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: "invalid_request", message: "prompt: must be at least 1 character", engine: null, retryable: false });
  });

  it("names every failing field at once, nested ones by their path", async () => {
    const res = await post({ body: { prompt: "x".repeat(4001), engines: [], extra: 1 } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("prompt: must be at most 4000 characters");
    expect(res.body.error.message).toContain("engines: must have at least 1 item");
    expect(res.body.error.message).toContain('unknown field "extra"');
  });

  it("says a required field is required", async () => {
    const res = await post({ body: {} });
    expect(res.body.error.message).toBe("prompt: is required");
  });

  it("refuses malformed JSON as 400, not 500", async () => {
    const res = await post({ rawBody: '{"prompt": "unterminated', headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^request body: is not valid JSON/);
  });

  it("refuses a body that is not JSON by its content type", async () => {
    const res = await post({ rawBody: "prompt=hi", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("Content-Type must be application/json");
  });

  it("accepts JSON with a charset and +json types", async () => {
    for (const type of ["application/json; charset=utf-8", "application/vnd.geoscope+json"]) {
      const res = await post({ rawBody: '{"prompt":"ok"}', headers: { "content-type": type } });
      expect(res.status, type).toBe(202);
    }
  });

  it("rejects a body over 1 MiB, whether or not Content-Length says so", async () => {
    const big = JSON.stringify({ prompt: "x".repeat(1024 * 1024) });
    const res = await post({ rawBody: big, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe("request body: must be at most 1 MiB");
    // A chunked body with no Content-Length is cut off while it streams.
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode("x".repeat(64 * 1024)));
        controller.close();
      },
    });
    const request = new Request(`http://localhost/api/v1/echo/${RUN}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    const streamed = await echoHandler(request, { params: Promise.resolve({ run_id: RUN }) });
    expect(streamed.status).toBe(400);
  });

  it("refuses an unknown query parameter like an unknown body field, naming it and what the endpoint takes", async () => {
    const res = await post({ body: { prompt: "hi" }, query: { status: "failed" } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('query: unknown parameter "status" (this endpoint takes limit)');
    const none = await call(getVersion, "GET", "/version", { query: { verbose: "1" } });
    expect(none.status).toBe(400);
    expect(none.body.error.message).toBe('query: unknown parameter "verbose" (this endpoint takes no query parameters)');
  });

  it("checks query parameters against their bounds, naming the parameter", async () => {
    for (const limit of ["0", "201", "abc", "1.5"]) {
      const res = await post({ body: { prompt: "hi" }, query: { limit } });
      expect(res.status, limit).toBe(400);
      expect(res.body.error.message, limit).toMatch(/^limit: /);
    }
  });
});

describe("401 unauthenticated", () => {
  it("answers a missing, unknown, malformed or revoked credential, with a Bearer challenge", async () => {
    for (const token of [undefined, "gsk_nope", "gsc_nope", "garbage", revokedKey]) {
      const res = await post({ body: { prompt: "hi" }, token: token as string });
      expect(res.status, String(token)).toBe(401);
      expect(res.body.error.code).toBe("unauthenticated");
      expect(res.body.error.retryable).toBe(false);
      expect(res.headers.get("www-authenticate")).toContain("Bearer");
    }
  });

  it("comes before input validation, so nothing about the request leaks", async () => {
    const res = await post({ body: { prompt: "" }, token: "gsk_nope" });
    expect(res.status).toBe(401);
  });
});

describe("404 not_found", () => {
  it("answers a malformed id in the path like a missing object, naming its kind and the id given", async () => {
    const res = await call(echoHandler, "POST", "/echo/dr_nope", { params: { run_id: "dr_nope" }, token: key, body: { prompt: "hi" } });
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({ code: "not_found", message: 'No such run "dr_nope".', engine: null, retryable: false });
    const long = "x".repeat(300);
    const cut = await call(echoHandler, "POST", `/echo/${long}`, { params: { run_id: long }, token: key, body: { prompt: "hi" } });
    expect(cut.body.error.message).toBe(`No such run "${"x".repeat(80)}…".`);
  });

  it("answers an unknown path under /api/v1 in the envelope", async () => {
    const response = unknownGet(new Request("http://localhost/api/v1/nothing/here"));
    expect(response.status).toBe(404);
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    expect(await response.json()).toEqual({
      error: { code: "not_found", message: "No endpoint GET /api/v1/nothing/here.", engine: null, retryable: false },
    });
  });
});

describe("405 method_not_allowed", () => {
  it("answers a wrong method on a known path with Allow naming the served ones", async () => {
    const response = postPricing(new Request("http://localhost/api/v1/pricing", { method: "POST" }));
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET");
    expect(await response.json()).toEqual({
      error: { code: "method_not_allowed", message: "/api/v1/pricing does not accept POST; it accepts GET.", engine: null, retryable: false },
    });
  });

  it("names every served method, and refuses HEAD where there is no GET", async () => {
    const url = "http://localhost/api/v1/workspaces/ws_x/members/mem_x";
    const post = postMembers(new Request(url, { method: "POST" }));
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("PATCH, DELETE");
    const head = headMember(new Request(url, { method: "HEAD" }));
    expect(head.status).toBe(405);
    expect(head.headers.get("allow")).toBe("PATCH, DELETE");
  });

  it("answers OPTIONS with the served methods only", async () => {
    const response = optionsMember(new Request("http://localhost/api/v1/workspaces/ws_x/members/mem_x", { method: "OPTIONS" }));
    expect(response.status).toBe(204);
    expect(response.headers.get("allow")).toBe("DELETE, OPTIONS, PATCH");
  });
});

describe("426 cli_outdated", () => {
  it("is answered before authentication, so an outdated CLI with a bad token learns it must upgrade", async () => {
    const res = await post({ body: { prompt: "hi" }, token: "gsk_nope", headers: { "user-agent": "geoscope-cli/0.0.1" } });
    expect(res.status).toBe(426);
    expect(res.body.error.code).toBe("cli_outdated");
    expect(res.headers.get("x-min-cli-version")).toBe("0.1.0");
  });

  it("is answered by endpoints that need no credential too", async () => {
    const res = await call(getPricing, "GET", "/pricing", { headers: { "user-agent": "geoscope-cli/0.0.9" } });
    expect(res.status).toBe(426);
  });

  it("follows MIN_CLI_VERSION", async () => {
    vi.stubEnv("MIN_CLI_VERSION", "2.0.0");
    try {
      const { resetConfig } = await import("@/lib/config/env");
      resetConfig();
      expect((await call(getPricing, "GET", "/pricing", { headers: { "user-agent": "geoscope-cli/1.9.9" } })).status).toBe(426);
      expect((await call(getPricing, "GET", "/pricing", { headers: { "user-agent": "geoscope-cli/2.0.0" } })).status).toBe(200);
      // GET /version answers even an outdated CLI: it is how the CLI learns what to upgrade to.
      const version = await call(getVersion, "GET", "/version", { headers: { "user-agent": "geoscope-cli/1.9.9" } });
      expect(version.status).toBe(200);
      expect(version.body).toEqual({ min_cli_version: "2.0.0" });
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("500 internal_error", () => {
  it("hides the failure from the client and logs it with the request id", async () => {
    const boom = route({ ...echo, auth: "none" }, () => {
      throw new Error("database password is hunter2");
    });
    const logged: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      logged.push(String(chunk));
      return true;
    });
    const res = await call(boom, "POST", `/echo/${RUN}`, { params: { run_id: RUN }, body: { prompt: "hi" }, headers: { authorization: "Bearer gsk_secret_value" } });
    spy.mockRestore();
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe("internal_error");
    expect(res.body.error.retryable).toBe(true);
    expect(res.text).not.toContain("hunter2");
    const requestId = res.headers.get("x-request-id")!;
    expect(res.body.error.message).toContain(requestId);
    const line = logged.find((l) => l.includes(requestId));
    expect(line).toContain("hunter2");
    expect(logged.join("")).not.toContain("gsk_secret_value");
  });

  it("is what a response that breaks its own schema becomes, so drift is caught in tests", async () => {
    const drift = route({ ...echo, auth: "none" }, () => ({ prompt: 1 }) as never);
    const spy = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const res = await call(drift, "POST", `/echo/${RUN}`, { params: { run_id: RUN }, body: { prompt: "hi" } });
    spy.mockRestore();
    expect(res.status).toBe(500);
  });
});

describe("every code of spec 7 has its status, retryable default and engine field", () => {
  const expected: Record<ErrorCode, [number, boolean]> = {
    invalid_request: [400, false],
    unauthenticated: [401, false],
    insufficient_credit: [402, false],
    permission_denied: [403, false],
    not_found: [404, false],
    method_not_allowed: [405, false],
    conflict: [409, false],
    cli_outdated: [426, false],
    rate_limited: [429, true],
    internal_error: [500, true],
    engine_error: [502, true],
  };
  for (const [code, [status, retryable]] of Object.entries(expected) as [ErrorCode, [number, boolean]][]) {
    it(code, async () => {
      expect(ERROR_STATUS[code]).toBe(status);
      const thrower = route({ ...echo, auth: "none" }, () => {
        throw new ApiError(code, `because ${code}`, code === "engine_error" ? { engine: "claude" } : {});
      });
      const res = await call(thrower, "POST", `/echo/${RUN}`, { params: { run_id: RUN }, body: { prompt: "hi" } });
      expect(res.status).toBe(status);
      expect(res.body).toEqual({
        error: { code, message: `because ${code}`, engine: code === "engine_error" ? "claude" : null, retryable },
      });
    });
  }
});

describe("GET /version and GET /pricing", () => {
  it("need no credential", async () => {
    const version = await call(getVersion, "GET", "/version");
    expect(version.status).toBe(200);
    expect(version.body).toEqual({ min_cli_version: "0.1.0" });
    const pricing = await call(getPricing, "GET", "/pricing");
    expect(pricing.status).toBe(200);
    expect(pricing.body.version).toBe("2026-11-29");
    expect(pricing.body.currency).toBe("USD");
    // Prompts on eight engines (#45), questions, audits, citations, and the judge on three engines (#35).
    expect(pricing.body.prices).toHaveLength(14);
  });
});

afterAll(() => vi.unstubAllEnvs());
