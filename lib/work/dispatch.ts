// Sending events that start jobs. A domain that starts work calls `queueJobs` inside the
// transaction that creates the work (so the jobs are as durable as the runs: the local driver's
// rows commit with them), then `dispatch` once it committed, which hands the jobs to the driver:
// Inngest when INNGEST_EVENT_KEY or INNGEST_DEV is set, otherwise the in-process local driver.
// Dispatch never fails a request whose work is committed: on the local driver a lost dispatch is
// found by the next sweep.
import type { SqlSession } from "../db/sql";
import { arrayParam, atUtc, defineStatement } from "../db/statement";
import { log } from "../log";
import type { JobEvent } from "./events";
import { localDriver } from "./local-driver";

export function inngestConfigured(env: Record<string, string | undefined> = process.env): boolean {
  return Boolean(env.INNGEST_EVENT_KEY?.trim() || env.INNGEST_DEV?.trim());
}

/** The value of a job's concurrency key in an event's data, or null for a job without one. */
function concurrencyKeyOf(event: JobEvent): string | null {
  const key = event.event.concurrencyKey;
  return key === null ? null : String((event.data as Record<string, unknown>)[key] ?? "");
}

/**
 * Records the jobs these events start, in the caller's transaction (on Inngest, which keeps its
 * own state, nothing is written). An event whose id already has a job starts nothing new.
 */
export async function queueJobs(sql: SqlSession, events: readonly JobEvent[]): Promise<void> {
  if (events.length === 0 || inngestConfigured()) return;
  await INSERT_JOBS.query(sql, {
    ids: arrayParam(events.map((e) => e.id)),
    jobs: arrayParam(events.map((e) => e.event.job)),
    payloads: arrayParam(events.map((e) => JSON.stringify(e.data))),
    keys: arrayParam(events.map(concurrencyKeyOf)),
    now: new Date(),
  });
}

// The jobs side by side (ids, jobs, payloads as JSON text, concurrency keys): one statement
// whatever their number; an id that already has a job is left as it is.
const INSERT_JOBS = defineStatement({
  label: "jobs_insert",
  params: ["ids", "jobs", "payloads", "keys", "now"],
  sql: ({ p }) =>
    `INSERT INTO jobs (id, job, payload, concurrency_key, created_at, updated_at)
    SELECT j.id, j.job, j.payload::jsonb, j.key, ${atUtc(p.now)}, ${atUtc(p.now)}
    FROM unnest(${p.ids}::text[], ${p.jobs}::text[], ${p.payloads}::text[], ${p.keys}::text[]) AS j(id, job, payload, key)
    ON CONFLICT (id) DO NOTHING`,
});

/** Hands committed jobs to the configured driver. Never throws. */
export async function dispatch(events: readonly JobEvent[]): Promise<void> {
  if (events.length === 0) return;
  try {
    if (inngestConfigured()) {
      const { sendEvents } = await import("./inngest-driver");
      await sendEvents(events);
    } else {
      localDriver().enqueue(events.map((e) => ({ id: e.id, job: e.event.job, concurrencyKey: concurrencyKeyOf(e) })));
    }
  } catch (error) {
    log.error("dispatch failed; the jobs stay queued for the next sweep", { job_ids: events.map((e) => e.id), error });
  }
}
