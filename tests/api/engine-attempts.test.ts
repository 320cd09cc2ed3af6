// A prompt run's engine retries as its pages see them (issue #32): each retry is recorded on the
// run (which attempt comes next, and when) while the worker waits, the live signature moves so
// the page refreshes, and engineAttemptsOf says which attempt of three it is and when it gives up.
import { beforeAll, describe, expect, it } from "vitest";
import { engineConfig } from "@/lib/config/engines";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { createProject } from "@/lib/projects/create";
import { engineAttemptsOf, progressOf } from "@/lib/research/progress";
import { executeRun } from "@/lib/runs/execute";
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { person, principalOf, type Person } from "../helpers/people";

useSimulatedEngines({ billing: false });
useTestDatabase();

let ana: Person;
let project: string;

beforeAll(async () => {
  ana = await person("ana@example.com");
  project = (await createProject(principalOf(ana), { name: "Retries", workspace_id: ana.workspaceId, context: null })).id;
});

/** A queued prompt run no driver was told about, so the test runs it with its own clock. */
async function queuedRun(prompt: string): Promise<string> {
  const id = newId("run");
  await db().run.create({ data: { id, kind: "prompt", status: "queued", workspaceId: ana.workspaceId, projectId: project, engine: "chatgpt", subject: prompt, input: { prompt, engine: "chatgpt" } } });
  return id;
}

describe("engine attempts", () => {
  it("while waiting to retry, the run says which attempt comes next and when; the page's signature moves with it", async () => {
    // Two refusals with a 7 s Retry-After, then an answer.
    const runId = await queuedRun("crm for plumbers [[sim:rate_limit:7*2]]");
    const seen: { wait: number; attempt: number | null; startsIn: number; view: unknown; signature: string }[] = [];
    const outcome = await executeRun(runId, {
      sleep: async (ms) => {
        const row = await db().run.findUniqueOrThrow({ where: { id: runId } });
        const view = (await engineAttemptsOf(principalOf(ana), [runId])).get(runId);
        seen.push({ wait: ms, attempt: row.engineAttempt, startsIn: row.engineAttemptAt!.getTime() - Date.now(), view, signature: (await progressOf(principalOf(ana), runId)).signature });
      },
    });
    expect(outcome).toBe("completed");
    expect(seen.map((s) => [s.wait, s.attempt, s.signature])).toEqual([
      [7000, 2, "running#2"],
      [7000, 3, "running#3"],
    ]);
    for (const s of seen) expect(s.startsIn).toBeGreaterThan(5000);
    const timeout = engineConfig().timeoutMs;
    const second = seen[0]!.view as { attempt: number; of: number; startsAt: string; givesUpAt: string; failsBy: string };
    expect(second).toMatchObject({ attempt: 2, of: 3 });
    expect(Date.parse(second.givesUpAt) - Date.parse(second.startsAt)).toBe(timeout);
    expect(Date.parse(second.failsBy) - Date.parse(second.givesUpAt)).toBe(2000 + timeout);
    // Finished: nothing more to say, and the signature is the status alone.
    expect((await engineAttemptsOf(principalOf(ana), [runId])).size).toBe(0);
    expect((await progressOf(principalOf(ana), runId)).signature).toBe("completed");
  });

  it("a retry records the next attempt; a run whose engine answers at once records none (no statement more)", async () => {
    const runId = await queuedRun("crm for bakers [[sim:rate_limit:1*1]]");
    let first: unknown;
    await executeRun(runId, {
      sleep: async () => {
        first ??= "slept";
      },
    });
    const row = await db().run.findUniqueOrThrow({ where: { id: runId } });
    expect(first).toBe("slept");
    expect(row.engineAttempt).toBe(2);
    // A run whose engine answers at once records nothing.
    const quick = await queuedRun("crm for florists");
    expect(await executeRun(quick)).toBe("completed");
    expect((await db().run.findUniqueOrThrow({ where: { id: quick } })).engineAttempt).toBeNull();
  });

  it("another principal learns nothing of a run it cannot reach", async () => {
    const bea = await person("bea@example.com");
    const runId = await queuedRun("crm for cafes [[sim:rate_limit:3*1]]");
    let views = -1;
    await executeRun(runId, {
      sleep: async () => {
        views = (await engineAttemptsOf(principalOf(bea), [runId])).size;
      },
    });
    expect(views).toBe(0);
  });
});
