// Every job this server runs: the one list both drivers read (the local driver by the job id in
// a jobs row, Inngest through app/api/inngest). Adding a kind of work is one job file beside its
// domain (lib/<domain>/jobs/<name>.ts) and one line here.
import { alertDeliveriesTask, deliverAlertJob } from "../alerts/jobs/deliver";
import { auditPageJob } from "../audits/jobs/audit-page";
import { deliverDigestJob, monitorDigestsTask } from "../digests/jobs/digest";
import { monitorScheduleTask } from "../monitors/jobs/schedule";
import { finishTickJob, startTickJob } from "../monitors/jobs/tick";
import { generateQuestionsJob } from "../questions/jobs/generate-questions";
import { promptRunJob } from "../runs/jobs/prompt-run";
import type { AnyEventType } from "./events";
import type { AnyJob } from "./job";
import type { PeriodicTask } from "./periodic";
import { threeStepsJob } from "./testing/three-steps";
import { judgeVisibilityJob } from "../visibility/jobs/judge-visibility";

const JOBS: readonly AnyJob[] = [promptRunJob, generateQuestionsJob, judgeVisibilityJob, auditPageJob, startTickJob, finishTickJob, deliverAlertJob, deliverDigestJob];
/** Jobs for the durability tests, registered only when GEOSCOPE_TEST_JOBS=1. */
const TEST_JOBS: readonly AnyJob[] = [threeStepsJob];

export function registeredJobs(env: Record<string, string | undefined> = process.env): readonly AnyJob[] {
  return env.GEOSCOPE_TEST_JOBS === "1" ? [...JOBS, ...TEST_JOBS] : JOBS;
}

export function jobById(id: string): AnyJob | undefined {
  return registeredJobs().find((job) => job.id === id);
}

/** The job an event starts (one per event, checked by tests/unit/jobs-registry.test.ts). */
export function jobForEvent(event: AnyEventType): AnyJob {
  const job = registeredJobs().find((j) => j.event.name === event.name);
  if (!job) throw new Error(`no registered job is triggered by ${event.name}`);
  return job;
}

/** Work on a clock (lib/work/periodic.ts): the local driver's timers, Inngest's cron functions. */
const PERIODIC: readonly PeriodicTask[] = [monitorScheduleTask, alertDeliveriesTask, monitorDigestsTask];

export function registeredPeriodic(): readonly PeriodicTask[] {
  return PERIODIC;
}
