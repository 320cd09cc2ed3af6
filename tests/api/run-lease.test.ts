// One lease per run (lib/runs/lifecycle.ts): on the local driver a run is kept by its job's lease
// alone, renewed by the driver's one heartbeat, the run's own lease left empty; a run a dead worker
// left running is taken over as soon as its job's lease has expired. The run's own lease is
// Inngest's (tests/api/prompts.test.ts runs the step there).
import { sqlIn } from "@/lib/db/sql";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as postPrompts } from "@/app/api/v1/prompts/route";
import { recordPurchase } from "@/lib/billing/ledger";
import { parseUsd } from "@/lib/billing/money";
import { resetConfig } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { startSimulator, type RunningSimulator } from "@/lib/engines";
import { createProject } from "@/lib/projects/create";
import { MAX_CLAIMS } from "@/lib/runs/lifecycle";
import { promptRunJob } from "@/lib/runs/jobs/prompt-run";
import { actorOf, holdCredit } from "@/lib/billing/holds";
import { registeredJobs } from "@/lib/work/registry";
import { LocalDriver, localDriver } from "@/lib/work/local-driver";
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { call } from "../helpers/http";
import { person, principalOf, type Person } from "../helpers/people";

useSimulatedEngines({ billing: true });
useTestDatabase();

let dana: Person;
let project: string;
let simulator: RunningSimulator;
/** Engine calls answered, by prompt. */
const calls = new Map<string, number>();
/** While set, an engine call whose prompt contains `prompt` is announced, then answered once `answer` resolves. */
let held: { prompt: string; arrived: () => void; answer: Promise<void> } | null = null;

beforeAll(async () => {
  simulator = await startSimulator({
    onCall: async ({ prompt }) => {
      calls.set(prompt, (calls.get(prompt) ?? 0) + 1);
      const hold = held;
      if (hold && prompt.includes(hold.prompt)) {
        hold.arrived();
        await hold.answer;
      }
    },
  });
  vi.stubEnv("GEOSCOPE_SIMULATOR_URL", simulator.url);
  resetConfig();
  dana = await person("dana@example.com");
  await db().$transaction((tx) => recordPurchase(tx, { workspaceId: dana.workspaceId, amountMicros: parseUsd("10.00") }));
  project = (await createProject(principalOf(dana), { name: "Leases", workspace_id: dana.workspaceId, context: null })).id;
});

afterAll(async () => {
  await localDriver().drained();
  vi.unstubAllEnvs();
  resetConfig();
  await simulator.close();
});

/** Resolves once `check` holds, asking again after each turn of the event loop's timers. */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("the lease of a prompt run on the local driver", () => {
  it("is the run's own, as on Inngest: the claim takes it and the heartbeat renews it while the engine call is held", async () => {
    let arrived!: () => void;
    const callArrived = new Promise<void>((resolve) => (arrived = resolve));
    let answer!: () => void;
    held = { prompt: "kept by its job", arrived, answer: new Promise<void>((resolve) => (answer = resolve)) };
    // A driver whose leases are renewed every second, installed as the server's.
    const drivers = globalThis as { __geoscopeLocalDriver?: LocalDriver };
    const real = localDriver();
    const driver = new LocalDriver({ leaseMs: 1500 });
    drivers.__geoscopeLocalDriver = driver;
    try {
      const res = await call(postPrompts, "POST", "/prompts", { token: dana.apiKey, body: { prompt: "kept by its job", project, engines: ["claude"] } });
      expect(res.status).toBe(202);
      const runId = res.body.runs[0].id as string;
      await callArrived;
      const run = () => db().run.findUniqueOrThrow({ where: { id: runId }, select: { status: true, leaseExpiresAt: true, attempts: true } });
      const job = () => db().job.findUniqueOrThrow({ where: { id: runId }, select: { status: true, leaseExpiresAt: true } });
      const claimed = await run();
      expect(claimed).toMatchObject({ status: "running", attempts: 1 });
      const first = claimed.leaseExpiresAt!;
      expect(first).toBeInstanceOf(Date);
      expect((await job()).status).toBe("running");
      // The run's lease is renewed while the engine call is held (the job's row keeps its own, which says who runs the job).
      await until(async () => (await run()).leaseExpiresAt!.getTime() > first.getTime());
      answer();
      await driver.drained();
      expect(await run()).toEqual({ status: "completed", leaseExpiresAt: null, attempts: 1 });
      expect(await job()).toEqual({ status: "completed", leaseExpiresAt: null });
    } finally {
      held = null;
      answer?.();
      await driver.drained();
      driver.stop();
      drivers.__geoscopeLocalDriver = real;
    }
  });

  it("is taken over as soon as the leases expired, the engine asked once, the run charged once", async () => {
    // As a worker that died mid-call leaves them: the run and its job running under leases that have expired.
    const runId = newId("run");
    const batchId = newId("batch");
    const prompt = "left by a dead worker";
    await db().$transaction(async (tx) => {
      await tx.batch.create({ data: { id: batchId, workspaceId: dana.workspaceId, projectId: project, createdByUserId: dana.id, input: { prompt } } });
      await tx.run.create({
        data: {
          id: runId, kind: "prompt", status: "running", attempts: 1, startedAt: new Date(Date.now() - 120_000), leaseExpiresAt: new Date(Date.now() - 1000),
          workspaceId: dana.workspaceId, projectId: project, batchId, engine: "gemini", subject: prompt, input: { prompt, engine: "gemini" }, createdByUserId: dana.id,
        },
      });
      await holdCredit(sqlIn(tx), { workspaceId: dana.workspaceId, operationId: batchId, actor: actorOf(principalOf(dana)), lines: [{ product: "prompt", engine: "gemini", units: 1, runId }] });
      await tx.job.create({
        data: { id: runId, job: promptRunJob.id, payload: { run_id: runId, engine: "gemini" }, concurrencyKey: "gemini", status: "running", attempts: 1, leaseExpiresAt: new Date(Date.now() - 1000) },
      });
    });
    const restarted = new LocalDriver();
    expect(await restarted.sweep()).toBe(1);
    await restarted.drained();
    const run = await db().run.findUniqueOrThrow({ where: { id: runId }, include: { hold: true } });
    expect(run).toMatchObject({ status: "completed", attempts: 2, leaseExpiresAt: null });
    expect(run.hold?.status).toBe("captured");
    expect(calls.get(prompt)).toBe(1);
    expect(await db().ledgerTransaction.count({ where: { runId, kind: "usage" } })).toBe(1);
    expect((await db().job.findUniqueOrThrow({ where: { id: runId } })).status).toBe("completed");
  });

  it("bounds every job that executes a run by the run's claims: one execution per claim", () => {
    const runJobs = registeredJobs().filter((job) => "run_id" in job.event.schema.shape);
    expect(runJobs.map((job) => job.id).sort()).toEqual(["audit-page", "execute-run", "generate-questions"]);
    for (const job of runJobs) expect(job.retries + 1, job.id).toBe(MAX_CLAIMS);
  });
});
