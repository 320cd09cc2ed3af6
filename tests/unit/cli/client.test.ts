// The typed client against a local HTTP server: every endpoint of the registry is called with
// values its request schemas accept and answered with a body its response schema accepts; the
// request it sends and the body it returns are checked, and a body that breaks the schema is
// refused with a message naming the endpoint and the field.
import { createServer, type IncomingMessage, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CliHttpError, Client, ResponseShapeError } from "@/cli/client";
import { z } from "zod";
import { defineEndpoint, type EndpointDefinition } from "@/lib/schemas/endpoint";
import { endpoints } from "@/lib/schemas/registry";
import * as runs from "@/lib/schemas/runs";
import { breakingField, sampleOf } from "./samples";

type Seen = { method: string; url: string; headers: IncomingMessage["headers"]; body: string };
type Answer = { status: number; text: string; contentType?: string };

let server: Server;
let base = "";
let answer: Answer = { status: 200, text: "{}" };
let seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      res.writeHead(answer.status, answer.status === 204 ? {} : { "Content-Type": answer.contentType ?? "application/json" });
      res.end(answer.status === 204 ? undefined : answer.text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = (token: string | null = "gsk_test") => new Client({ baseUrl: base, token, version: "1.2.3" });

function serve(next: Answer) {
  answer = next;
  seen = [];
}

/** Path parameters, query and body a caller could send to this endpoint. */
function inputFor(e: EndpointDefinition) {
  return {
    params: e.params ? (sampleOf(e.params, "input") as Record<string, unknown>) : undefined,
    query: e.query ? (sampleOf(e.query, "input") as Record<string, unknown>) : undefined,
    body: e.body ? sampleOf(e.body, "input") : undefined,
  };
}

const label = (e: EndpointDefinition) => `${e.method} ${e.path}`;

describe("every endpoint definition yields a typed client call", () => {
  it.each(endpoints.map((e) => [label(e), e] as const))("%s", async (_, endpoint) => {
    const text = endpoint.response ? JSON.stringify(sampleOf(endpoint.response)) : "";
    serve({ status: endpoint.status, text });
    const input = inputFor(endpoint);
    const result = await client().call(endpoint, input);

    // The request: method, path with its parameters filled in, query, body and headers.
    expect(seen).toHaveLength(1);
    const request = seen[0]!;
    expect(request.method).toBe(endpoint.method);
    const url = new URL(request.url, base);
    const path = endpoint.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(String(input.params![name])));
    expect(url.pathname).toBe(`/api/v1${path}`);
    expect(Object.fromEntries(url.searchParams)).toEqual(Object.fromEntries(Object.entries(input.query ?? {}).map(([k, v]) => [k, String(v)])));
    expect(request.body === "" ? undefined : JSON.parse(request.body)).toEqual(input.body);
    expect(request.headers["user-agent"]).toBe("geoscope-cli/1.2.3");
    expect(request.headers.authorization).toBe(endpoint.auth === "bearer" ? "Bearer gsk_test" : undefined);

    // The answer: the text as sent, and the body parsed with the response schema.
    expect(result.status).toBe(endpoint.status);
    expect(result.text).toBe(text);
    expect(result.body).toEqual(endpoint.response ? endpoint.response.parse(JSON.parse(text)) : undefined);
  });
});

describe("a response that breaks its schema is refused, naming the endpoint and the field", () => {
  const withBody = endpoints.filter((e) => e.response);

  it.each(withBody.map((e) => [label(e), e] as const))("%s", async (_, endpoint) => {
    const { field, wrong } = breakingField(endpoint.response!);
    const body = field === null ? wrong : { ...(sampleOf(endpoint.response!) as Record<string, unknown>), [field]: wrong };
    serve({ status: endpoint.status, text: JSON.stringify(body) });
    const error = await client().call(endpoint, inputFor(endpoint)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseShapeError);
    const shape = error as ResponseShapeError;
    expect(shape.message).toContain(`${endpoint.method} ${endpoint.path} (${endpoint.operationId})`);
    expect(shape.problems[0]).toMatch(new RegExp(`^${field === null ? "\\(the body\\)" : field}: `));
    expect(shape.message).toContain(shape.problems[0]);
    expect(shape.envelope.error.code).toBe("invalid_response");
    expect(JSON.parse(shape.text)).toEqual(shape.envelope);
  });

  it("also for shapes the registry does not have yet: a union by kind, a list", async () => {
    const union = z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("questions"), id: z.string(), topic: z.string() }),
      z.object({ kind: z.literal("citations"), id: z.string(), method: z.string() }),
    ]);
    for (const response of [union, z.array(z.object({ id: z.string() }))]) {
      const endpoint = defineEndpoint({ method: "GET", path: "/things", operationId: "getThings", summary: "Things", tags: [], auth: "none", response, status: 200 });
      serve({ status: 200, text: JSON.stringify(sampleOf(response)) });
      expect((await client().call(endpoint)).body).toEqual(sampleOf(response));
      const { field, wrong } = breakingField(response);
      serve({ status: 200, text: JSON.stringify(field === null ? wrong : { ...(sampleOf(response) as object), [field]: wrong }) });
      const error = (await client().call(endpoint).catch((e: unknown) => e)) as ResponseShapeError;
      expect(error).toBeInstanceOf(ResponseShapeError);
      expect(error.message).toContain("GET /things (getThings)");
    }
  });

  it("names a nested field by its path", async () => {
    const batch = sampleOf(runs.PromptBatch) as { runs: { status: string }[] };
    batch.runs[0]!.status = "exploded";
    serve({ status: 200, text: JSON.stringify(batch) });
    const error = (await client().call(runs.getBatch, { params: { batch_id: "rq_01JAAAAAAAAAAAAAAAAAAAAAAA" } }).catch((e: unknown) => e)) as ResponseShapeError;
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect(error.message).toContain("GET /batches/{batch_id} (getBatch)");
    expect(error.problems[0]).toMatch(/^runs\[0\]\.status: /);
  });

  it("says the server may be older when a field is missing, newer when a value is unknown", async () => {
    const batch = sampleOf(runs.PromptBatch) as Record<string, unknown> & { runs: { status: string }[] };
    const input = { params: { batch_id: "rq_01JAAAAAAAAAAAAAAAAAAAAAAA" } };
    const { runs: _runs, ...lacking } = batch;
    serve({ status: 200, text: JSON.stringify(lacking) });
    const older = (await client().call(runs.getBatch, input).catch((e: unknown) => e)) as ResponseShapeError;
    expect(older.problems[0]).toMatch(/^runs: /);
    expect(older.message).toContain("the server may be older than this client");
    expect(older.message).not.toContain("newer");
    batch.runs[0]!.status = "exploded";
    serve({ status: 200, text: JSON.stringify(batch) });
    const newer = (await client().call(runs.getBatch, input).catch((e: unknown) => e)) as ResponseShapeError;
    expect(newer.message).toContain("The server may be newer than this client");
    expect(newer.message).not.toContain("older");
  });

  it("refuses a body that is not JSON", async () => {
    serve({ status: 200, text: "<html>proxy login</html>", contentType: "text/html" });
    const error = (await client().call(runs.getRun, { params: { run_id: "dr_01JAAAAAAAAAAAAAAAAAAAAAAA" } }).catch((e: unknown) => e)) as ResponseShapeError;
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect(error.message).toMatch(/GET \/runs\/\{run_id\} \(getRun\).*not JSON/);
  });
});

describe("errors", () => {
  const runId = { params: { run_id: "dr_01JAAAAAAAAAAAAAAAAAAAAAAA" } };

  it("an error envelope is kept as sent", async () => {
    const text = JSON.stringify({ error: { code: "not_found", message: 'No such run "dr_…"', engine: null, retryable: false } });
    serve({ status: 404, text });
    const error = (await client().call(runs.getRun, runId).catch((e: unknown) => e)) as CliHttpError;
    expect(error).toBeInstanceOf(CliHttpError);
    expect(error).not.toBeInstanceOf(ResponseShapeError);
    expect([error.status, error.code, error.text]).toEqual([404, "not_found", text]);
  });

  it("an answer without an envelope gets one made up from its status", async () => {
    serve({ status: 502, text: "Bad Gateway", contentType: "text/plain" });
    const error = (await client().call(runs.getRun, runId).catch((e: unknown) => e)) as CliHttpError;
    expect(error.code).toBe("http_502");
    expect(error.envelope.error.retryable).toBe(true);
    expect(JSON.parse(error.text)).toEqual(error.envelope);
  });

  it("no token: refused before anything is sent", async () => {
    serve({ status: 200, text: "{}" });
    const error = (await client(null).call(runs.getRun, runId).catch((e: unknown) => e)) as CliHttpError;
    expect([error.status, error.code]).toEqual([401, "unauthenticated"]);
    expect(seen).toEqual([]);
  });

  it("an unreachable server is status 0, code unreachable", async () => {
    const down = new Client({ baseUrl: "http://127.0.0.1:9/api/v1", token: "t", version: "1.2.3" });
    const error = (await down.call(runs.getRun, runId).catch((e: unknown) => e)) as CliHttpError;
    expect([error.status, error.code, error.envelope.error.retryable]).toEqual([0, "unreachable", true]);
  });
});
