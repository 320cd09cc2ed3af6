// Every registered job (lib/work/registry.ts) as an Inngest function, and every periodic task as a cron function: the same body the local
// driver runs, with Inngest's memoised `step.run`, the job's concurrency key as
// `event.data.<key>` and its retries. Nothing here but the adaptation.
import { RetryAfterError, type InngestFunction } from "inngest";
import type { AnyJob, Step } from "@/lib/work/job";
import { RetryAfter } from "@/lib/work/job";
import type { PeriodicTask } from "@/lib/work/periodic";
import { registeredJobs, registeredPeriodic } from "@/lib/work/registry";
import { inngest } from "../client";

type Retries = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16 | 17 | 18 | 19 | 20;

/** Our RetryAfter as Inngest's, so a step someone else holds is retried after the delay. */
async function translated<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof RetryAfter) throw new RetryAfterError(error.message, error.delayMs);
    throw error;
  }
}

export function inngestFunctionOf(job: AnyJob): InngestFunction.Any {
  const parse = (data: unknown) => job.event.schema.parse(data);
  return inngest.createFunction(
    {
      id: job.id,
      triggers: [{ event: job.event.name }],
      concurrency: job.concurrency ? [{ key: `event.data.${job.event.concurrencyKey}`, limit: job.concurrency.limit() }] : undefined,
      retries: job.retries as Retries,
      onFailure: job.onFailure
        ? async ({ event, error }: { event: { data: { event: { data: unknown } } }; error: Error }) => {
            await job.onFailure!(parse(event.data.event.data), error);
          }
        : undefined,
    },
    async ({ event, step }) => {
      const steps: Step = { run: (id, fn) => step.run(id, () => translated(fn)) as Promise<never> };
      return job.run(parse(event.data), steps, { releaseSlot: () => undefined });
    },
  );
}

/** A periodic task (lib/work/periodic.ts) as an Inngest cron function: one step, at the time it runs. */
export function cronFunctionOf(task: PeriodicTask): InngestFunction.Any {
  return inngest.createFunction({ id: task.id, triggers: [{ cron: task.cron }], retries: 0 }, async ({ step }) =>
    step.run(task.id, () => translated(() => task.run(new Date()))),
  );
}

/** The functions app/api/inngest serves. */
export function inngestFunctions(): InngestFunction.Any[] {
  return [...registeredJobs().map(inngestFunctionOf), ...registeredPeriodic().map(cronFunctionOf)];
}
