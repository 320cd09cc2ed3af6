// Sentiment over time on monitors (issue #47; docs/decisions.md "Sentiment over time on
// monitors") through the route handlers and the tick jobs, on the engine simulator and its
// deterministic judge: a judged monitor's tick holds its judge for every run at its start,
// analyses its fanout with that judge, pays per run judged (the rest released) and counts it in
// the monthly budget; the series' `sentiment` points are the tick analyses' own figures.
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getAnalysisRoute } from "@/app/api/v1/analyses/[analysis_id]/route";
import { GET as getMonitorRoute, PATCH as patchRoute } from "@/app/api/v1/monitors/[monitor_id]/route";
import { POST as runRoute } from "@/app/api/v1/monitors/[monitor_id]/run/route";
import { GET as seriesRoute } from "@/app/api/v1/monitors/[monitor_id]/series/route";
import { POST as estimateRoute } from "@/app/api/v1/monitors/estimate/route";
import { POST as createRoute } from "@/app/api/v1/monitors/route";
import { formatUsd, parseUsd } from "@/lib/billing/money";
import { db } from "@/lib/db/client";
import { answerDirective } from "@/lib/engines/simulator/directive";
import { checkMonitors } from "@/lib/monitors/ticks";
import { createProject } from "@/lib/projects/create";
import { rateOf } from "@/lib/stats";
import { localDriver } from "@/lib/work/local-driver";
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { call } from "../helpers/http";
import { person, principalOf, type Person } from "../helpers/people";

useSimulatedEngines({ billing: true });
useTestDatabase();

let alice: Person;
let project: string;

const PROMPTS = [
  { text: `best crm for agencies ${answerDirective("Acme CRM is the best choice for small agencies. HubSpot is expensive for small teams.")}` },
  { text: `crm with a free plan ${answerDirective("Teams love HubSpot for its free plan. Acme CRM is limited in reports.")}` },
  { text: `simple crm ${answerDirective("Acme CRM is great and simple to use.")}` },
];

async function settle() {
  await localDriver().drained();
  await checkMonitors(new Date());
  await localDriver().drained();
}

const create = (body: Record<string, unknown>) => call(createRoute, "POST", "/monitors", { token: alice.cliToken, body: { project, ...body } });
const patch = (id: string, body: Record<string, unknown>) => call(patchRoute, "PATCH", `/monitors/${id}`, { token: alice.cliToken, params: { monitor_id: id }, body });
const getMonitor = (id: string) => call(getMonitorRoute, "GET", `/monitors/${id}`, { token: alice.cliToken, params: { monitor_id: id } });
const series = (id: string, query: Record<string, string>) => call(seriesRoute, "GET", `/monitors/${id}/series`, { token: alice.cliToken, params: { monitor_id: id }, query });
const analysis = (id: string) => call(getAnalysisRoute, "GET", `/analyses/${id}`, { token: alice.cliToken, params: { analysis_id: id } });

async function tickNow(id: string) {
  const res = await call(runRoute, "POST", `/monitors/${id}/run`, { token: alice.cliToken, params: { monitor_id: id } });
  expect(res.status, res.text).toBe(202);
  await settle();
  return db().monitorTick.findUniqueOrThrow({ where: { id: res.body.id } });
}

beforeAll(async () => {
  alice = await person("sentiment-alice@example.com");
  project = (await createProject(principalOf(alice), { name: "Sentiment", workspace_id: alice.workspaceId, context: { brands: ["Acme CRM"], competitors: ["HubSpot"] } })).id;
});

describe("a monitor's judge: what it takes and refuses", () => {
  it("keeps {engine, sentiment: true}, defaults to null, and changing it keeps the version", async () => {
    const plain = await create({ prompts: PROMPTS, engines: ["gemini"], runs: 1 });
    expect(plain.status, plain.text).toBe(201);
    expect(plain.body.judge).toBeNull();
    const judged = await create({ prompts: PROMPTS, engines: ["gemini"], runs: 1, judge: { engine: "claude" } });
    expect(judged.status, judged.text).toBe(201);
    expect(judged.body.judge).toEqual({ engine: "claude", sentiment: true });
    const changed = await patch(plain.body.id, { judge: { engine: "chatgpt", sentiment: true } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ version: 1, judge: { engine: "chatgpt", sentiment: true } });
    const stopped = await patch(plain.body.id, { judge: null });
    expect(stopped.body).toMatchObject({ version: 1, judge: null });
    expect((await getMonitor(plain.body.id)).body.judge).toBeNull();
  });

  it("refuses discover, sentiment false and an unknown engine with a 400 naming the field", async () => {
    const discover = await create({ prompts: PROMPTS, judge: { engine: "claude", discover: true } });
    expect(discover.status).toBe(400);
    expect(discover.body.error.message).toMatch(/^judge\.discover: is not available on monitors/);
    const plain = await create({ prompts: PROMPTS, engines: ["gemini"], runs: 1 });
    const patched = await patch(plain.body.id, { judge: { engine: "claude", sentiment: true, discover: false } });
    expect(patched.status).toBe(400);
    expect(patched.body.error.message).toMatch(/^judge\.discover/);
    const off = await create({ prompts: PROMPTS, judge: { engine: "claude", sentiment: false } });
    expect(off.status).toBe(400);
    expect(off.body.error.message).toMatch(/^judge\.sentiment: must be true/);
    const unknown = await create({ prompts: PROMPTS, judge: { engine: "nobody" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/^judge\.engine/);
  });

  it("the estimate shows the judge as its own line, included in the tick's price", async () => {
    const body = { project, prompts: PROMPTS, engines: ["gemini", "chatgpt"], runs: 2 };
    const without = await call(estimateRoute, "POST", "/monitors/estimate", { token: alice.cliToken, body });
    expect(without.status, without.text).toBe(200);
    expect(without.body.judge).toBeNull();
    const withJudge = await call(estimateRoute, "POST", "/monitors/estimate", { token: alice.cliToken, body: { ...body, judge: { engine: "claude" } } });
    expect(withJudge.status, withJudge.text).toBe(200);
    // 3 prompts × 2 engines × 2 runs = 12 runs judged at most, at 0.006 each on claude.
    expect(withJudge.body.judge).toEqual({ engine: "claude", runs: 12, unit_price_usd: "0.006", amount_usd: "0.072" });
    expect(parseUsd(withJudge.body.per_tick_usd) - parseUsd(without.body.per_tick_usd)).toBe(parseUsd("0.072"));
    expect(withJudge.body.per_month_usd).toBe(formatUsd(parseUsd(withJudge.body.per_tick_usd) * 31n));
  });
});

describe("a judged monitor's ticks", () => {
  let monitorId: string;
  let ticks: Awaited<ReturnType<typeof tickNow>>[];

  beforeAll(async () => {
    const res = await create({ name: "Judged", prompts: PROMPTS, engines: ["gemini", "chatgpt"], runs: 2, judge: { engine: "claude" } });
    expect(res.status, res.text).toBe(201);
    monitorId = res.body.id;
    ticks = [await tickNow(monitorId), await tickNow(monitorId)];
  });

  it("holds the judge for every run at the tick's start, captures the runs judged, and the tick's charge and the budget count it", async () => {
    for (const tick of ticks) {
      expect(tick.status).toBe("completed");
      expect(tick.judgeEngine).toBe("claude");
      const hold = await db().creditHold.findUniqueOrThrow({ where: { id: tick.judgeHoldId! } });
      // Held at the tick's start for all 12 runs, under the fanout's operation.
      expect(hold).toMatchObject({ product: "judge", engine: "claude", units: 12, operationId: tick.fanoutId, status: "captured" });
      const a = await analysis(tick.analysisId!);
      expect(a.status, a.text).toBe(200);
      expect(a.body.status).toBe("completed");
      const judged = a.body.judge.runs_judged as number;
      expect(judged).toBeGreaterThan(0);
      expect(hold.capturedUnits).toBe(judged);
      expect(hold.capturedMicros).toBe(parseUsd("0.006") * BigInt(judged));
      expect(a.body.charge).toMatchObject({ status: "captured" });
      // The tick's charge: its 12 runs (6 on gemini at 0.015, 6 on chatgpt at 0.02) and the runs judged.
      const runsPaid = parseUsd("0.015") * 6n + parseUsd("0.02") * 6n;
      expect(tick.chargedMicros).toBe(runsPaid + hold.capturedMicros!);
    }
    const monitor = await getMonitor(monitorId);
    expect(parseUsd(monitor.body.spend_month_to_date_usd)).toBe(ticks.reduce((sum, t) => sum + t.chargedMicros!, 0n));
  });

  it("answers series metric sentiment: per point the tick analysis's score, its n and its interval, with the counts", async () => {
    for (const [e, entity] of ["Acme CRM", "HubSpot"].entries()) {
      const res = await series(monitorId, { metric: "sentiment", entity });
      expect(res.status, res.text).toBe(200);
      expect(res.body.points).toHaveLength(2);
      for (const [i, point] of (res.body.points as Array<{ tick_id: string; n: number; value: number; interval: [number, number]; runs: number }>).entries()) {
        expect(point.tick_id).toBe(ticks[i]!.id);
        const stored = (await analysis(ticks[i]!.analysisId!)).body.rows[e].sentiment;
        expect(point.n).toBe(stored.positive + stored.negative);
        expect(point.value).toBe(stored.score);
        expect(point.interval).toEqual(stored.score_interval);
        expect(res.body.sentiment[i]).toEqual({ tick_id: ticks[i]!.id, runs_judged: stored.runs_judged, positive: stored.positive, neutral: stored.neutral, negative: stored.negative });
      }
      // The answers are fixed, so both ticks judge alike: no change, and it is not significant.
      expect(res.body.points[1].change).toMatchObject({ diff: 0, significant: false });
    }
    // Acme is praised in two answers of three and faulted in one; HubSpot praised once, faulted once.
    const acme = (await series(monitorId, { metric: "sentiment", entity: "Acme CRM" })).body.sentiment[0];
    expect(acme.positive).toBeGreaterThan(acme.negative);
    // Per engine: each engine's judged runs, summing to the tick's.
    const byEngine = await Promise.all(["gemini", "chatgpt"].map((engine) => series(monitorId, { metric: "sentiment", entity: "Acme CRM", engine })));
    for (const r of byEngine) expect(r.status, r.text).toBe(200);
    const all = (await series(monitorId, { metric: "sentiment", entity: "Acme CRM" })).body;
    expect(byEngine.reduce((s, r) => s + (r.body.sentiment[0].runs_judged as number), 0)).toBe(all.sentiment[0].runs_judged);
    const g = byEngine[0]!.body.sentiment[0];
    const { rate, interval } = rateOf(g.positive, g.positive + g.negative);
    expect(byEngine[0]!.body.points[0]).toMatchObject({ n: g.positive + g.negative, value: rate, interval });
  });
});

describe("sentiment where ticks are not judged", () => {
  it("a monitor never judged answers no sentiment points; once judged, only its judged ticks have them", async () => {
    const res = await create({ name: "Later", prompts: PROMPTS.slice(0, 1), engines: ["gemini"], runs: 2 });
    const id = res.body.id as string;
    const first = await tickNow(id);
    expect(first.judgeEngine).toBeNull();
    expect(first.judgeHoldId).toBeNull();
    const empty = await series(id, { metric: "sentiment" });
    expect(empty.status, empty.text).toBe(200);
    expect(empty.body).toMatchObject({ metric: "sentiment", entity: "Acme CRM", points: [], sentiment: [] });
    expect((await analysis(first.analysisId!)).body.judge).toBeNull();

    expect((await patch(id, { judge: { engine: "gemini" } })).body.version).toBe(1);
    const second = await tickNow(id);
    expect(second.judgeEngine).toBe("gemini");
    const visibility = await series(id, { metric: "visibility" });
    expect(visibility.body.points).toHaveLength(2);
    const sentiment = await series(id, { metric: "sentiment" });
    expect(sentiment.body.points.map((p: { tick_id: string }) => p.tick_id)).toEqual([second.id]);
    expect(sentiment.body.points[0]).toMatchObject({ n: 2, value: 1, change: null });
  });

  it("a tick whose judge would pass the monthly budget is skipped for the budget, though its runs alone fit", async () => {
    // One run on gemini costs 0.015; judged by claude, 0.021: over a budget of 0.02.
    const heldBefore = await db().creditHold.count({ where: { product: "judge", workspaceId: alice.workspaceId } });
    const judged = await create({ name: "Tight", prompts: PROMPTS.slice(2), engines: ["gemini"], runs: 1, monthly_budget_usd: "0.02", judge: { engine: "claude" } });
    const res = await call(runRoute, "POST", `/monitors/${judged.body.id}/run`, { token: alice.cliToken, params: { monitor_id: judged.body.id } });
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({ status: "skipped", skip_reason: "budget_exhausted", fanout_id: null });
    expect(await db().creditHold.count({ where: { product: "judge", workspaceId: alice.workspaceId } })).toBe(heldBefore);
    const unjudged = await patch(judged.body.id, { judge: null });
    expect(unjudged.status).toBe(200);
    const ran = await call(runRoute, "POST", `/monitors/${judged.body.id}/run`, { token: alice.cliToken, params: { monitor_id: judged.body.id } });
    expect(ran.body.status).not.toBe("skipped");
    await settle();
  });
});
