// POST /prompts, GET /runs, /runs/{id} and /batches/{id} end to end through the route handlers,
// with the local driver executing runs against the in-process engine simulator.
import { sqlIn } from "@/lib/db/sql";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as getBatchRoute } from "@/app/api/v1/batches/[batch_id]/route";
import { GET as getBilling } from "@/app/api/v1/billing/route";
import { POST as postPrompts } from "@/app/api/v1/prompts/route";
import { GET as getRunRoute } from "@/app/api/v1/runs/[run_id]/route";
import { GET as listRunsRoute } from "@/app/api/v1/runs/route";
import { recordPurchase } from "@/lib/billing/ledger";
import { parseUsd } from "@/lib/billing/money";
import { resetConfig } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { NORMALIZER_VERSION, normalizeEnvelope, startSimulator, type EngineEnvelope } from "@/lib/engines";
import { createProject } from "@/lib/projects/create";
import { PromptResult } from "@/lib/schemas/results";
import { executeRun } from "@/lib/runs/execute";
import { LocalDriver, localDriver } from "@/lib/work/local-driver";
import { actorOf, holdCredit } from "@/lib/billing/holds";
import { useTestDatabase } from "../helpers/app";
import { call } from "../helpers/http";
import { addMember, person, principalOf, type Person } from "../helpers/people";
import { InngestTestEngine } from "@inngest/test";
import { inngestFunctionOf } from "@/inngest/functions/jobs";
import { promptRunJob } from "@/lib/runs/jobs/prompt-run";
import { runQueued } from "@/lib/work/events";
import { useSimulatedEngines } from "../helpers/engines";

// Simulated engines, every engine enabled, billing on; set before anything reads the configuration.
useSimulatedEngines({ billing: true });

useTestDatabase();

let alice: Person;
let bob: Person;
let aliceProject: string;
let bobProject: string;

async function projectIn(p: Person, workspaceId: string, name: string): Promise<string> {
  return (await createProject(principalOf(p), { name, workspace_id: workspaceId, context: null })).id;
}

async function teamWorkspace(admin: Person, name: string, creditUsd?: string): Promise<string> {
  const ws = await db().workspace.create({
    data: { id: newId("workspace"), name, kind: "team", memberships: { create: { userId: admin.id, role: "admin" } } },
  });
  if (creditUsd) await db().$transaction((tx) => recordPurchase(tx, { workspaceId: ws.id, amountMicros: parseUsd(creditUsd) }));
  return ws.id;
}

/** A 404 with the id the caller gave taken out: a foreign object's answer must equal a missing one's. */
function sameAnswer(res: { status: number; text: string }, id: string) {
  return { status: res.status, text: res.text.replaceAll(id, "<id>") };
}

function post(token: string, body: unknown) {
  return call(postPrompts, "POST", "/prompts", { token, body });
}

/** The batch once every run finished: woken by the workers' notifications, never by sleeping. */
async function finishedBatch(token: string, batchId: string) {
  const res = await call(getBatchRoute, "GET", `/batches/${batchId}`, { token, params: { batch_id: batchId }, query: { wait: 30 } });
  expect(res.status).toBe(200);
  expect(["completed", "partial", "failed"]).toContain(res.body.batch.status);
  return res.body;
}

beforeAll(async () => {
  alice = await person("alice@example.com");
  bob = await person("bob@example.com");
  aliceProject = await projectIn(alice, alice.workspaceId, "Alice research");
  bobProject = await projectIn(bob, bob.workspaceId, "Bob research");
});

afterAll(() => {
  resetConfig();
});

describe("POST /prompts", () => {
  it("runs a prompt on every enabled engine, stores each engine's normalised result and captures the rate card's prices", async () => {
    const res = await post(alice.apiKey, { prompt: "best crm for small business", project: aliceProject });
    expect(res.status).toBe(202);
    const { batch, runs } = res.body;
    expect(batch.id).toMatch(/^rq_/);
    expect(batch.kind).toBe("prompt");
    expect(batch.project_id).toBe(aliceProject);
    expect(batch.created_by).toBe(alice.email);
    // Simulated, every engine is enabled: the model APIs, then the apps.
    expect(runs.map((r: any) => r.engine)).toEqual(["chatgpt", "claude", "gemini", "perplexity", "chatgpt_app", "gemini_app", "google_ai_overview", "google_ai_mode"]);
    expect(batch.run_ids).toEqual(runs.map((r: any) => r.id));
    for (const run of runs) {
      expect(run.status).toBe("queued");
      expect(run.kind).toBe("prompt");
      expect(run.charge).toMatchObject({ status: "held", units: 1, unit: "prompt" });
    }

    const done = await finishedBatch(alice.apiKey, batch.id);
    expect(done.batch.status).toBe("completed");
    const prices: Record<string, string> = {
      chatgpt: "0.02", claude: "0.03", gemini: "0.015", perplexity: "0.01", chatgpt_app: "0.03", gemini_app: "0.03", google_ai_overview: "0.01", google_ai_mode: "0.02",
    };
    for (const run of done.runs) {
      expect(run.status).toBe("completed");
      expect(run.error).toBeNull();
      // Google's SERP names no model; every other simulated run reports one marked simulated.
      if (run.engine.startsWith("google_")) expect(run.model).toBeNull();
      else expect(run.model).toMatch(/-simulated$/);
      expect(run.started_at).not.toBeNull();
      expect(run.completed_at).not.toBeNull();
      expect(run.duration_ms).toBeGreaterThanOrEqual(0);
      expect(run.usage).not.toBeNull();
      // Google shows an AI Overview for some queries only; a run without one completed all the same.
      if (run.result.shown === false) expect(run.engine).toBe("google_ai_overview");
      else expect(run.result.answer.length).toBeGreaterThan(0);
      expect(run.charge).toEqual({
        status: "captured", amount_usd: prices[run.engine], unit: "prompt", units: 1, unit_price_usd: prices[run.engine], pricing_version: "2026-11-29",
      });
      // The stored result is exactly what the normaliser makes of the stored raw envelope.
      const row = await db().run.findUniqueOrThrow({ where: { id: run.id } });
      const again = normalizeEnvelope(row.rawEnvelope as unknown as EngineEnvelope);
      expect(run.result).toEqual(JSON.parse(JSON.stringify(PromptResult.parse(again.result))));
      expect(row.normalizerVersion).toBe(Number(NORMALIZER_VERSION));
      expect(row.sourceCount).toBe(again.result.sources.length);
      expect(row.citedCount).toBe(again.result.sources.filter((s) => s.cited === true).length);
      expect(row.leaseExpiresAt).toBeNull();
    }

    const summaries = await call(listRunsRoute, "GET", "/runs", { token: alice.apiKey, query: { batch: batch.id } });
    expect(summaries.status).toBe(200);
    expect(summaries.body.items.map((r: any) => r.id)).toEqual([...batch.run_ids].reverse());
    for (const item of summaries.body.items) {
      const full = done.runs.find((r: any) => r.id === item.id);
      expect(item).toMatchObject({ subject: "best crm for small business", status: "completed", batch_id: batch.id, project_id: aliceProject });
      expect(item.source_count).toBe(full.result.sources.length);
      expect(item.cited_count).toBe(full.result.sources.filter((s: any) => s.cited === true).length);
    }

    const usage = await db().ledgerTransaction.findMany({ where: { operationId: batch.id, kind: "usage" } });
    expect(usage.reduce((sum, t) => sum + t.amountMicros, 0n)).toBe(-parseUsd("0.165"));
    const billing = await call(getBilling, "GET", "/billing", { token: alice.apiKey });
    expect(billing.body.held_usd).toBe("0.00");
    expect(billing.body.balance_usd).toBe("4.835");
  });

  it("fails only the engine that failed: the batch is partial and that run's hold is released", async () => {
    const res = await post(alice.cliToken, { prompt: "partial please [[sim:auth_error@claude]]", project: aliceProject });
    expect(res.status).toBe(202);
    const done = await finishedBatch(alice.cliToken, res.body.batch.id);
    expect(done.batch.status).toBe("partial");
    const claude = done.runs.find((r: any) => r.engine === "claude");
    expect(claude.status).toBe("failed");
    expect(claude.result).toBeNull();
    expect(claude.error).toMatchObject({ code: "engine_auth_failed", engine: "claude", retryable: false });
    expect(claude.charge).toMatchObject({ status: "released", amount_usd: "0.00" });
    for (const run of done.runs.filter((r: any) => r.engine !== "claude")) {
      expect(run.status).toBe("completed");
      expect(run.charge.status).toBe("captured");
    }
    const hold = await db().creditHold.findUniqueOrThrow({ where: { runId: claude.id } });
    expect(hold.status).toBe("released");
    expect(await db().ledgerTransaction.count({ where: { runId: claude.id } })).toBe(0);
  });

  it("fails the batch when every engine fails, charging nothing", async () => {
    const res = await post(alice.apiKey, { prompt: "nothing works [[sim:auth_error]]", project: aliceProject });
    const done = await finishedBatch(alice.apiKey, res.body.batch.id);
    expect(done.batch.status).toBe("failed");
    for (const run of done.runs) {
      expect(run.status).toBe("failed");
      expect(run.error.engine).toBe(run.engine);
      expect(run.charge).toMatchObject({ status: "released", amount_usd: "0.00" });
    }
    expect(await db().ledgerTransaction.count({ where: { operationId: res.body.batch.id } })).toBe(0);
  });

  it("resolves every simulated Gemini source of ordinary prompts: no unresolved source, no loopback url", async () => {
    const prompts = ["best crm for a startup", "how do solar panels work", "cheapest way to ship a parcel to Canada"];
    const accepted = await Promise.all(prompts.map((prompt) => post(alice.apiKey, { prompt, engines: ["gemini"], project: aliceProject })));
    const sources = [];
    for (const res of accepted) sources.push(...(await finishedBatch(alice.apiKey, res.body.batch.id)).runs[0].result.sources);
    expect(sources.length).toBeGreaterThan(3);
    for (const s of sources) {
      expect(s.resolution).toBe("resolved");
      expect(s.domain).not.toBeNull();
      expect(new URL(s.url).hostname).not.toMatch(/^(127\.|localhost$|\[::1\]$)/);
    }
  });

  it("retries a retryable engine failure and charges the run once", async () => {
    const res = await post(alice.apiKey, { prompt: "flaky once [[sim:server_error*1]]", engines: ["gemini"], project: aliceProject });
    const done = await finishedBatch(alice.apiKey, res.body.batch.id);
    expect(done.batch.status).toBe("completed");
    const [run] = done.runs;
    expect(run.charge).toMatchObject({ status: "captured", amount_usd: "0.015" });
    expect(await db().ledgerTransaction.count({ where: { runId: run.id, kind: "usage" } })).toBe(1);
  });

  it("is idempotent: executing a run again, even concurrently, neither charges twice nor changes its result", async () => {
    const res = await post(alice.apiKey, { prompt: "run me twice", engines: ["chatgpt"], project: aliceProject });
    const runId = res.body.runs[0].id;
    // Racing the driver's own execution.
    const raced = await Promise.all([executeRun(runId), executeRun(runId)]);
    const done = await finishedBatch(alice.apiKey, res.body.batch.id);
    expect(done.runs[0].status).toBe("completed");
    expect(raced.filter((o) => o === "completed").length).toBeLessThanOrEqual(1);
    const before = await db().run.findUniqueOrThrow({ where: { id: runId } });
    expect(await executeRun(runId)).toBe("skipped");
    expect(await executeRun(runId)).toBe("skipped");
    const after = await db().run.findUniqueOrThrow({ where: { id: runId } });
    expect(after.result).toEqual(before.result);
    expect(after.completedAt).toEqual(before.completedAt);
    expect(await db().ledgerTransaction.count({ where: { runId, kind: "usage" } })).toBe(1);
    expect((await db().creditHold.findUniqueOrThrow({ where: { runId } })).status).toBe("captured");
  });

  it("answers 400 without a project, for an unknown engine, and for a prompt out of bounds", async () => {
    const before = await db().run.count();
    const noProject = await post(alice.apiKey, { prompt: "hello" });
    expect(noProject.status).toBe(400);
    expect(noProject.body.error.code).toBe("invalid_request");
    expect(noProject.body.error.message).toContain("project");

    const unknown = await post(alice.apiKey, { prompt: "hello", engines: ["chatgpt", "bing"], project: aliceProject });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe(
      'engines[1]: must be one of: "chatgpt", "claude", "gemini", "perplexity", "chatgpt_app", "gemini_app", "google_ai_overview", "google_ai_mode" (got "bing")',
    );

    const empty = await post(alice.apiKey, { prompt: "hello", engines: [], project: aliceProject });
    expect(empty.status).toBe(400);
    const long = await post(alice.apiKey, { prompt: "x".repeat(4001), project: aliceProject });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toContain("prompt: must be 1 to 4000 characters");
    expect(await db().run.count()).toBe(before);
  });

  it("answers 404 for another workspace's project, run and batch, exactly as for missing ones", async () => {
    const bobs = await post(bob.apiKey, { prompt: "bob's question", engines: ["claude"], project: bobProject });
    expect(bobs.status).toBe(202);
    await finishedBatch(bob.apiKey, bobs.body.batch.id);

    const foreignProject = await post(alice.apiKey, { prompt: "hello", project: bobProject });
    const missingProjectId = newId("project");
    const missingProject = await post(alice.apiKey, { prompt: "hello", project: missingProjectId });
    expect(foreignProject.status).toBe(404);
    expect(foreignProject.body.error.message).toBe(`No such project "${bobProject}".`);
    expect(sameAnswer(foreignProject, bobProject)).toEqual(sameAnswer(missingProject, missingProjectId));

    const runId = bobs.body.runs[0].id;
    const foreignRun = await call(getRunRoute, "GET", `/runs/${runId}`, { token: alice.apiKey, params: { run_id: runId } });
    const missingRunId = newId("run");
    const missingRun = await call(getRunRoute, "GET", `/runs/${missingRunId}`, { token: alice.apiKey, params: { run_id: missingRunId } });
    expect(foreignRun.status).toBe(404);
    expect(foreignRun.body.error.message).toBe(`No such run "${runId}".`);
    expect(sameAnswer(foreignRun, runId)).toEqual(sameAnswer(missingRun, missingRunId));

    const batchId = bobs.body.batch.id;
    const foreignBatch = await call(getBatchRoute, "GET", `/batches/${batchId}`, { token: alice.apiKey, params: { batch_id: batchId } });
    const missingBatchId = newId("batch");
    const missingBatch = await call(getBatchRoute, "GET", `/batches/${missingBatchId}`, { token: alice.apiKey, params: { batch_id: missingBatchId } });
    expect(foreignBatch.status).toBe(404);
    expect(sameAnswer(foreignBatch, batchId)).toEqual(sameAnswer(missingBatch, missingBatchId));

    const listed = await call(listRunsRoute, "GET", "/runs", { token: alice.apiKey, query: { batch: batchId } });
    expect(listed.status).toBe(404);
    const all = await call(listRunsRoute, "GET", "/runs", { token: alice.apiKey, query: { limit: 200 } });
    expect(all.body.items.some((r: any) => r.id === runId)).toBe(false);

    // A fanout filter: Bob's fanout is as missing to Alice as one that does not exist.
    const fanout = await db().fanout.create({
      data: { id: newId("fanout"), workspaceId: bob.workspaceId, projectId: bobProject, name: "bob's fanout", engines: ["claude"], runsPerPrompt: 1, prompts: [] },
    });
    const foreignFanout = await call(listRunsRoute, "GET", "/runs", { token: alice.apiKey, query: { fanout: fanout.id } });
    const missingFanoutId = newId("fanout");
    const missingFanout = await call(listRunsRoute, "GET", "/runs", { token: alice.apiKey, query: { fanout: missingFanoutId } });
    expect(foreignFanout.status).toBe(404);
    expect(foreignFanout.body.error.message).toBe(`No such fanout "${fanout.id}".`);
    expect(sameAnswer(foreignFanout, fanout.id)).toEqual(sameAnswer(missingFanout, missingFanoutId));
    const ownFanout = await call(listRunsRoute, "GET", "/runs", { token: bob.apiKey, query: { fanout: fanout.id } });
    expect(ownFanout.status).toBe(200);
    expect(ownFanout.body.items).toEqual([]);
    // Bob reads his own.
    const own = await call(getRunRoute, "GET", `/runs/${runId}`, { token: bob.cliToken, params: { run_id: runId } });
    expect(own.status).toBe(200);
    expect(own.body.status).toBe("completed");
  });

  it("answers 402 when the workspace's credit does not cover every engine, creating nothing", async () => {
    const poor = await teamWorkspace(alice, "Poor team", "0.04");
    const project = await projectIn(alice, poor, "Thin budget");
    const before = { runs: await db().run.count(), batches: await db().batch.count(), holds: await db().creditHold.count() };
    const res = await post(alice.cliToken, { prompt: "eight engines cost 0.165", project });
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ code: "insufficient_credit", retryable: false });
    expect(res.body.error.message).toContain("0.165");
    expect({ runs: await db().run.count(), batches: await db().batch.count(), holds: await db().creditHold.count() }).toEqual(before);
    // What fits is accepted.
    const fits = await post(alice.cliToken, { prompt: "one engine fits", engines: ["chatgpt", "gemini"], project });
    expect(fits.status).toBe(202);
    await finishedBatch(alice.cliToken, fits.body.batch.id);
  });

  it("answers 429 once queued plus running runs would pass the limit, admitting exactly the limit under concurrency", async () => {
    process.env.RUNS_IN_FLIGHT_LIMIT = "3";
    process.env.FANOUT_MAX_EXECUTIONS = "3";
    resetConfig();
    try {
      const busy = await teamWorkspace(alice, "Busy team", "10.00");
      const project = await projectIn(alice, busy, "Many at once");
      // Each run's first engine call is rate limited for 3 s, so none finishes while the requests race.
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          post(alice.cliToken, { prompt: `busy ${i} [[sim:rate_limit:3*1]]`, engines: ["chatgpt"], project }),
        ),
      );
      const admitted = results.filter((r) => r.status === 202);
      const refused = results.filter((r) => r.status === 429);
      expect(admitted).toHaveLength(3);
      expect(refused).toHaveLength(5);
      for (const r of refused) {
        expect(r.body.error).toMatchObject({ code: "rate_limited", retryable: true });
        expect(r.body.error.message).toMatch(/3 runs queued or running.*adds 1.*limit is 3/);
      }
      expect(await db().run.count({ where: { workspaceId: busy } })).toBe(3);
      for (const r of admitted) expect((await finishedBatch(alice.cliToken, r.body.batch.id)).batch.status).toBe("completed");
    } finally {
      delete process.env.RUNS_IN_FLIGHT_LIMIT;
      delete process.env.FANOUT_MAX_EXECUTIONS;
      resetConfig();
    }
  });

  it("filters the runs list by status and engine, and refuses a filter it does not know", async () => {
    const project = await projectIn(alice, alice.workspaceId, "Filters");
    const res = await post(alice.cliToken, { prompt: "filter me [[sim:auth_error@claude]]", project });
    await finishedBatch(alice.cliToken, res.body.batch.id);
    const failed = await call(listRunsRoute, "GET", "/runs", { token: alice.cliToken, query: { project, status: "failed" } });
    expect(failed.status).toBe(200);
    expect(failed.body.items.map((r: any) => [r.engine, r.status])).toEqual([["claude", "failed"]]);
    const gemini = await call(listRunsRoute, "GET", "/runs", { token: alice.cliToken, query: { project, engine: "gemini", status: "completed" } });
    expect(gemini.body.items.map((r: any) => [r.engine, r.status])).toEqual([["gemini", "completed"]]);

    const badStatus = await call(listRunsRoute, "GET", "/runs", { token: alice.cliToken, query: { status: "done" } });
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.error.message).toBe('status: must be one of: "queued", "running", "completed", "failed" (got "done")');
    const badEngine = await call(listRunsRoute, "GET", "/runs", { token: alice.cliToken, query: { engine: "bing" } });
    expect(badEngine.body.error.message).toBe(
      'engine: must be one of: "chatgpt", "claude", "gemini", "perplexity", "chatgpt_app", "gemini_app", "google_ai_overview", "google_ai_mode" (got "bing")',
    );
    const unknown = await call(listRunsRoute, "GET", "/runs", { token: alice.cliToken, query: { state: "failed" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('query: unknown parameter "state"');
  });

  it("lets a member of a team workspace run prompts in its projects and list them", async () => {
    const team = await teamWorkspace(bob, "Shared team", "1.00");
    await addMember(team, alice.id, "member");
    const project = await projectIn(bob, team, "Shared");
    const res = await post(alice.cliToken, { prompt: "team prompt", engines: ["gemini"], project });
    expect(res.status).toBe(202);
    await finishedBatch(alice.cliToken, res.body.batch.id);
    const bobsView = await call(listRunsRoute, "GET", "/runs", { token: bob.cliToken, query: { project } });
    expect(bobsView.body.items.map((r: any) => r.id)).toEqual([res.body.runs[0].id]);
    expect(bobsView.body.items[0].created_by).toBe(alice.email);
  });

  it("calls one engine at most ENGINE_CONCURRENCY times at once, however many of its runs are queued", async () => {
    const slow = await startSimulator({ latencyMs: 150 });
    vi.stubEnv("GEOSCOPE_SIMULATOR_URL", slow.url);
    vi.stubEnv("ENGINE_CONCURRENCY", "3");
    resetConfig();
    try {
      const accepted = await Promise.all(
        Array.from({ length: 9 }, (_, i) => post(alice.apiKey, { prompt: `one lane ${i}`, project: aliceProject, engines: ["gemini"] })),
      );
      for (const res of accepted) expect(res.status).toBe(202);
      for (const res of accepted) expect((await finishedBatch(alice.apiKey, res.body.batch.id)).batch.status).toBe("completed");
      expect(slow.callsInFlight("gemini")).toEqual({ now: 0, peak: 3 });
      const runIds = accepted.map((res) => res.body.runs[0].id as string);
      expect(await db().ledgerTransaction.count({ where: { runId: { in: runIds }, kind: "usage" } })).toBe(9);
    } finally {
      vi.unstubAllEnvs();
      resetConfig();
      await localDriver().drained();
      await slow.close();
    }
  });

  it("resumes after a restart: a new driver picks up queued runs and running runs whose lease expired, charging each once", async () => {
    // Rows as a crashed server leaves them: one queued, one running with a dead worker's lease,
    // one running under a live lease (another worker's, left alone); each run's job likewise.
    const batchId = newId("batch");
    const states = [
      { status: "queued" as const, leaseExpiresAt: null, attempts: 0 },
      { status: "running" as const, leaseExpiresAt: new Date(Date.now() - 1000), attempts: 1 },
      { status: "running" as const, leaseExpiresAt: new Date(Date.now() + 600_000), attempts: 1 },
    ];
    const ids = states.map(() => newId("run"));
    await db().$transaction(async (tx) => {
      await tx.batch.create({ data: { id: batchId, workspaceId: alice.workspaceId, projectId: aliceProject, createdByUserId: alice.id, input: { prompt: "after a crash" } } });
      for (const [i, state] of states.entries()) {
        await tx.run.create({
          data: {
            id: ids[i]!, kind: "prompt", workspaceId: alice.workspaceId, projectId: aliceProject, batchId, engine: "chatgpt",
            subject: `after a crash ${i}`, input: { prompt: `after a crash ${i}`, engine: "chatgpt" }, createdByUserId: alice.id,
            ...state, startedAt: state.status === "running" ? new Date(Date.now() - 120_000) : null,
          },
        });
      }
      await holdCredit(sqlIn(tx), { workspaceId: alice.workspaceId, operationId: batchId, actor: actorOf(principalOf(alice)), lines: ids.map((runId) => ({ product: "prompt" as const, engine: "chatgpt", units: 1, runId })) });
      await tx.job.createMany({
        data: states.map((state, i) => ({
          id: ids[i]!, job: promptRunJob.id, payload: { run_id: ids[i]!, engine: "chatgpt" }, concurrencyKey: "chatgpt",
          status: state.status, attempts: state.attempts, leaseExpiresAt: state.leaseExpiresAt,
        })),
      });
    });
    const restarted = new LocalDriver({ concurrency: () => 8 });
    expect(await restarted.sweep()).toBe(2);
    await restarted.drained();
    const rows = await db().run.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" }, include: { hold: true } });
    expect(rows.map((r) => r.status)).toEqual(["completed", "completed", "running"]);
    expect(rows.map((r) => r.hold?.status)).toEqual(["captured", "captured", "held"]);
    for (const id of ids.slice(0, 2)) expect(await db().ledgerTransaction.count({ where: { runId: id, kind: "usage" } })).toBe(1);
    // A second sweep finds nothing new to do and charges nothing again.
    expect(await restarted.sweep()).toBe(0);
    // Tidy: the live-lease run's worker "died"; fail it so nothing stays held.
    const { failRun } = await import("@/lib/runs/lifecycle");
    expect(await failRun(ids[2]!, { code: "internal_error", message: "test cleanup", engine: null, retryable: true })).toBe(true);
    expect((await db().creditHold.findUniqueOrThrow({ where: { runId: ids[2]! } })).status).toBe("released");
  });

  it("runs the same step code on Inngest: the function executes a queued run once, and again changes nothing", async () => {
    const batchId = newId("batch");
    const runId = newId("run");
    await db().$transaction(async (tx) => {
      await tx.batch.create({ data: { id: batchId, workspaceId: alice.workspaceId, projectId: aliceProject, createdByUserId: alice.id, input: { prompt: "via inngest" } } });
      await tx.run.create({
        data: { id: runId, kind: "prompt", workspaceId: alice.workspaceId, projectId: aliceProject, batchId, engine: "claude", subject: "via inngest", input: { prompt: "via inngest", engine: "claude" }, createdByUserId: alice.id },
      });
      await holdCredit(sqlIn(tx), { workspaceId: alice.workspaceId, operationId: batchId, actor: actorOf(principalOf(alice)), lines: [{ product: "prompt", engine: "claude", units: 1, runId }] });
    });
    const events: [{ id: string; name: string; data: { run_id: string; engine: string } }] = [{ id: runId, name: runQueued.name, data: { run_id: runId, engine: "claude" } }];
    const t = new InngestTestEngine({ function: inngestFunctionOf(promptRunJob), events });
    const first = await t.execute();
    expect(first.result).toBe("completed");
    // A fresh engine: no memoised step state, as after a crash that lost it.
    const second = await new InngestTestEngine({ function: inngestFunctionOf(promptRunJob), events }).execute();
    expect(second.result).toBe("skipped");
    const row = await db().run.findUniqueOrThrow({ where: { id: runId }, include: { hold: true } });
    expect(row.status).toBe("completed");
    expect(row.hold?.status).toBe("captured");
    expect(await db().ledgerTransaction.count({ where: { runId, kind: "usage" } })).toBe(1);
  });
});
