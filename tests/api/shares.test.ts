// Share links through the route handlers: every row of spec 3.2's share table for every kind that
// can be shared (runs, analyses of both kinds, fanouts, prompt batches, monitors), foreign and missing
// objects alike 404, what counts as finished, concurrency, and what the public token resolves to:
// the object as the API answers it, read through the share, with what identifies or bills the
// workspace left out.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getAnalysisRoute } from "@/app/api/v1/analyses/[analysis_id]/route";
import { DELETE as deleteAnalysisShare, GET as getAnalysisShare, POST as postAnalysisShare } from "@/app/api/v1/analyses/[analysis_id]/share/route";
import { POST as rotateAnalysisShare } from "@/app/api/v1/analyses/[analysis_id]/share/rotate/route";
import { GET as getBatchRoute } from "@/app/api/v1/batches/[batch_id]/route";
import { DELETE as deleteBatchShare, GET as getBatchShare, POST as postBatchShare } from "@/app/api/v1/batches/[batch_id]/share/route";
import { POST as rotateBatchShare } from "@/app/api/v1/batches/[batch_id]/share/rotate/route";
import { POST as postCitationAnalyses } from "@/app/api/v1/citation-analyses/route";
import { GET as getFanoutRoute } from "@/app/api/v1/fanouts/[fanout_id]/route";
import { DELETE as deleteFanoutShare, GET as getFanoutShare, POST as postFanoutShare } from "@/app/api/v1/fanouts/[fanout_id]/share/route";
import { POST as rotateFanoutShare } from "@/app/api/v1/fanouts/[fanout_id]/share/rotate/route";
import { POST as postFanouts } from "@/app/api/v1/fanouts/route";
import { DELETE as deleteMonitorRoute, GET as getMonitorRoute, PATCH as patchMonitorRoute } from "@/app/api/v1/monitors/[monitor_id]/route";
import { DELETE as deleteMonitorShare, GET as getMonitorShare, POST as postMonitorShare } from "@/app/api/v1/monitors/[monitor_id]/share/route";
import { POST as rotateMonitorShare } from "@/app/api/v1/monitors/[monitor_id]/share/rotate/route";
import { POST as postMonitors } from "@/app/api/v1/monitors/route";
import { POST as postPrompts } from "@/app/api/v1/prompts/route";
import { POST as postQuestions } from "@/app/api/v1/questions/route";
import { GET as getRunRoute } from "@/app/api/v1/runs/[run_id]/route";
import { DELETE as deleteRunShare, GET as getRunShare, POST as postRunShare } from "@/app/api/v1/runs/[run_id]/share/route";
import { POST as rotateRunShare } from "@/app/api/v1/runs/[run_id]/share/rotate/route";
import { readAnalysisText } from "@/lib/analyses/read";
import { resetConfig } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { readFanoutText } from "@/lib/fanouts/read";
import { readMonitor } from "@/lib/monitors/read";
import { createProject } from "@/lib/projects/create";
import { readBatch, readRun } from "@/lib/runs/read";
import { ShareState, ShareStatus, type ShareKind } from "@/lib/schemas/shares";
import { sharedObject, type SharedObject } from "@/lib/shares/read";
import { SHARE_TOKEN_LENGTH } from "@/lib/shares/token";
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { call } from "../helpers/http";
import { addMember, person, principalOf, type Person } from "../helpers/people";
import { workspaceLeaks } from "../helpers/share-leaks";

useSimulatedEngines({ billing: true });
useTestDatabase();
// A monitor's webhook URL must pass the address rules: this name is let through without resolving.
process.env.WEBHOOK_ALLOW_HOSTS = "hooks.test.invalid";
const WEBHOOK_URL = "https://hooks.test.invalid/secret-path-of-acme";

let alice: Person;
let bob: Person;
let carol: Person;
let project: string;
let runId: string;
let batchId: string;
let questionsId: string;
let citationsId: string;
let fanoutId: string;
/** A batch and a fanout whose Claude runs failed: partial, which is finished. */
let partialBatchId: string;
let partialFanoutId: string;
/** A monitor with a webhook URL, email alerts and a budget: none of which its link shows. */
let monitorId: string;

afterAll(() => {
  delete process.env.WEBHOOK_ALLOW_HOSTS;
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
  fanoutId = await finishedFanout(["which crm for a startup", "crm with the best email sync"]);
  partialFanoutId = await finishedFanout(["which crm [[sim:auth_error@claude]]"]);
  const partial = await call(postPrompts, "POST", "/prompts", { token: alice.cliToken, body: { prompt: "crm pricing [[sim:auth_error@claude]]", engines: ["chatgpt", "claude"], project } });
  partialBatchId = partial.body.batch.id;
  const waited = await call(getBatchRoute, "GET", `/batches/${partialBatchId}`, { token: alice.cliToken, params: { batch_id: partialBatchId }, query: { wait: 30 } });
  expect(waited.body.batch.status).toBe("partial");
  const monitor = await call(postMonitors, "POST", "/monitors", {
    token: alice.cliToken,
    body: {
      project, name: "Acme weekly", prompts: [{ text: "best crm for agencies" }], engines: ["chatgpt", "claude"], runs: 2,
      entities: [{ name: "HubSpot", role: "brand" }, { name: "Pipedrive", role: "competitor" }],
      monthly_budget_usd: "25.00", alerts: { webhook_url: WEBHOOK_URL, email: true, min_change: 15 },
    },
  });
  expect(monitor.status, JSON.stringify(monitor.body)).toBe(201);
  monitorId = monitor.body.id;
});

/** A fanout of these prompts on ChatGPT and Claude, two runs each, waited for. */
async function finishedFanout(prompts: string[]): Promise<string> {
  const body = { name: "Shared fanout", prompts: prompts.map((text) => ({ text })), engines: ["chatgpt", "claude"], runs: 2, project };
  const made = await call(postFanouts, "POST", "/fanouts", { token: alice.cliToken, body });
  expect(made.status, JSON.stringify(made.body)).toBe(202);
  const done = await call(getFanoutRoute, "GET", `/fanouts/${made.body.id}`, { token: alice.cliToken, params: { fanout_id: made.body.id }, query: { wait: 30 } });
  expect(["completed", "partial"]).toContain(done.body.status);
  return made.body.id;
}

type Kind = ShareKind;
const routes = {
  run: { get: getRunShare, post: postRunShare, del: deleteRunShare, rotate: rotateRunShare, collection: "runs", param: "run_id" },
  analysis: { get: getAnalysisShare, post: postAnalysisShare, del: deleteAnalysisShare, rotate: rotateAnalysisShare, collection: "analyses", param: "analysis_id" },
  fanout: { get: getFanoutShare, post: postFanoutShare, del: deleteFanoutShare, rotate: rotateFanoutShare, collection: "fanouts", param: "fanout_id" },
  batch: { get: getBatchShare, post: postBatchShare, del: deleteBatchShare, rotate: rotateBatchShare, collection: "batches", param: "batch_id" },
  monitor: { get: getMonitorShare, post: postMonitorShare, del: deleteMonitorShare, rotate: rotateMonitorShare, collection: "monitors", param: "monitor_id" },
} as const satisfies Record<Kind, unknown>;

function share(kind: Kind, action: "get" | "post" | "del" | "rotate", id: string, token = alice.cliToken) {
  const r = routes[kind];
  const method = action === "get" ? "GET" : action === "del" ? "DELETE" : "POST";
  const path = `/${r.collection}/${id}/share${action === "rotate" ? "/rotate" : ""}`;
  return call(r[action], method, path, { token, params: { [r.param]: id } });
}

const tokenOfUrl = (url: string) => url.slice(url.lastIndexOf("/s/") + 3);

/** The id of the object a share shows (a prompt batch's is its batch's). */
const idOfShared = (shared: SharedObject | null) => (shared === null ? null : shared.kind === "batch" ? shared.body.batch.id : shared.body.id);

describe.each([
  ["run", () => runId],
  ["analysis", () => questionsId],
  ["analysis", () => citationsId],
  ["batch", () => batchId],
  ["fanout", () => fanoutId],
  ["monitor", () => monitorId],
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
    expect(idOfShared(await sharedObject(token))).toBe(id);

    // shared -> rotate -> shared, new link; the old one stops working at once.
    const rotated = await share(kind, "rotate", id);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ target_id: id, target_kind: kind, rotated_from: first.body.id, revoked_at: null });
    expect(rotated.body.url).not.toBe(first.body.url);
    expect(await sharedObject(token)).toBeNull();
    expect(idOfShared(await sharedObject(tokenOfUrl(rotated.body.url)))).toBe(id);
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

  it("refuses a fanout or prompt batch with a run queued or running with 409, naming its status and what finished means", async () => {
    const fanout = await db().fanout.create({
      data: { id: newId("fanout"), workspaceId: alice.workspaceId, projectId: project, name: "Still going", engines: ["chatgpt"], runsPerPrompt: 2, prompts: [{ text: "later" }] },
    });
    const batch = await db().batch.create({ data: { id: newId("batch"), workspaceId: alice.workspaceId, projectId: project, input: { prompt: "later", engines: ["chatgpt"], project } } });
    const runOf = (status: "completed" | "running" | "queued", link: { fanoutId: string } | { batchId: string }, startedAt?: Date) =>
      db().run.create({
        data: {
          id: newId("run"), kind: "prompt", status, workspaceId: alice.workspaceId, projectId: project, engine: "chatgpt", subject: "later",
          input: { prompt: "later", engine: "chatgpt", project }, startedAt, completedAt: status === "completed" ? new Date() : null, ...link,
        },
      });
    await runOf("completed", { fanoutId: fanout.id }, new Date());
    await runOf("running", { fanoutId: fanout.id }, new Date());
    await runOf("queued", { batchId: batch.id });
    for (const [kind, id, status, noun] of [["fanout", fanout.id, "running", "fanout"], ["batch", batch.id, "queued", "prompt batch"]] as const) {
      const refused = await share(kind, "post", id);
      expect(refused.status, kind).toBe(409);
      expect(refused.body.error.message).toBe(
        `The ${noun} ${JSON.stringify(id)} is ${status}; only a finished ${noun} (completed, partial or failed) can be shared. Share it once it has finished.`,
      );
      expect((await share(kind, "get", id)).body).toEqual({ shared: false, share: null });
    }
  });

  it("shares a partial fanout and a partial prompt batch: finished means completed, partial or failed", async () => {
    for (const [kind, id] of [["fanout", partialFanoutId], ["batch", partialBatchId]] as const) {
      const res = await share(kind, "post", id);
      expect(res.status, kind).toBe(200);
      const shared = await sharedObject(tokenOfUrl(res.body.url));
      expect(shared?.kind === "batch" ? shared.body.batch.status : (shared?.body as { status: string }).status).toBe("partial");
      await share(kind, "del", id);
    }
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

  it("is the prompt batch as the API answers it, without project, person or charge, its runs too", async () => {
    const link = (await share("batch", "post", batchId)).body;
    const shared = await sharedObject(tokenOfUrl(link.url));
    const api = (await call(getBatchRoute, "GET", `/batches/${batchId}`, { token: alice.cliToken, params: { batch_id: batchId } })).body;
    expect(api.batch.input.project).toBe(project);
    expect(api.runs.every((r: { charge: unknown }) => r.charge !== null)).toBe(true);
    const { project: _p, ...input } = api.batch.input;
    const runs = api.runs.map((run: { input: Record<string, unknown> }) => {
      const { project: _rp, ...runInput } = run.input;
      return { ...run, input: runInput, project_id: null, created_by: null, charge: null };
    });
    expect(shared).toEqual({ kind: "batch", shareId: link.id, body: { batch: { ...api.batch, input, project_id: null, created_by: null }, runs } });
    await share("batch", "del", batchId);
  });

  it("is the fanout as the API answers it, without project, person, money held or charged, or any run's charge", async () => {
    const link = (await share("fanout", "post", fanoutId)).body;
    const shared = await sharedObject(tokenOfUrl(link.url));
    const api = (await call(getFanoutRoute, "GET", `/fanouts/${fanoutId}`, { token: alice.cliToken, params: { fanout_id: fanoutId } })).body;
    expect(api.charged_usd).not.toBeNull();
    type Prompt = { engines: { runs: object[] }[] };
    const prompts = api.prompts.map((p: Prompt) => ({ ...p, engines: p.engines.map((e) => ({ ...e, runs: e.runs.map((r) => ({ ...r, charge: null })) })) }));
    expect(shared).toEqual({
      kind: "fanout", shareId: link.id, body: { ...api, prompts, project_id: null, created_by: null, held_usd: null, charged_usd: null },
    });
    await share("fanout", "del", fanoutId);
  });

  it("is the monitor as the API answers it, without project, person, budget, spend or alert settings", async () => {
    const link = (await share("monitor", "post", monitorId)).body;
    const shared = await sharedObject(tokenOfUrl(link.url));
    const api = (await call(getMonitorRoute, "GET", `/monitors/${monitorId}`, { token: alice.cliToken, params: { monitor_id: monitorId } })).body;
    expect(api).toMatchObject({ project, created_by: alice.email, monthly_budget_usd: "25.00", alerts: { webhook_url: WEBHOOK_URL, email: true } });
    expect(shared).toEqual({
      kind: "monitor",
      shareId: link.id,
      body: { ...api, project: null, created_by: null, monthly_budget_usd: null, spend_month_to_date_usd: null, alerts: null },
    });
    expect(JSON.stringify(shared)).not.toContain("hooks.test.invalid");
    expect(JSON.stringify(shared)).not.toContain("webhook_secret");
    await share("monitor", "del", monitorId);
  });

  it("shares a monitor at any time: before its first tick and paused; a deleted monitor's link stops working", async () => {
    const made = await call(postMonitors, "POST", "/monitors", { token: alice.cliToken, body: { project, name: "Paused", prompts: [{ text: "crm for dentists" }], engines: ["chatgpt"], runs: 1, entities: [{ name: "HubSpot", role: "brand" }] } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.id;
    await call(patchMonitorRoute, "PATCH", `/monitors/${id}`, { token: alice.cliToken, params: { monitor_id: id }, body: { status: "paused" } });
    const link = await share("monitor", "post", id, carol.cliToken);
    expect(link.status).toBe(200);
    expect(link.body).toMatchObject({ target_kind: "monitor", target_id: id });
    expect((await sharedObject(tokenOfUrl(link.body.url)))?.body).toMatchObject({ id, status: "paused", last_tick: null });
    const deleted = await call(deleteMonitorRoute, "DELETE", `/monitors/${id}`, { token: alice.cliToken, params: { monitor_id: id } });
    expect(deleted.status).toBe(204);
    expect(await sharedObject(tokenOfUrl(link.body.url))).toBeNull();
    expect((await share("monitor", "get", id)).status).toBe(404);
  });

  it("holds no email, project or workspace id, input project or charge, for every kind", async () => {
    const cases: Array<[Kind, string]> = [
      ["run", runId], ["analysis", questionsId], ["analysis", citationsId], ["batch", batchId], ["batch", partialBatchId], ["fanout", fanoutId], ["fanout", partialFanoutId], ["monitor", monitorId],
    ];
    for (const [kind, id] of cases) {
      // Shared by Carol: neither the sharer nor the creator shows.
      const link = (await share(kind, "post", id, carol.cliToken)).body;
      const shared = await sharedObject(tokenOfUrl(link.url));
      expect(shared, `${kind} ${id}`).not.toBeNull();
      expect(workspaceLeaks(shared!.body, [alice.email, carol.email, project, alice.workspaceId]), `${kind} ${id}`).toEqual([]);
      await share(kind, "del", id);
    }
  });

  it("is read through the share: a share reads its own object while it works, and nothing else", async () => {
    const links = {
      run: (await share("run", "post", runId)).body,
      analysis: (await share("analysis", "post", citationsId)).body,
      batch: (await share("batch", "post", batchId)).body,
      fanout: (await share("fanout", "post", fanoutId)).body,
      monitor: (await share("monitor", "post", monitorId)).body,
    };
    const reads = {
      run: (share: string, id: string) => readRun({ share }, id),
      analysis: (share: string, id: string) => readAnalysisText({ share }, id),
      batch: (share: string, id: string) => readBatch({ share }, id),
      fanout: (share: string, id: string) => readFanoutText({ share }, id),
      monitor: (share: string, id: string) => readMonitor({ share }, id),
    };
    const ids = { run: runId, analysis: citationsId, batch: batchId, fanout: fanoutId, monitor: monitorId };
    // Another object of the same kind, in the same workspace.
    const others = { run: (await db().run.findFirstOrThrow({ where: { batchId } , orderBy: { id: "desc" } })).id, analysis: questionsId, batch: partialBatchId, fanout: partialFanoutId, monitor: await otherMonitor() };
    expect(others.run).not.toBe(runId);
    for (const kind of ["run", "analysis", "batch", "fanout", "monitor"] as const) {
      expect(await reads[kind](links[kind].id, ids[kind]), kind).not.toBeNull();
      expect(await reads[kind](links[kind].id, others[kind]), kind).toBeNull();
      await share(kind, "del", ids[kind]);
      expect(await reads[kind](links[kind].id, ids[kind]), `${kind}, revoked`).toBeNull();
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

/** Another monitor in Alice's workspace. */
async function otherMonitor(): Promise<string> {
  const made = await call(postMonitors, "POST", "/monitors", { token: alice.cliToken, body: { project, name: "Another", prompts: [{ text: "crm for lawyers" }], engines: ["chatgpt"], runs: 1, entities: [{ name: "HubSpot", role: "brand" }] } });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.id;
}
