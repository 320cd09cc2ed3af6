// Judged visibility (decisions.md "Judged visibility") through the route handlers: POST
// /visibility-analyses with `judge` answers 202 with the rule-based figures and the analysis
// queued; the local driver's job asks the judge engine (the simulator, through each provider's
// real SDK) once per run with structured output; GET /analyses/{id} follows it to the result.
//
// The fixture's answers are fixed with [[sim:answer:…]], so every verdict of the simulated judge
// is known (lib/engines/simulator/judge.ts: a name anywhere in the answer is "mentioned", the
// sentiment comes from words of its sentence, the sentence is the quote):
//   A chatgpt  "Acme CRM is the best…" (Acme positive), "HubSpot is expensive…" (HubSpot negative), Salesforce named.
//   B claude   "Teams love HubSpot…" (positive); "I couldn't find any information about Zoho CRM." (the
//              judge says mentioned, neutral; the rules do not count an absence): the one disagreement.
//   C gemini   Pipedrive named; "Acme is limited in reports." (Acme negative).
//   D chatgpt  [[sim:judge_misquote]]: "Zoho is popular…": its quote reworded, so rejected (and not counted).
//   E claude   [[sim:judge_invent]]: HubSpot neutral, Freshsales named, and "Vaporware Suite" invented (dropped).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getAnalysisRoute } from "@/app/api/v1/analyses/[analysis_id]/route";
import { GET as getBatchRoute } from "@/app/api/v1/batches/[batch_id]/route";
import { GET as getBilling } from "@/app/api/v1/billing/route";
import { GET as getTransactions } from "@/app/api/v1/billing/transactions/route";
import { GET as getUsage } from "@/app/api/v1/billing/usage/route";
import { POST as postProjects } from "@/app/api/v1/projects/route";
import { POST as postPrompts } from "@/app/api/v1/prompts/route";
import { POST as postVisibility } from "@/app/api/v1/visibility-analyses/route";
import { runBillingAdminCommand } from "@/lib/billing/admin";
import { formatUsd, parseUsd } from "@/lib/billing/money";
import { resetConfig } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { answerDirective } from "@/lib/engines/simulator/directive";
import { VisibilityAnalysis, type EntityInput } from "@/lib/schemas/visibility";
import { wilsonInterval } from "@/lib/stats";
import { JUDGE_PROMPT_SHA, JUDGE_PROMPT_TEMPLATE } from "@/lib/visibility/judge";
import { finishJudgedAnalysis, judgeRuns } from "@/lib/visibility/judging";
import { createHash } from "node:crypto";
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { call } from "../helpers/http";
import { person, type Person } from "../helpers/people";

useSimulatedEngines({ billing: true });
useTestDatabase();

const A = "Acme CRM is the best choice for small agencies.\nHubSpot is expensive for small teams.\nSalesforce is another option.";
const B = "Teams love HubSpot for its free plan.\nI couldn't find any information about Zoho CRM.";
const C = "Pipedrive is simple to use. Acme is limited in reports.";
const D = "Zoho is popular with startups.";
const E = "HubSpot and Freshsales both work.";

const ENTITIES: EntityInput[] = [
  { name: "Acme CRM", role: "brand", aliases: ["Acme"] },
  { name: "HubSpot", role: "competitor" },
  { name: "Zoho CRM", role: "competitor", aliases: ["Zoho"] },
];

let alice: Person;
let bob: Person;
let project: string;
const runs = { a: "", b: "", c: "", d: "", e: "", unusable: "", onceUnusable: "", judgeDown: "" };

async function finishedRun(token: string, body: Record<string, unknown>): Promise<string> {
  const res = await call(postPrompts, "POST", "/prompts", { token, body });
  expect(res.status, res.text).toBe(202);
  const id = res.body.batch.id as string;
  const done = await call(getBatchRoute, "GET", `/batches/${id}`, { token, params: { batch_id: id }, query: { wait: 30 } });
  expect(done.body.batch.status).toBe("completed");
  return done.body.batch.run_ids[0] as string;
}

const analyse = (token: string, body: unknown) => call(postVisibility, "POST", "/visibility-analyses", { token, body });
const getAnalysis = (token: string, id: string, wait = 30) =>
  call(getAnalysisRoute, "GET", `/analyses/${id}`, { token, params: { analysis_id: id }, query: { wait } });

async function available(person: Person): Promise<bigint> {
  const res = await call(getBilling, "GET", "/billing", { token: person.cliToken, query: { workspace: person.workspaceId } });
  expect(res.status, res.text).toBe(200);
  return parseUsd(res.body.available_usd);
}

beforeAll(async () => {
  alice = await person("alice@example.com");
  bob = await person("bob@example.com");
  const created = await call(postProjects, "POST", "/projects", { token: alice.cliToken, body: { name: "Judged", workspace_id: alice.workspaceId, context: null } });
  expect(created.status).toBe(201);
  project = created.body.id;
  runs.a = await finishedRun(alice.cliToken, { prompt: `best crm for agencies ${answerDirective(A)}`, project, engines: ["chatgpt"] });
  runs.b = await finishedRun(alice.cliToken, { prompt: `crm with a free plan ${answerDirective(B)}`, project, engines: ["claude"] });
  runs.c = await finishedRun(alice.cliToken, { prompt: `simple crm ${answerDirective(C)}`, project, engines: ["gemini"] });
  runs.d = await finishedRun(alice.cliToken, { prompt: `crm for startups [[sim:judge_misquote]] ${answerDirective(D)}`, project, engines: ["chatgpt"] });
  runs.e = await finishedRun(alice.cliToken, { prompt: `crm that works [[sim:judge_invent]] ${answerDirective(E)}`, project, engines: ["claude"] });
  runs.unusable = await finishedRun(alice.cliToken, { prompt: `crm judged badly [[sim:judge_unusable]] ${answerDirective(A)}`, project, engines: ["chatgpt"] });
  // Answered on chatgpt; the judge on claude fails on every attempt.
  runs.judgeDown = await finishedRun(alice.cliToken, { prompt: `crm whose judge is down [[sim:server_error@claude]] ${answerDirective(C)}`, project, engines: ["chatgpt"] });
  runs.onceUnusable = await finishedRun(alice.cliToken, { prompt: `crm judged badly once [[sim:judge_unusable*1]] ${answerDirective(B)}`, project, engines: ["chatgpt"] });
});

afterAll(() => {
  resetConfig();
});

describe("POST /visibility-analyses with judge", () => {
  it("queues (202) with the rule-based figures and a hold per run, then completes with verified sentiment, discovered names and agreement", async () => {
    const before = await available(alice);
    const ids = [runs.a, runs.b, runs.c, runs.d, runs.e];
    const queued = await analyse(alice.cliToken, { ids, entities: ENTITIES, judge: { engine: "chatgpt", sentiment: true, discover: true } });
    expect(queued.status, queued.text).toBe(202);
    expect(() => VisibilityAnalysis.parse(queued.body)).not.toThrow();
    expect(queued.body.status).toBe("queued");
    // The rules' figures are there at once: Acme in A and C, HubSpot in A, B and E, Zoho only in D (B's is an absence).
    expect(queued.body.rows.map((r: { runs_mentioning: number }) => r.runs_mentioning)).toEqual([2, 3, 1]);
    expect(queued.body.rows.every((r: { sentiment: unknown }) => r.sentiment === null)).toBe(true);
    expect(queued.body.judge).toMatchObject({ engine: "chatgpt", runs: 5, runs_done: 0, runs_judged: 0, prompt_version: "1" });
    // 5 runs at the rate card's 0.004 for chatgpt, held at once.
    expect(queued.body.charge).toEqual({ status: "held", amount_usd: "0.02", unit: "run", units: 5, unit_price_usd: "0.004", pricing_version: "2026-11-29" });
    expect(await available(alice)).toBe(before - parseUsd("0.02"));

    const done = await getAnalysis(alice.cliToken, queued.body.id);
    expect(done.status).toBe(200);
    const a = done.body;
    expect(() => VisibilityAnalysis.parse(a)).not.toThrow();
    expect(a.status).toBe("completed");
    expect(a.judge).toMatchObject({
      engine: "chatgpt", prompt_version: "1", prompt_sha: createHash("sha256").update(JUDGE_PROMPT_TEMPLATE).digest("hex"),
      sentiment: true, discover: true, runs: 5, runs_done: 5, runs_judged: 5, runs_not_judged: [],
      // D's reworded quote; E's invented name.
      quotes_rejected: 1, names_dropped: 1,
    });
    expect(a.judge.prompt_sha).toBe(JUDGE_PROMPT_SHA);
    expect(a.judge.model).toMatch(/simulated$/);

    const [acme, hubspot, zoho] = a.rows;
    const score = (k: number, n: number) => wilsonInterval(k, n).map((x) => Math.round(x * 10_000) / 10_000);
    expect(acme.sentiment).toMatchObject({ runs_judged: 5, positive: 1, neutral: 0, negative: 1, score: 0.5, score_interval: score(1, 2) });
    expect(hubspot.sentiment).toMatchObject({ runs_judged: 5, positive: 1, neutral: 1, negative: 1, score: 0.5, score_interval: score(1, 2) });
    // B's absence sentence judged neutral; D's sentiment rejected with its quote.
    expect(zoho.sentiment).toMatchObject({ positive: 0, neutral: 1, negative: 0, score: null, score_interval: [0, 1] });
    // Every quote shown occurs verbatim in its run's answer.
    const answers: Record<string, string> = { [runs.a]: A, [runs.b]: B, [runs.c]: C, [runs.d]: D, [runs.e]: E };
    const quotes = a.rows.flatMap((r: { sentiment: { quotes: { run_id: string; quote: string }[] } }) => r.sentiment.quotes);
    expect(quotes.length).toBe(6);
    for (const q of quotes) expect(answers[q.run_id]).toContain(q.quote);
    expect(acme.sentiment.quotes).toEqual([
      { run_id: runs.a, engine: "chatgpt", sentiment: "positive", quote: "Acme CRM is the best choice for small agencies." },
      { run_id: runs.c, engine: "gemini", sentiment: "negative", quote: "Acme is limited in reports." },
    ]);
    expect(zoho.sentiment.quotes.map((q: { run_id: string }) => q.run_id)).toEqual([runs.b]);

    // Discovered: each named in one of the 5 judged runs; the invented name is gone.
    expect(a.discovered.map((d: { name: string }) => d.name)).toEqual(["Freshsales", "Pipedrive", "Salesforce"]);
    for (const d of a.discovered) {
      expect(d).toMatchObject({ runs_mentioning: 1, visibility: 0.2, visibility_interval: score(1, 5) });
    }
    expect(a.discovered.find((d: { name: string }) => d.name === "Pipedrive").by_engine).toEqual([
      { engine: "chatgpt", runs: 2, runs_mentioning: 0, visibility: 0, visibility_interval: score(0, 2) },
      { engine: "claude", runs: 2, runs_mentioning: 0, visibility: 0, visibility_interval: score(0, 2) },
      { engine: "gemini", runs: 1, runs_mentioning: 1, visibility: 1, visibility_interval: score(1, 1) },
    ]);

    // By hand over 5 runs x 3 entities: the judge says yes to 7 pairs, the rules to 6, both to 6 (B's
    // Zoho is the judge's alone). po = 14/15, pe = (7/15)(6/15) + (8/15)(9/15) = 114/225,
    // kappa = (210 - 114) / (225 - 114) = 96/111.
    expect(a.agreement).toEqual({ runs: 5, agreeing: 4, pairs: 15, pairs_agreeing: 14, kappa: Math.round((96 / 111) * 10_000) / 10_000 });

    // All 5 judged: the whole hold captured.
    expect(a.charge).toEqual({ status: "captured", amount_usd: "0.02", unit: "run", units: 5, unit_price_usd: "0.004", pricing_version: "2026-11-29" });
    expect(await available(alice)).toBe(before - parseUsd("0.02"));
    const holds = await db().creditHold.findMany({ where: { analysisId: a.id } });
    expect(holds.map((h) => ({ product: h.product, engine: h.engine, units: h.units, status: h.status, captured: h.capturedUnits }))).toEqual([
      { product: "judge", engine: "chatgpt", units: 5, status: "captured", captured: 5 },
    ]);
    // The usage transaction names the analysis; the usage report has a judge row.
    const transactions = await call(getTransactions, "GET", "/billing/transactions", { token: alice.cliToken, query: { workspace: alice.workspaceId, limit: 200 } });
    expect(transactions.status, transactions.text).toBe(200);
    const charged = transactions.body.items.filter((t: { operation_id: string | null }) => t.operation_id === a.id);
    expect(charged.map((t: { kind: string; amount_usd: string; description: string }) => [t.kind, t.amount_usd, t.description])).toEqual([
      ["usage", "-0.02", "judge on chatgpt: 5 runs at 0.004 USD"],
    ]);
    const usage = await call(getUsage, "GET", "/billing/usage", { token: alice.cliToken, query: { workspace: alice.workspaceId } });
    expect(usage.status, usage.text).toBe(200);
    expect(usage.body.rows.filter((r: { product: string }) => r.product === "judge")).toEqual([
      { day: expect.any(String), product: "judge", engine: "chatgpt", unit: "run", operations: 1, units: 5, charged_usd: "0.02" },
    ]);
  });

  it("asks once more after an unusable reply; a second one leaves the run not judged, said so and not charged", async () => {
    const before = await available(alice);
    const queued = await analyse(alice.cliToken, { ids: [runs.unusable, runs.onceUnusable], entities: ENTITIES, judge: { engine: "claude", sentiment: true } });
    expect(queued.status, queued.text).toBe(202);
    // 2 runs at 0.006 on claude.
    expect(queued.body.charge).toMatchObject({ status: "held", amount_usd: "0.012", units: 2 });
    const a = (await getAnalysis(alice.cliToken, queued.body.id)).body;
    expect(a.status).toBe("completed");
    expect(a.judge.runs_judged).toBe(1);
    expect(a.judge.runs_not_judged).toEqual([{ run_id: runs.unusable, reason: expect.stringMatching(/unusable 2 times.*glowing/) }]);
    expect(a.discovered).toBeNull();
    // The run judged on its second try: B's HubSpot positive, Zoho (the absence) neutral.
    expect(a.rows[1].sentiment).toMatchObject({ runs_judged: 1, positive: 1 });
    expect(a.agreement).toMatchObject({ runs: 1, agreeing: 0, pairs: 3, pairs_agreeing: 2 });
    // Captured for the one run judged, the rest released.
    expect(a.charge).toEqual({ status: "captured", amount_usd: "0.006", unit: "run", units: 1, unit_price_usd: "0.006", pricing_version: "2026-11-29" });
    expect(await available(alice)).toBe(before - parseUsd("0.006"));
  });

  it("leaves a run not judged when the judge engine keeps failing, and runs each step's effect once", async () => {
    const before = await available(alice);
    const queued = await analyse(alice.cliToken, { ids: [runs.judgeDown, runs.c], entities: ENTITIES, judge: { engine: "claude" } });
    expect(queued.status, queued.text).toBe(202);
    const a = (await getAnalysis(alice.cliToken, queued.body.id)).body;
    expect(a.status).toBe("completed");
    expect(a.judge.runs_not_judged).toEqual([{ run_id: runs.judgeDown, reason: expect.stringMatching(/^claude failed: /) }]);
    expect(a.charge).toMatchObject({ status: "captured", units: 1, amount_usd: "0.006" });
    // The job's steps run again (a driver resuming it): nothing is judged or charged twice.
    expect(await judgeRuns(a.id)).toBe("finished");
    expect(await finishJudgedAnalysis(a.id)).toBe("skipped");
    expect(await db().visibilityJudgement.count({ where: { analysisId: a.id } })).toBe(2);
    expect(await available(alice)).toBe(before - parseUsd("0.006"));
    expect((await getAnalysis(alice.cliToken, a.id)).body).toEqual(a);
  });

  it("reads the answers a part at a time and judges every run once, whatever the part's size", async () => {
    const queued = await analyse(alice.cliToken, { ids: [runs.a, runs.b, runs.c, runs.d, runs.e], entities: ENTITIES, judge: { engine: "claude", sentiment: true, discover: true } });
    expect(queued.status, queued.text).toBe(202);
    const a = (await getAnalysis(alice.cliToken, queued.body.id)).body;
    expect(a.status).toBe("completed");
    const verdicts = async () =>
      (await db().visibilityJudgement.findMany({ where: { analysisId: a.id }, orderBy: { runId: "asc" }, select: { runId: true, status: true, verdict: true, error: true, attempts: true } }));
    const first = await verdicts();
    expect(first.map((v) => v.runId)).toEqual([runs.a, runs.b, runs.c, runs.d, runs.e].sort());
    // Judged again from nothing, two answers read at a time (three parts, the last of one run).
    await db().visibilityJudgement.deleteMany({ where: { analysisId: a.id } });
    await db().analysis.update({ where: { id: a.id }, data: { status: "running" } });
    expect(await judgeRuns(a.id, 2)).toBe("judged");
    expect(await verdicts()).toEqual(first);
  });

  it("releases the whole hold when no run could be judged", async () => {
    const before = await available(alice);
    const queued = await analyse(alice.cliToken, { ids: [runs.unusable], entities: ENTITIES, judge: { engine: "gemini", discover: true, sentiment: false } });
    expect(queued.status, queued.text).toBe(202);
    const a = (await getAnalysis(alice.cliToken, queued.body.id)).body;
    expect(a.status).toBe("completed");
    expect(a.judge.runs_judged).toBe(0);
    expect(a.rows.every((r: { sentiment: unknown }) => r.sentiment === null)).toBe(true);
    expect(a.discovered).toEqual([]);
    expect(a.agreement).toEqual({ runs: 0, agreeing: 0, pairs: 0, pairs_agreeing: 0, kappa: null });
    expect(a.charge).toMatchObject({ status: "released", amount_usd: "0.00" });
    expect(await available(alice)).toBe(before);
  });

  it("answers 402 and creates nothing when the credit does not cover every run", async () => {
    const carol = await person("carol@example.com");
    const own = await call(postProjects, "POST", "/projects", { token: carol.cliToken, body: { name: "Carol", workspace_id: carol.workspaceId, context: null } });
    const run = await finishedRun(carol.cliToken, { prompt: `carol's crm ${answerDirective(A)}`, project: own.body.id, engines: ["chatgpt"] });
    const run2 = await finishedRun(carol.cliToken, { prompt: `carol's other crm ${answerDirective(B)}`, project: own.body.id, engines: ["chatgpt"] });
    // Leave 0.01: two runs judged on claude need 0.012.
    const left = await available(carol);
    await runBillingAdminCommand("credit:adjust", ["--workspace", carol.workspaceId, "--usd", `-${formatUsd(left - parseUsd("0.01"))}`, "--promo", "--note", "test"]);
    expect(await available(carol)).toBe(parseUsd("0.01"));
    const jobsBefore = await db().job.count({ where: { job: "judge-visibility" } });
    const res = await analyse(carol.cliToken, { ids: [run, run2], entities: ENTITIES, judge: { engine: "claude" } });
    expect(res.status, res.text).toBe(402);
    expect(res.body.error.code).toBe("insufficient_credit");
    expect(res.body.error.message).toContain("0.012");
    expect(await db().analysis.count({ where: { workspaceId: carol.workspaceId, kind: "visibility" } })).toBe(0);
    expect(await db().job.count({ where: { job: "judge-visibility" } })).toBe(jobsBefore);
    expect(await db().creditHold.count({ where: { workspaceId: carol.workspaceId, product: "judge" } })).toBe(0);
    // One run fits: judged.
    const one = await analyse(carol.cliToken, { ids: [run], entities: ENTITIES, judge: { engine: "claude" } });
    expect(one.status, one.text).toBe(202);
    expect((await getAnalysis(carol.cliToken, one.body.id)).body.charge).toMatchObject({ status: "captured", amount_usd: "0.006" });
  });

  it("refuses a judge that asks for nothing or names an unknown engine, naming the field", async () => {
    const nothing = await analyse(alice.cliToken, { ids: [runs.a], entities: ENTITIES, judge: { engine: "chatgpt", sentiment: false } });
    expect(nothing.status).toBe(400);
    expect(nothing.body.error.message).toContain("judge.sentiment");
    const unknown = await analyse(alice.cliToken, { ids: [runs.a], entities: ENTITIES, judge: { engine: "bard" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain("judge.engine");
  });

  it("answers 404 for someone else's runs, exactly as for missing ones, and holds nothing", async () => {
    const foreign = await analyse(bob.cliToken, { ids: [runs.a], entities: ENTITIES, judge: { engine: "chatgpt" } });
    const missing = await analyse(bob.cliToken, { ids: ["dr_01M8A2R1B7C3D4E5F6G7H8J9K0"], entities: ENTITIES, judge: { engine: "chatgpt" } });
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(foreign.body.error.message.replace(runs.a, "ID")).toBe(missing.body.error.message.replace("dr_01M8A2R1B7C3D4E5F6G7H8J9K0", "ID"));
    expect(await db().creditHold.count({ where: { workspaceId: bob.workspaceId, product: "judge" } })).toBe(0);
    // And bob cannot read alice's judged analysis.
    const mine = await analyse(alice.cliToken, { ids: [runs.c], entities: ENTITIES, judge: { engine: "gemini" } });
    expect(mine.status).toBe(202);
    expect((await getAnalysis(bob.cliToken, mine.body.id, 0)).status).toBe(404);
    await getAnalysis(alice.cliToken, mine.body.id);
  });
});
