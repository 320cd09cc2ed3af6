// Text no stored field may hold (decisions.md, "Input hygiene"): NUL and unpaired surrogates in
// any string of a request, and bodies that are not UTF-8, are 400 naming the field, decided once
// in the shared input parsing, so nothing is stored altered and nothing answers 500.
import { beforeAll, describe, expect, it } from "vitest";
import * as apiKeys from "@/app/api/v1/api-keys/route";
import * as start from "@/app/api/v1/cli/auth/start/route";
import * as fanouts from "@/app/api/v1/fanouts/route";
import * as projects from "@/app/api/v1/projects/route";
import * as project from "@/app/api/v1/projects/[project_id]/route";
import * as prompts from "@/app/api/v1/prompts/route";
import * as questions from "@/app/api/v1/questions/route";
import * as runs from "@/app/api/v1/runs/route";
import * as workspaces from "@/app/api/v1/workspaces/route";
import * as workspace from "@/app/api/v1/workspaces/[workspace_id]/route";
import { db } from "@/lib/db/client";
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { call } from "../helpers/http";
import { person, type Person } from "../helpers/people";

useSimulatedEngines();
useTestDatabase();

const NUL = "must not contain NUL (U+0000)";
const SURROGATE = "must not contain an unpaired surrogate (half of a UTF-16 pair)";

let ana: Person;
let projectId: string;

beforeAll(async () => {
  ana = await person("ana@example.com");
  projectId = (await call(projects.POST, "POST", "/projects", { token: ana.cliToken, body: { name: "Robust" } })).body.id;
});

/** Counts of everything a refused request could have created. */
async function stored() {
  const d = db();
  const [p, k, w, r, c] = await Promise.all([d.project.count(), d.apiKey.count(), d.workspace.count(), d.run.count(), d.deviceCode.count()]);
  return { projects: p, apiKeys: k, workspaces: w, runs: r, deviceCodes: c };
}

function expectRefused(res: { status: number; body: any }, ...messages: string[]) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.code).toBe("invalid_request");
  for (const message of messages) expect(res.body.error.message).toContain(message);
}

describe("NUL and unpaired surrogates in request strings", () => {
  it("refuses them in names, naming the field, and stores nothing", async () => {
    const before = await stored();
    const auth = { token: ana.cliToken };
    expectRefused(await call(projects.POST, "POST", "/projects", { ...auth, body: { name: "rob\u0000ust" } }), `name: ${NUL}`);
    expectRefused(await call(projects.POST, "POST", "/projects", { ...auth, body: { name: "rob\ud800ust" } }), `name: ${SURROGATE}`);
    expectRefused(await call(apiKeys.POST, "POST", "/api-keys", { ...auth, body: { name: "ci\u0000" } }), `name: ${NUL}`);
    expectRefused(await call(apiKeys.POST, "POST", "/api-keys", { ...auth, body: { name: "\udc00ci" } }), `name: ${SURROGATE}`);
    expectRefused(await call(workspaces.POST, "POST", "/workspaces", { ...auth, body: { name: "team\u0000" } }), `name: ${NUL}`);
    expect(await stored()).toEqual(before);
  });

  it("refuses them in renames, and leaves the name as it was", async () => {
    const auth = { token: ana.cliToken };
    const renamed = await call(project.PATCH, "PATCH", "", { ...auth, params: { project_id: projectId }, body: { name: "rob\ud800ust" } });
    expectRefused(renamed, `name: ${SURROGATE}`);
    const ws = await call(workspace.PATCH, "PATCH", "", { ...auth, params: { workspace_id: ana.workspaceId }, body: { name: "x\u0000y" } });
    expectRefused(ws, `name: ${NUL}`);
    expect((await db().project.findUniqueOrThrow({ where: { id: projectId } })).name).toBe("Robust");
  });

  it("refuses them in every context string, on create and on update", async () => {
    const before = await stored();
    const context = { primary_domain: "acme\u0000.com", domains: ["acme.io", "x\ud800.io"], brands: ["Acme", "Ac\u0000me"], competitors: ["\udfffGlobex"] };
    const created = await call(projects.POST, "POST", "/projects", { token: ana.cliToken, body: { name: "Ctx", context } });
    expectRefused(
      created,
      `context.primary_domain: ${NUL}`,
      `context.domains[1]: ${SURROGATE}`,
      `context.brands[1]: ${NUL}`,
      `context.competitors[0]: ${SURROGATE}`,
    );
    const patched = await call(project.PATCH, "PATCH", "", { token: ana.cliToken, params: { project_id: projectId }, body: { context: { brands: ["\ud800"] } } });
    expectRefused(patched, `context.brands[0]: ${SURROGATE}`);
    expect(await stored()).toEqual(before);
    expect((await db().project.findUniqueOrThrow({ where: { id: projectId } })).context).toBeNull();
  });

  it("refuses them in prompts, fanout prompts and topics, queuing no work", async () => {
    const before = await stored();
    const auth = { token: ana.apiKey };
    expectRefused(await call(prompts.POST, "POST", "/prompts", { ...auth, body: { prompt: "best crm\u0000", project: projectId } }), `prompt: ${NUL}`);
    expectRefused(await call(prompts.POST, "POST", "/prompts", { ...auth, body: { prompt: "best crm \ud800", project: projectId } }), `prompt: ${SURROGATE}`);
    const fanout = await call(fanouts.POST, "POST", "/fanouts", { ...auth, body: { prompts: [{ text: "ok" }, { text: "\udc00" }], project: projectId } });
    expectRefused(fanout, `prompts[1].text: ${SURROGATE}`);
    expectRefused(await call(questions.POST, "POST", "/questions", { ...auth, body: { topic: "crm\u0000", project: projectId } }), `topic: ${NUL}`);
    expect(await stored()).toEqual(before);
  });

  it("refuses them in client_name on POST /cli/auth/start, which needs no credential", async () => {
    const before = await stored();
    expectRefused(await call(start.POST, "POST", "/cli/auth/start", { body: { client_name: "laptop\u0000" } }), `client_name: ${NUL}`);
    expectRefused(await call(start.POST, "POST", "/cli/auth/start", { body: { client_name: "laptop\ud800" } }), `client_name: ${SURROGATE}`);
    expect(await stored()).toEqual(before);
  });

  it("refuses them in field names, and in the query", async () => {
    const body = await call(projects.POST, "POST", "/projects", { token: ana.cliToken, body: { name: "ok", ["work\u0000space_id"]: null } });
    expectRefused(body, `request body: field names ${NUL}`);
    const query = await call(runs.GET, "GET", "/runs", { token: ana.apiKey, query: { project: "pr_\u0000" } });
    expectRefused(query, `project: ${NUL}`);
  });

  it("keeps text with characters outside the BMP (surrogate pairs) and other control characters as given", async () => {
    const created = await call(projects.POST, "POST", "/projects", { token: ana.cliToken, body: { name: "🚀 Launch\ttab", context: { brands: ["𝒜cme"] } } });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe("🚀 Launch\ttab");
    expect(created.body.context).toEqual({ brands: ["𝒜cme"] });
  });

  it("answers a body nested far deeper than any schema with 400, not a stack overflow", async () => {
    const deep = `{"name":${"[".repeat(200_000)}${"]".repeat(200_000)}}`;
    const res = await call(projects.POST, "POST", "/projects", { token: ana.cliToken, rawBody: deep, headers: { "content-type": "application/json" } });
    expectRefused(res, "name: must be a string");
  });
});

describe("request bodies and queries that are not UTF-8", () => {
  it("refuses a body whose bytes are not UTF-8, rather than storing U+FFFD in their place", async () => {
    const before = await stored();
    const bytes = Buffer.concat([Buffer.from('{"name":"rob'), Buffer.from([0xff, 0xc3, 0x28]), Buffer.from('ust"}')]);
    const request = new Request("http://localhost/api/v1/projects", {
      method: "POST",
      headers: { authorization: `Bearer ${ana.cliToken}`, "content-type": "application/json" },
      body: bytes,
    });
    const response = await projects.POST(request);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ code: "invalid_request", message: "request body: is not valid UTF-8" });
    expect(await stored()).toEqual(before);
  });

  it("refuses percent-escapes in the query that are not UTF-8, naming the query", async () => {
    const request = new Request("http://localhost/api/v1/runs?cursor=%C3%28", { headers: { authorization: `Bearer ${ana.apiKey}` } });
    const response = await runs.GET(request);
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe("query: is not valid UTF-8 (a percent-escape encodes bytes that are not UTF-8 text)");
    // Text that is UTF-8 passes on to the parameter's own rule; a `%` that starts no escape is kept.
    const literal = await runs.GET(new Request("http://localhost/api/v1/runs?cursor=%ZZ", { headers: { authorization: `Bearer ${ana.apiKey}` } }));
    expect((await literal.json()).error.message).toContain("cursor: is not a cursor this server issued");
  });
});
