// What a client author holds the API to, through the real route handlers: lengths counted in
// characters (code points), names trimmed and nothing else changed, integer parameters in
// decimal digits only, and `T | null` fields always present.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getBatchRoute } from "@/app/api/v1/batches/[batch_id]/route";
import { GET as getUsage } from "@/app/api/v1/billing/usage/route";
import { GET as listTransactions } from "@/app/api/v1/billing/transactions/route";
import { POST as startCliAuth } from "@/app/api/v1/cli/auth/start/route";
import { POST as createApiKey } from "@/app/api/v1/api-keys/route";
import { POST as createProjectRoute, GET as listProjects } from "@/app/api/v1/projects/route";
import { PATCH as updateProject } from "@/app/api/v1/projects/[project_id]/route";
import { POST as postPrompts } from "@/app/api/v1/prompts/route";
import { GET as getRunRoute } from "@/app/api/v1/runs/[run_id]/route";
import { GET as listRunsRoute } from "@/app/api/v1/runs/route";
import { PATCH as updateMember } from "@/app/api/v1/workspaces/[workspace_id]/members/[member_id]/route";
import { PATCH as updateWorkspace } from "@/app/api/v1/workspaces/[workspace_id]/route";
import { POST as createWorkspace } from "@/app/api/v1/workspaces/route";
import { resetConfig } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { Batch, RunSummary } from "@/lib/schemas/runs";
import { useTestDatabase } from "../helpers/app";
import { call } from "../helpers/http";
import { addMember, person, type Person } from "../helpers/people";
import { useSimulatedEngines } from "../helpers/engines";

useSimulatedEngines({ billing: true });

useTestDatabase();

let alice: Person;
let bob: Person;
let project: string;
let batchId: string;

const emoji = (n: number) => "😀".repeat(n);

beforeAll(async () => {
  alice = await person("alice@example.com");
  bob = await person("bob@example.com");
  const created = await call(createProjectRoute, "POST", "/projects", { token: alice.cliToken, body: { name: "Research" } });
  expect(created.status).toBe(201);
  project = created.body.id;
});

afterAll(() => {
  resetConfig();
});

describe("lengths count characters (Unicode code points), as OpenAPI's maxLength does", () => {
  it("accepts a prompt of 4000 emoji (8000 UTF-16 units) exactly as given, and refuses 4001", async () => {
    const accepted = await call(postPrompts, "POST", "/prompts", {
      token: alice.apiKey,
      body: { prompt: emoji(4000), engines: ["chatgpt"], project },
    });
    expect(accepted.status).toBe(202);
    expect(accepted.body.batch.input.prompt).toBe(emoji(4000));
    batchId = accepted.body.batch.id;

    for (const prompt of [emoji(4001), ""]) {
      const refused = await call(postPrompts, "POST", "/prompts", { token: alice.apiKey, body: { prompt, engines: ["chatgpt"], project } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe("prompt: must be 1 to 4000 characters after trimming spaces");
    }
  });

  it("counts names the same way: 100 emoji is a name, 101 is not; a CLI client_name takes 200", async () => {
    const ok = await call(createWorkspace, "POST", "/workspaces", { token: alice.cliToken, body: { name: emoji(100) } });
    expect(ok.status).toBe(201);
    expect(ok.body.name).toBe(emoji(100));
    const tooLong = await call(createWorkspace, "POST", "/workspaces", { token: alice.cliToken, body: { name: emoji(101) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.message).toBe("name: must be 1 to 100 characters after trimming spaces");

    expect((await call(startCliAuth, "POST", "/cli/auth/start", { body: { client_name: emoji(200) } })).status).toBe(200);
    const longClient = await call(startCliAuth, "POST", "/cli/auth/start", { body: { client_name: emoji(201) } });
    expect(longClient.status).toBe(400);
    expect(longClient.body.error.message).toBe("client_name: must be 1 to 200 characters after trimming spaces");
  });
});

describe("names are trimmed at their ends and otherwise kept as typed", () => {
  it("trims workspace, project and API key names, keeps inner spaces and case, and refuses all spaces", async () => {
    const ws = await call(createWorkspace, "POST", "/workspaces", { token: alice.cliToken, body: { name: "  Acme   Growth\tTeam  " } });
    expect(ws.status).toBe(201);
    expect(ws.body.name).toBe("Acme   Growth\tTeam");
    const renamed = await call(updateWorkspace, "PATCH", `/workspaces/${ws.body.id}`, {
      token: alice.cliToken,
      params: { workspace_id: ws.body.id },
      body: { name: " ACME growth " },
    });
    expect(renamed.body.name).toBe("ACME growth");

    const pr = await call(createProjectRoute, "POST", "/projects", { token: alice.cliToken, body: { name: "  Ünïcode Project  ", workspace_id: ws.body.id } });
    expect(pr.status).toBe(201);
    expect(pr.body.name).toBe("Ünïcode Project");
    const prRenamed = await call(updateProject, "PATCH", `/projects/${pr.body.id}`, {
      token: alice.cliToken,
      params: { project_id: pr.body.id },
      body: { name: "\u00a0Renamed\u00a0" },
    });
    expect(prRenamed.body.name).toBe("Renamed");

    const key = await call(createApiKey, "POST", "/api-keys", { token: alice.cliToken, body: { name: "  ci job  " } });
    expect(key.status).toBe(201);
    expect(key.body.name).toBe("ci job");

    const blank = "   ";
    const refusals = [
      await call(createWorkspace, "POST", "/workspaces", { token: alice.cliToken, body: { name: blank } }),
      await call(createProjectRoute, "POST", "/projects", { token: alice.cliToken, body: { name: blank } }),
      await call(createApiKey, "POST", "/api-keys", { token: alice.cliToken, body: { name: blank } }),
      await call(updateProject, "PATCH", `/projects/${pr.body.id}`, { token: alice.cliToken, params: { project_id: pr.body.id }, body: { name: blank } }),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe("name: must be 1 to 100 characters after trimming spaces");
    }
    const blankClient = await call(startCliAuth, "POST", "/cli/auth/start", { body: { client_name: blank } });
    expect(blankClient.body.error.message).toBe("client_name: must be 1 to 200 characters after trimming spaces");
  });
});

describe("integer parameters are decimal digits only; an empty value is 400 like any other bad value", () => {
  it("refuses limit=1e2, limit=0x10, limit= (and padded or signed values) naming the parameter and its bounds", async () => {
    for (const limit of ["1e2", "0x10", "", " 5", "5 ", "+5", "5.0", "-1"]) {
      for (const [handler, path] of [[listRunsRoute, "/runs"], [listTransactions, "/billing/transactions"]] as const) {
        const res = await call(handler, "GET", path, { token: alice.apiKey, query: { limit } });
        expect(res.status, `${path}?limit=${limit}`).toBe(400);
        expect(res.body.error.message).toBe("limit: must be a whole number from 1 to 200");
      }
    }
    const ok = await call(listRunsRoute, "GET", "/runs", { token: alice.apiKey, query: { limit: "007" } });
    expect(ok.status).toBe(200);
  });

  it("refuses days= and days=0x10, and wait= on every endpoint that takes it", async () => {
    for (const days of ["", "0x10", "1e1"]) {
      const res = await call(getUsage, "GET", "/billing/usage", { token: alice.apiKey, query: { days } });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe("days: must be a whole number from 1 to 366");
    }
    const batch = await call(getBatchRoute, "GET", `/batches/${batchId}`, { token: alice.apiKey, params: { batch_id: batchId }, query: { wait: "" } });
    expect(batch.status).toBe(400);
    expect(batch.body.error.message).toBe("wait: must be a whole number from 0 to 30");
    const runId = (await call(listRunsRoute, "GET", "/runs", { token: alice.apiKey })).body.items[0].id;
    for (const wait of ["", "1e1", "0x1"]) {
      const run = await call(getRunRoute, "GET", `/runs/${runId}`, { token: alice.apiKey, params: { run_id: runId }, query: { wait } });
      expect(run.status).toBe(400);
      expect(run.body.error.message).toBe("wait: must be a whole number from 0 to 30");
    }
    const runs = await call(listRunsRoute, "GET", "/runs", { token: alice.apiKey, query: { batch: batchId, wait: "" } });
    expect(runs.status).toBe(400);
    expect(runs.body.error.message).toBe("wait: must be a whole number from 0 to 30");
  });

  it("reads a member id in the path as decimal digits only: 0x… is a missing member (404)", async () => {
    const team = await call(createWorkspace, "POST", "/workspaces", { token: alice.cliToken, body: { name: "Members" } });
    const membership = await addMember(team.body.id, bob.id, "member");
    const path = (id: string) => `/workspaces/${team.body.id}/members/${id}`;
    const hex = `0x${membership.id.toString(16)}`;
    const odd = await call(updateMember, "PATCH", path(hex), {
      token: alice.cliToken,
      params: { workspace_id: team.body.id, member_id: hex },
      body: { role: "admin" },
    });
    expect(odd.status).toBe(404);
    const ok = await call(updateMember, "PATCH", path(String(membership.id)), {
      token: alice.cliToken,
      params: { workspace_id: team.body.id, member_id: String(membership.id) },
      body: { role: "admin" },
    });
    expect(ok.status).toBe(200);
  });
});

describe("fields the spec writes `T | null` are always present", () => {
  it("sends every RunSummary and Batch field, null where it does not apply", async () => {
    const list = await call(listRunsRoute, "GET", "/runs", { token: alice.apiKey, query: { batch: batchId } });
    expect(list.status).toBe(200);
    for (const item of list.body.items) {
      expect(Object.keys(item).sort()).toEqual(Object.keys(RunSummary.shape).sort());
      expect(item.fanout_id).toBeNull();
    }
    const batch = await call(getBatchRoute, "GET", `/batches/${batchId}`, { token: alice.apiKey, params: { batch_id: batchId } });
    expect(Object.keys(batch.body.batch).sort()).toEqual(Object.keys(Batch.shape).sort());
    expect(batch.body.batch).toMatchObject({ project_id: project, created_by: alice.email });
    // A project named in the query that the caller cannot reach answers 404, as OpenAPI lists.
    const foreign = await call(listProjects, "GET", "/projects", { token: bob.apiKey, query: { workspace: alice.workspaceId } });
    expect(foreign.status).toBe(404);
    expect(await db().run.count({ where: { batchId } })).toBe(1);
  });
});
