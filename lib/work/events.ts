// Every event that starts background work, typed once: its name, a zod schema of its data, the id
// of the one job it starts and that job's concurrency key (a field of the data). Jobs
// (lib/work/job.ts) are triggered by one of these; `jobEvent` builds an event to send and parses
// its data with the schema, so a payload that does not fit is a type error at compile time and a
// thrown error at the boundary, never a job started with bad data. Queueing an event needs nothing
// but this module: code that starts work never imports the jobs themselves (they are assembled
// where the server starts, lib/work/start.ts and the Inngest route).
import { eventType } from "inngest";
import { z } from "zod";

/**
 * An event type and the job it starts: `job` is the job's id (the jobs table's and Inngest's
 * function id), `concurrencyKey` the data field whose value keys the job's concurrency limit.
 */
function defineEvent<N extends string, S extends z.ZodObject, K extends keyof z.output<S> & string = never>(
  name: N,
  schema: S,
  starts: { job: string; concurrencyKey?: K },
) {
  // The schemas here transform nothing (Inngest's check of that cannot see through the generic).
  return Object.assign(eventType<N, S>(name, { schema: schema as never }), { job: starts.job, concurrencyKey: (starts.concurrencyKey ?? null) as K | null });
}

const runId = z.string().regex(/^dr_[0-9A-HJKMNP-TV-Z]{26}$/, { error: "must be a run id (dr_…)" });

/** A prompt run was queued (POST /prompts; later fanouts): execute it on its engine. */
export const runQueued = defineEvent("geoscope/run.queued", z.strictObject({ run_id: runId, engine: z.string() }), { job: "execute-run", concurrencyKey: "engine" });

/** A questions analysis was queued (POST /questions): generate its questions with its run's engine. */
export const questionsQueued = defineEvent("geoscope/questions.queued", z.strictObject({
    analysis_id: z.string().regex(/^fa_[0-9A-HJKMNP-TV-Z]{26}$/, { error: "must be a questions analysis id (fa_…)" }),
    run_id: runId,
    engine: z.string(),
  }), { job: "generate-questions", concurrencyKey: "engine" });

/** A page audit was queued (POST /audits): fetch and analyse the page. `host` keys the per-host limit. */
export const auditQueued = defineEvent("geoscope/audit.queued", z.strictObject({ run_id: runId, host: z.string().min(1) }), { job: "audit-page", concurrencyKey: "host" });

/** A judged visibility analysis was queued (POST /visibility-analyses with `judge`): judge its runs on the judge engine. */
export const visibilityJudgeQueued = defineEvent("geoscope/visibility.judge-queued", z.strictObject({
    analysis_id: z.string().regex(/^va_[0-9A-HJKMNP-TV-Z]{26}$/, { error: "must be a visibility analysis id (va_…)" }),
    engine: z.string(),
  }), { job: "judge-visibility", concurrencyKey: "engine" });

const tickId = z.string().regex(/^mt_[0-9A-HJKMNP-TV-Z]{26}$/, { error: "must be a tick id (mt_…)" });

/** A monitor's slot was claimed (lib/monitors/ticks.ts): make the tick's fanout, or skip it. The event id is the tick's. */
export const monitorTickDue = defineEvent("geoscope/monitor.tick-due", z.strictObject({ tick_id: tickId }), { job: "start-tick" });

/** A tick's fanout has finished (found by the scheduler's sweep): the tick's own work, then it closes. */
export const monitorTickFinished = defineEvent("geoscope/monitor.tick-finished", z.strictObject({ tick_id: tickId }), { job: "finish-tick" });

const deliveryId = z.string().regex(/^ad_[0-9A-HJKMNP-TV-Z]{26}$/, { error: "must be an alert delivery id (ad_…)" });

/**
 * An alert's delivery is due (lib/alerts): its first attempt when the alert is raised, each retry
 * when the deliveries' sweep finds it due. The event id is `<delivery>.<attempt>`: one job per attempt.
 */
export const alertDeliveryDue = defineEvent("geoscope/alert.delivery-due", z.strictObject({ delivery_id: deliveryId, attempt: z.int().min(1).max(6) }), { job: "deliver-alert" });

/**
 * A monitor's weekly digest is due (lib/digests): its first attempt when the digests' check claims
 * it, each retry when its time comes. The event id is `<digest>.<attempt>`: one job per attempt.
 */
export const digestDue = defineEvent("geoscope/digest.due", z.strictObject({
    digest_id: z.string().regex(/^dg_[0-9A-HJKMNP-TV-Z]{26}$/, { error: "must be a digest id (dg_…)" }),
    attempt: z.int().min(1).max(6),
  }), { job: "deliver-digest" });

/**
 * A job of three steps that append to files in `dir`, for the durability tests: registered only
 * when GEOSCOPE_TEST_JOBS=1 (lib/work/testing/three-steps.ts). Step two throws on its first
 * `fail_first` executions.
 */
export const testThreeSteps = defineEvent("geoscope/test.three-steps", z.strictObject({ dir: z.string().min(1), fail_first: z.int().min(0).optional() }), { job: "test-three-steps" });

/** The typed event module: every event a job may be triggered by. */
export const events = { runQueued, questionsQueued, visibilityJudgeQueued, auditQueued, monitorTickDue, monitorTickFinished, alertDeliveryDue, digestDue, testThreeSteps } as const;

export type AnyEventType = (typeof events)[keyof typeof events];
export type EventName = AnyEventType["name"];
/** The parsed data of an event. */
export type EventData<E extends AnyEventType> = z.output<E["schema"]>;

/** An event to send: its id deduplicates it (a job runs once per event id). */
export type JobEvent<E extends AnyEventType = AnyEventType> = { event: E; id: string; data: EventData<E> };

/** Builds an event whose data is parsed with its schema now (throws on data that does not fit). */
export function jobEvent<E extends AnyEventType>(event: E, id: string, data: z.input<E["schema"]>): JobEvent<E> {
  return { event, id, data: (event.schema as z.ZodType).parse(data) as EventData<E> };
}

/** The event type of a name, or undefined for a name no job is triggered by. */
export function eventByName(name: string): AnyEventType | undefined {
  return Object.values(events).find((e) => e.name === name);
}
