// The monitors' scheduler on a PostgreSQL server, as several instances run it: many checks at
// once at the same instant claim each due slot exactly once (the unique key of monitor, version
// and slot settles them, not a lock in memory), each claimed tick gets one fanout, and a run now
// racing the budget of a monitor admits only what the budget covers.
import { describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { createMonitor, runMonitor } from "@/lib/monitors/create";
import { claimDueSlots, startTick } from "@/lib/monitors/ticks";
import { createProject } from "@/lib/projects/create";
import { localDriver } from "@/lib/work/local-driver";
import { usePostgresDatabase } from "../helpers/app";
import { person, principalOf } from "../helpers/people";
import { useSimulatedEngines } from "../helpers/engines";

useSimulatedEngines({ billing: true });
resetConfig();


usePostgresDatabase({ poolSize: 24 });

describe("claiming due slots on PostgreSQL", () => {
  it("makes one tick per due monitor however many checks run at once, and one fanout per tick however often its start runs", async () => {
    const who = await person("scheduler@example.com");
    const principal = principalOf(who);
    const project = (await createProject(principal, { name: "Schedules", workspace_id: who.workspaceId, context: { brands: ["Acme"] } })).id;
    const monitors = [];
    for (let i = 0; i < 5; i++) {
      monitors.push(await createMonitor(principal, { project, prompts: [{ text: `scheduled ${i}` }], engines: ["gemini"], runs: 1 }));
    }
    // All due at the same slot: 20 checks at once, as 20 instances would run them.
    const now = new Date(Date.parse(monitors[0]!.next_run_at) + 2_000);
    const claims = (await Promise.all(Array.from({ length: 20 }, () => claimDueSlots(now)))).flat();
    expect(claims).toHaveLength(5);
    expect(new Set(claims.map((c) => c.monitorId))).toEqual(new Set(monitors.map((m) => m.id)));
    const ticks = await db().monitorTick.findMany();
    expect(ticks).toHaveLength(5);
    expect(await db().job.count({ where: { job: "start-tick" } })).toBe(5);

    // Each tick's start run by several workers at once (a job taken over while still running):
    // one fanout each.
    await localDriver().drained();
    await Promise.all(ticks.flatMap((t) => [startTick(t.id), startTick(t.id), startTick(t.id)]));
    const after = await db().monitorTick.findMany();
    expect(after.every((t) => t.fanoutId !== null)).toBe(true);
    expect(await db().fanout.count()).toBe(5);
    expect(await db().run.count()).toBe(5);
    await localDriver().drained();
  });

  it("admits only the ticks the monthly budget covers when many run at once", async () => {
    const who = await person("budget@example.com");
    const principal = principalOf(who);
    const project = (await createProject(principal, { name: "Budget", workspace_id: who.workspaceId, context: { brands: ["Acme"] } })).id;
    // 0.015 USD a tick, 0.05 USD a month: three fit.
    const m = await createMonitor(principal, { project, prompts: [{ text: "budgeted" }], engines: ["gemini"], runs: 1, monthly_budget_usd: "0.05" });
    const ticks = await Promise.all(Array.from({ length: 8 }, () => runMonitor(principal, m.id)));
    expect(ticks.filter((t) => t.skip_reason === null)).toHaveLength(3);
    expect(ticks.filter((t) => t.skip_reason === "budget_exhausted")).toHaveLength(5);
    expect(await db().fanout.count({ where: { workspaceId: who.workspaceId } })).toBe(3);
    await localDriver().drained();
  });
});
