// A monitor's series and its significant-change alerts (issues #36 and #37), through the route
// handlers and the tick jobs, on the engine simulator. Two ticks of the same prompts with a real
// change between them: the first tick's two Acme prompts fail (the simulator refuses their first
// ten attempts), so Acme is named in 0 of 10 runs and HubSpot in 10 of 10; in the second every
// prompt answers: Acme 20 of 30, HubSpot 10 of 30, Pipedrive never. Each tick's analysis is made
// once however often its step runs; every point of every metric equals the tick analyses'
// figures; the change is Newcombe's at 1 - 0.05/m and raises one alert per significant cell,
// delivered by webhook to a real receiver and by the tick's email.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET as getAnalysisRoute } from "@/app/api/v1/analyses/[analysis_id]/route";
import { GET as alertsRoute } from "@/app/api/v1/monitors/[monitor_id]/alerts/route";
import { PATCH as patchRoute } from "@/app/api/v1/monitors/[monitor_id]/route";
import { POST as runRoute } from "@/app/api/v1/monitors/[monitor_id]/run/route";
import { GET as seriesRoute } from "@/app/api/v1/monitors/[monitor_id]/series/route";
import { POST as createRoute } from "@/app/api/v1/monitors/route";
import { POST as visibilityRoute } from "@/app/api/v1/visibility-analyses/route";
import { resetConfig } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { answerDirective } from "@/lib/engines/simulator/directive";
import { alertTickChanges, analyseTick } from "@/lib/monitors/analysis";
import { readAllSeries } from "@/lib/monitors/series";
import { reachableMonitorRow } from "@/lib/monitors/read";
import { checkMonitors } from "@/lib/monitors/ticks";
import { createProject } from "@/lib/projects/create";
import { SERIES_METRICS } from "@/lib/schemas/monitors";
import { changeTest } from "@/lib/stats";
import { localDriver } from "@/lib/work/local-driver";
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { call } from "../helpers/http";
import { person, principalOf, type Person } from "../helpers/people";
import { readmeVerifier, startReceiver, type Receiver } from "../helpers/webhook-receiver";

useSimulatedEngines({ billing: true });
useTestDatabase();

let receiver: Receiver;
let verify: Awaited<ReturnType<typeof readmeVerifier>>;
let alice: Person;
let bob: Person;
let project: string;

const ENTITIES = ["Acme CRM", "HubSpot", "Pipedrive"];

function series(token: string, id: string, query: Record<string, string | number> = {}) {
  return call(seriesRoute, "GET", `/monitors/${id}/series`, { token, params: { monitor_id: id }, query });
}
function analysis(id: string) {
  return call(getAnalysisRoute, "GET", `/analyses/${id}`, { token: alice.cliToken, params: { analysis_id: id } });
}
function alerts(id: string) {
  return call(alertsRoute, "GET", `/monitors/${id}/alerts`, { token: alice.cliToken, params: { monitor_id: id }, query: { limit: 200 } });
}

/** Every queued job run, then the scheduler's sweep (which closes ticks whose fanout finished), then its jobs. */
async function settle(now = new Date()) {
  await localDriver().drained();
  await checkMonitors(now);
  await localDriver().drained();
}

/**
 * A monitor of three prompts on Gemini, 10 runs each: two answer "Acme CRM …" but refuse their
 * first ten attempts (so all of the first tick's fail), one answers "HubSpot …" every time.
 */
async function changingMonitor(tag: string, alertsSettings: Record<string, unknown>) {
  const acme = answerDirective("Acme CRM is the best pick for agencies.");
  const hubspot = answerDirective("HubSpot is the most popular CRM.");
  const prompts = [
    { text: `which crm should an agency pick ${tag} ${acme} [[sim:bad_request*10]]` },
    { text: `which crm suits a small agency ${tag} ${acme} [[sim:bad_request*10]]` },
    { text: `most popular crm ${tag} ${hubspot}` },
  ];
  const res = await call(createRoute, "POST", "/monitors", {
    token: alice.cliToken,
    body: { project, name: `Series ${tag}`, prompts, engines: ["gemini"], runs: 10, alerts: alertsSettings },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; webhook_secret: string };
}

async function tickNow(monitorId: string) {
  const res = await call(runRoute, "POST", `/monitors/${monitorId}/run`, { token: alice.cliToken, params: { monitor_id: monitorId } });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  await settle();
  return db().monitorTick.findUniqueOrThrow({ where: { id: res.body.id } });
}

beforeAll(async () => {
  receiver = await startReceiver();
  process.env.WEBHOOK_ALLOW_HOSTS = `127.0.0.1:${receiver.port}`;
  resetConfig();
  verify = await readmeVerifier();
  alice = await person("series-alice@example.com");
  bob = await person("series-bob@example.com");
  project = (await createProject(principalOf(alice), { name: "Series", workspace_id: alice.workspaceId, context: { primary_domain: "acme.example", brands: ["Acme CRM"], competitors: ["HubSpot", "Pipedrive"] } })).id;
});

afterEach(async () => {
  // Drained before the clean-up below, which no job still running may undo (setup-api.ts drains only after it).
  await localDriver().drained();
  await db().monitor.updateMany({ data: { status: "paused" } });
  await db().alertDelivery.updateMany({ where: { status: "pending" }, data: { status: "failed" } });
});

afterAll(async () => {
  await receiver?.close();
  delete process.env.WEBHOOK_ALLOW_HOSTS;
  resetConfig();
});

describe("a monitor's series and its significant changes", () => {
  let monitorId: string;
  let secret: string;
  let ticks: Awaited<ReturnType<typeof tickNow>>[];

  beforeAll(async () => {
    receiver.plan("/series", () => 200);
    ({ id: monitorId, webhook_secret: secret } = await changingMonitor("s1", { webhook_url: receiver.url("/series"), email: true }));
    const first = await tickNow(monitorId);
    // The second tick's analysis step, run three times at once before the job's: one analysis.
    const res = await call(runRoute, "POST", `/monitors/${monitorId}/run`, { token: alice.cliToken, params: { monitor_id: monitorId } });
    await localDriver().drained();
    const made = await Promise.all([analyseTick(res.body.id), analyseTick(res.body.id), analyseTick(res.body.id)]);
    expect(new Set(made).size).toBe(1);
    await settle();
    const second = await db().monitorTick.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(second.analysisId).toBe(made[0]);
    ticks = [first, second];
  });

  it("each tick closes with one visibility analysis of its fanout (the first partial, the second completed), made once however often its step runs", async () => {
    expect(ticks.map((t) => t.status)).toEqual(["partial", "completed"]);
    expect(await db().analysis.count({ where: { kind: "visibility", projectId: project } })).toBe(2);
    for (const tick of ticks) {
      expect(tick.analysisId).toMatch(/^va_/);
      expect(await analyseTick(tick.id)).toBe(tick.analysisId);
      const a = (await analysis(tick.analysisId!)).body;
      expect(a.kind).toBe("visibility");
      expect(a.entities.map((e: { name: string }) => e.name)).toEqual(ENTITIES);
    }
  });

  it("stores each tick's analysis without a body and presents it when read: every figure as a POST of the same runs and entities computes it", async () => {
    for (const tick of ticks) {
      const row = await db().analysis.findUniqueOrThrow({ where: { id: tick.analysisId! }, select: { body: true, result: true } });
      const result = row.result as { prompt_sums?: unknown; prompts_in_body?: unknown; rows: { by_prompt?: unknown }[] };
      expect(row.body).toBeNull();
      expect(typeof result.prompt_sums).toBe("string");
      expect(result.prompts_in_body).toBeUndefined();
      expect(result.rows.every((r) => r.by_prompt === undefined)).toBe(true);

      const read = (await analysis(tick.analysisId!)).body;
      const posted = await call(visibilityRoute, "POST", "/visibility-analyses", { token: alice.cliToken, body: { ids: [tick.fanoutId], entities: read.entities } });
      expect(posted.status, JSON.stringify(posted.body)).toBe(201);
      // Each prompt answered a by_prompt row of every entity (the first tick's two Acme prompts failed), with its n and intervals.
      expect(read.rows[0].by_prompt).toHaveLength(tick === ticks[0] ? 1 : 3);
      expect(read.rows.map((r: { by_prompt: { runs: number }[] }) => r.by_prompt.map((g) => g.runs))).toEqual(posted.body.rows.map((r: { by_prompt: { runs: number }[] }) => r.by_prompt.map((g) => g.runs)));
      expect(JSON.stringify(read.rows)).toBe(JSON.stringify(posted.body.rows));
      expect(JSON.stringify(read.totals)).toBe(JSON.stringify(posted.body.totals));
      expect(read.summary).toEqual(posted.body.summary);
      // Read again, the same text.
      expect((await analysis(tick.analysisId!)).text).toBe((await analysis(tick.analysisId!)).text);
    }
  });

  it("answers visibility of the brand on all engines by default, each point as the tick's analysis states it, and the change tested at 1 - 0.05/m", async () => {
    const res = await series(alice.cliToken, monitorId);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ metric: "visibility", entity: "Acme CRM", engine: "all", version: 1 });
    const [a, b] = res.body.points;
    expect(res.body.points).toHaveLength(2);
    expect(a).toMatchObject({ tick_id: ticks[0]!.id, at: ticks[0]!.scheduledFor.toISOString(), runs: 10, n: 10, value: 0, change: null });
    expect(b).toMatchObject({ tick_id: ticks[1]!.id, runs: 30, n: 30, value: 0.6667 });
    // m = 3 entities x (gemini + all) = 6 cells.
    expect(b.change).toEqual(changeTest({ successes: 0, trials: 10 }, { successes: 20, trials: 30 }, { m: 6, minChange: 10 }));
    expect(b.change.significant).toBe(true);
    expect(b.change.interval[0]).toBeGreaterThan(0);
  });

  it("every metric of every entity x engine cell equals the tick analyses' figures, with their n and intervals", async () => {
    const analyses = await Promise.all(ticks.map(async (t) => (await analysis(t.analysisId!)).body));
    // sentiment has points only on judged ticks (tests/api/monitor-sentiment.test.ts); this monitor does not judge.
    for (const metric of SERIES_METRICS.filter((m) => m !== "sentiment")) {
      for (const entity of ENTITIES) {
        for (const engine of ["all", "gemini"]) {
          const res = await series(alice.cliToken, monitorId, { metric, entity, engine });
          expect(res.status).toBe(200);
          expect(res.body.points).toHaveLength(2);
          res.body.points.forEach((point: any, i: number) => {
            const row = analyses[i].rows.find((r: { name: string }) => r.name === entity);
            const f = engine === "all" ? row : row.by_engine.find((g: { engine: string }) => g.engine === engine);
            const expected: Record<string, [unknown, unknown, unknown]> = {
              visibility: [f.visibility, f.visibility_interval, f.runs],
              cited_rate: [f.cited_rate, f.cited_rate_interval, f.runs],
              top3_rate: [f.top3_rate, f.top3_rate_interval, f.runs],
              average_position: [f.average_position, f.average_position_interval, f.runs_mentioning],
              share_of_voice: [f.share_of_voice, point.interval, f.share_of_voice_n],
            };
            const [value, interval, n] = expected[metric]!;
            expect({ metric, entity, engine, i, value: point.value, interval: point.interval, n: point.n, runs: point.runs }).toEqual({
              metric, entity, engine, i, value, interval, n, runs: f.runs,
            });
          });
        }
      }
    }
  });

  it("raises one significant_change alert per significant cell (Acme and HubSpot, on gemini and all), each delivered by a signed webhook and in the tick's one email", async () => {
    const list = (await alerts(monitorId)).body.items as any[];
    const changes = list.filter((a) => a.kind === "significant_change");
    expect(changes.map((a) => `${a.entity}/${a.engine}`).sort()).toEqual(["Acme CRM/all", "Acme CRM/gemini", "HubSpot/all", "HubSpot/gemini"]);
    for (const a of changes) {
      expect(a.tick_id).toBe(ticks[1]!.id);
      const point = (await series(alice.cliToken, monitorId, { entity: a.entity, engine: a.engine })).body.points[1];
      expect({ diff: a.diff, interval: a.interval, before_runs: a.before_runs, after_runs: a.after_runs }).toEqual({
        diff: point.change.diff, interval: point.change.interval, before_runs: 10, after_runs: 30,
      });
      expect(a.deliveries.map((d: { channel: string; status: string }) => `${d.channel}:${d.status}`).sort()).toEqual(["email:delivered", "webhook:delivered"]);
    }
    const events = receiver.to("/series").map((r) => ({ body: JSON.parse(r.body), signed: verify(r.body, r.headers["geoscope-signature"] as string, secret) }));
    const delivered = events.filter((e) => e.body.type === "significant_change");
    expect(delivered.map((e) => e.body.id).sort()).toEqual(changes.map((a) => a.id).sort());
    expect(delivered.every((e) => e.signed)).toBe(true);
    // The alert step again (a retried job) raises nothing more.
    expect(await alertTickChanges(ticks[1]!.id)).toEqual([]);
    expect(await alertTickChanges(ticks[0]!.id)).toEqual([]);
  });

  it("readAllSeries answers every cell of a metric at once, entities in the monitor's order, the same points as the endpoint", async () => {
    const monitor = await reachableMonitorRow(principalOf(alice), monitorId);
    const all = await readAllSeries(monitor, "visibility");
    expect(all.map((c) => `${c.entity}/${c.engine}`)).toEqual(["Acme CRM/all", "Acme CRM/gemini", "HubSpot/all", "HubSpot/gemini", "Pipedrive/all", "Pipedrive/gemini"]);
    for (const cell of all) expect(cell.points).toEqual((await series(alice.cliToken, monitorId, { entity: cell.entity, engine: cell.engine })).body.points);
  });

  it("refuses a bad metric, entity, engine or version with 400 naming it; another person's monitor is 404 as a missing one", async () => {
    const cases: [Record<string, string | number>, RegExp][] = [
      [{ metric: "mentions" }, /^metric: /],
      [{ entity: "Salesforce" }, /^entity: "Salesforce" is not tracked .*"Acme CRM", "HubSpot", "Pipedrive"/],
      [{ engine: "claude" }, /^engine: "claude" is not an engine of this monitor's version 1/],
      [{ engine: "bing" }, /^engine: /],
      [{ version: 0 }, /^version: must be a whole number/],
      [{ version: 2 }, /^version: must be a whole number from 1 to 1/],
      [{ version: "1.5" }, /^version: must be a whole number/],
    ];
    for (const [query, message] of cases) {
      const res = await series(alice.cliToken, monitorId, query);
      expect({ query, status: res.status, code: res.body.error?.code }).toEqual({ query, status: 400, code: "invalid_request" });
      expect(res.body.error.message).toMatch(message);
    }
    expect((await series(alice.cliToken, monitorId, { entity: "acme crm" })).body.entity).toBe("Acme CRM");
    const foreign = await series(bob.cliToken, monitorId);
    const missing = await series(bob.cliToken, "mo_01M7VRMMR088ASXAB0JMYCMVPP");
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toBe(`No such monitor "${monitorId}".`);
    expect(missing.status).toBe(404);
  });

  it("a new version starts an empty series; the old one is still read with version=1", async () => {
    const res = await call(patchRoute, "PATCH", `/monitors/${monitorId}`, { token: alice.cliToken, params: { monitor_id: monitorId }, body: { runs: 9 } });
    expect(res.body.version).toBe(2);
    expect((await series(alice.cliToken, monitorId)).body).toEqual({ metric: "visibility", entity: "Acme CRM", engine: "all", version: 2, points: [] });
    const old = await series(alice.cliToken, monitorId, { version: 1, entity: "HubSpot", engine: "gemini", metric: "share_of_voice" });
    expect(old.status).toBe(200);
    expect(old.body.points.map((p: { tick_id: string }) => p.tick_id)).toEqual(ticks.map((t) => t.id));
    expect((await series(alice.cliToken, monitorId, { version: 1, engine: "claude" })).status).toBe(400);
  });
  it("a version's first tick, still running when what the monitor measures changes, is analysed with that version's entities", async () => {
    const acme = answerDirective("Acme CRM is the best pick for agencies.");
    const made = await call(createRoute, "POST", "/monitors", {
      token: alice.cliToken,
      body: { project, name: "Changed mid-tick", prompts: [{ text: `which crm for an agency ${acme}` }], engines: ["gemini"], runs: 3 },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.id as string;
    const run = await call(runRoute, "POST", `/monitors/${id}/run`, { token: alice.cliToken, params: { monitor_id: id } });
    expect(run.status).toBe(202);
    // Changed before the tick's fanout finished (nothing has been drained yet): version 2, other entities.
    const changed = await call(patchRoute, "PATCH", `/monitors/${id}`, {
      token: alice.cliToken,
      params: { monitor_id: id },
      body: { entities: [{ name: "Zoho CRM", role: "competitor" }] },
    });
    expect(changed.body.version).toBe(2);
    await settle();
    const tick = await db().monitorTick.findUniqueOrThrow({ where: { id: run.body.id } });
    expect(tick.status).toBe("completed");
    expect(tick.analysisId).not.toBeNull();
    expect((await analysis(tick.analysisId!)).body.entities.map((e: { name: string }) => e.name)).toEqual(ENTITIES);
    const old = await series(alice.cliToken, id, { version: 1 });
    expect(old.status, JSON.stringify(old.body)).toBe(200);
    expect(old.body.points.map((p: { tick_id: string; value: number }) => [p.tick_id, p.value])).toEqual([[tick.id, 1]]);
  });
});
