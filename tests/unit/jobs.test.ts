// The job model: steps over recorded outputs, and the registry both drivers read.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { events, jobEvent, runQueued, testThreeSteps } from "@/lib/work/events";
import { RetryAfter, backoffMs, defineJob, stepRunner, type StepOutputs } from "@/lib/work/job";
import { registeredJobs } from "@/lib/work/registry";

describe("stepRunner", () => {
  it("performs each effect once when a job body runs twice with the same step results", async () => {
    const effects: string[] = [];
    let recorded: StepOutputs = {};
    const body = async (step: ReturnType<typeof stepRunner>) => {
      const a = await step.run("charge", async () => {
        effects.push("charge");
        return { charged: 2 };
      });
      const b = await step.run("write", async () => {
        effects.push("write");
        return a.charged * 10;
      });
      return b + 1;
    };
    const runOnce = async () => {
      const step = stepRunner(recorded, async (outputs) => void (recorded = outputs));
      const result = await body(step);
      recorded = step.outputs(); // the driver's final write
      return result;
    };
    const first = await runOnce();
    const second = await runOnce();
    expect(first).toBe(21);
    expect(second).toBe(21);
    expect(effects).toEqual(["charge", "write"]);
    expect(recorded).toEqual({ charge: { charged: 2 }, write: 20 });
  });

  it("resumes after the last recorded step: earlier steps are skipped, later ones run", async () => {
    const effects: string[] = [];
    const step = stepRunner({ one: 1, two: 2 }, async () => undefined);
    for (const id of ["one", "two", "three"]) await step.run(id, async () => effects.push(id));
    expect(effects).toEqual(["three"]);
  });

  it("records a step's output before the next step starts, and hands every output to the driver's final write", async () => {
    const writes: StepOutputs[] = [];
    const step = stepRunner({}, async (outputs) => void writes.push(outputs));
    await step.run("a", async () => undefined);
    expect(writes).toEqual([]);
    await expect(
      step.run("b", async () => {
        // By the time step b does anything, a's output is recorded.
        expect(writes).toEqual([{ a: null }]);
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    // What comes back is the JSON form, as on Inngest: undefined is null, dates are strings.
    expect(await step.run("c", async () => new Date("2026-01-02T03:04:05.000Z"))).toBe("2026-01-02T03:04:05.000Z");
    expect(writes).toEqual([{ a: null }]);
    expect(step.outputs()).toEqual({ a: null, c: "2026-01-02T03:04:05.000Z" });
  });

  it("refuses a step id used twice in one job", async () => {
    const step = stepRunner({}, async () => undefined);
    await step.run("same", async () => 1);
    await expect(step.run("same", async () => 2)).rejects.toThrow(/used twice/);
  });
});

describe("the job registry", () => {
  const jobs = registeredJobs({ GEOSCOPE_TEST_JOBS: "1" });

  it("gives every registered job a zod payload schema from the typed event module", () => {
    const typed = Object.values(events);
    for (const job of jobs) {
      expect(typed, `${job.id}: its event is not in lib/work/events.ts`).toContain(job.event);
      expect(job.event.schema, `${job.id}: no payload schema`).toBeInstanceOf(z.ZodType);
    }
  });

  it("has unique job ids and one job per event", () => {
    expect(new Set(jobs.map((j) => j.id)).size).toBe(jobs.length);
    expect(new Set(jobs.map((j) => j.event.name)).size).toBe(jobs.length);
  });

  it("keys concurrency on a field of the job's payload, named by its event", () => {
    for (const job of jobs) {
      expect(job.event.job, job.id).toBe(job.id);
      if (!job.concurrency) continue;
      expect(Object.keys((job.event.schema as z.ZodObject).shape), job.id).toContain(job.event.concurrencyKey);
      expect(job.concurrency.limit()).toBeGreaterThan(0);
    }
  });

  it("registers the test jobs only when asked to", () => {
    expect(registeredJobs({}).map((j) => j.event)).not.toContain(testThreeSteps);
    expect(jobs.map((j) => j.event)).toContain(testThreeSteps);
  });
});

describe("events and job definitions", () => {
  it("parses an event's data at the boundary", () => {
    expect(jobEvent(runQueued, "dr_01JY0000000000000000000000", { run_id: "dr_01JY0000000000000000000000", engine: "claude" }).data.engine).toBe("claude");
    expect(() => jobEvent(runQueued, "x", { run_id: "not a run", engine: "claude" })).toThrow(/run id/);
    // @ts-expect-error: a field the event does not have is a type error, and refused at run time.
    expect(() => jobEvent(runQueued, "x", { run_id: "dr_01JY0000000000000000000000", engine: "claude", extra: 1 })).toThrow();
  });

  it("refuses a job with a malformed id or retry policy", () => {
    const run = async () => undefined;
    expect(() => defineJob({ id: "Bad Id", event: runQueued, retries: 1, run })).toThrow(/job id/);
    expect(() => defineJob({ id: "execute-run", event: runQueued, retries: 21, run })).toThrow(/retries/);
  });

  it("refuses a job its event does not name, and a concurrency limit without the event's key", () => {
    const run = async () => undefined;
    expect(() => defineJob({ id: "ok-id", event: runQueued, retries: 1, concurrency: { limit: () => 1 }, run })).toThrow(/starts "execute-run"/);
    expect(() => defineJob({ id: "execute-run", event: runQueued, retries: 1, run })).toThrow(/concurrency/);
  });

  it("backs off 1 s doubling to 60 s, never sooner than asked", () => {
    expect([1, 2, 3, 7, 8].map((a) => backoffMs(a))).toEqual([1000, 2000, 4000, 60_000, 60_000]);
    expect(backoffMs(1, 5000)).toBe(5000);
    expect(new RetryAfter("held", 10).delayMs).toBe(10);
  });
});
