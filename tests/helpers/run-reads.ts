// The run reads' suite, run on PGlite (tests/api/read-path.test.ts) and on a PostgreSQL server
// (tests/pg/read-path.test.ts): GET /runs/{id} (and include=raw_envelope), GET /runs and GET
// /batches/{id} answer what the typed statements read and the presenters make of it, remembered
// per version (lib/runs/read.ts): byte for byte what the same presenters make of the rows read
// through Prisma (./references.ts), for completed, failed, queued and questions runs, and never a
// stale body once a run, its hold or its creator's email changed. The caller installs a fresh
// database and simulated engines with billing first.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET as getBatchRoute } from "@/app/api/v1/batches/[batch_id]/route";
import { POST as postPrompts } from "@/app/api/v1/prompts/route";
import { POST as postQuestions } from "@/app/api/v1/questions/route";
import { GET as getRunRoute } from "@/app/api/v1/runs/[run_id]/route";
import { GET as listRunsRoute } from "@/app/api/v1/runs/route";
import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { createProject } from "@/lib/projects/create";
import { RunsQuery } from "@/lib/schemas/runs";
import { localDriver } from "@/lib/work/local-driver";
import { call } from "./http";
import { heldBack, withEmail } from "./app";
import { person, principalOf, type Person } from "./people";
import { referenceBatch, referenceRun, referenceRunList } from "./references";

export function runReadsSuite(): void {
  let dana: Person;
  let principal: Principal;
  let project: string;
  const batchIds: string[] = [];
  const runIds: string[] = [];
  let queuedBatch: string;
  let questionsRun: string;

  const readRun = (id: string, query: Record<string, string> = {}, token = dana.apiKey) => call(getRunRoute, "GET", `/runs/${id}`, { token, params: { run_id: id }, query });
  const readBatch = (id: string, token = dana.apiKey) => call(getBatchRoute, "GET", `/batches/${id}`, { token, params: { batch_id: id } });

  beforeAll(async () => {
    dana = await person("dana@example.com");
    principal = principalOf(dana);
    project = (await createProject(principal, { name: "Reads", workspace_id: dana.workspaceId, context: null })).id;
    // Completed runs (unicode in the result) and failed runs, each with its hold.
    for (const prompt of ["best trail shoes [[sim:unicode]]", "always failing [[sim:server_error:9]]", "plain one"]) {
      // One in a market, so GET /runs?country= has runs to find.
      const market = prompt === "plain one" ? { location: { country: "DE", city: "Köln" }, language: "de" } : {};
      const res = await call(postPrompts, "POST", "/prompts", { token: dana.apiKey, body: { prompt, project, ...market } });
      expect(res.status).toBe(202);
      batchIds.push(res.body.batch.id);
      runIds.push(...res.body.runs.map((r: { id: string }) => r.id));
    }
    const questions = await call(postQuestions, "POST", "/questions", { token: dana.apiKey, body: { topic: "trail running shoes", count: 4, project } });
    expect(questions.status).toBe(202);
    questionsRun = questions.body.run_ids[0];
    await localDriver().drained();
    // Queued, its credit held, until a test sweeps.
    const queued = await heldBack(() => call(postPrompts, "POST", "/prompts", { token: dana.apiKey, body: { prompt: "queued one", project, engines: ["gemini", "claude"] } }));
    queuedBatch = queued.body.batch.id;
    runIds.push(...queued.body.runs.map((r: { id: string }) => r.id));
  });

  afterEach(async () => {
    await localDriver().drained();
  });

  describe("GET /runs/{id}", () => {
    it("is byte for byte the presented run of every kind, read first and then remembered", async () => {
      const statuses = new Set<string>();
      for (const id of [...runIds, questionsRun]) {
        const expected = await referenceRun(principal, id);
        statuses.add(`${JSON.parse(expected!).kind}/${JSON.parse(expected!).status}/${JSON.parse(expected!).charge?.status}`);
        for (let i = 0; i < 2; i++) {
          const res = await readRun(id);
          expect(res.status).toBe(200);
          expect(res.text).toBe(expected);
        }
      }
      expect([...statuses].sort()).toEqual(["prompt/completed/captured", "prompt/failed/released", "prompt/queued/held", "questions/completed/captured"]);
    });

    it("with include=raw_envelope is the presented run and its envelope, byte for byte", async () => {
      for (const id of [runIds[0]!, runIds[3]!, runIds.at(-1)!]) {
        const res = await readRun(id, { include: "raw_envelope" });
        expect(res.status).toBe(200);
        expect(res.text).toBe(await referenceRun(principal, id, { envelope: true }));
        // The body without it stays the run's.
        expect((await readRun(id)).text).toBe(await referenceRun(principal, id));
      }
      expect((await readRun(runIds[0]!, { include: "raw_envelope" })).body.raw_envelope.exchanges.length).toBeGreaterThan(0);
      expect((await readRun(runIds.at(-1)!, { include: "raw_envelope" })).body.raw_envelope).toBeNull();
    });

    it("shows a change to the run, to its hold or to its creator's email at once", async () => {
      const id = runIds[0]!;
      await readRun(id);
      const before = await db().run.findUniqueOrThrow({ where: { id }, select: { result: true } });
      await db().run.update({ where: { id }, data: { result: { ...(before.result as object), answer: "changed \u2028 ünïcode" } } });
      let res = await readRun(id);
      expect(res.body.result.answer).toBe("changed \u2028 ünïcode");
      expect(res.text).toBe(await referenceRun(principal, id));

      await db().creditHold.update({ where: { runId: id }, data: { pricingVersion: "2026-11-27-repriced" } });
      res = await readRun(id);
      expect(res.body.charge.pricing_version).toBe("2026-11-27-repriced");
      expect(res.text).toBe(await referenceRun(principal, id));

      await withEmail(dana, "dana.renamed@example.com", async () => {
        res = await readRun(id);
        expect(res.body.created_by).toBe("dana.renamed@example.com");
        expect(res.text).toBe(await referenceRun(principal, id));
      });
      expect((await readRun(id)).body.created_by).toBe(dana.email);
    });

    it("answers another person 404, exactly as a run that does not exist", async () => {
      const erin = await person("erin@example.com");
      await readRun(runIds[0]!);
      const theirs = await readRun(runIds[0]!, {}, erin.apiKey);
      const missingId = newId("run");
      const missing = await readRun(missingId, {}, erin.apiKey);
      expect(theirs.status).toBe(404);
      expect(theirs.text).toBe(missing.text.replace(missingId, runIds[0]!));
      expect((await readRun(runIds[0]!, { include: "raw_envelope" }, erin.cliToken)).status).toBe(404);
    });
  });

  describe("GET /batches/{id}", () => {
    it("is byte for byte the presented batch, queued and once its runs ran", async () => {
      for (const id of [...batchIds, queuedBatch]) {
        for (let i = 0; i < 2; i++) {
          const res = await readBatch(id);
          expect(res.status).toBe(200);
          expect(res.text).toBe(await referenceBatch(principal, id));
        }
      }
      expect((await readBatch(queuedBatch)).body.batch.status).toBe("queued");
      await localDriver().sweep();
      await localDriver().drained();
      const done = await readBatch(queuedBatch);
      expect(done.body.batch.status).toBe("completed");
      expect(done.text).toBe(await referenceBatch(principal, queuedBatch));
    });

    it("answers another person 404", async () => {
      const erin = await person("erin.batches@example.com");
      expect((await readBatch(batchIds[0]!, erin.cliToken)).status).toBe(404);
    });
  });

  describe("GET /runs", () => {
    it("is byte for byte the presented list, with every filter and across pages", async () => {
      const queries: Record<string, string>[] = [
        {}, { limit: "2" }, { batch: batchIds[0]! }, { project, status: "completed", engine: "claude" },
        { workspace: dana.workspaceId, limit: "4" }, { status: "failed" }, { country: "DE" }, { country: "DE", engine: "gemini" }, { country: "FR" },
      ];
      for (const q of queries) {
        let query = RunsQuery.parse(q);
        for (let page = 0; page < 4; page++) {
          const res = await call(listRunsRoute, "GET", "/runs", { token: dana.apiKey, query: { ...q, ...(query.cursor ? { cursor: query.cursor } : {}) } });
          expect(res.status).toBe(200);
          expect(res.text).toBe(await referenceRunList(principal, query));
          if (!res.body.next_cursor) break;
          query = RunsQuery.parse({ ...q, cursor: res.body.next_cursor });
        }
      }
    });

    it("lists nothing of another person's", async () => {
      const erin = await person("erin.lists@example.com");
      expect((await call(listRunsRoute, "GET", "/runs", { token: erin.cliToken })).body).toEqual({ items: [], next_cursor: null });
    });
  });
}
