// The MCP tool table and server in-process: the SDK's own Client over an in-memory transport,
// talking to `createMcpServer`, whose typed client talks to a local HTTP server standing in for
// the API. (tests/e2e/mcp.spec.ts runs the real `geoscope mcp` against the real server.)
import { createServer, type Server } from "node:http";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Client } from "@/cli/client";
import { costLine, createMcpServer } from "@/cli/mcp/server";
import { buildTools, DEFAULT_WAIT_SECONDS, TOOLS } from "@/cli/mcp/tools";
import { getPricing, RateCard } from "@/lib/schemas/billing";
import { ENGINE_IDS } from "@/lib/schemas/common";
import { defineEndpoint } from "@/lib/schemas/endpoint";
import { endpoints } from "@/lib/schemas/registry";
import * as runs from "@/lib/schemas/runs";
import { sampleOf } from "./samples";

const CARD: z.output<typeof RateCard> = {
  version: "2025-01",
  effective_from: "2025-01-01T00:00:00.000Z",
  currency: "USD",
  prices: [
    { product: "prompt", engine: "chatgpt", unit: "prompt", unit_price_usd: "0.02" },
    { product: "prompt", engine: "claude", unit: "prompt", unit_price_usd: "0.03" },
    { product: "questions", engine: null, unit: "question", unit_price_usd: "0.01" },
  ],
};

describe("the tool table", () => {
  const tools = buildTools(endpoints);

  it("has unique names, and a tool for every line whose endpoint the registry has", () => {
    expect(new Set(TOOLS.map((t) => t.name)).size).toBe(TOOLS.length);
    const registered = new Set(endpoints.map((e) => `${e.method} ${e.path}`));
    expect(tools.map((t) => t.name)).toEqual(TOOLS.filter((t) => registered.has(t.endpoint)).map((t) => t.name));
    for (const name of ["whoami", "list_engines", "get_pricing", "get_billing", "list_projects", "create_project", "run_prompt", "wait_for_batch", "get_batch", "get_run", "list_runs", "estimate_fanout", "create_fanout", "wait_for_fanout", "get_fanout", "get_fanout_queries", "generate_questions", "wait_for_analysis", "share_run", "get_run_share", "rotate_run_share", "unshare_run", "share_analysis", "get_analysis_share", "rotate_analysis_share", "unshare_analysis", "share_fanout", "get_fanout_share", "rotate_fanout_share", "unshare_fanout", "share_batch", "get_batch_share", "rotate_batch_share", "unshare_batch", "share_monitor", "get_monitor_share", "rotate_monitor_share", "unshare_monitor"]) {
      expect(tools.map((t) => t.name)).toContain(name);
    }
  });

  it("has the four share tools of every kind that can be shared, each on its kind's endpoint and taking its id alone", () => {
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const [kind, collection, param] of [["run", "runs", "run_id"], ["analysis", "analyses", "analysis_id"], ["fanout", "fanouts", "fanout_id"], ["batch", "batches", "batch_id"], ["monitor", "monitors", "monitor_id"]]) {
      const base = `/${collection}/{${param}}/share`;
      expect(byName.get(`share_${kind}`)?.endpoint).toBe(`POST ${base}`);
      expect(byName.get(`get_${kind}_share`)?.endpoint).toBe(`GET ${base}`);
      expect(byName.get(`rotate_${kind}_share`)?.endpoint).toBe(`POST ${base}/rotate`);
      expect(byName.get(`unshare_${kind}`)?.endpoint).toBe(`DELETE ${base}`);
      for (const name of [`share_${kind}`, `get_${kind}_share`, `rotate_${kind}_share`, `unshare_${kind}`]) {
        expect(Object.keys(byName.get(name)!.inputJsonSchema.properties as object), name).toEqual([param]);
      }
    }
  });

  it("gives each tool its endpoint's path parameters, query and body as one flat JSON Schema object", () => {
    for (const tool of tools) {
      const schema = tool.inputJsonSchema as { type: string; properties: Record<string, unknown>; additionalProperties: boolean };
      expect(schema.type, tool.name).toBe("object");
      expect(JSON.stringify(schema), tool.name).not.toContain("$ref");
      const e = tool.definition;
      const expected = tool.waitsOn
        ? [...Object.keys(e.params?.shape ?? {}), "timeout_seconds"]
        : [...Object.keys(e.params?.shape ?? {}), ...Object.keys(e.query?.shape ?? {}), ...Object.keys((e.body as z.ZodObject | undefined)?.shape ?? {})];
      expect(Object.keys(schema.properties ?? {}).sort(), tool.name).toEqual(expected.sort());
    }
    const prompt = tools.find((t) => t.name === "run_prompt")!.inputJsonSchema as { required: string[] };
    expect(prompt.required.sort()).toEqual(["project", "prompt"]);
  });

  it("the prompt and fanout tools take the searcher's market: location (country, region, city, timezone) and language", () => {
    for (const name of ["run_prompt", "estimate_fanout", "create_fanout"]) {
      const tool = tools.find((t) => t.name === name)!;
      const props = tool.inputJsonSchema.properties as Record<string, { properties?: Record<string, unknown>; required?: string[] }>;
      expect(Object.keys(props.location!.properties ?? {})).toEqual(["country", "region", "city", "timezone"]);
      expect(props.location!.required).toEqual(["country"]);
      expect(props.language).toBeDefined();
      expect(tool.placement.get("location")).toBe("body");
    }
    const listRuns = tools.find((t) => t.name === "list_runs")!;
    expect(listRuns.placement.get("country")).toBe("query");
  });

  it("a new endpoint in the registry becomes its tool with no other change", () => {
    const estimate = defineEndpoint({
      method: "POST", path: "/fanouts/estimate", operationId: "estimateFanout", summary: "Price a fanout", tags: ["Fanouts"], auth: "bearer",
      body: z.strictObject({ prompts: z.array(z.object({ text: z.string() })), project: z.string() }), response: z.object({ total_usd: z.string() }), status: 200,
    });
    const without = endpoints.filter((e) => `${e.method} ${e.path}` !== "POST /fanouts/estimate");
    expect(buildTools(without).map((t) => t.name)).not.toContain("estimate_fanout");
    const tool = buildTools([...without, estimate]).find((t) => t.name === "estimate_fanout");
    expect(tool?.definition).toBe(estimate);
    expect(Object.keys((tool!.inputJsonSchema as { properties: object }).properties)).toEqual(["prompts", "project"]);
  });

  it("work-starting tools say what they cost, from the rate card or in general", () => {
    expect(costLine("prompt", CARD)).toContain("chatgpt $0.02, claude $0.03");
    expect(costLine("questions", CARD)).toContain("$0.01 per question");
    expect(costLine("prompt", null)).toContain("the engine's prompt price per engine");
    expect(costLine("prompt", null)).toContain("see get_pricing");
  });
});

describe("what the tools tell an agent (issue #32)", () => {
  const tools = buildTools(endpoints);
  const listed = async () => (await mcp.listTools()).tools;

  it("estimate_fanout is read-only and idempotent (it starts and holds nothing); the work-starting tools are not", async () => {
    const byName = new Map((await listed()).map((t) => [t.name, t]));
    expect(byName.get("estimate_fanout")!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, destructiveHint: false });
    for (const name of ["run_prompt", "create_fanout", "generate_questions", "audit_page"]) {
      expect(byName.get(name)!.annotations, name).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    }
  });

  it("never tells the agent to wait with GET …?wait=, which it cannot call, but with its own waiting tool", async () => {
    for (const tool of await listed()) expect(tool.description, tool.name).not.toMatch(/GET \/\S*\?wait=/);
    const byName = new Map((await listed()).map((t) => [t.name, t]));
    expect(byName.get("run_prompt")!.description).toContain("wait with wait_for_batch");
    expect(byName.get("audit_page")!.description).toContain("Wait with wait_for_run");
  });

  it("says an, not a, before a vowel", async () => {
    for (const tool of await listed()) expect(tool.description, tool.name).not.toMatch(/\b[Aa] (?=[aeio])/);
  });

  it("every engines argument lists the engine ids", () => {
    const withEngines = tools.filter((t) => "engines" in ((t.inputJsonSchema as { properties: object }).properties ?? {}));
    expect(withEngines.map((t) => t.name)).toEqual(expect.arrayContaining(["run_prompt", "estimate_fanout", "create_fanout"]));
    for (const tool of withEngines) {
      const engines = (tool.inputJsonSchema as { properties: { engines: { items: { enum?: string[] } } } }).properties.engines;
      expect(engines.items.enum, tool.name).toEqual([...ENGINE_IDS]);
    }
  });
});

// ---------- the server, against a stand-in API ----------

type Handler = (method: string, url: URL, body: string) => { status: number; body: unknown };
let handler: Handler = () => ({ status: 404, body: {} });
const requests: string[] = [];
let http: Server;
let mcp: McpClient;

beforeAll(async () => {
  http = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const url = new URL(req.url!, "http://x");
      requests.push(`${req.method} ${url.pathname}${url.search}`);
      const answer = url.pathname === "/api/v1/pricing" ? { status: 200, body: CARD } : handler(req.method!, url, body);
      res.writeHead(answer.status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const client = new Client({ baseUrl: `http://127.0.0.1:${(http.address() as { port: number }).port}/api/v1`, token: "gsk_test", version: "1.2.3" });
  const { server } = createMcpServer(client, { card: client.call(getPricing).then((r) => r.body) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  mcp = new McpClient({ name: "test", version: "1" });
  await mcp.connect(clientSide);
});
afterAll(async () => {
  await mcp.close();
  await new Promise<void>((resolve) => http.close(() => resolve()));
});

const BATCH_ID = "rq_01JAAAAAAAAAAAAAAAAAAAAAAA";
function batchWith(status: string) {
  const body = sampleOf(runs.PromptBatch) as { batch: { id: string; status: string } };
  body.batch.id = BATCH_ID;
  body.batch.status = status;
  return body;
}

describe("geoscope mcp in-process", () => {
  it("lists the tools with the rate card's prices in run_prompt's description", async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name)).toEqual(buildTools(endpoints).map((t) => t.name));
    const prompt = tools.find((t) => t.name === "run_prompt")!;
    expect(prompt.description).toContain("chatgpt $0.02, claude $0.03");
    expect(prompt.description).toContain("wait_for_batch");
    expect(prompt.inputSchema.properties).toHaveProperty("prompt");
  });

  it("a tool's result is the API body as sent, as text and as structuredContent", async () => {
    const body = sampleOf(runs.Run);
    handler = (method, url) => (method === "GET" && url.pathname.startsWith("/api/v1/runs/") ? { status: 200, body } : { status: 500, body: {} });
    const result = await mcp.callTool({ name: "get_run", arguments: { run_id: "dr_01JAAAAAAAAAAAAAAAAAAAAAAA", wait: 3 } });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify(body) }]);
    expect(result.structuredContent).toEqual(body);
    expect(requests.at(-1)).toBe("GET /api/v1/runs/dr_01JAAAAAAAAAAAAAAAAAAAAAAA?wait=3");
  });

  it("arguments are split into path, query and body by the endpoint's schemas", async () => {
    let sent = "";
    handler = (_m, _u, body) => ((sent = body), { status: 202, body: batchWith("queued") });
    const result = await mcp.callTool({ name: "run_prompt", arguments: { prompt: "best crm", project: "pr_01JAAAAAAAAAAAAAAAAAAAAAAA", engines: ["claude"] } });
    expect(result.isError).toBeFalsy();
    expect(requests.at(-1)).toBe("POST /api/v1/prompts");
    expect(JSON.parse(sent)).toEqual({ prompt: "best crm", project: "pr_01JAAAAAAAAAAAAAAAAAAAAAAA", engines: ["claude"] });
  });

  it("an API error is a tool error carrying the envelope", async () => {
    const envelope = { error: { code: "invalid_request", message: "project: is required", engine: null, retryable: false } };
    handler = () => ({ status: 400, body: envelope });
    const result = await mcp.callTool({ name: "run_prompt", arguments: { prompt: "x" } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify(envelope) }]);
    expect(result.structuredContent).toEqual(envelope);
  });

  it("wait_for_batch asks with ?wait=30 until the batch has finished", async () => {
    const answers = [batchWith("queued"), batchWith("running"), batchWith("completed")];
    handler = () => ({ status: 200, body: answers.shift() });
    requests.length = 0;
    const progress: (string | undefined)[] = [];
    const result = await mcp.callTool({ name: "wait_for_batch", arguments: { batch_id: BATCH_ID } }, undefined, {
      onprogress: (p) => progress.push(p.message),
    });
    expect(result.isError).toBeFalsy();
    expect(requests).toEqual(Array(3).fill(`GET /api/v1/batches/${BATCH_ID}?wait=30`));
    // A client that asked for progress hears of each unfinished answer.
    expect(progress.map((m) => m?.replace(/\d+ s$/, "N s"))).toEqual(["queued after N s", "running after N s"]);
    expect((result.structuredContent as { batch: { status: string } }).batch.status).toBe("completed");
    expect(result.content).toHaveLength(1);
  });

  it("wait_for_batch returns the unfinished batch when its time is up, saying to call again", async () => {
    handler = () => ({ status: 200, body: batchWith("running") });
    requests.length = 0;
    const result = await mcp.callTool({ name: "wait_for_batch", arguments: { batch_id: BATCH_ID, timeout_seconds: 1 } });
    expect(result.isError).toBeFalsy();
    // The stand-in answers at once whatever `wait` says: the loop asks for no more than the time
    // left, and paces itself rather than asking again and again until the second has passed.
    const asked = requests.filter((r) => r.startsWith("GET /api/v1/batches/"));
    expect(asked[0]).toBe(`GET /api/v1/batches/${BATCH_ID}?wait=1`);
    for (const r of asked) expect(r).toMatch(/\?wait=[01]$/);
    expect(asked.length).toBeLessThanOrEqual(4);
    expect(result.content).toHaveLength(2);
    expect((result.content as { text: string }[])[1]!.text).toMatch(/^Still running after \d+ s\. Call wait_for_batch again/);
  });

  it("wait_for_batch leaves the id to the API, whose refusal is the tool error", async () => {
    const envelope = { error: { code: "not_found", message: 'No such batch "rq_nope".', engine: null, retryable: false } };
    handler = () => ({ status: 404, body: envelope });
    requests.length = 0;
    const result = await mcp.callTool({ name: "wait_for_batch", arguments: { batch_id: "rq_nope" } });
    expect(requests).toEqual(["GET /api/v1/batches/rq_nope?wait=30"]);
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify(envelope) }]);
  });

  it("a bad timeout_seconds is refused before asking the API", async () => {
    requests.length = 0;
    const result = await mcp.callTool({ name: "wait_for_batch", arguments: { batch_id: BATCH_ID, timeout_seconds: 100_000 } });
    expect(result.isError).toBe(true);
    expect(JSON.parse((result.content as { text: string }[])[0]!.text).error.code).toBe("invalid_request");
    expect(requests).toEqual([]);
    expect(DEFAULT_WAIT_SECONDS).toBeLessThan(60);
  });
});
