// One way to declare background work. A job is its id, the typed event that starts it
// (lib/work/events.ts: the event names the job and its concurrency key), its concurrency limit and retry policy, and a body `run(data, step)` whose
// side effects each go through `step.run(id, fn)`. Both drivers run the same body: on Inngest
// `step.run` is Inngest's memoised step; on the local driver it is `stepRunner` below, over
// outputs kept in the jobs table. Either way a step whose output was recorded is not run again
// when the job resumes, so a job survives a crash between its steps. A step can still run twice
// (the process dies after its effect, before its output is recorded): its effect must be
// idempotent (unique constraints, conditional updates).
import type { AnyEventType, EventData } from "./events";

export type Step = {
  /**
   * Runs `fn` once for this job and returns its output; a later execution of the job gets the
   * recorded output instead of running `fn` again. Outputs are stored as JSON (what comes back is
   * the JSON form: `undefined` becomes null, dates become strings). Ids are stable, unique in a job.
   */
  run<T>(id: string, fn: () => Promise<T>): Promise<T>;
};

export type JobContext = {
  /**
   * Frees the job's concurrency slot early: the limited resource (an engine call) is done with,
   * what is left (writing the outcome) need not hold the next job back. A no-op on Inngest, whose
   * concurrency covers the whole function.
   */
  releaseSlot(): void;
};

export type JobDefinition<E extends AnyEventType = AnyEventType> = {
  /** Stable: the Inngest function id, and the name the jobs table files the job under; the event's `job`. */
  id: string;
  event: E;
  /** At most `limit()` jobs of this kind at once per value of the event's concurrency key. */
  concurrency?: { limit: () => number };
  /** Executions after the first when the body throws (the local driver backs off between them). */
  retries: number;
  run(data: EventData<E>, step: Step, context: JobContext): Promise<unknown>;
  /** Called once when the job has failed for good (retries spent): leave nothing half-done. */
  onFailure?(data: EventData<E>, error: Error): Promise<void>;
};

/** Any registered job, whatever its event (the registry and the drivers hold these). */
// biome-ignore lint: a job of any event type
export type AnyJob = JobDefinition<any>;

const JOB_ID = /^[a-z][a-z0-9-]{1,62}$/;
export const MAX_RETRIES = 20;

export function defineJob<E extends AnyEventType>(job: JobDefinition<E>): JobDefinition<E> {
  if (!JOB_ID.test(job.id)) throw new Error(`job id "${job.id}" must be lower-case letters, digits and dashes`);
  if (!Number.isInteger(job.retries) || job.retries < 0 || job.retries > MAX_RETRIES) {
    throw new Error(`job ${job.id}: retries must be a whole number from 0 to ${MAX_RETRIES}`);
  }
  if (job.event.job !== job.id) throw new Error(`job ${job.id}: its event ${job.event.name} starts "${job.event.job}"`);
  if ((job.concurrency === undefined) !== (job.event.concurrencyKey === null)) {
    throw new Error(`job ${job.id}: a concurrency limit goes with its event's concurrency key, and only with one`);
  }
  return job;
}

const BACKOFF_BASE_MS = 1000;
const BACKOFF_MAX_MS = 60_000;

/** The wait before retry `attempt` (1-based): 1 s doubling to 60 s, never sooner than `retryAfterMs` asks. */
export function backoffMs(attempt: number, retryAfterMs: number | null = null): number {
  const exponential = BACKOFF_BASE_MS * 2 ** (attempt - 1);
  return Math.min(Math.max(exponential, retryAfterMs ?? 0), BACKOFF_MAX_MS);
}

/** Thrown by a step to be tried again after `delayMs`, without counting as a failure (someone else holds the work). */
export class RetryAfter extends Error {
  override name = "RetryAfter";
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
  }
}

/** Step outputs as recorded: step id to its JSON output. */
export type StepOutputs = Record<string, unknown>;

export type RecordingStep = Step & {
  /** Every output so far, recorded or not: the driver's final write of the job carries them. */
  outputs(): StepOutputs;
};

/**
 * A `Step` over recorded outputs: a step found in `recorded` returns its output without running.
 * A step that runs has its output passed to `record` before the next step starts, so no effect
 * happens while a finished step's output is unrecorded; the last one's travels with the driver's
 * final write of the job (`outputs()`), one statement fewer per job.
 */
export function stepRunner(recorded: StepOutputs, record: (outputs: StepOutputs) => Promise<void>): RecordingStep {
  const outputs: StepOutputs = { ...recorded };
  const used = new Set<string>();
  let unrecorded = false;
  return {
    async run<T>(id: string, fn: () => Promise<T>): Promise<T> {
      if (used.has(id)) throw new Error(`step id "${id}" is used twice in one job: step ids must be unique`);
      used.add(id);
      if (Object.hasOwn(outputs, id)) return outputs[id] as T;
      if (unrecorded) {
        await record({ ...outputs });
        unrecorded = false;
      }
      const value = await fn();
      const output = value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown);
      outputs[id] = output;
      unrecorded = true;
      return output as T;
    },
    outputs: () => ({ ...outputs }),
  };
}
