// Fanouts end to end through the route handlers: estimate, creation all-or-nothing, the runs
// executed by the local driver against the engine simulator, the prompt → engine → run detail,
// the summaries, the query report, and GET /runs?fanout= and ?include=raw_envelope.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getBilling } from "@/app/api/v1/billing/route";
import { GET as listFanoutsRoute, POST as postFanouts } from "@/app/api/v1/fanouts/route";
import { POST as postEstimate } from "@/app/api/v1/fanouts/estimate/route";
import { GET as getFanoutRoute } from "@/app/api/v1/fanouts/[fanout_id]/route";
import { GET as getQueriesRoute } from "@/app/api/v1/fanouts/[fanout_id]/queries/route";
import { GET as getPricing } from "@/app/api/v1/pricing/route";
import { GET as getRunRoute } from "@/app/api/v1/runs/[run_id]/route";
import { GET as listRunsRoute } from "@/app/api/v1/runs/route";
import { POST as postVisibility } from "@/app/api/v1/visibility-analyses/route";
import { answerDirective } from "@/lib/engines/simulator/directive";
import { parseUsd, formatUsd } from "@/lib/billing/money";
import { resetConfig } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { createProject } from "@/lib/projects/create";
import { useTestDatabase } from "../helpers/app";
import { call } from "../helpers/http";
import { person, principalOf, type Person } from "../helpers/people";
import { useSimulatedEngines } from "../helpers/engines";

useSimulatedEngines({ billing: true });

useTestDatabase();

let alice: Person;
let bob: Person;
let aliceProject: string;
let bobProject: string;

async function projectOf(p: Person, name: string) {
  return (await createProject(principalOf(p), { name, workspace_id: p.workspaceId, context: null })).id;
}

const prompts = (...texts: string[]) => texts.map((text) => ({ text }));

function create(token: string, body: unknown) {
  return call(postFanouts, "POST", "/fanouts", { token, body });
}

/** The fanout once every run finished, woken by the workers' notifications. */
async function finished(token: string, id: string) {
  for (;;) {
    const res = await call(getFanoutRoute, "GET", `/fanouts/${id}`, { token, params: { fanout_id: id }, query: { wait: 30 } });
    expect(res.status).toBe(200);
    if (["completed", "partial", "failed"].includes(res.body.status)) return res.body;
  }
}

async function balanceOf(token: string) {
  return (await call(getBilling, "GET", "/billing", { token })).body;
}

beforeAll(async () => {
  alice = await person("alice@example.com");
  bob = await person("bob@example.com");
  aliceProject = await projectOf(alice, "Alice research");
  bobProject = await projectOf(bob, "Bob research");
});

afterAll(() => {
  resetConfig();
});

describe("POST /fanouts/estimate", () => {
  it("prices prompts × engines × runs at each engine's rate-card price, creating and holding nothing", async () => {
    const before = await balanceOf(alice.cliToken);
    const res = await call(postEstimate, "POST", "/fanouts/estimate", {
      token: alice.cliToken,
      body: { prompts: prompts("best crm", "best crm", "crm pricing"), engines: ["claude", "chatgpt"], runs: 4, project: aliceProject },
    });
    expect(res.status).toBe(200);
    const card = (await call(getPricing, "GET", "/pricing")).body;
    const price = (engine: string) => parseUsd(card.prices.find((p: any) => p.product === "prompt" && p.engine === engine).unit_price_usd);
    expect(res.body).toMatchObject({
      prompts: 3,
      engines: ["claude", "chatgpt"],
      runs: 4,
      executions: 24,
      max_executions: 1000,
      identical_prompts: 1,
      pricing_version: card.version,
      billing_enabled: true,
      available_usd: before.available_usd,
    });
    expect(res.body.lines).toEqual([
      { engine: "claude", executions: 12, unit_price_usd: formatUsd(price("claude")), amount_usd: formatUsd(price("claude") * 12n) },
      { engine: "chatgpt", executions: 12, unit_price_usd: formatUsd(price("chatgpt")), amount_usd: formatUsd(price("chatgpt") * 12n) },
    ]);
    expect(res.body.total_usd).toBe(formatUsd(price("claude") * 12n + price("chatgpt") * 12n));
    expect(res.body.sufficient).toBe(true);
    expect(await balanceOf(alice.cliToken)).toEqual(before);
    expect(await db().fanout.count()).toBe(0);
  });

  it("answers 200 over max_executions, and says the credit is not sufficient", async () => {
    const res = await call(postEstimate, "POST", "/fanouts/estimate", {
      token: alice.cliToken,
      body: { prompts: prompts(...Array.from({ length: 100 }, (_, i) => `prompt ${i}`)), runs: 20, project: aliceProject },
    });
    expect(res.status).toBe(200);
    // 100 prompts × 8 engines (simulated: every one) × 20 runs.
    expect(res.body.executions).toBe(16000);
    expect(res.body.max_executions).toBe(1000);
    expect(res.body.sufficient).toBe(false);
  });
});

describe("POST /fanouts", () => {
  it("creates nothing when over max_executions (400 naming both numbers) or short of credit (402)", async () => {
    const before = await balanceOf(alice.cliToken);
    const over = await create(alice.cliToken, { prompts: prompts(...Array.from({ length: 100 }, (_, i) => `p${i}`)), runs: 20, project: aliceProject });
    expect(over.status).toBe(400);
    expect(over.body.error.message).toContain("16000 executions");
    expect(over.body.error.message).toContain("1000 (max_executions)");

    // 10 prompts × 3 engines × 20 runs = 13.00 USD against the 5.00 promotional credit.
    const poor = await create(alice.cliToken, { prompts: prompts(...Array.from({ length: 10 }, (_, i) => `p${i}`)), engines: ["chatgpt", "claude", "gemini"], runs: 20, project: aliceProject });
    expect(poor.status).toBe(402);
    expect(poor.body.error).toMatchObject({ code: "insufficient_credit", retryable: false });
    expect(poor.body.error.message).toContain("13.00 USD");
    expect(poor.body.error.message).toContain(before.add_credit_url);

    expect(await balanceOf(alice.cliToken)).toEqual(before);
    expect(await db().fanout.count()).toBe(0);
    expect(await db().run.count({ where: { workspaceId: alice.workspaceId } })).toBe(0);
    expect(await db().creditHold.count({ where: { workspaceId: alice.workspaceId } })).toBe(0);
    const list = await call(listFanoutsRoute, "GET", "/fanouts", { token: alice.cliToken });
    expect(list.body).toEqual({ items: [], next_cursor: null });
  });

  it("runs every prompt on every engine `runs` times: the detail nests prompt → engine → run with each run's own queries", async () => {
    const res = await create(alice.apiKey, {
      prompts: prompts("best crm for a startup", "hubspot vs salesforce", "best crm for a startup"),
      runs: 2,
      project: aliceProject,
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      name: "best crm for a startup",
      status: "queued",
      // Simulated, every engine is enabled: the four model APIs and the four apps.
      engines: ["chatgpt", "claude", "gemini", "perplexity", "chatgpt_app", "gemini_app", "google_ai_overview", "google_ai_mode"],
      runs: 2,
      prompt_count: 3,
      execution_count: 48,
      counts: { queued: 48, running: 0, completed: 0, failed: 0 },
      project_id: aliceProject,
      created_by: "alice@example.com",
      completed_at: null,
      held_usd: "0.99",
      charged_usd: "0.00",
    });
    const billingWhileQueued = await balanceOf(alice.apiKey);
    expect(billingWhileQueued.held_usd).toBe("0.99");

    const done = await finished(alice.apiKey, res.body.id);
    expect(done.status).toBe("completed");
    expect(done.counts).toEqual({ queued: 0, running: 0, completed: 48, failed: 0 });
    expect(done.held_usd).toBe("0.00");
    expect(done.charged_usd).toBe("0.99");
    expect(done.completed_at).not.toBeNull();
    expect(done.prompts.map((p: any) => [p.index, p.text])).toEqual([
      [1, "best crm for a startup"],
      [2, "hubspot vs salesforce"],
      [3, "best crm for a startup"],
    ]);

    let total = 0;
    for (const prompt of done.prompts) {
      expect(prompt.engines.map((e: any) => e.engine)).toEqual(["chatgpt", "claude", "gemini", "perplexity", "chatgpt_app", "gemini_app", "google_ai_overview", "google_ai_mode"]);
      let promptTotal = 0;
      for (const engine of prompt.engines) {
        expect(engine.runs.map((r: any) => r.run_index)).toEqual([1, 2]);
        let engineTotal = 0;
        for (const obs of engine.runs) {
          // Every figure equals the run's own stored result.
          const run = (await call(getRunRoute, "GET", "", { token: alice.apiKey, params: { run_id: obs.run_id } })).body;
          expect(run).toMatchObject({ fanout_id: done.id, batch_id: null, engine: engine.engine, status: "completed" });
          expect(run.input).toEqual({
            prompt: prompt.text, engine: engine.engine, fanout_id: done.id, prompt_index: prompt.index, run_index: obs.run_index, location: null, language: null,
          });
          // Written in UTC like every other timestamp: the run was created with its fanout.
          expect(Math.abs(Date.parse(run.created_at) - Date.parse(done.created_at))).toBeLessThan(60_000);
          expect(obs.created_at).toBe(run.created_at);
          expect(obs.queries).toEqual(
            run.result.searches.map((s: any) => ({ text: s.query, position: s.position, search_call: s.search_call, provider_search_id: s.provider_search_id })),
          );
          expect(obs).toMatchObject({ model: run.model, searched: run.result.searched, search_calls: run.result.search_calls, charge: run.charge });
          engineTotal += run.result.searches.length;
        }
        expect(engine.query_count).toBe(engineTotal);
        promptTotal += engineTotal;
      }
      expect(prompt.query_count).toBe(promptTotal);
      total += promptTotal;
    }
    expect(done.query_count).toBe(total);
    expect(total).toBeGreaterThan(0);

    // GET /runs?fanout= lists exactly its runs.
    const listed = await call(listRunsRoute, "GET", "/runs", { token: alice.apiKey, query: { fanout: done.id, limit: 200 } });
    const ids = done.prompts.flatMap((p: any) => p.engines.flatMap((e: any) => e.runs.map((r: any) => r.run_id)));
    expect(listed.body.items.map((r: any) => r.id).sort()).toEqual([...ids].sort());

    // The summary carries the same totals, without observations or money.
    const list = await call(listFanoutsRoute, "GET", "/fanouts", { token: alice.apiKey, query: { project: aliceProject } });
    const summary = list.body.items.find((f: any) => f.id === done.id);
    const { prompts: _p, held_usd: _h, charged_usd: _c, shown: _s, ...expected } = done;
    expect(summary).toEqual(expected);
  });

  it("is partial when one engine fails: its runs released, the others captured, charged_usd their sum", async () => {
    const before = parseUsd((await balanceOf(alice.cliToken)).balance_usd);
    const res = await create(alice.cliToken, {
      prompts: prompts("claude is down [[sim:auth_error@claude]]", "still down [[sim:auth_error@claude]]"),
      engines: ["claude", "gemini"],
      runs: 2,
      project: aliceProject,
    });
    const done = await finished(alice.cliToken, res.body.id);
    expect(done.status).toBe("partial");
    expect(done.counts).toEqual({ queued: 0, running: 0, completed: 4, failed: 4 });
    let captured = 0n;
    for (const prompt of done.prompts) {
      const [claude, gemini] = prompt.engines;
      for (const run of claude.runs) {
        expect(run.status).toBe("failed");
        expect(run.error).toMatchObject({ code: "engine_auth_failed", engine: "claude" });
        expect(run.charge).toMatchObject({ status: "released", amount_usd: "0.00" });
        expect(run.queries).toEqual([]);
      }
      expect(claude.query_count).toBe(0);
      for (const run of gemini.runs) {
        expect(run.charge.status).toBe("captured");
        captured += parseUsd(run.charge.amount_usd);
      }
    }
    expect(done.charged_usd).toBe(formatUsd(captured));
    expect(done.held_usd).toBe("0.00");
    expect(parseUsd((await balanceOf(alice.cliToken)).balance_usd)).toBe(before - captured);
  });

  it("answers 404 for another workspace's fanout exactly as for a missing one, in every fanout endpoint and filter", async () => {
    const bobs = await create(bob.apiKey, { prompts: prompts("bob's prompt"), engines: ["gemini"], runs: 1, project: bobProject });
    await finished(bob.apiKey, bobs.body.id);
    const missing = newId("fanout");
    for (const [name, request] of [
      ["GET fanout", (id: string) => call(getFanoutRoute, "GET", "", { token: alice.apiKey, params: { fanout_id: id } })],
      ["GET queries", (id: string) => call(getQueriesRoute, "GET", "", { token: alice.apiKey, params: { fanout_id: id } })],
      ["GET runs?fanout", (id: string) => call(listRunsRoute, "GET", "/runs", { token: alice.apiKey, query: { fanout: id } })],
    ] as const) {
      const foreign = await request(bobs.body.id);
      const absent = await request(missing);
      expect(foreign.status, name).toBe(404);
      expect(foreign.body.error.message, name).toBe(`No such fanout "${bobs.body.id}".`);
      expect(foreign.text.replaceAll(bobs.body.id, "<id>"), name).toBe(absent.text.replaceAll(missing, "<id>"));
    }
    const foreignProject = await create(alice.apiKey, { prompts: prompts("x"), project: bobProject });
    expect(foreignProject.status).toBe(404);
    const list = await call(listFanoutsRoute, "GET", "/fanouts", { token: alice.apiKey, query: { limit: 200 } });
    expect(list.body.items.some((f: any) => f.id === bobs.body.id)).toBe(false);
  });

  it("checks each prompt's source: a questions analysis of the workspace and one of its questions, else 400 naming the index", async () => {
    const analysis = await db().analysis.create({
      data: {
        id: newId("questionsAnalysis"),
        kind: "questions",
        status: "completed",
        workspaceId: alice.workspaceId,
        projectId: aliceProject,
        subject: "crm",
        input: { topic: "crm", count: 2 },
        result: { questions: [{ id: "q1", text: "What is a CRM?" }, { id: "q2", text: "Which CRM is cheapest?" }] },
      },
    });
    const bobsAnalysis = await db().analysis.create({
      data: { id: newId("questionsAnalysis"), kind: "questions", status: "completed", workspaceId: bob.workspaceId, projectId: bobProject, subject: "x", input: {}, result: { questions: [{ id: "q1" }] } },
    });
    const bad = await create(alice.cliToken, {
      prompts: [
        { text: "What is a CRM?", source: { analysis_id: analysis.id, question_id: "q1" } },
        { text: "nope", source: { analysis_id: analysis.id, question_id: "q9" } },
        { text: "foreign", source: { analysis_id: bobsAnalysis.id, question_id: "q1" } },
      ],
      engines: ["gemini"],
      runs: 1,
      project: aliceProject,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe(
      `prompts[1].source: questions analysis ${analysis.id} has no question "q9"; ` +
        `prompts[2].source: no questions analysis ${bobsAnalysis.id} in this project's workspace`,
    );
    const malformed = await create(alice.cliToken, { prompts: [{ text: "x", source: { analysis_id: "ca_nope", question_id: "q1" } }], project: aliceProject });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.message).toMatch(/^prompts\[0\]\.source\.analysis_id: /);
    // A question id that is no question id at all is refused by its shape, without being repeated:
    // a megabyte of it once came back in the message.
    for (const questionId of ["é".repeat(500_000), "Q1", "q0", "q1 "]) {
      const misshapen = await create(alice.cliToken, { prompts: [{ text: "x", source: { analysis_id: analysis.id, question_id: questionId } }], project: aliceProject });
      expect(misshapen.status).toBe(400);
      expect(misshapen.body.error.message).toBe("prompts[0].source.question_id: must be a question id of the analysis: q followed by its number, such as q3");
    }

    const good = await create(alice.cliToken, {
      prompts: [{ text: "What is a CRM?", source: { analysis_id: analysis.id, question_id: "q1" } }, { text: "plain" }],
      engines: ["gemini"],
      runs: 1,
      project: aliceProject,
    });
    expect(good.status).toBe(202);
    expect(good.body.prompts.map((p: any) => p.source)).toEqual([{ kind: "question", analysis_id: analysis.id, question_id: "q1" }, null]);
    await finished(alice.cliToken, good.body.id);
  });
});

describe("GET /fanouts/{id}/queries", () => {
  it("counts, per prompt × engine, the completed runs that issued each query (case and spacing folded), with a 95% interval", async () => {
    const res = await create(alice.cliToken, { prompts: prompts("best running shoes"), engines: ["chatgpt", "claude"], runs: 5, project: aliceProject });
    const done = await finished(alice.cliToken, res.body.id);
    const report = await call(getQueriesRoute, "GET", "", { token: alice.cliToken, params: { fanout_id: done.id } });
    expect(report.status).toBe(200);
    expect(report.body.fanout_id).toBe(done.id);
    expect(report.body.groups.map((g: any) => [g.prompt_index, g.engine, g.completed_runs])).toEqual([
      [1, "chatgpt", 5],
      [1, "claude", 5],
    ]);
    for (const group of report.body.groups) {
      const runs = done.prompts[0].engines.find((e: any) => e.engine === group.engine).runs;
      const fold = (q: string) => q.trim().replace(/\s+/g, " ").toLowerCase();
      for (const q of group.queries) {
        const issuing = runs.filter((r: any) => r.queries.some((o: any) => fold(o.text) === fold(q.query)));
        expect(q.runs).toBe(issuing.length);
        expect(q.share).toBe(Math.round((issuing.length / 5) * 10_000) / 10_000);
        expect(q.share_interval[0]).toBeLessThanOrEqual(q.share);
        expect(q.share_interval[1]).toBeGreaterThanOrEqual(q.share);
      }
      const shares = group.queries.map((q: any) => q.share);
      expect(shares).toEqual([...shares].sort((a, b) => b - a));
      // Every observed query is counted once per group.
      const distinct = new Set(runs.flatMap((r: any) => r.queries.map((o: any) => fold(o.text))));
      expect(group.queries.length).toBe(distinct.size);
    }
  });
});

describe("GET /runs/{id}?include=raw_envelope", () => {
  it("adds what was sent and received, which the default body leaves out", async () => {
    const res = await create(alice.cliToken, { prompts: prompts("raw please"), engines: ["chatgpt"], runs: 1, project: aliceProject });
    const done = await finished(alice.cliToken, res.body.id);
    const runId = done.prompts[0].engines[0].runs[0].run_id;
    const plain = await call(getRunRoute, "GET", "", { token: alice.cliToken, params: { run_id: runId } });
    expect(plain.body).not.toHaveProperty("raw_envelope");
    const raw = await call(getRunRoute, "GET", "", { token: alice.cliToken, params: { run_id: runId }, query: { include: "raw_envelope" } });
    expect(raw.status).toBe(200);
    expect(raw.body.raw_envelope).toMatchObject({ engine: "chatgpt", normalizer_version: expect.any(String) });
    expect(raw.body.raw_envelope.exchanges.length).toBeGreaterThan(0);
    expect(JSON.stringify(raw.body.raw_envelope)).not.toMatch(/sk-|Bearer /);
    const { raw_envelope: _r, ...rest } = raw.body;
    expect(rest).toEqual(plain.body);
    const bad = await call(getRunRoute, "GET", "", { token: alice.cliToken, params: { run_id: runId }, query: { include: "everything" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('include: must be one of: "raw_envelope" (got "everything")');
  });
});

describe("billing off", () => {
  it("prices the estimate but leaves available_usd, sufficient, held_usd and charged_usd null", async () => {
    process.env.BILLING_ENABLED = "false";
    resetConfig();
    try {
      const estimate = await call(postEstimate, "POST", "/fanouts/estimate", { token: alice.cliToken, body: { prompts: prompts("x"), engines: ["gemini"], runs: 1, project: aliceProject } });
      expect(estimate.body).toMatchObject({ billing_enabled: false, available_usd: null, sufficient: null, total_usd: "0.015" });
      const res = await create(alice.cliToken, { prompts: prompts("x"), engines: ["gemini"], runs: 1, project: aliceProject });
      expect(res.body).toMatchObject({ held_usd: null, charged_usd: null });
      const done = await finished(alice.cliToken, res.body.id);
      expect(done).toMatchObject({ status: "completed", held_usd: null, charged_usd: null });
      expect(done.prompts[0].engines[0].runs[0].charge).toBeNull();
    } finally {
      process.env.BILLING_ENABLED = "true";
      resetConfig();
    }
  });
});

describe("the estimate's margin", () => {
  it("says how precise each engine's visibility rates will be, and at the brand's last rate once a visibility analysis exists", async () => {
    const planner = await person("planner@example.com");
    const project = (await createProject(principalOf(planner), { name: "Margins", workspace_id: planner.workspaceId, context: { brands: ["Acme"], competitors: ["HubSpot"] } })).id;
    const estimate = (runs: number) =>
      call(postEstimate, "POST", "/fanouts/estimate", { token: planner.cliToken, body: { prompts: prompts("a", "b", "c"), engines: ["chatgpt", "claude"], runs, project } });
    // 3 prompts × 10 runs: 30 answers per engine; Wilson's 95% half-width at 50% over 30 is 1.96 / (2 √(30 + 1.96²)) = 0.1685.
    const before = (await estimate(10)).body;
    expect(before.margin).toEqual({
      runs_per_engine: 30,
      at_half: 0.1685,
      at_last_rate: null,
      last_rate: null,
      runs_for_5_points: 385,
      summary: ["About ±17 points per engine (30 runs each); to reach ±5, 385 runs per engine."],
    });

    // Acme named in 1 of 4 prompts on both engines: visibility 2 of 8 (25%).
    const texts = ["Acme is a fine CRM.", "HubSpot is a fine CRM.", "HubSpot again.", "Nothing to name."].map((t, i) => ({ text: `crm question ${i} ${answerDirective(t)}` }));
    const fanout = await create(planner.cliToken, { prompts: texts, engines: ["chatgpt", "claude"], runs: 1, project });
    expect(fanout.status).toBe(202);
    await finished(planner.cliToken, fanout.body.id);
    const analysis = await call(postVisibility, "POST", "/visibility-analyses", { token: planner.cliToken, body: { ids: [fanout.body.id] } });
    expect(analysis.status).toBe(201);

    const after = (await estimate(10)).body;
    // Wilson's 95% half-width at 25% over 30: 0.1486.
    expect(after.margin).toEqual({
      runs_per_engine: 30,
      at_half: 0.1685,
      at_last_rate: 0.1486,
      last_rate: { analysis_id: analysis.body.id, entity: "Acme", runs: 8, runs_mentioning: 2, visibility: 0.25 },
      runs_for_5_points: 385,
      summary: ["About ±17 points per engine (30 runs each); to reach ±5, 385 runs per engine.", "At Acme's last visibility (25%), about ±15 points."],
    });
    // Enough runs (20 prompts × 20): no advice to add more.
    const many = await call(postEstimate, "POST", "/fanouts/estimate", {
      token: planner.cliToken,
      body: { prompts: prompts(...Array.from({ length: 20 }, (_, i) => `p${i}`)), engines: ["chatgpt"], runs: 20, project },
    });
    expect(many.body.margin.summary[0]).toBe("About ±5 points per engine (400 runs each).");
  });
});
