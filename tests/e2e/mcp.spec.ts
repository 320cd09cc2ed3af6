// `geoscope mcp` end to end: the MCP SDK's own Client spawns the real CLI (cli/geoscope.mjs, and
// the standalone bundle) over stdio against the built server. It lists the tools, runs a prompt on
// the simulated engines and waits for it, gets the same bodies as the API, and gets API errors back
// as tool errors carrying the error envelope; and shares a prompt batch and a fanout with the share
// tools of their kinds.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { expect, test } from "@playwright/test";
import { apiWith, approveCliLogin, BASE, BIN, ROOT, runProcess, signIn } from "./support";

const EMAIL = `mcp-${Date.now()}@example.com`;

test.describe.configure({ mode: "serial" });

let WORK = "";
let CONFIG_DIR = "";
let token = "";
const clients: Client[] = [];
/** Made by the first test: its project and its finished prompt batch. */
let firstProject = "";
let firstBatch = "";

test.beforeAll(() => {
  WORK = mkdtempSync(path.join(tmpdir(), "geoscope-mcp-"));
  CONFIG_DIR = path.join(WORK, "config");
});
test.afterAll(async () => {
  for (const client of clients) await client.close();
  if (WORK) rmSync(WORK, { recursive: true, force: true });
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  const base: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith("GEOSCOPE_")) base[key] = value;
  return { ...base, GEOSCOPE_CONFIG_DIR: CONFIG_DIR, GEOSCOPE_BASE_URL: BASE, ...extra };
}

/** An MCP client connected to `node <bin> mcp [args…]`. */
async function connect(bin: string, args: string[] = [], extra: Record<string, string> = {}, cwd = ROOT): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, "mcp", ...args], env: env(extra), cwd, stderr: "pipe" });
  const client = new Client({ name: "geoscope-e2e", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const api = apiWith(() => token);

type Result = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Result> {
  return (await client.callTool({ name, arguments: args })) as Result;
}

test("geoscope mcp with the saved login: tools, a prompt run and waited for, the API's bodies and errors", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, EMAIL);
  const login = await approveCliLogin(page, process.execPath, [BIN], { cwd: ROOT, env: env() as NodeJS.ProcessEnv });
  expect(login.code, login.stderr).toBe(0);
  token = (JSON.parse(readFileSync(path.join(CONFIG_DIR, "config.json"), "utf8")) as { token: string }).token;
  expect(token).toMatch(/^gsc_/);

  const mcp = await connect(BIN);
  expect(mcp.getServerVersion()?.name).toBe("geoscope");
  const { tools } = await mcp.listTools();
  const names = tools.map((t) => t.name);
  for (const name of ["whoami", "get_pricing", "get_billing", "list_projects", "create_project", "run_prompt", "wait_for_batch", "get_batch", "get_run", "list_runs"]) {
    expect(names).toContain(name);
  }
  const runPrompt = tools.find((t) => t.name === "run_prompt")!;
  expect(runPrompt.inputSchema.required).toEqual(expect.arrayContaining(["prompt", "project"]));
  // The work-starting tool says what it costs, from the server's own rate card.
  const card = JSON.parse((await api("GET", "/pricing")).text) as { version: string };
  expect(runPrompt.description).toContain(`rate card ${card.version}`);

  // whoami is GET /me, byte for byte.
  const me = await call(mcp, "whoami", {});
  expect(me.isError).toBeFalsy();
  expect(me.content[0]!.text).toBe((await api("GET", "/me")).text);
  expect(me.structuredContent).toMatchObject({ email: EMAIL, credential: { kind: "cli_token" } });

  // A project, a prompt on two simulated engines, and waiting for it.
  const project = await call(mcp, "create_project", { name: "MCP research", context: { primary_domain: "acme.com" } });
  expect(project.isError, project.content[0]?.text).toBeFalsy();
  const projectId = project.structuredContent!.id as string;
  expect(project.content[0]!.text).toBe((await api("GET", `/projects/${projectId}`)).text);

  const started = await call(mcp, "run_prompt", { prompt: "best crm for a startup", project: projectId, engines: ["chatgpt", "claude"] });
  expect(started.isError, started.content[0]?.text).toBeFalsy();
  const batchId = (started.structuredContent!.batch as { id: string }).id;
  expect(batchId).toMatch(/^rq_/);

  let waited = await call(mcp, "wait_for_batch", { batch_id: batchId });
  for (let i = 0; i < 5 && waited.content.length > 1; i++) waited = await call(mcp, "wait_for_batch", { batch_id: batchId });
  expect(waited.isError).toBeFalsy();
  expect((waited.structuredContent!.batch as { status: string }).status).toBe("completed");
  const apiBatch = await api("GET", `/batches/${batchId}`);
  expect(waited.content[0]!.text).toBe(apiBatch.text);

  const got = await call(mcp, "get_batch", { batch_id: batchId });
  expect(got.content[0]!.text).toBe(apiBatch.text);
  expect(got.structuredContent).toEqual(JSON.parse(apiBatch.text));
  const runId = (got.structuredContent!.runs as { id: string }[])[0]!.id;
  firstProject = projectId;
  firstBatch = batchId;
  expect((await call(mcp, "get_run", { run_id: runId })).content[0]!.text).toBe((await api("GET", `/runs/${runId}`)).text);
  expect((await call(mcp, "list_runs", { batch: batchId, limit: 1 })).content[0]!.text).toBe((await api("GET", `/runs?batch=${batchId}&limit=1`)).text);

  // Fanout tools came from the registry once its endpoints were added: the estimate is POST /fanouts/estimate's body.
  const fanout = { prompts: [{ text: "best crm for a startup" }], engines: ["chatgpt", "claude"], runs: 2, project: projectId };
  const estimate = await call(mcp, "estimate_fanout", fanout);
  expect(estimate.isError, estimate.content[0]?.text).toBeFalsy();
  expect(estimate.content[0]!.text).toBe((await api("POST", "/fanouts/estimate", fanout)).text);
  expect(estimate.structuredContent).toMatchObject({ executions: 4 });

  // API errors come back as tool errors whose text is the API's own envelope.
  const noProject = await call(mcp, "run_prompt", { prompt: "no project given" });
  expect(noProject.isError).toBe(true);
  expect(noProject.content[0]!.text).toBe((await api("POST", "/prompts", { prompt: "no project given" })).text);
  expect(JSON.parse(noProject.content[0]!.text).error.code).toBe("invalid_request");
  expect(noProject.structuredContent).toEqual(JSON.parse(noProject.content[0]!.text));

  const missing = "dr_01JAAAAAAAAAAAAAAAAAAAAAAA";
  const unknownRun = await call(mcp, "get_run", { run_id: missing });
  expect(unknownRun.isError).toBe(true);
  expect(unknownRun.content[0]!.text).toBe((await api("GET", `/runs/${missing}`)).text);
  expect(JSON.parse(unknownRun.content[0]!.text).error.code).toBe("not_found");
});

test("the share tools of a prompt batch, a fanout and a monitor: share, status, rotate and revoke, each the API's body", async () => {
  test.setTimeout(120_000);
  expect(firstBatch).not.toBe("");
  const mcp = await connect(BIN);
  const created = await call(mcp, "create_fanout", { prompts: [{ text: "best crm for a startup" }], engines: ["chatgpt"], runs: 1, project: firstProject });
  expect(created.isError, created.content[0]?.text).toBeFalsy();
  const fanoutId = created.structuredContent!.id as string;
  let waited = await call(mcp, "wait_for_fanout", { fanout_id: fanoutId });
  for (let i = 0; i < 5 && waited.content.length > 1; i++) waited = await call(mcp, "wait_for_fanout", { fanout_id: fanoutId });
  expect(waited.structuredContent!.status).toBe("completed");
  // A monitor is shared at any time: before its first tick too.
  const monitor = await call(mcp, "create_monitor", { project: firstProject, prompts: [{ text: "best crm for a startup" }], engines: ["chatgpt"], runs: 1, entities: [{ name: "HubSpot", role: "brand" }] });
  expect(monitor.isError, monitor.content[0]?.text).toBeFalsy();
  const monitorId = monitor.structuredContent!.id as string;

  for (const [kind, param, collection, id] of [["batch", "batch_id", "batches", firstBatch], ["fanout", "fanout_id", "fanouts", fanoutId], ["monitor", "monitor_id", "monitors", monitorId]] as const) {
    const shared = await call(mcp, `share_${kind}`, { [param]: id });
    expect(shared.isError, shared.content[0]?.text).toBeFalsy();
    expect(shared.structuredContent).toMatchObject({ target_kind: kind, target_id: id, revoked_at: null });
    const url = shared.structuredContent!.url as string;
    expect((await fetch(url)).status).toBe(200);
    const status = await call(mcp, `get_${kind}_share`, { [param]: id });
    expect(status.content[0]!.text).toBe((await api("GET", `/${collection}/${id}/share`)).text);
    expect(status.structuredContent).toEqual({ shared: true, share: shared.structuredContent });

    const rotated = await call(mcp, `rotate_${kind}_share`, { [param]: id });
    expect(rotated.structuredContent).toMatchObject({ rotated_from: shared.structuredContent!.id });
    expect((await fetch(url)).status).toBe(404);

    const revoked = await call(mcp, `unshare_${kind}`, { [param]: id });
    expect(revoked.isError).toBeFalsy();
    expect((await fetch(rotated.structuredContent!.url as string)).status).toBe(404);
    const again = await call(mcp, `rotate_${kind}_share`, { [param]: id });
    expect(again.isError).toBe(true);
    expect(JSON.parse(again.content[0]!.text).error.code).toBe("conflict");
  }
});

test("geoscope mcp takes the token from GEOSCOPE_TOKEN or --token, like the CLI, and says unauthenticated without one", async () => {
  expect(token).not.toBe("");
  const empty = path.join(WORK, "no-login");
  const fromEnv = await connect(BIN, [], { GEOSCOPE_CONFIG_DIR: empty, GEOSCOPE_TOKEN: token });
  expect((await call(fromEnv, "whoami", {})).structuredContent).toMatchObject({ email: EMAIL });
  const fromFlag = await connect(BIN, ["--token", token], { GEOSCOPE_CONFIG_DIR: empty });
  expect((await call(fromFlag, "whoami", {})).structuredContent).toMatchObject({ email: EMAIL });

  const anonymous = await connect(BIN, [], { GEOSCOPE_CONFIG_DIR: empty });
  const refused = await call(anonymous, "whoami", {});
  expect(refused.isError).toBe(true);
  expect(JSON.parse(refused.content[0]!.text).error).toMatchObject({ code: "unauthenticated", message: expect.stringContaining("geoscope login") });
  // GET /pricing and GET /engines need no credential.
  expect((await call(anonymous, "get_pricing", {})).content[0]!.text).toBe((await api("GET", "/pricing")).text);
  expect((await call(anonymous, "list_engines", {})).content[0]!.text).toBe((await api("GET", "/engines")).text);
});

test("the standalone bundle (npm run build:cli) serves MCP with the SDK inside its one file", async () => {
  test.setTimeout(120_000);
  const built = await runProcess(process.execPath, [path.join(ROOT, "scripts", "build-cli.mjs")], { cwd: ROOT, env: process.env });
  expect(built.code, built.stderr).toBe(0);
  expect(built.stdout).toContain("@modelcontextprotocol/sdk");
  // Run from a folder with no node_modules anywhere above it.
  const elsewhere = path.join(WORK, "elsewhere");
  mkdirSync(elsewhere, { recursive: true });
  copyFileSync(path.join(ROOT, "dist", "cli", "geoscope.mjs"), path.join(elsewhere, "geoscope.mjs"));
  const mcp = await connect(path.join(elsewhere, "geoscope.mjs"), [], { GEOSCOPE_TOKEN: token }, elsewhere);
  expect((await mcp.listTools()).tools.map((t) => t.name)).toContain("wait_for_batch");
  expect((await call(mcp, "whoami", {})).content[0]!.text).toBe((await api("GET", "/me")).text);
});
