// A monitor's dashboard (lib/monitors/dashboard.ts), what its page and its share page draw: the
// series of GET /monitors/{id}/series for every entity over all engines and per engine, equal to
// each completed tick's visibility analysis,
// each point with its n and interval, and the change from the tick before as lib/stats decides it
// (Newcombe at 1 - 0.05/m over the entity x engine cells, "all" included, and min_change).
import { beforeAll, describe, expect, it } from "vitest";
import { POST as runRoute } from "@/app/api/v1/monitors/[monitor_id]/run/route";
import { POST as createRoute } from "@/app/api/v1/monitors/route";
import { db } from "@/lib/db/client";
import { monitorDashboard } from "@/lib/monitors/dashboard";
import { checkMonitors } from "@/lib/monitors/ticks";
import { createProject } from "@/lib/projects/create";
import { changeTest } from "@/lib/stats/change";
import { localDriver } from "@/lib/work/local-driver";
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { call } from "../helpers/http";
import { person, principalOf, type Person } from "../helpers/people";

useSimulatedEngines({ billing: true });
useTestDatabase();

let alice: Person;
let project: string;
const entities = [
  { name: "HubSpot", role: "brand" },
  { name: "Pipedrive", role: "competitor" },
];

beforeAll(async () => {
  alice = await person("alice@example.com");
  project = (await createProject(principalOf(alice), { name: "Acme", workspace_id: alice.workspaceId, context: null })).id;
});

/** Runs a tick now and lets it finish: its visibility analysis made by the tick's job. */
async function tickWithAnalysis(monitorId: string): Promise<{ tickId: string; analysisId: string }> {
  const tick = await call(runRoute, "POST", `/monitors/${monitorId}/run`, { token: alice.cliToken, params: { monitor_id: monitorId } });
  expect(tick.status, JSON.stringify(tick.body)).toBe(202);
  await localDriver().drained();
  await checkMonitors(new Date());
  await localDriver().drained();
  const row = await db().monitorTick.findUniqueOrThrow({ where: { id: tick.body.id } });
  expect(row.status).toBe("completed");
  expect(row.analysisId).not.toBeNull();
  return { tickId: row.id, analysisId: row.analysisId! };
}

describe("monitorDashboard", () => {
  it("is empty before the first tick: every metric and engine, no point", async () => {
    const made = await call(createRoute, "POST", "/monitors", { token: alice.cliToken, body: { project, prompts: [{ text: "best crm" }], engines: ["chatgpt", "claude"], runs: 1, entities } });
    const dashboard = (await monitorDashboard(made.body.id))!;
    expect(dashboard.metrics.map((m) => m.metric)).toEqual(["visibility", "share_of_voice", "cited_rate", "average_position", "top3_rate"]);
    expect(dashboard.byEngine.map((e) => e.engine)).toEqual(["chatgpt", "claude"]);
    expect(dashboard.metrics.flatMap((m) => m.series.flatMap((s) => s.points))).toEqual([]);
    expect(await monitorDashboard("mo_01M86BZ1B8TDMNZ120417K12ZN")).toBeNull();
  });

  it("has each completed tick's figures as its analysis has them, with n, interval and the change from the tick before", async () => {
    const made = await call(createRoute, "POST", "/monitors", {
      token: alice.cliToken,
      body: { project, prompts: [{ text: "best crm for agencies" }, { text: "pipedrive vs hubspot" }], engines: ["chatgpt", "claude"], runs: 3, entities, alerts: { min_change: 5 } },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const first = await tickWithAnalysis(made.body.id);
    const second = await tickWithAnalysis(made.body.id);
    const dashboard = (await monitorDashboard(made.body.id))!;
    expect(dashboard.version).toBe(1);

    type Figures = { runs: number; runs_mentioning: number; visibility: number; visibility_interval: [number, number]; cited_rate: number; runs_citing: number; by_engine: Array<{ engine: string; runs: number; runs_mentioning: number; visibility: number }> };
    const rowsOf = async (id: string) => ((await db().analysis.findUniqueOrThrow({ where: { id } })).result as { rows: Array<Figures & { name: string }> }).rows;
    const [a, b] = [await rowsOf(first.analysisId), await rowsOf(second.analysisId)];
    // 2 entities x (2 engines + all) cells compared at each tick.
    const m = 6;
    const visibility = dashboard.metrics.find((x) => x.metric === "visibility")!;
    for (const [i, entity] of ["HubSpot", "Pipedrive"].entries()) {
      const series = visibility.series[i]!;
      expect(series.entity).toBe(entity);
      const [before, after] = [a.find((r) => r.name === entity)!, b.find((r) => r.name === entity)!];
      expect(series.points.map((p) => [p.tick_id, p.runs, p.value, p.interval])).toEqual([
        [first.tickId, 12, before.visibility, before.visibility_interval],
        [second.tickId, 12, after.visibility, after.visibility_interval],
      ]);
      expect(series.points[0]!.change).toBeNull();
      const test = changeTest({ successes: before.runs_mentioning, trials: before.runs }, { successes: after.runs_mentioning, trials: after.runs }, { m, minChange: 5 });
      expect(series.points[1]!.change).toEqual({ diff: test.diff, interval: test.interval, significant: test.significant });
      // Per engine: the analysis's by_engine rows.
      for (const engine of ["chatgpt", "claude"]) {
        const perEngine = dashboard.byEngine.find((e) => e.engine === engine)!.series[i]!;
        expect(perEngine.points.map((p) => [p.runs, p.value])).toEqual([
          [6, before.by_engine.find((g) => g.engine === engine)!.visibility],
          [6, after.by_engine.find((g) => g.engine === engine)!.visibility],
        ]);
      }
    }
    const cited = dashboard.metrics.find((x) => x.metric === "cited_rate")!.series[0]!;
    expect(cited.points.map((p) => p.value)).toEqual([a[0]!.cited_rate, b[0]!.cited_rate]);
  });
});
