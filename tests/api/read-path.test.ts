// The hot reads (GET /runs/{id}, GET /runs, GET /batches/{id}) answer JSON text spliced by prepared
// statements (lib/runs/read.ts): byte for byte what serialising the presented objects gives, for
// every kind of run, and never a stale result once a run's row changed.
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getBatchRoute } from "@/app/api/v1/batches/[batch_id]/route";
import { POST as postPrompts } from "@/app/api/v1/prompts/route";
import { GET as getRunRoute } from "@/app/api/v1/runs/[run_id]/route";
import { GET as listRunsRoute } from "@/app/api/v1/runs/route";
import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db/client";
import { createProject } from "@/lib/projects/projects";
import { getBatch } from "@/lib/runs/batches";
import { getRun, listRuns } from "@/lib/runs/runs";
import { RunsQuery } from "@/lib/schemas/runs";
import { localDriver } from "@/lib/work/local-driver";
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { call } from "../helpers/http";
import { person, type Person } from "../helpers/people";

useSimulatedEngines();
useTestDatabase();

let dana: Person;
let principal: Principal;
let project: string;
let batchIds: string[] = [];
let runIds: string[] = [];

beforeAll(async () => {
  dana = await person("dana@example.com");
  principal = { user: { id: dana.id, email: dana.email }, credential: { kind: "api_key", id: dana.apiKeyId, name: "k" }, workspaceId: dana.workspaceId, apiKeyId: dana.apiKeyId };
  project = (await createProject(principal, { name: "Reads", workspace_id: dana.workspaceId, context: null })).id;
  // Completed, failed and (held back) queued runs, with and without a hold, unicode in the result.
  for (const prompt of ["best trail shoes [[sim:unicode]]", "always failing [[sim:server_error:9]]", "plain one"]) {
    // One in a market, so GET /runs?country= has runs to find.
    const market = prompt === "plain one" ? { location: { country: "DE", city: "Köln" }, language: "de" } : {};
    const res = await call(postPrompts, "POST", "/prompts", { token: dana.apiKey, body: { prompt, project, ...market } });
    expect(res.status).toBe(202);
    batchIds.push(res.body.batch.id);
    runIds.push(...res.body.runs.map((r: { id: string }) => r.id));
  }
  await localDriver().drained();
  batchIds = [...batchIds];
  runIds = [...runIds];
});

describe("spliced reads", () => {
  it("GET /runs/{id} is byte for byte the presented run, first read and remembered", async () => {
    for (const id of runIds) {
      const expected = JSON.stringify(await getRun(principal, id));
      for (let i = 0; i < 2; i++) {
        const res = await call(getRunRoute, "GET", `/runs/${id}`, { token: dana.apiKey, params: { run_id: id } });
        expect(res.status).toBe(200);
        expect(res.text).toBe(expected);
      }
    }
  });

  it("a changed row is read again, never served from what was remembered", async () => {
    const id = runIds[0]!;
    await call(getRunRoute, "GET", `/runs/${id}`, { token: dana.apiKey, params: { run_id: id } });
    const before = await db().run.findUniqueOrThrow({ where: { id }, select: { result: true } });
    await db().run.update({ where: { id }, data: { result: { ...(before.result as object), answer: "changed \u2028 ünïcode" } } });
    const res = await call(getRunRoute, "GET", `/runs/${id}`, { token: dana.apiKey, params: { run_id: id } });
    expect(res.body.result.answer).toBe("changed \u2028 ünïcode");
    expect(res.text).toBe(JSON.stringify(await getRun(principal, id)));
  });

  it("GET /batches/{id} is byte for byte the presented batch", async () => {
    for (const id of batchIds) {
      const res = await call(getBatchRoute, "GET", `/batches/${id}`, { token: dana.apiKey, params: { batch_id: id } });
      expect(res.status).toBe(200);
      expect(res.text).toBe(JSON.stringify(await getBatch(principal, id)));
    }
  });

  it("GET /runs is byte for byte the presented list, with every filter and across pages", async () => {
    const queries: Record<string, string>[] = [
      {}, { limit: "2" }, { batch: batchIds[0]! }, { project, status: "completed", engine: "claude" },
      { workspace: dana.workspaceId, limit: "4" }, { status: "failed" }, { country: "de", limit: "2" }, { country: "US" },
    ];
    for (const q of queries) {
      let query = RunsQuery.parse(q);
      for (let page = 0; page < 4; page++) {
        const res = await call(listRunsRoute, "GET", "/runs", { token: dana.apiKey, query: { ...q, ...(query.cursor ? { cursor: query.cursor } : {}) } });
        expect(res.status).toBe(200);
        const expected = await listRuns(principal, query);
        expect(res.text).toBe(JSON.stringify(expected));
        if (!expected.next_cursor) break;
        query = RunsQuery.parse({ ...q, cursor: expected.next_cursor });
      }
    }
  });

  it("another person's run, batch and list stay out of reach (404 alike)", async () => {
    const erin = await person("erin@example.com");
    const run = await call(getRunRoute, "GET", `/runs/${runIds[0]}`, { token: erin.apiKey, params: { run_id: runIds[0]! } });
    expect(run.status).toBe(404);
    const batch = await call(getBatchRoute, "GET", `/batches/${batchIds[0]}`, { token: erin.cliToken, params: { batch_id: batchIds[0]! } });
    expect(batch.status).toBe(404);
    const list = await call(listRunsRoute, "GET", "/runs", { token: erin.cliToken });
    expect(list.body.items).toEqual([]);
  });
});
