// Share links through the route handlers: every row of spec 3.2's share table for runs and for
// analyses of both kinds, foreign and missing objects alike 404, concurrency, and what the public
// token resolves to (the object as the API answers it, with who and where left out).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET as getAnalysisRoute } from "@/app/api/v1/analyses/[analysis_id]/route";
import { DELETE as deleteAnalysisShare, GET as getAnalysisShare, POST as postAnalysisShare } from "@/app/api/v1/analyses/[analysis_id]/share/route";
import { POST as rotateAnalysisShare } from "@/app/api/v1/analyses/[analysis_id]/share/rotate/route";
import { GET as getBatchRoute } from "@/app/api/v1/batches/[batch_id]/route";
import { POST as postCitationAnalyses } from "@/app/api/v1/citation-analyses/route";
import { POST as postPrompts } from "@/app/api/v1/prompts/route";
import { POST as postQuestions } from "@/app/api/v1/questions/route";
import { GET as getRunRoute } from "@/app/api/v1/runs/[run_id]/route";
import { DELETE as deleteRunShare, GET as getRunShare, POST as postRunShare } from "@/app/api/v1/runs/[run_id]/share/route";
import { POST as rotateRunShare } from "@/app/api/v1/runs/[run_id]/share/rotate/route";
import { resetConfig } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { createProject } from "@/lib/projects/projects";
import { ShareState, ShareStatus } from "@/lib/schemas/shares";
import { sharedObject } from "@/lib/shares/public";
import { SHARE_TOKEN_LENGTH } from "@/lib/shares/service";
import { localDriver } from "@/lib/work/local-driver";
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { call } from "../helpers/http";
import { addMember, person, principalOf, type Person } from "../helpers/people";

useSimulatedEngines({ billing: true });
useTestDatabase();

let alice: Person;
let bob: Person;
let carol: Person;
let project: string;
let runId: string;
let batchId: string;
let questionsId: string;
let citationsId: string;

afterEach(async () => {
  await localDriver().drained();
});

afterAll(() => {
  resetConfig();
});

beforeAll(async () => {
  alice = await person("alice@example.com");
  bob = await person("bob@example.com");
  carol = await person("carol@example.com");
  // Carol is a plain member of Alice's workspace: any member may share.
  await addMember(alice.workspaceId, carol.id, "member");
  project = (await createProject(principalOf(alice), { name: "Shared research", workspace_id: alice.workspaceId, context: null })).id;
  const batch = await call(postPrompts, "POST", "/prompts", { token: alice.cliToken, body: { prompt: "best crm for a startup", engines: ["chatgpt", "claude"], project } });
  batchId = batch.body.batch.id;
  const done = await call(getBatchRoute, "GET", `/batches/${batchId}`, { token: alice.cliToken, params: { batch_id: batchId }, query: { wait: 30 } });
  runId = done.body.batch.run_ids[0];
  const questions = await call(postQuestions, "POST", "/questions", { token: alice.cliToken, body: { topic: "crm software", count: 6, project } });
  questionsId = questions.body.id;
  await call(getAnalysisRoute, "GET", `/analyses/${questionsId}`, { token: alice.cliToken, params: { analysis_id: questionsId }, query: { wait: 30 } });
  const citations = await call(postCitationAnalyses, "POST", "/citation-analyses", { token: alice.cliToken, body: { ids: [batchId] } });
  citationsId = citations.body.id;
});

type Kind = "run" | "analysis";
const routes = {
  run: { get: getRunShare, post: postRunShare, del: deleteRunShare, rotate: rotateRunShare, collection: "runs", param: "run_id" },
  analysis: { get: getAnalysisShare, post: postAnalysisShare, del: deleteAnalysisShare, rotate: rotateAnalysisShare, collection: "analyses", param: "analysis_id" },
} as const;

function share(kind: Kind, action: "get" | "post" | "del" | "rotate", id: string, token = alice.cliToken) {
  const r = routes[kind];
  const method = action === "get" ? "GET" : action === "del" ? "DELETE" : "POST";
  const path = `/${r.collection}/${id}/share${action === "rotate" ? "/rotate" : ""}`;
  return call(r[action], method, path, { token, params: { [r.param]: id } });
}

const tokenOfUrl = (url: string) => url.slice(url.lastIndexOf("/s/") + 3);

describe.each([
  ["run", () => runId],
  ["analysis", () => questionsId],
  ["analysis", () => citationsId],
] as const)("sharing a %s", (kind, idOf) => {
  it("walks every row of the share table", async () => {
    const id = idOf();
    // Not shared yet.
    const before = await share(kind, "get", id);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ shared: false, share: null });

    // not shared -> POST share -> shared: the link; asking again answers the same link.
    const first = await share(kind, "post", id, carol.cliToken);
    expect(first.status).toBe(200);
    expect(() => ShareState.parse(first.body)).not.toThrow();
    expect(first.body).toMatchObject({ target_id: id, target_kind: kind, revoked_at: null, rotated_from: null });
    expect(first.body.url).toMatch(new RegExp(`^http://[^/]+/s/[0-9A-Za-z]{${SHARE_TOKEN_LENGTH}}$`));
    const again = await share(kind, "post", id);
    expect(again.body).toEqual(first.body);
    const status = await share(kind, "get", id);
    expect(() => ShareStatus.parse(status.body)).not.toThrow();
    expect(status.body).toEqual({ shared: true, share: first.body });
    // The token is not stored: only its SHA-256.
    const token = tokenOfUrl(first.body.url);
    const row = await db().share.findUniqueOrThrow({ where: { id: first.body.id } });
    expect(JSON.stringify(row)).not.toContain(token);
    expect((await sharedObject(token))?.body.id).toBe(id);

    // shared -> rotate -> shared, new link; the old one stops working at once.
    const rotated = await share(kind, "rotate", id);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ target_id: id, target_kind: kind, rotated_from: first.body.id, revoked_at: null });
    expect(rotated.body.url).not.toBe(first.body.url);
    expect(await sharedObject(token)).toBeNull();
    expect((await sharedObject(tokenOfUrl(rotated.body.url)))?.body.id).toBe(id);
    expect((await share(kind, "get", id)).body).toEqual({ shared: true, share: rotated.body });

    // shared -> DELETE -> not shared, 204; the link stops working at once.
    const revoked = await share(kind, "del", id);
    expect(revoked.status).toBe(204);
    expect(await sharedObject(tokenOfUrl(rotated.body.url))).toBeNull();
    const after = await share(kind, "get", id);
    expect(after.body.shared).toBe(false);
    expect(after.body.share).toMatchObject({ id: rotated.body.id, revoked_at: expect.any(String) });
    // Deleting again is harmless; rotating an unshared object is a conflict.
    expect((await share(kind, "del", id)).status).toBe(204);
    const noLink = await share(kind, "rotate", id);
    expect(noLink.status).toBe(409);
    expect(noLink.body.error).toMatchObject({ code: "conflict" });

    // A revoked link never resurrects: sharing again makes a new link, the old ones stay dead.
    const fresh = await share(kind, "post", id);
    expect(fresh.body.id).not.toBe(rotated.body.id);
    expect(fresh.body.url).not.toBe(rotated.body.url);
    expect(await sharedObject(tokenOfUrl(rotated.body.url))).toBeNull();
    expect(await sharedObject(token)).toBeNull();
    await share(kind, "del", id);
  });

  it("answers 404 outside the workspace, exactly as for a missing object", async () => {
    const id = idOf();
    const missing = `${id.slice(0, -1)}${id.endsWith("0") ? "1" : "0"}`;
    for (const action of ["get", "post", "del", "rotate"] as const) {
      const foreign = await share(kind, action, id, bob.cliToken);
      const absent = await share(kind, action, missing, bob.cliToken);
      expect(foreign.status, action).toBe(404);
      expect(absent.status, action).toBe(404);
      expect(foreign.body.error.message.replace(id, "ID")).toBe(absent.body.error.message.replace(missing, "ID"));
    }
    expect(await db().share.count({ where: { targetId: id, revokedAt: null } })).toBe(0);
  });
});

describe("what can be shared", () => {
  it("refuses an unfinished run or analysis with 409, leaving it unshared", async () => {
    const run = await db().run.create({
      data: { id: newId("run"), kind: "prompt", status: "queued", workspaceId: alice.workspaceId, projectId: project, engine: "chatgpt", subject: "later", input: { prompt: "later", engine: "chatgpt", project } },
    });
    const refused = await share("run", "post", run.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("conflict");
    expect(refused.body.error.message).toContain("queued");
    expect((await share("run", "get", run.id)).body).toEqual({ shared: false, share: null });

    const analysis = await db().analysis.create({
      data: { id: newId("questionsAnalysis"), kind: "questions", status: "running", workspaceId: alice.workspaceId, projectId: project, subject: "later", input: { topic: "later", count: 5, project } },
    });
    expect((await share("analysis", "post", analysis.id)).status).toBe(409);
  });

  it("shares a failed run: finished means completed or failed", async () => {
    const failed = await db().run.create({
      data: {
        id: newId("run"), kind: "prompt", status: "failed", workspaceId: alice.workspaceId, projectId: project, engine: "claude", subject: "x",
        input: { prompt: "x", engine: "claude", project }, error: { code: "engine_unavailable", message: "overloaded", engine: "claude", retryable: true }, completedAt: new Date(),
      },
    });
    const res = await share("run", "post", failed.id);
    expect(res.status).toBe(200);
    expect((await sharedObject(tokenOfUrl(res.body.url)))?.body).toMatchObject({ status: "failed", error: { code: "engine_unavailable" } });
  });

  it("gives one link to concurrent share requests", async () => {
    const id = runId;
    const answers = await Promise.all(Array.from({ length: 6 }, () => share("run", "post", id)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => a.body.url)).size).toBe(1);
    expect(await db().share.count({ where: { targetId: id, revokedAt: null } })).toBe(1);
    await share("run", "del", id);
  });
});

describe("the public object", () => {
  it("is the run as the API answers it, without project, person or charge", async () => {
    const link = (await share("run", "post", runId)).body;
    const shared = await sharedObject(tokenOfUrl(link.url));
    const api = (await call(getRunRoute, "GET", `/runs/${runId}`, { token: alice.cliToken, params: { run_id: runId } })).body;
    expect(api.project_id).toBe(project);
    expect(api.charge).not.toBeNull();
    const { project: _p, ...input } = api.input;
    expect(shared).toEqual({ kind: "run", shareId: link.id, body: { ...api, input, project_id: null, created_by: null, charge: null } });
    expect(JSON.stringify(shared)).not.toContain(project);
    expect(JSON.stringify(shared)).not.toContain(alice.email);
    expect(JSON.stringify(shared)).not.toContain(alice.workspaceId);
    await share("run", "del", runId);
  });

  it("is the analysis as the API answers it, with project_id and created_by null", async () => {
    for (const id of [questionsId, citationsId]) {
      const link = (await share("analysis", "post", id)).body;
      const shared = await sharedObject(tokenOfUrl(link.url));
      const api = (await call(getAnalysisRoute, "GET", `/analyses/${id}`, { token: alice.cliToken, params: { analysis_id: id } })).body;
      expect(shared).toEqual({ kind: "analysis", shareId: link.id, body: { ...api, project_id: null, created_by: null, charge: null } });
      expect(JSON.stringify(shared)).not.toContain(alice.email);
      await share("analysis", "del", id);
    }
  });

  it("is nothing for a token that is malformed, unknown or of another length", async () => {
    expect(await sharedObject("")).toBeNull();
    expect(await sharedObject("x".repeat(SHARE_TOKEN_LENGTH))).toBeNull();
    expect(await sharedObject("../../etc/passwd")).toBeNull();
    const link = (await share("run", "post", runId)).body;
    const token = tokenOfUrl(link.url);
    expect(await sharedObject(token.slice(1))).toBeNull();
    expect(await sharedObject(`${token}a`)).toBeNull();
    expect(await sharedObject(token.toLowerCase() === token ? token.toUpperCase() : token.toLowerCase())).toBeNull();
    await share("run", "del", runId);
  });
});
