// The job registry on both drivers: the local driver runs registered jobs from the jobs table
// (steps recorded, resumed, retried, given up), and @inngest/test runs every registered job's
// Inngest function with its typed event.
import { standalone } from "@/lib/db/sql";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { InngestTestEngine } from "@inngest/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cronFunctionOf, inngestFunctionOf } from "@/inngest/functions/jobs";
import { alertDeliveriesTask } from "@/lib/alerts/jobs/deliver";
import { raisePing } from "@/lib/alerts/raise";
import { monitorDigestsTask } from "@/lib/digests/jobs/digest";
import { newId } from "@/lib/db/ids";
import { monitorScheduleTask } from "@/lib/monitors/jobs/schedule";
import { createMonitor, runMonitor } from "@/lib/monitors/create";
import { claimDueSlots } from "@/lib/monitors/ticks";
import { db } from "@/lib/db/client";
import { createProject } from "@/lib/projects/create";
import { createAudit } from "@/lib/audits/create";
import { createQuestionsAnalysis } from "@/lib/questions/create";
import { createPromptBatch } from "@/lib/runs/create";
import { analyseVisibility } from "@/lib/visibility/create";
import { dispatch, queueJobs } from "@/lib/work/dispatch";
import { jobEvent, testThreeSteps, type AnyEventType, type EventData } from "@/lib/work/events";
import { LocalDriver, installJobs, localDriver } from "@/lib/work/local-driver";
import { registeredJobs, registeredPeriodic } from "@/lib/work/registry";
import { useTestDatabase } from "../helpers/app";
import { startReceiver } from "../helpers/webhook-receiver";
import { person } from "../helpers/people";
import type { Principal } from "@/lib/auth/principal";
import { useSimulatedEngines } from "../helpers/engines";

useSimulatedEngines();
process.env.GEOSCOPE_TEST_JOBS = "1";
// The test job too, as a server started with GEOSCOPE_TEST_JOBS=1 installs it (lib/work/start.ts).
installJobs(registeredJobs());
// The alerts' receiver listens on loopback, on a port of the system's choosing.
process.env.WEBHOOK_ALLOW_HOSTS = "127.0.0.1";

useTestDatabase();

const dirs: string[] = [];
function workDir(release = true): string {
  const dir = mkdtempSync(path.join(tmpdir(), "geoscope-job-"));
  dirs.push(dir);
  if (release) writeFileSync(path.join(dir, "release"), "");
  return dir;
}
const lines = (dir: string, file: string) => (existsSync(path.join(dir, file)) ? readFileSync(path.join(dir, file), "utf8").split("\n").filter(Boolean) : []);

async function send(id: string, data: EventData<typeof testThreeSteps>) {
  const events = [jobEvent(testThreeSteps, id, data)];
  await queueJobs(standalone(), events);
  await dispatch(events);
}

const jobRow = (id: string) => db().job.findUniqueOrThrow({ where: { id } });

afterAll(() => {
  localDriver().stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("the local driver", () => {
  it("runs a job's steps in order, each once, and records each output in the job's row", async () => {
    const dir = workDir();
    await send("job-plain", { dir });
    await localDriver().drained();
    expect(lines(dir, "effects.log")).toEqual(["one", "two", "three"]);
    const row = await jobRow("job-plain");
    expect(row).toMatchObject({ status: "completed", attempts: 1, steps: { one: 1, two: 2, three: 3 }, job: "test-three-steps" });
  });

  it("resumes a job whose worker died after step two without running steps one and two again", async () => {
    const dir = workDir();
    // As a server killed during step three leaves it: running, its lease expired, two steps recorded.
    await db().job.create({
      data: {
        id: "job-resumed", job: "test-three-steps", payload: { dir }, status: "running", attempts: 1,
        leaseExpiresAt: new Date(Date.now() - 1000), steps: { one: 1, two: 2 },
      },
    });
    const restarted = new LocalDriver();
    expect(await restarted.sweep()).toBe(1);
    await restarted.drained();
    expect(lines(dir, "effects.log")).toEqual(["three"]);
    expect(await jobRow("job-resumed")).toMatchObject({ status: "completed", attempts: 2, steps: { one: 1, two: 2, three: 3 } });
    // Nothing left to do: a second sweep starts nothing.
    expect(await restarted.sweep()).toBe(0);
  });

  it("leaves a job under another worker's live lease alone", async () => {
    const dir = workDir();
    await db().job.create({
      data: { id: "job-held", job: "test-three-steps", payload: { dir }, status: "running", attempts: 1, leaseExpiresAt: new Date(Date.now() + 600_000) },
    });
    const other = new LocalDriver();
    expect(await other.sweep()).toBe(0);
    other.enqueue([{ id: "job-held", job: "test-three-steps", concurrencyKey: null }]);
    await other.drained();
    expect(lines(dir, "effects.log")).toEqual([]);
    expect((await jobRow("job-held")).status).toBe("running");
  });

  it("retries a job whose step threw, with backoff, keeping the steps that had finished", async () => {
    const dir = workDir();
    await send("job-retried", { dir, fail_first: 1 });
    await expect.poll(async () => (await jobRow("job-retried")).status, { timeout: 20_000 }).toBe("completed");
    expect(lines(dir, "attempts.log")).toEqual(["two", "two"]);
    expect(lines(dir, "effects.log")).toEqual(["one", "two", "three"]);
    expect((await jobRow("job-retried")).attempts).toBe(2);
  });

  it("fails a job for good once its retries are spent, calling its onFailure once", async () => {
    const dir = workDir();
    await send("job-failing", { dir, fail_first: 100 });
    await expect.poll(async () => (await jobRow("job-failing")).status, { timeout: 20_000 }).toBe("failed");
    // retries: 2, so three executions of step two; step one ran once.
    expect(lines(dir, "attempts.log")).toEqual(["two", "two", "two"]);
    expect(lines(dir, "effects.log")).toEqual(["one"]);
    expect(lines(dir, "failed.log")).toEqual(["step two failed on purpose"]);
    expect(await jobRow("job-failing")).toMatchObject({ attempts: 3, error: "step two failed on purpose", steps: { one: 1 } });
  });

  it("fails a job row that names no registered job, or whose payload does not fit its event, without running anything", async () => {
    const dir = workDir();
    await db().job.createMany({
      data: [
        { id: "job-unknown", job: "no-such-job", payload: { dir } },
        { id: "job-bad-payload", job: "test-three-steps", payload: { directory: dir } },
      ],
    });
    const driver = new LocalDriver();
    expect(await driver.sweep()).toBe(2);
    await driver.drained();
    expect(await jobRow("job-unknown")).toMatchObject({ status: "failed", error: 'No job "no-such-job" is registered on this server.' });
    expect(await jobRow("job-bad-payload")).toMatchObject({ status: "failed", error: "The payload does not fit geoscope/test.three-steps." });
    expect(lines(dir, "effects.log")).toEqual([]);
  });

  it("records a job once per event id, however often the event is sent", async () => {
    const dir = workDir();
    await send("job-twice", { dir });
    await send("job-twice", { dir });
    await localDriver().drained();
    expect(lines(dir, "effects.log")).toEqual(["one", "two", "three"]);
    expect(await db().job.count({ where: { id: "job-twice" } })).toBe(1);
  });
});

describe("on Inngest", () => {
  let principal: Principal;
  let project: string;

  beforeAll(async () => {
    const p = await person("jobs@example.com");
    principal = { user: { id: p.id, email: p.email }, credential: { kind: "cli_token", id: p.cliTokenId, name: "t" }, workspaceId: null, apiKeyId: null };
    project = (await createProject(principal, { name: "Jobs", workspace_id: p.workspaceId, context: null })).id;
  });

  // One typed event per registered job, and what its run must have done. A job registered
  // without an entry here fails the test below.
  const fixtures: Record<string, () => Promise<{ event: { id: string; data: Record<string, unknown> }; check: (result: unknown) => Promise<void> }>> = {
    "execute-run": async () => {
      // Accepted but not executed here: the Inngest function must do it.
      const holder = globalThis as { __geoscopeLocalDriver?: LocalDriver };
      const previous = holder.__geoscopeLocalDriver;
      holder.__geoscopeLocalDriver = new LocalDriver({ concurrency: () => 0 });
      const batch = await createPromptBatch(principal, { prompt: "typed events", project, engines: ["gemini"] }).finally(() => {
        holder.__geoscopeLocalDriver = previous;
      });
      const runId = batch.runs[0]!.id;
      return {
        event: { id: runId, data: { run_id: runId, engine: "gemini" } },
        check: async (result) => {
          expect(result).toBe("completed");
          const run = await db().run.findUniqueOrThrow({ where: { id: runId }, include: { hold: true } });
          expect(run.status).toBe("completed");
          expect(run.hold?.status).toBe("captured");
        },
      };
    },
    "generate-questions": async () => {
      // Accepted but not executed here: the Inngest function must do it.
      const holder = globalThis as { __geoscopeLocalDriver?: LocalDriver };
      const previous = holder.__geoscopeLocalDriver;
      holder.__geoscopeLocalDriver = new LocalDriver({ concurrency: () => 0 });
      const analysis = await createQuestionsAnalysis(principal, { topic: "typed events", count: 6, project }).finally(() => {
        holder.__geoscopeLocalDriver = previous;
      });
      const runId = analysis.run_ids[0]!;
      const { engine } = await db().run.findUniqueOrThrow({ where: { id: runId }, select: { engine: true } });
      return {
        event: { id: analysis.id, data: { analysis_id: analysis.id, run_id: runId, engine: engine! } },
        check: async (result) => {
          expect(result).toBe("completed");
          const row = await db().analysis.findUniqueOrThrow({ where: { id: analysis.id } });
          expect(row.status).toBe("completed");
          expect((row.result as { questions: unknown[] }).questions.length).toBeGreaterThan(0);
        },
      };
    },
    "audit-page": async () => {
      // Accepted but not executed here: the Inngest function must do it. A private address: the
      // audit fails without leaving this machine, saying the page was blocked, its hold released.
      const holder = globalThis as { __geoscopeLocalDriver?: LocalDriver };
      const previous = holder.__geoscopeLocalDriver;
      holder.__geoscopeLocalDriver = new LocalDriver({ concurrency: () => 0 });
      const run = await createAudit(principal, { url: "http://10.0.0.1/typed-events", project }).finally(() => {
        holder.__geoscopeLocalDriver = previous;
      });
      return {
        event: { id: run.id, data: { run_id: run.id, host: "10.0.0.1" } },
        check: async (result) => {
          expect(result).toBe("failed");
          const row = await db().run.findUniqueOrThrow({ where: { id: run.id } });
          expect(row.status).toBe("failed");
          expect((row.error as { code: string }).code).toBe("page_blocked");
        },
      };
    },
    "start-tick": async () => {
      // Claimed (its job accepted but not executed here): the Inngest function must make its fanout.
      const monitor = await createMonitor(principal, { project, prompts: [{ text: "typed tick" }], engines: ["gemini"], runs: 1, entities: [{ name: "Acme", role: "brand" }] });
      const holder = globalThis as { __geoscopeLocalDriver?: LocalDriver };
      const previous = holder.__geoscopeLocalDriver;
      holder.__geoscopeLocalDriver = new LocalDriver({ concurrency: () => 0 });
      const claimed = await claimDueSlots(new Date(Date.parse(monitor.next_run_at) + 1000)).finally(() => {
        holder.__geoscopeLocalDriver = previous;
      });
      const tickId = claimed.find((t) => t.monitorId === monitor.id)!.tickId;
      return {
        event: { id: tickId, data: { tick_id: tickId } },
        check: async (result) => {
          expect(result).toBe("started");
          const tick = await db().monitorTick.findUniqueOrThrow({ where: { id: tickId } });
          expect(tick.fanoutId).toMatch(/^fo_/);
          expect(await db().run.count({ where: { fanoutId: tick.fanoutId! } })).toBe(1);
        },
      };
    },
    "finish-tick": async () => {
      // A tick whose fanout finished: the Inngest function must close it.
      const monitor = await createMonitor(principal, { project, prompts: [{ text: "typed close" }], engines: ["gemini"], runs: 1, entities: [{ name: "Acme", role: "brand" }] });
      const tick = await runMonitor(principal, monitor.id);
      await localDriver().drained();
      // Its last run's job closed it here (the local driver); opened again, as a tick whose close
      // was lost (a crash before the queueing: the scheduler's sweep's case), for Inngest's function to close.
      await db().monitorTick.update({ where: { id: tick.id }, data: { completedAt: null, chargedMicros: null, status: "queued" } });
      return {
        event: { id: `${tick.id}.finished`, data: { tick_id: tick.id } },
        check: async (result) => {
          expect(result).toBe("closed");
          const row = await db().monitorTick.findUniqueOrThrow({ where: { id: tick.id } });
          expect([row.status, row.completedAt !== null]).toEqual(["completed", true]);
        },
      };
    },
    "deliver-alert": async () => {
      // A ping's delivery accepted but not attempted here: the Inngest function must send it.
      const receiver = await startReceiver();
      const monitor = await createMonitor(principal, {
        project, prompts: [{ text: "typed alert" }], engines: ["gemini"], runs: 1, entities: [{ name: "Acme", role: "brand" }], alerts: { webhook_url: receiver.url("/typed") },
      });
      const holder = globalThis as { __geoscopeLocalDriver?: LocalDriver };
      const previous = holder.__geoscopeLocalDriver;
      holder.__geoscopeLocalDriver = new LocalDriver({ concurrency: () => 0 });
      const alertId = await raisePing(monitor.id).finally(() => {
        holder.__geoscopeLocalDriver = previous;
      });
      const delivery = await db().alertDelivery.findFirstOrThrow({ where: { alertId: alertId! } });
      return {
        event: { id: `${delivery.id}.1`, data: { delivery_id: delivery.id, attempt: 1 } },
        check: async (result) => {
          expect(result).toBe("delivered");
          expect(receiver.to("/typed").map((r) => JSON.parse(r.body).id)).toEqual([alertId]);
          expect(await db().alertDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({ status: "delivered", attempts: 1, lastStatus: "200" });
          await receiver.close();
        },
      };
    },
    "deliver-digest": async () => {
      // A digest claimed, its attempt not made here: the Inngest function must make it (logged:
      // these tests set no SMTP_URL).
      const monitor = await createMonitor(principal, {
        project, prompts: [{ text: "typed digest" }], engines: ["gemini"], runs: 1, entities: [{ name: "Acme", role: "brand" }], alerts: { digest: "weekly" },
      });
      const { workspaceId } = await db().monitor.findUniqueOrThrow({ where: { id: monitor.id } });
      const digest = await db().monitorDigest.create({
        data: { id: newId("digest"), monitorId: monitor.id, workspaceId, week: "2026-W48", subject: "Weekly digest: typed digest (week 2026-W48)", createdAt: new Date() },
      });
      return {
        event: { id: `${digest.id}.1`, data: { digest_id: digest.id, attempt: 1 } },
        check: async (result) => {
          expect(result).toBe("logged");
          expect(await db().monitorDigest.findUniqueOrThrow({ where: { id: digest.id } })).toMatchObject({ status: "logged", attempts: 1, recipient: principal.user.email });
        },
      };
    },
    "judge-visibility": async () => {
      // A judged analysis of a finished batch, its job accepted but not executed here: the Inngest
      // function must judge its runs and finish it, its hold captured.
      const batch = await createPromptBatch(principal, { prompt: "best crm for a startup", project, engines: ["gemini", "claude"] });
      await localDriver().drained();
      const holder = globalThis as { __geoscopeLocalDriver?: LocalDriver };
      const previous = holder.__geoscopeLocalDriver;
      holder.__geoscopeLocalDriver = new LocalDriver({ concurrency: () => 0 });
      const analysisId = await analyseVisibility(principal, {
        ids: [batch.batch.id], entities: [{ name: "HubSpot", role: "brand" }], judge: { engine: "claude", sentiment: true, discover: true },
      }).finally(() => {
        holder.__geoscopeLocalDriver = previous;
      });
      expect((await db().analysis.findUniqueOrThrow({ where: { id: analysisId } })).status).toBe("queued");
      return {
        event: { id: analysisId, data: { analysis_id: analysisId, engine: "claude" } },
        check: async (result) => {
          expect(result).toBe("completed");
          const row = await db().analysis.findUniqueOrThrow({ where: { id: analysisId } });
          expect(row.status).toBe("completed");
          const judged = (row.result as { judged: { judge: { runs_judged: number }; charge: { status: string } } }).judged;
          expect(judged.judge.runs_judged).toBe(2);
          expect(judged.charge.status).toBe("captured");
        },
      };
    },
    "test-three-steps": async () => {
      const dir = workDir();
      return {
        event: { id: "inngest-three", data: { dir } },
        check: async (result) => {
          expect(result).toBe(3);
          expect(lines(dir, "effects.log")).toEqual(["one", "two", "three"]);
        },
      };
    },
  };

  it("runs every registered job's function with its typed event", async () => {
    const jobs = registeredJobs();
    expect(jobs.map((j) => j.id).sort()).toEqual(Object.keys(fixtures).sort());
    for (const job of jobs) {
      const { event, check } = await fixtures[job.id]!();
      // The event's data fits the job's schema, as sending it would require.
      expect(() => jobEvent(job.event as AnyEventType, event.id, event.data as never)).not.toThrow();
      const engine = new InngestTestEngine({ function: inngestFunctionOf(job), events: [{ id: event.id, name: job.event.name, data: event.data }] });
      const { result, error } = await engine.execute();
      expect(error, job.id).toBeUndefined();
      await check(result);
    }
  });

  it("runs every periodic task from an Inngest cron function: the monitors' check claims a due slot", async () => {
    expect(registeredPeriodic().map((t) => [t.id, t.cron])).toEqual([
      ["monitor-schedule", "* * * * *"],
      ["alert-deliveries", "* * * * *"],
      ["monitor-digests", "* * * * *"],
    ]);
    const monitor = await createMonitor(principal, { project, prompts: [{ text: "cron tick" }], engines: ["gemini"], runs: 1, entities: [{ name: "Acme", role: "brand" }] });
    await db().monitor.update({ where: { id: monitor.id }, data: { nextRunAt: new Date(Date.now() - 60_000) } });
    const engine = new InngestTestEngine({ function: cronFunctionOf(monitorScheduleTask), events: [{ name: "inngest/scheduled.timer", data: { cron: "* * * * *" } }] });
    const { result, error } = await engine.execute();
    expect(error).toBeUndefined();
    expect(result).toMatchObject({ claimed: 1 });
    const ticks = await db().monitorTick.findMany({ where: { monitorId: monitor.id } });
    expect(ticks).toHaveLength(1);
    await localDriver().drained();
  });

  it("runs the alerts' sweep from an Inngest cron function: a delivery whose retry is due gets its attempt", async () => {
    const receiver = await startReceiver();
    receiver.plan("/cron", (n) => (n === 1 ? 503 : 200));
    try {
      const monitor = await createMonitor(principal, {
        project, prompts: [{ text: "cron alert" }], engines: ["gemini"], runs: 1, entities: [{ name: "Acme", role: "brand" }], alerts: { webhook_url: receiver.url("/cron") },
      });
      const alertId = (await raisePing(monitor.id))!;
      await localDriver().drained();
      const delivery = await db().alertDelivery.findFirstOrThrow({ where: { alertId } });
      expect([delivery.status, delivery.attempts]).toEqual(["pending", 1]);
      // Its retry is due now: what the clock reaching it would do.
      await db().alertDelivery.update({ where: { id: delivery.id }, data: { nextAttemptAt: new Date(Date.now() - 1000) } });
      const engine = new InngestTestEngine({ function: cronFunctionOf(alertDeliveriesTask), events: [{ name: "inngest/scheduled.timer", data: { cron: "* * * * *" } }] });
      const { result, error } = await engine.execute();
      expect(error).toBeUndefined();
      expect(result).toEqual({ queued: 1, failed: 0 });
      await localDriver().drained();
      expect(await db().alertDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({ status: "delivered", attempts: 2 });
      expect(receiver.to("/cron")).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });
  it("runs the weekly digests' check from an Inngest cron function: a monitor whose digest day's tick has ended gets its digest, once", async () => {
    const monitor = await createMonitor(principal, {
      project, prompts: [{ text: "cron digest" }], engines: ["gemini"], runs: 1, entities: [{ name: "Acme", role: "brand" }], alerts: { digest: "weekly" },
    });
    // Its daily schedule's Monday tick, the latest before now, skipped (ended): what the scheduler would have left.
    const now = new Date();
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    let monday = today - ((now.getUTCDay() + 6) % 7) * 86_400_000 + 6 * 3_600_000;
    if (monday > now.getTime()) monday -= 7 * 86_400_000;
    const row = await db().monitor.findUniqueOrThrow({ where: { id: monitor.id } });
    await db().monitorTick.create({
      data: { id: newId("monitorTick"), monitorId: monitor.id, workspaceId: row.workspaceId, version: 1, scheduledFor: new Date(monday), trigger: "schedule", status: "skipped", skipReason: "budget_exhausted", completedAt: new Date(monday + 1000) },
    });
    const run = () => new InngestTestEngine({ function: cronFunctionOf(monitorDigestsTask), events: [{ name: "inngest/scheduled.timer", data: { cron: "* * * * *" } }] }).execute();
    const first = await run();
    expect(first.error).toBeUndefined();
    expect(first.result).toEqual({ claimed: 1, queued: 0, failed: 0 });
    expect((await run()).result).toEqual({ claimed: 0, queued: 0, failed: 0 });
    await localDriver().drained();
    expect(await db().monitorDigest.findMany({ where: { monitorId: monitor.id } })).toEqual([expect.objectContaining({ status: "logged", attempts: 1 })]);
  });
});
