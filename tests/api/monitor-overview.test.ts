// A project's monitor overview (issue #47, GET /projects/{id}/monitor-overview) through its route
// handler. Monitor A runs three real ticks on the engine simulator (its Acme prompts are refused at
// the first, so Acme is named in 0 of 10 runs, then 20 of 30 twice), moved to 40 and 10 days ago
// and now: its change since last week is the series' last change (none), since last month the
// series' second (significant), exactly as GET /monitors/{id}/series says. Monitor B holds 14 daily
// points of its version 2 (and older figures of version 1, and a tick not yet counted) with known
// counts: its sparkline is the last 12, oldest first. Monitor C has no tick. Another workspace's
// project is 404 as a missing one; a project without monitors answers an empty list and says so.
import { beforeAll, describe, expect, it } from "vitest";
import { PATCH as patchRoute } from "@/app/api/v1/monitors/[monitor_id]/route";
import { POST as runRoute } from "@/app/api/v1/monitors/[monitor_id]/run/route";
import { GET as seriesRoute } from "@/app/api/v1/monitors/[monitor_id]/series/route";
import { POST as createRoute } from "@/app/api/v1/monitors/route";
import { GET as overviewRoute } from "@/app/api/v1/projects/[project_id]/monitor-overview/route";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { answerDirective } from "@/lib/engines/simulator/directive";
import { checkMonitors } from "@/lib/monitors/ticks";
import { createProject } from "@/lib/projects/create";
import { MonitorOverview } from "@/lib/schemas/overview";
import { changeTest, rateOf } from "@/lib/stats";
import { localDriver } from "@/lib/work/local-driver";
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { call } from "../helpers/http";
import { person, principalOf, type Person } from "../helpers/people";

useSimulatedEngines({ billing: true });
useTestDatabase();

const DAY = 24 * 3600 * 1000;
let alice: Person;
let bob: Person;
let project: string;
let empty: string;

function overview(token: string, id: string) {
  return call(overviewRoute, "GET", `/projects/${id}/monitor-overview`, { token, params: { project_id: id } });
}
function series(id: string, query: Record<string, string> = {}) {
  return call(seriesRoute, "GET", `/monitors/${id}/series`, { token: alice.cliToken, params: { monitor_id: id }, query });
}
async function create(body: Record<string, unknown>) {
  const res = await call(createRoute, "POST", "/monitors", { token: alice.cliToken, body: { project, engines: ["gemini"], ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}
async function tickNow(monitorId: string) {
  const res = await call(runRoute, "POST", `/monitors/${monitorId}/run`, { token: alice.cliToken, params: { monitor_id: monitorId } });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  await localDriver().drained();
  await checkMonitors(new Date());
  await localDriver().drained();
  const tick = await db().monitorTick.findUniqueOrThrow({ where: { id: res.body.id } });
  expect(tick.analysisId).not.toBeNull();
  return tick;
}
/** Moves a tick and its figures to another time, as if it had run then. */
async function moveTick(tickId: string, at: Date) {
  await db().monitorTick.update({ where: { id: tickId }, data: { scheduledFor: at } });
  await db().monitorTickFigure.updateMany({ where: { tickId }, data: { at } });
}

let monitorA: string;
let monitorB: string;
let monitorC: string;
let ticksA: string[];
const latestAt = new Date(Math.floor(Date.now() / 1000) * 1000);

beforeAll(async () => {
  alice = await person("overview-alice@example.com");
  bob = await person("overview-bob@example.com");
  const context = { primary_domain: "acme.example", brands: ["Acme CRM"], competitors: ["HubSpot", "Pipedrive"] };
  project = (await createProject(principalOf(alice), { name: "Overview", workspace_id: alice.workspaceId, context })).id;
  empty = (await createProject(principalOf(alice), { name: "Nothing yet", workspace_id: alice.workspaceId, context })).id;

  // A: real ticks with a real change between the first and the second.
  const acme = answerDirective("Acme CRM is the best pick for agencies.");
  monitorA = await create({
    name: "CRM weekly",
    runs: 10,
    prompts: [
      { text: `which crm should an agency pick ov1 ${acme} [[sim:bad_request*10]]` },
      { text: `which crm suits a small agency ov1 ${acme} [[sim:bad_request*10]]` },
      { text: `most popular crm ov1 ${answerDirective("HubSpot is the most popular CRM.")}` },
    ],
  });
  const ticks = [await tickNow(monitorA), await tickNow(monitorA), await tickNow(monitorA)];
  expect(ticks.map((t) => t.status)).toEqual(["partial", "completed", "completed"]);
  await moveTick(ticks[0]!.id, new Date(latestAt.getTime() - 40 * DAY));
  await moveTick(ticks[1]!.id, new Date(latestAt.getTime() - 10 * DAY));
  await moveTick(ticks[2]!.id, latestAt);
  ticksA = ticks.map((t) => t.id);

  // B: version 2's 14 daily points, i of 20 runs naming Acme on day i (Pipedrive 20 - i), with min_change 5.
  monitorB = await create({ name: "Daily", prompts: [{ text: "best crm" }], runs: 1, alerts: { min_change: 5 } });
  const patched = await call(patchRoute, "PATCH", `/monitors/${monitorB}`, { token: alice.cliToken, params: { monitor_id: monitorB }, body: { runs: 2 } });
  expect(patched.body.version).toBe(2);
  const start = latestAt.getTime() - 13 * DAY;
  const old = { version: 1, at: new Date(start - 60 * DAY), counts: { "Acme CRM": 20, HubSpot: 0, Pipedrive: 0 }, counted: true };
  const days = Array.from({ length: 14 }, (_, i) => ({ version: 2, at: new Date(start + i * DAY), counts: { "Acme CRM": i, HubSpot: 5, Pipedrive: 20 - i }, counted: true }));
  // A tick of today whose figures are not counted (it has not closed): no point.
  const open = { version: 2, at: new Date(latestAt.getTime() + 3600_000), counts: { "Acme CRM": 0, HubSpot: 0, Pipedrive: 0 }, counted: false };
  for (const t of [old, ...days, open]) {
    const tickId = newId("monitorTick");
    await db().monitorTick.create({ data: { id: tickId, monitorId: monitorB, workspaceId: alice.workspaceId, version: t.version, scheduledFor: t.at, status: t.counted ? "completed" : "running" } });
    await db().monitorTickFigure.createMany({
      data: Object.entries(t.counts).flatMap(([entity, k], entityIndex) =>
        ["all", "gemini"].map((engine) => ({
          tickId, monitorId: monitorB, version: t.version, at: t.at, entityIndex, entity, engine, cells: 6, runs: 20, runsMentioning: k, shareOfVoiceN: 20,
          runsCiting: 0, runsTop3: k, positionSum: k, positionSumSquares: k, averagePosition: k ? 1 : null, averagePositionLow: k ? 1 : null, averagePositionHigh: k ? 1 : null, counted: t.counted,
        })),
      ),
    });
  }

  // C: no tick yet.
  monitorC = await create({ name: "Not yet", prompts: [{ text: "crm for dentists" }], runs: 1 });
}, 180_000);

describe("GET /projects/{id}/monitor-overview", () => {
  let body: ReturnType<typeof MonitorOverview.parse>;
  beforeAll(async () => {
    const res = await overview(alice.cliToken, project);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    body = MonitorOverview.parse(res.body);
  });

  it("lists every monitor of the project, newest first, with its current version's entities in its order", () => {
    expect(body.project).toEqual({ id: project, name: "Overview" });
    expect(body.monitors.map((m) => [m.id, m.name, m.version])).toEqual([
      [monitorC, "Not yet", 1],
      [monitorB, "Daily", 2],
      [monitorA, "CRM weekly", 1],
    ]);
    for (const m of body.monitors) expect(m.entities.map((e) => [e.name, e.role])).toEqual([["Acme CRM", "brand"], ["HubSpot", "competitor"], ["Pipedrive", "competitor"]]);
    expect(body.monitors[2]!.engines).toEqual(["gemini"]);
  });

  it("has the latest point and changes since a week and a month before exactly as GET /monitors/{id}/series says for the same ticks", async () => {
    const a = body.monitors.find((m) => m.id === monitorA)!;
    expect(a.last_tick_at).toBe(latestAt.toISOString());
    for (const entity of a.entities) {
      const s = (await series(monitorA, { entity: entity.name })).body;
      expect(s.points.map((p: { tick_id: string }) => p.tick_id)).toEqual(ticksA);
      const [first, second, third] = s.points;
      expect(entity.latest).toEqual({ value: third.value, n: third.n, interval: third.interval, tick_at: latestAt.toISOString() });
      expect(entity.sparkline).toEqual(s.points.map((p: { at: string; value: number; n: number }) => ({ tick_at: p.at, value: p.value, n: p.n })));
      // Since last week: from the tick 10 days ago, which is the series' previous point.
      expect(entity.since_week).toEqual({ from_tick_at: second.at, from_value: second.value, from_n: second.n, diff: third.change.diff, diff_interval: third.change.interval, significant: third.change.significant });
      // Since last month: from the tick 40 days ago; the tick 10 days ago has the same counts as the latest, so it is the series' second change.
      expect(entity.since_month).toEqual({ from_tick_at: first.at, from_value: first.value, from_n: first.n, diff: second.change.diff, diff_interval: second.change.interval, significant: second.change.significant });
    }
    const [acme, hubspot, pipedrive] = a.entities;
    expect(acme!.latest).toMatchObject({ value: 0.6667, n: 30 });
    expect([acme!.since_week!.significant, acme!.since_month!.significant]).toEqual([false, true]);
    expect(acme!.since_month!.diff).toBe(0.6667);
    expect([hubspot!.since_week!.significant, hubspot!.since_month!.significant]).toEqual([false, true]);
    expect(hubspot!.since_month!.diff).toBeLessThan(0);
    expect([pipedrive!.since_week!.significant, pipedrive!.since_month!.significant]).toEqual([false, false]);
  });

  it("draws the current version's last 12 counted points oldest first, and measures since the latest point at least 7 days older with the monitor's min_change", async () => {
    const b = body.monitors.find((m) => m.id === monitorB)!;
    const [acme, hubspot, pipedrive] = b.entities;
    expect(acme!.sparkline).toHaveLength(12);
    expect(acme!.sparkline.map((p) => [p.value, p.n])).toEqual(Array.from({ length: 12 }, (_, j) => [rateOf(j + 2, 20).rate, 20]));
    const ats = acme!.sparkline.map((p) => p.tick_at);
    expect([...ats].sort()).toEqual(ats);
    expect(acme!.latest).toEqual({ value: 0.65, n: 20, interval: rateOf(13, 20).interval, tick_at: ats.at(-1) });
    // The series says the same points (version 2: the figures of version 1 and the open tick play no part).
    const s = (await series(monitorB)).body;
    expect(s.version).toBe(2);
    expect(s.points.slice(-12).map((p: { at: string; value: number }) => [p.at, p.value])).toEqual(acme!.sparkline.map((p) => [p.tick_at, p.value]));
    // Exactly 7 days before the latest: day 6 (6 of 20) to day 13 (13 of 20), m = 6 cells, min_change 5.
    const week = changeTest({ successes: 6, trials: 20 }, { successes: 13, trials: 20 }, { m: 6, minChange: 5 });
    expect(acme!.since_week).toEqual({ from_tick_at: s.points.at(-8).at, from_value: 0.3, from_n: 20, diff: week.diff, diff_interval: week.interval, significant: week.significant });
    expect(pipedrive!.since_week!.diff).toBe(-0.35);
    expect(hubspot!.since_week).toMatchObject({ diff: 0, significant: false });
    // 13 days of points: none a month older.
    expect([acme!.since_month, hubspot!.since_month, pipedrive!.since_month]).toEqual([null, null, null]);
  });

  it("answers a monitor without a tick with its entities and no figure", () => {
    const c = body.monitors.find((m) => m.id === monitorC)!;
    expect(c.last_tick_at).toBeNull();
    expect(c.entities.every((e) => e.latest === null && e.sparkline.length === 0 && e.since_week === null && e.since_month === null)).toBe(true);
  });

  it("says in plain words each monitor's brand at its latest tick, then only the changes the test calls significant, each with its n", () => {
    // Daily's changes since last week (6 → 13 of 20, 14 → 7 of 20) are not significant at m = 6: not said.
    expect(body.summary).toEqual([
      `On the monitor "Daily", Acme CRM is named in 13 of 20 answers at the latest tick (about 65%, 95% interval 43–82%).`,
      `On the monitor "CRM weekly", Acme CRM is named in 20 of 30 answers at the latest tick (about 67%, 95% interval 48–81%).`,
      `Since last month, Acme CRM's visibility on the monitor "CRM weekly" rose 67 points, from about 0% (0 of 10 answers) to about 67% (20 of 30), more than chance explains.`,
      `Since last month, HubSpot's visibility on the monitor "CRM weekly" fell 67 points, from about 100% (10 of 10 answers) to about 33% (10 of 30), more than chance explains.`,
    ]);
  });

  it("is 404 for a project of another workspace, exactly as for a missing one", async () => {
    const foreign = await overview(bob.cliToken, project);
    const missing = await overview(bob.cliToken, "pr_01M86BZ1B8TDMNZ120417K12ZN");
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(foreign.body.error.code).toBe(missing.body.error.code);
    expect(foreign.body.error.message.replace(project, "X")).toBe(missing.body.error.message.replace("pr_01M86BZ1B8TDMNZ120417K12ZN", "X"));
  });

  it("answers a project without monitors with an empty list and says so", async () => {
    const res = await overview(alice.cliToken, empty);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ project: { id: empty, name: "Nothing yet" }, monitors: [], summary: ["This project has no monitor yet, so there is nothing to follow over time."] });
  });
});
