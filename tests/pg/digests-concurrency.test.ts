// Weekly digests on a PostgreSQL server, as several instances look at once: the digests' check run
// by 10 instances together claims one digest per monitor and week and queues its first attempt
// once; that attempt run by 4 workers at once is made once; later checks claim nothing more.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { claimDueDigests, checkDigests } from "@/lib/digests/claim";
import { attemptDigest } from "@/lib/digests/deliver";
import { createMonitor } from "@/lib/monitors/create";
import { checkMonitors } from "@/lib/monitors/ticks";
import { createProject } from "@/lib/projects/create";
import { LocalDriver, localDriver } from "@/lib/work/local-driver";
import { freshPostgres } from "../helpers/db";
import { useSimulatedEngines } from "../helpers/engines";
import { person, principalOf } from "../helpers/people";

useSimulatedEngines({ billing: true });
delete process.env.SMTP_URL;
resetConfig();

let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  close = (await freshPostgres({ poolSize: 24 })).close;
});

afterAll(async () => {
  await localDriver().drained();
  await close?.();
});

/** `fn` with a driver that accepts jobs and starts none: the test runs the attempts itself. */
async function withoutWorkers<T>(fn: () => Promise<T>): Promise<T> {
  const holder = globalThis as { __geoscopeLocalDriver?: LocalDriver };
  const previous = holder.__geoscopeLocalDriver;
  holder.__geoscopeLocalDriver = new LocalDriver({ concurrency: () => 0 });
  try {
    return await fn();
  } finally {
    holder.__geoscopeLocalDriver = previous;
  }
}

describe("weekly digests on PostgreSQL", () => {
  it("10 instances checking at once make one digest per monitor and week, its first attempt queued once and made once by 4 workers", async () => {
    const who = await person("digest-raced@example.com");
    const principal = principalOf(who);
    const project = (await createProject(principal, { name: "Digests", workspace_id: who.workspaceId, context: { brands: ["Acme"], competitors: ["Globex"] } })).id;
    // Three weekly monitors whose ticks are skipped for their budget: ticks that end at once.
    const monitors = [];
    for (let i = 0; i < 3; i++) {
      monitors.push(
        await createMonitor(principal, {
          project, prompts: [{ text: `raced ${i}` }], engines: ["gemini"], runs: 1, monthly_budget_usd: "0.001",
          schedule: { every: "week", at: "06:00", weekday: 4 }, alerts: { digest: "weekly" },
        }),
      );
    }
    const slot = new Date(monitors[0]!.next_run_at);
    await checkMonitors(new Date(slot.getTime() + 1000));
    await localDriver().drained();
    expect(await db().monitorTick.count({ where: { status: "skipped" } })).toBe(3);

    const at = new Date(slot.getTime() + 60_000);
    const claims = await withoutWorkers(() => Promise.all(Array.from({ length: 10 }, () => claimDueDigests(at))));
    expect(claims.flat()).toHaveLength(3);
    const digests = await db().monitorDigest.findMany();
    expect(digests).toHaveLength(3);
    expect(new Set(digests.map((d) => d.monitorId))).toEqual(new Set(monitors.map((m) => m.id)));
    expect(await db().job.count({ where: { job: "deliver-digest" } })).toBe(3);

    const outcomes = await Promise.all(digests.flatMap((d) => Array.from({ length: 4 }, () => attemptDigest(d.id, 1, at))));
    expect(outcomes.filter((o) => o === "logged")).toHaveLength(3);
    expect(outcomes.filter((o) => o === "skipped")).toHaveLength(9);

    // Later looks, by many instances, claim nothing and queue nothing more.
    await withoutWorkers(() => Promise.all(Array.from({ length: 10 }, () => checkDigests(new Date(at.getTime() + 3_600_000)))));
    expect(await db().monitorDigest.count()).toBe(3);
    expect(await db().job.count({ where: { job: "deliver-digest" } })).toBe(3);
    const after = await db().monitorDigest.findMany();
    expect(after.every((d) => d.status === "logged" && d.attempts === 1)).toBe(true);
  });
});
