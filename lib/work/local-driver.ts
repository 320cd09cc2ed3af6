// The local driver (the embedded default): runs the registered jobs in this process. Its queue
// is the jobs table: `queueJobs` writes a row in the transaction that creates the work, and at
// start-up (then once per lease period) the driver picks up every queued job and every running
// job whose lease expired, so a crash or restart loses no accepted work. A job's steps record
// their outputs in its row as they finish; a resumed job skips them (lib/work/job.ts).
//
// Concurrency: jobs wait in lanes, one per job and value of its concurrency key (a prompt run's
// engine), each running at most the job's declared limit at once on this server.
//
// The jobs it runs are installed where the server starts (lib/work/start.ts: `installJobs` with the
// registry), not imported here: code that queues work reaches this driver through dispatch without
// pulling every job (and every domain) into its module graph.
import { atUtc, date, defineStatement, int, json, text } from "../db/statement";
import { ASYNC_COMMIT, standalone } from "../db/sql";
import { log } from "../log";
import { heartbeat } from "./heartbeat";
import { RetryAfter, backoffMs, stepRunner, type AnyJob, type StepOutputs } from "./job";

const globalForJobs = globalThis as unknown as { __geoscopeJobs?: ReadonlyMap<string, AnyJob> };

/** The jobs this process runs: installed once where the server (or a test, a bench) starts. */
export function installJobs(jobs: readonly AnyJob[]): void {
  globalForJobs.__geoscopeJobs = new Map(jobs.map((job) => [job.id, job]));
}

/** The installed job of an id; throws (leaving the row for a later sweep) when no jobs were installed at all. */
function jobById(id: string): AnyJob | undefined {
  const jobs = globalForJobs.__geoscopeJobs;
  if (!jobs) throw new Error("no jobs are installed in this process (installJobs, lib/work/start.ts): the job stays queued");
  return jobs.get(id);
}

/** How long a claimed job belongs to its worker without a heartbeat; renewed every third of it. */
export const JOB_LEASE_MS = 60_000;

export type QueuedJob = { id: string; job: string; concurrencyKey: string | null };

/** `retry`: queued again, due at `at`; `skipped`: finished, not due, or another worker holds it. */
export type JobOutcome = { kind: "completed" } | { kind: "failed" } | { kind: "retry"; at: Date } | { kind: "skipped" };

export type LocalDriverOptions = {
  /** Replaces every job's concurrency limit (tests and benchmarks: 0 accepts work and starts none). */
  concurrency?: () => number;
  sweepEveryMs?: number;
  leaseMs?: number;
};

/** Thrown by a step's record when another worker took the job over: this execution stops. */
class LeaseLost extends Error {
  override name = "LeaseLost";
}

/**
 * Executes one job row: claim it (queued and due, or running under an expired lease), run the
 * job's body with steps over the recorded outputs, then record the outcome, all conditional on
 * this claim, so two workers never both finish a job.
 */
export async function executeJob(id: string, options: { leaseMs?: number; releaseSlot?: () => void } = {}): Promise<JobOutcome> {
  const leaseMs = options.leaseMs ?? JOB_LEASE_MS;
  const releaseSlot = options.releaseSlot ?? (() => undefined);
  const now = new Date();
  // One conditional statement: of two workers claiming at once, exactly one gets the row.
  const row = await CLAIM_JOB.first(standalone(), { job: id, now, lease: new Date(now.getTime() + leaseMs) });
  if (!row) {
    releaseSlot();
    return { kind: "skipped" };
  }
  const settle = async (change: JobChange) => (await SETTLE_JOB.query(standalone(), { ...change, job: id, mine: row.attempts, now: new Date() })).length === 1;
  const fail = (error: string, steps?: StepOutputs) => settle({ status: "failed", steps: steps && JSON.stringify(steps), error, completedAt: new Date(), lease: null });

  let job: AnyJob | undefined;
  try {
    job = jobById(row.job);
  } catch (error) {
    releaseSlot();
    await settle({ status: "queued", attempts: row.attempts - 1, lease: null });
    throw error;
  }
  if (!job) {
    releaseSlot();
    log.error("a job row names no registered job; failing it", { job_id: id, job: row.job });
    await fail(`No job "${row.job}" is registered on this server.`);
    return { kind: "failed" };
  }
  const parsed = job.event.schema.safeParse(row.payload);
  if (!parsed.success) {
    releaseSlot();
    log.error("a job's payload does not fit its event; failing it", { job_id: id, job: job.id, issues: parsed.error.issues });
    await fail(`The payload does not fit ${job.event.name}.`);
    return { kind: "failed" };
  }
  const data = parsed.data;
  // A worker died on this job every time it was started: give up rather than loop.
  if (row.attempts > job.retries + 1) {
    releaseSlot();
    const error = new Error(`The job was started ${row.attempts} times without finishing.`);
    await job.onFailure?.(data, error);
    await fail(error.message);
    return { kind: "failed" };
  }

  const stopHeartbeat = heartbeat({ job_id: id }, leaseMs, (expires) => settle({ lease: expires }));
  const step = stepRunner((row.steps ?? {}) as StepOutputs, async (outputs) => {
    if (!(await settle({ steps: JSON.stringify(outputs), lease: new Date(Date.now() + leaseMs) }))) throw new LeaseLost();
  });
  try {
    await job.run(data, step, { releaseSlot });
    // The usual ending, the write every job makes: a prepared statement (../db/sql.ts).
    await COMPLETE_JOB.query(standalone(), { job: id, attempts: row.attempts, steps: JSON.stringify(step.outputs()), at: new Date() });
    return { kind: "completed" };
  } catch (error) {
    if (error instanceof LeaseLost) return { kind: "skipped" };
    const message = error instanceof Error ? error.message : String(error);
    // The steps that finished before the throw are kept: a retry does not run them again.
    const steps = JSON.stringify(step.outputs());
    if (error instanceof RetryAfter) {
      // Not a failure: someone else holds the work. The attempt is given back.
      const at = new Date(Date.now() + error.delayMs);
      await settle({ status: "queued", steps, attempts: row.attempts - 1, runAfter: at, lease: null });
      return { kind: "retry", at };
    }
    if (row.attempts <= job.retries) {
      const at = new Date(Date.now() + backoffMs(row.attempts));
      log.warn("job failed; retrying", { job_id: id, job: job.id, attempt: row.attempts, retry_at: at.toISOString(), error });
      await settle({ status: "queued", steps, runAfter: at, lease: null, error: message });
      return { kind: "retry", at };
    }
    log.error("job failed for good", { job_id: id, job: job.id, attempts: row.attempts, error });
    // onFailure first (it is idempotent): a crash before the row says failed runs it again.
    await job.onFailure?.(data, error instanceof Error ? error : new Error(message));
    await fail(message, step.outputs());
    return { kind: "failed" };
  } finally {
    stopHeartbeat();
    releaseSlot();
  }
}

// Timestamps are sent as ISO text and stored as UTC, as Prisma stores them (timestamp(3)).
// Committed without waiting for the WAL flush (ASYNC_COMMIT): a claim lost to a crash is a claim
// that never happened, and the job is resumed as it would have been; the run's outcome and charge
// are committed durably, and with them every claim before them in the WAL.
const CLAIM_JOB = defineStatement({
  label: "job_claim",
  params: ["job", "now", "lease"],
  columns: { job: text("job"), payload: json("payload"), attempts: int("attempts"), steps: json("steps").nullable },
  sql: ({ select, p }) =>
    `UPDATE jobs SET status = 'running', attempts = attempts + 1, run_after = NULL,
      lease_expires_at = ${p.lease}::timestamptz AT TIME ZONE 'UTC', updated_at = ${p.now}::timestamptz AT TIME ZONE 'UTC'
    FROM ${ASYNC_COMMIT}
    WHERE id = ${p.job} AND (
      (status = 'queued' AND (run_after IS NULL OR run_after <= ${p.now}::timestamptz AT TIME ZONE 'UTC'))
      OR (status = 'running' AND lease_expires_at < ${p.now}::timestamptz AT TIME ZONE 'UTC'))
    RETURNING ${select}`,
});

// Conditional on the claim, as every settle: a worker that lost the job records nothing. Not
// waiting for the WAL flush either: a completion lost to a crash runs the job again, whose steps
// are idempotent (a prompt run's finds its run finished).
const COMPLETE_JOB = defineStatement({
  label: "job_complete",
  params: ["job", "attempts", "steps", "at"],
  sql: ({ p }) =>
    `UPDATE jobs SET status = 'completed', steps = ${p.steps}::jsonb, completed_at = ${p.at}::timestamptz AT TIME ZONE 'UTC',
      updated_at = ${p.at}::timestamptz AT TIME ZONE 'UTC', lease_expires_at = NULL, error = NULL
    FROM ${ASYNC_COMMIT}
    WHERE id = ${p.job} AND status = 'running' AND attempts = ${p.attempts}::int`,
});

/** What a settle changes of the job's row (a field left out is left as it is); `steps` as JSON text. */
type JobChange = { status?: "queued" | "failed"; steps?: string; attempts?: number; runAfter?: Date; lease?: Date | null; error?: string; completedAt?: Date };

// Conditional on the claim (`mine`: the attempts it was made with), as every write of an execution.
const SETTLE_JOB = defineStatement({
  label: "job_settle",
  params: ["job", "mine", "now", "status", "steps", "attempts", "runAfter", "lease", "error", "completedAt"],
  columns: { id: text("id") },
  sql: ({ select, p, given }) => {
    const set = [
      `updated_at = ${atUtc(p.now)}`,
      given.status && `status = ${p.status}::text::"JobStatus"`,
      given.steps && `steps = ${p.steps}::jsonb`,
      given.attempts && `attempts = ${p.attempts}::int`,
      given.runAfter && `run_after = ${atUtc(p.runAfter)}`,
      given.lease && `lease_expires_at = ${atUtc(p.lease)}`,
      given.error && `error = ${p.error}`,
      given.completedAt && `completed_at = ${atUtc(p.completedAt)}`,
    ].filter(Boolean);
    return `UPDATE jobs SET ${set.join(", ")} WHERE id = ${p.job} AND status = 'running' AND attempts = ${p.mine}::int RETURNING ${select}`;
  },
});

const QUEUED_JOB = defineStatement({
  label: "job_queued",
  params: ["job"],
  columns: { id: text("id"), job: text("job"), concurrencyKey: text("concurrency_key").nullable },
  sql: ({ select, p }) => `SELECT ${select} FROM jobs WHERE id = ${p.job} AND status = 'queued'`,
});

// Due queued jobs and running jobs whose lease expired, in id order.
const DUE_JOBS = defineStatement({
  label: "jobs_due",
  params: ["now"],
  columns: { id: text("id"), job: text("job"), concurrencyKey: text("concurrency_key").nullable },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM jobs WHERE (status = 'queued' AND (run_after IS NULL OR run_after <= ${atUtc(p.now)}))
      OR (status = 'running' AND lease_expires_at < ${atUtc(p.now)}) ORDER BY id`,
});

// When the next running job's lease ends and the next queued job's retry falls due.
const NEXT_DUE = defineStatement({
  label: "jobs_next_due",
  columns: {
    lease: date("(SELECT min(lease_expires_at) FROM jobs WHERE status = 'running')").nullable,
    retry: date("(SELECT min(run_after) FROM jobs WHERE status = 'queued')").nullable,
  },
  sql: ({ select }) => `SELECT ${select}`,
});

type Lane = { active: number; waiting: string[]; limit: () => number };

export class LocalDriver {
  private readonly lanes = new Map<string, Lane>();
  // Jobs queued or executing here, so a job dispatched twice (request + sweep) runs once.
  private readonly known = new Set<string>();
  private readonly retries = new Map<string, NodeJS.Timeout>();
  private readonly idle = new Set<() => void>();
  private sweeper: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly options: LocalDriverOptions = {}) {}

  enqueue(jobs: readonly QueuedJob[]): void {
    for (const queued of jobs) {
      if (this.known.has(queued.id)) continue;
      const job = globalForJobs.__geoscopeJobs?.get(queued.job);
      // Not ours to run (a test job on a server without them): executeJob fails it, in a lane of its own.
      const laneKey = `${queued.job}\u0000${queued.concurrencyKey ?? ""}`;
      let lane = this.lanes.get(laneKey);
      if (!lane) {
        const declared = job?.concurrency?.limit;
        lane = { active: 0, waiting: [], limit: this.options.concurrency ?? declared ?? (() => Number.POSITIVE_INFINITY) };
        this.lanes.set(laneKey, lane);
      }
      this.known.add(queued.id);
      lane.waiting.push(queued.id);
      this.pump(lane);
    }
  }

  private pump(lane: Lane): void {
    while (lane.active < lane.limit() && lane.waiting.length > 0) {
      const id = lane.waiting.shift()!;
      lane.active += 1;
      // A slot may be freed before the job ends (JobContext.releaseSlot), at most once.
      let slotHeld = true;
      const releaseSlot = () => {
        if (!slotHeld) return;
        slotHeld = false;
        lane.active -= 1;
        this.pump(lane);
      };
      void executeJob(id, { leaseMs: this.options.leaseMs, releaseSlot })
        .then((outcome) => {
          if (outcome.kind === "retry") this.retryAt(id, outcome.at);
        })
        .catch((error: unknown) => {
          // The job keeps its lease and is picked up again when it expires.
          log.error("job execution failed", { job_id: id, error });
        })
        .finally(() => {
          this.known.delete(id);
          releaseSlot();
          if (this.known.size === 0) for (const resolve of this.idle) resolve();
        });
    }
  }

  /** Runs a job again when its retry is due (the sweep finds it too, after a restart). */
  private retryAt(id: string, at: Date): void {
    clearTimeout(this.retries.get(id));
    const timer = setTimeout(() => {
      this.retries.delete(id);
      void this.requeue(id);
    }, Math.max(0, at.getTime() - Date.now()));
    timer.unref();
    this.retries.set(id, timer);
  }

  private async requeue(id: string): Promise<void> {
    try {
      const row = await QUEUED_JOB.first(standalone(), { job: id });
      if (row) this.enqueue([row]);
    } catch (error) {
      log.warn("job retry could not be queued; the sweep will", { job_id: id, error });
    }
  }

  /** Queues what the database says is waiting: due queued jobs, and running jobs whose lease expired. */
  async sweep(): Promise<number> {
    const now = new Date();
    const rows = await DUE_JOBS.query(standalone(), { now });
    this.enqueue(rows);
    return rows.length;
  }

  /**
   * Sweeps now, then again when the next lease or retry found in the table falls due (a server
   * restarted after a crash resumes the dead one's jobs the moment their leases expire), and at
   * least once per lease period.
   */
  async start(): Promise<void> {
    this.stopped = false;
    const found = await this.sweepAndSchedule();
    if (found > 0) log.info("local driver resumed jobs", { jobs: found });
  }

  private async sweepAndSchedule(): Promise<number> {
    let found = 0;
    let next = Date.now() + (this.options.sweepEveryMs ?? this.options.leaseMs ?? JOB_LEASE_MS);
    try {
      found = await this.sweep();
      const due = (await NEXT_DUE.first(standalone(), {}))!;
      for (const at of [due.lease, due.retry]) {
        if (at && at.getTime() > Date.now()) next = Math.min(next, at.getTime() + 10);
      }
    } finally {
      if (!this.stopped) {
        if (this.sweeper) clearTimeout(this.sweeper);
        this.sweeper = setTimeout(() => {
          this.sweepAndSchedule().catch((error: unknown) => log.warn("job sweep failed", { error }));
        }, Math.max(0, next - Date.now()));
        this.sweeper.unref();
      }
    }
    return found;
  }

  stop(): void {
    this.stopped = true;
    if (this.sweeper) clearTimeout(this.sweeper);
    this.sweeper = null;
    for (const timer of this.retries.values()) clearTimeout(timer);
    this.retries.clear();
  }

  /** Jobs queued or executing here (not those waiting for a retry). */
  get pending(): number {
    return this.known.size;
  }

  /** Resolves when nothing is queued or executing here (tests, graceful shutdown). */
  drained(): Promise<void> {
    if (this.known.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.idle.delete(done);
        resolve();
      };
      this.idle.add(done);
    });
  }
}

const globalForDriver = globalThis as unknown as { __geoscopeLocalDriver?: LocalDriver };

/** The process's one local driver (on globalThis so dev reloads and route bundles share it). */
export function localDriver(): LocalDriver {
  globalForDriver.__geoscopeLocalDriver ??= new LocalDriver();
  return globalForDriver.__geoscopeLocalDriver;
}
