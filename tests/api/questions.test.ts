// Questions analyses end to end through the route handlers: POST /questions queues the analysis,
// its `questions` run and a hold; the local driver generates the questions on the engine simulator
// through each provider's real SDK; GET /analyses/{id} answers them with clusters, provenance and
// the charge for what came back.
import { createHash } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET as getAnalysisRoute } from "@/app/api/v1/analyses/[analysis_id]/route";
import { GET as listAnalysesRoute } from "@/app/api/v1/analyses/route";
import { GET as getBilling } from "@/app/api/v1/billing/route";
import { POST as postEstimate } from "@/app/api/v1/fanouts/estimate/route";
import { GET as getPricing } from "@/app/api/v1/pricing/route";
import { POST as postQuestions } from "@/app/api/v1/questions/route";
import { GET as getRunRoute } from "@/app/api/v1/runs/[run_id]/route";
import { runBillingAdminCommand } from "@/lib/billing/admin";
import { formatUsd, parseUsd } from "@/lib/billing/money";
import { resetConfig } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { createProject } from "@/lib/projects/create";
import { QuestionsAnalysis } from "@/lib/schemas/questions";
import { localDriver } from "@/lib/work/local-driver";
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { call } from "../helpers/http";
import { person, principalOf, type Person } from "../helpers/people";

useSimulatedEngines({ billing: true });
useTestDatabase();

let alice: Person;
let bob: Person;
let aliceProject: string;

beforeAll(async () => {
  alice = await person("alice@example.com");
  bob = await person("bob@example.com");
  aliceProject = (await createProject(principalOf(alice), { name: "Alice research", workspace_id: alice.workspaceId, context: null })).id;
});

afterEach(async () => {
  // Drained before the clean-up below, which no job still running may undo (setup-api.ts drains only after it).
  await localDriver().drained();
  delete process.env.QUESTIONS_ENGINE;
  resetConfig();
});

afterAll(() => {
  resetConfig();
});

function ask(token: string, body: unknown) {
  return call(postQuestions, "POST", "/questions", { token, body });
}

function getAnalysis(token: string, id: string, wait = 30) {
  return call(getAnalysisRoute, "GET", `/analyses/${id}`, { token, params: { analysis_id: id }, query: { wait } });
}

async function questionPrice(): Promise<bigint> {
  const card = (await call(getPricing, "GET", "/pricing")).body;
  return parseUsd(card.prices.find((p: { product: string }) => p.product === "questions").unit_price_usd);
}

describe("POST /questions", () => {
  it.each(["chatgpt", "claude", "gemini"])("generates 30 questions on %s: clustered, with provenance, paid for what came back", async (engine) => {
    process.env.QUESTIONS_ENGINE = engine;
    resetConfig();
    const price = await questionPrice();
    const topic = `project management software for small teams (${engine})`;

    const queued = await ask(alice.cliToken, { topic, count: 30, project: aliceProject });
    expect(queued.status).toBe(202);
    expect(() => QuestionsAnalysis.parse(queued.body)).not.toThrow();
    expect(queued.body).toMatchObject({
      kind: "questions",
      status: "queued",
      subject: topic,
      topic,
      requested_count: 30,
      project_id: aliceProject,
      created_by: alice.email,
      questions: [],
      clusters: [],
      provenance: null,
      error: null,
      charge: { status: "held", unit: "question", units: 30, amount_usd: formatUsd(price * 30n) },
    });
    expect(queued.body.id).toMatch(/^fa_/);
    expect(queued.body.run_ids).toHaveLength(1);

    const done = await getAnalysis(alice.cliToken, queued.body.id);
    expect(done.status).toBe(200);
    const analysis = done.body;
    expect(() => QuestionsAnalysis.parse(analysis)).not.toThrow();
    expect(analysis.status).toBe("completed");
    const n = analysis.questions.length;
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThanOrEqual(30);
    // The simulator repeats one question with other case and punctuation: it is kept once.
    expect(n).toBe(29);
    expect(analysis.questions.map((q: { id: string }) => q.id)).toEqual(Array.from({ length: n }, (_, i) => `q${i + 1}`));
    const folded = analysis.questions.map((q: { text: string }) => q.text.toLowerCase().replace(/[^\p{L}\p{N} ]/gu, "").replace(/\s+/g, " "));
    expect(new Set(folded).size).toBe(n);

    // Every cluster lists exactly the questions that name it, in order; ids c1, c2, … in order of first use.
    const clusterIds = analysis.clusters.map((c: { id: string }) => c.id);
    expect(clusterIds).toEqual(Array.from({ length: clusterIds.length }, (_, i) => `c${i + 1}`));
    for (const cluster of analysis.clusters) {
      expect(cluster.name.length).toBeGreaterThan(0);
      expect(cluster.question_ids).toEqual(analysis.questions.filter((q: { cluster_id: string }) => q.cluster_id === cluster.id).map((q: { id: string }) => q.id));
    }
    expect(analysis.clusters.flatMap((c: { question_ids: string[] }) => c.question_ids).sort()).toEqual(analysis.questions.map((q: { id: string }) => q.id).sort());
    expect(analysis.clusters.length).toBeGreaterThan(1);

    const runId = analysis.run_ids[0];
    expect(analysis.provenance).toMatchObject({ strategy: "llm_generation", prompt_version: "1", run_id: runId, engine });
    expect(analysis.provenance.prompt_sha).toBe(createHash("sha256").update(analysis.provenance.prompt_text, "utf8").digest("hex"));
    expect(analysis.provenance.prompt_text).toContain(`Topic: ${topic}`);
    expect(analysis.provenance.prompt_text).toContain("Number of questions: 30");
    expect(analysis.provenance.model).toMatch(/-simulated$/);

    // Held for 30, paid for the 29 that came back.
    expect(analysis.charge).toEqual({
      status: "captured", unit: "question", units: n, unit_price_usd: formatUsd(price), amount_usd: formatUsd(price * BigInt(n)), pricing_version: expect.any(String),
    });

    // The run: kind questions, no result of its own, the request and reply kept in its envelope.
    const run = await call(getRunRoute, "GET", `/runs/${runId}`, { token: alice.cliToken, params: { run_id: runId }, query: { include: "raw_envelope" } });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ kind: "questions", status: "completed", engine, result: null, model: analysis.provenance.model });
    const exchanges = run.body.raw_envelope.exchanges;
    expect(exchanges).toHaveLength(1);
    expect(JSON.stringify(exchanges[0].request.body)).toContain(topic);
    expect(JSON.stringify(exchanges[0].request.body)).not.toContain("web_search");
  });

  it("asks for 25 questions when count is omitted", async () => {
    const res = await ask(alice.cliToken, { topic: "espresso machines", project: aliceProject });
    expect(res.status).toBe(202);
    expect(res.body.requested_count).toBe(25);
    const done = await getAnalysis(alice.cliToken, res.body.id);
    expect(done.body.status).toBe("completed");
    expect(done.body.questions.length).toBeLessThanOrEqual(25);
  });

  it("asks again once when the structured reply is unusable", async () => {
    const res = await ask(alice.cliToken, { topic: "bike commuting [[sim:invalid_json*1]]", count: 10, project: aliceProject });
    const done = await getAnalysis(alice.cliToken, res.body.id);
    expect(done.body.status).toBe("completed");
    expect(done.body.questions.length).toBeGreaterThan(0);
    const runId = done.body.run_ids[0];
    const run = await call(getRunRoute, "GET", `/runs/${runId}`, { token: alice.cliToken, params: { run_id: runId }, query: { include: "raw_envelope" } });
    // Both replies are kept: the unusable one and the one used.
    expect(run.body.raw_envelope.exchanges).toHaveLength(2);
  });

  it("fails and releases the hold when the reply is unusable twice", async () => {
    const before = (await call(getBilling, "GET", "/billing", { token: alice.cliToken })).body;
    const res = await ask(alice.cliToken, { topic: "bike commuting [[sim:invalid_json]]", count: 10, project: aliceProject });
    expect(res.body.charge.status).toBe("held");
    const done = await getAnalysis(alice.cliToken, res.body.id);
    expect(done.body.status).toBe("failed");
    expect(done.body.error).toMatchObject({ code: "engine_malformed_response", retryable: true });
    expect(done.body.error.message).toContain("2 times");
    expect(done.body.questions).toEqual([]);
    expect(done.body.provenance).toBeNull();
    expect(done.body.charge).toMatchObject({ status: "released", amount_usd: "0.00" });
    expect(done.body.completed_at).not.toBeNull();

    const runId = done.body.run_ids[0];
    const run = await call(getRunRoute, "GET", `/runs/${runId}`, { token: alice.cliToken, params: { run_id: runId }, query: { include: "raw_envelope" } });
    expect(run.body).toMatchObject({ status: "failed", error: { code: "engine_malformed_response" } });
    expect(run.body.raw_envelope.exchanges).toHaveLength(2);
    // Nothing was charged: the balance is as it was.
    const after = (await call(getBilling, "GET", "/billing", { token: alice.cliToken })).body;
    expect(after.available_usd).toBe(before.available_usd);
  });

  it("fails with the engine's error when the provider refuses the request", async () => {
    const res = await ask(alice.cliToken, { topic: "garden sheds [[sim:bad_request]]", count: 5, project: aliceProject });
    const done = await getAnalysis(alice.cliToken, res.body.id);
    expect(done.body.status).toBe("failed");
    expect(done.body.error).toMatchObject({ code: "engine_bad_request", retryable: false });
    expect(done.body.charge.status).toBe("released");
  });

  it("refuses bad input with 400 naming the field, creating nothing", async () => {
    const before = await db().analysis.count();
    const cases: [unknown, string][] = [
      [{ topic: "x", count: 0, project: aliceProject }, "count"],
      [{ topic: "x", count: 101, project: aliceProject }, "count"],
      [{ topic: "x", count: 2.5, project: aliceProject }, "count"],
      [{ topic: "x", count: "10", project: aliceProject }, "count"],
      [{ topic: "", project: aliceProject }, "topic"],
      [{ topic: "   ", project: aliceProject }, "topic"],
      [{ topic: "a".repeat(501), project: aliceProject }, "topic"],
      [{ topic: "x" }, "project"],
      [{ topic: "x", project: aliceProject, engine: "claude" }, "engine"],
    ];
    for (const [body, field] of cases) {
      const res = await ask(alice.cliToken, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      expect(res.body.error.message).toContain(field);
    }
    expect((await ask(alice.cliToken, { topic: "a".repeat(500), count: 1, project: aliceProject })).status).toBe(202);
    expect(await db().analysis.count()).toBe(before + 1);
  });

  it("answers 402 and creates nothing when credit does not cover count questions", async () => {
    const carol = await person("carol@example.com");
    const project = (await createProject(principalOf(carol), { name: "Carol", workspace_id: carol.workspaceId, context: null })).id;
    // Leaves 0.01 USD of the 5.00 promotional credit: 25 questions at 0.002 need 0.05.
    await runBillingAdminCommand("credit:adjust", ["--workspace", carol.workspaceId, "--usd", "-4.99", "--promo", "--note", "test"]);
    const res = await ask(carol.cliToken, { topic: "tax software", project });
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe("insufficient_credit");
    expect(await db().analysis.count({ where: { workspaceId: carol.workspaceId } })).toBe(0);
    expect(await db().run.count({ where: { workspaceId: carol.workspaceId } })).toBe(0);
    expect(await db().creditHold.count({ where: { workspaceId: carol.workspaceId } })).toBe(0);
    // Five questions fit.
    expect((await ask(carol.cliToken, { topic: "tax software", count: 5, project })).status).toBe(202);
  });

  it("keeps analyses inside their workspace: 404 for a foreign project or analysis, as for a missing one", async () => {
    const foreign = await ask(bob.cliToken, { topic: "x", project: aliceProject });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toContain(aliceProject);

    const mine = await ask(alice.cliToken, { topic: "standing desks", count: 3, project: aliceProject });
    await getAnalysis(alice.cliToken, mine.body.id);
    const theirs = await getAnalysis(bob.cliToken, mine.body.id, 0);
    const missingId = `fa_${mine.body.id.slice(3, -1)}${mine.body.id.endsWith("0") ? "1" : "0"}`;
    const missing = await getAnalysis(bob.cliToken, missingId, 0);
    expect(theirs.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(theirs.body.error.message.replace(mine.body.id, "ID")).toBe(missing.body.error.message.replace(missingId, "ID"));
    const list = await call(listAnalysesRoute, "GET", "/analyses", { token: bob.cliToken });
    expect(list.body.items).toEqual([]);
  });

  it("lists questions analyses by kind, newest first, and turns their questions into a fanout estimate", async () => {
    const res = await ask(alice.cliToken, { topic: "home espresso grinders", count: 8, project: aliceProject });
    const done = (await getAnalysis(alice.cliToken, res.body.id)).body;
    const questions = await call(listAnalysesRoute, "GET", "/analyses", { token: alice.cliToken, query: { kind: "questions" } });
    expect(questions.body.items[0]).toMatchObject({ id: res.body.id, kind: "questions", status: "completed", subject: "home espresso grinders", run_count: 1 });
    expect(questions.body.items.every((a: { kind: string }) => a.kind === "questions")).toBe(true);
    const citations = await call(listAnalysesRoute, "GET", "/analyses", { token: alice.cliToken, query: { kind: "citations" } });
    expect(citations.body.items.find((a: { id: string }) => a.id === res.body.id)).toBeUndefined();

    const cluster = done.clusters[0];
    const prompts = cluster.question_ids.map((qid: string) => ({
      text: done.questions.find((q: { id: string }) => q.id === qid).text,
      source: { kind: "question", analysis_id: done.id, question_id: qid },
    }));
    const estimate = await call(postEstimate, "POST", "/fanouts/estimate", { token: alice.cliToken, body: { prompts, runs: 2, project: aliceProject } });
    expect(estimate.status).toBe(200);
    expect(estimate.body.prompts).toBe(cluster.question_ids.length);
  });
});
