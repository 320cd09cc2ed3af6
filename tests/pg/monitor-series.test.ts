// A tick's analysis on a PostgreSQL server: a step that dies after the analysis's rows were sent
// but before its commit leaves no analysis; the analysis step run by six workers at once
// (a job taken over while still running) makes one analysis, one set of series figures and one
// analysis_id; the close marks them counted in its statement; the series then answers the
// analysis's figures.
import { describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { analyseTick } from "@/lib/monitors/analysis";
import { getSeries } from "@/lib/monitors/read";
import { createMonitor, runMonitor } from "@/lib/monitors/create";
import { checkMonitors } from "@/lib/monitors/ticks";
import { createProject } from "@/lib/projects/create";
import { getAnalysis } from "@/lib/analyses/read";
import { analyseVisibility } from "@/lib/visibility/create";
import { localDriver } from "@/lib/work/local-driver";
import { heldBack, usePostgresDatabase } from "../helpers/app";
import { executeRun } from "@/lib/runs/execute";
import { person, principalOf } from "../helpers/people";
import { useSimulatedEngines } from "../helpers/engines";

useSimulatedEngines({ billing: true });
resetConfig();


usePostgresDatabase({ poolSize: 24 });

describe("a tick's analysis on PostgreSQL", () => {
  it("leaves nothing when its step dies before the commit, is made once when it runs six times at once, with one set of figures, counted by the close and answered by the series", async () => {
    const who = await person("series-pg@example.com");
    const principal = principalOf(who);
    const project = (await createProject(principal, { name: "Series", workspace_id: who.workspaceId, context: { brands: ["Acme CRM"], competitors: ["HubSpot"] } })).id;
    const m = await createMonitor(principal, { project, prompts: [{ text: "best crm for agencies" }, { text: "pipedrive vs hubspot" }], engines: ["gemini", "claude"], runs: 3 });
    // The tick's runs executed one by one outside their jobs, so that its last run's job does not
    // close it (and analyse it) before the steps below do.
    const tick = await heldBack(() => runMonitor(principal, m.id));
    for (const run of await db().run.findMany({ where: { fanoutId: tick.fanout_id! }, select: { id: true } })) await executeRun(run.id);

    // A step that dies after the analysis's rows were sent but before its commit leaves nothing.
    const fanoutId = (await db().monitorTick.findUniqueOrThrow({ where: { id: tick.id } })).fanoutId!;
    const crash = analyseVisibility({ ...principal, workspaceId: who.workspaceId }, { ids: [fanoutId] }, { after: async () => { throw new Error("the worker died"); } });
    await expect(crash).rejects.toThrow("the worker died");
    expect(await db().analysis.count({ where: { kind: "visibility", projectId: project } })).toBe(0);
    // Its mentions, sent before the analysis's row, are rolled back with it.
    expect(await db().analysisMention.count()).toBe(0);

    const made = await Promise.all(Array.from({ length: 6 }, () => analyseTick(tick.id)));
    expect(new Set(made).size).toBe(1);
    expect(made[0]).toMatch(/^va_/);
    expect(await db().analysis.count({ where: { kind: "visibility", projectId: project } })).toBe(1);
    // The five refused ones (the tick already had its analysis when they locked it) wrote no mentions.
    const mentioned = await db().analysisMention.groupBy({ by: ["analysisId"], _count: true });
    expect(mentioned.map((m) => m.analysisId)).toEqual([made[0]]);
    // 2 entities x (all, claude, gemini).
    const figures = await db().monitorTickFigure.findMany({ where: { tickId: tick.id } });
    expect(figures).toHaveLength(6);
    expect(figures.every((f) => !f.counted)).toBe(true);
    expect((await db().monitorTick.findUniqueOrThrow({ where: { id: tick.id } })).analysisId).toBe(made[0]);

    await checkMonitors(new Date());
    await localDriver().drained();
    const closed = await db().monitorTick.findUniqueOrThrow({ where: { id: tick.id } });
    expect(closed.status).toBe("completed");
    expect(closed.analysisId).toBe(made[0]);
    expect((await db().monitorTickFigure.findMany({ where: { tickId: tick.id } })).every((f) => f.counted)).toBe(true);
    expect(await db().analysis.count({ where: { kind: "visibility", projectId: project } })).toBe(1);

    const analysis = (await getAnalysis(principal, made[0]!)) as { rows: { name: string; visibility: number; visibility_interval: [number, number]; runs: number }[] };
    const series = await getSeries(principal, m.id, { metric: "visibility", entity: "HubSpot" });
    const hubspot = analysis.rows.find((r) => r.name === "HubSpot")!;
    expect(series.points).toEqual([
      { tick_id: tick.id, at: closed.scheduledFor.toISOString(), runs: hubspot.runs, n: hubspot.runs, value: hubspot.visibility, interval: hubspot.visibility_interval, change: null },
    ]);
  });
});
