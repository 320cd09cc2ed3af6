// The weekly digests' check (a periodic task on every instance, docs/decisions.md "Weekly
// digests"): each active monitor with alerts.digest "weekly" whose scheduled tick of its digest day
// (the schedule's weekday; a daily monitor's Monday) has ended within the last 7 days gets its
// digest of that tick's ISO week, claimed by `INSERT … ON CONFLICT DO NOTHING` on (monitor, week):
// however many instances look at once, one row, one first attempt. Then the retries that have come
// due are handed their jobs, as the alerts' sweep does. Every function takes the time it acts at.
import { RETRY_WAITS_MS, MAX_ATTEMPTS } from "../alerts/deliver";
import { currentDb } from "../db/client";
import { newId } from "../db/ids";
import { atUtc, date, defineStatement, int, text } from "../db/statement";
import { standalone, textTransaction } from "../db/sql";
import { log } from "../log";
import { endedScheduledTicksSql } from "../monitors/store";
import { dispatch, queueJobs } from "../work/dispatch";
import { digestDue, jobEvent, type JobEvent } from "../work/events";
import { digestSubject } from "../words/digests";

/** Digests one check claims at most; the rest are claimed by the next check. */
export const DIGEST_BATCH = 500;
/** After the last attempt's claim: when the sweep takes it as lost (its server died in it). */
const LAST_ATTEMPT_LOST_MS = 60_000;
/** After a digest's claim: when the sweep hands its first attempt out again (its job was lost, or the server died before it). */
export const FIRST_ATTEMPT_LOST_MS = 2 * 60_000;

/** The ISO week of a timestamp column, as the API writes it: "2026-W48". */
export const isoWeekSql = (ts: string) => `to_char(${ts}, 'IYYY-"W"IW')`;

/** The weekday (ISO, Monday = 1) a monitor's digest goes on: its weekly schedule's, else Monday. */
export const digestWeekdaySql = (m: string) => `(CASE WHEN ${m}.schedule_every = 'week' THEN COALESCE(${m}.schedule_weekday, 1) ELSE 1 END)`;

/**
 * Monitors whose digest is due at `now`: active, digest weekly, a scheduled tick of the digest's
 * weekday in the last 7 days (so at most one) that has ended, and no digest of its week yet.
 */
const DUE = defineStatement({
  label: "digests_due",
  params: ["now", "limit"],
  columns: { monitorId: text("x.monitor_id"), name: text("x.name"), tickId: text("x.tick_id"), week: text("x.week") },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM (SELECT DISTINCT ON (m.id) m.id AS monitor_id, m.name, t.id AS tick_id, ${isoWeekSql("t.scheduled_for")} AS week
      FROM ${endedScheduledTicksSql("m", "t")}
        AND t.scheduled_for > ${atUtc(p.now)} - interval '7 days' AND t.scheduled_for <= ${atUtc(p.now)}
        AND EXTRACT(ISODOW FROM t.scheduled_for) = ${digestWeekdaySql("m")}
      WHERE m.status = 'active' AND m.alerts->>'digest' = 'weekly'
        AND NOT EXISTS (SELECT 1 FROM monitor_digests d WHERE d.monitor_id = m.id AND d.week = ${isoWeekSql("t.scheduled_for")})
      ORDER BY m.id, t.scheduled_for DESC) x
    ORDER BY x.monitor_id LIMIT ${p.limit}::int`,
});

/** One digest per (monitor, week): the unique key settles any number of instances claiming it; a monitor paused or turned off since it was read is not claimed. */
const CLAIM = defineStatement({
  label: "digests_claim",
  params: ["rows", "now", "first"],
  columns: { id: text("d.id"), monitorId: text("d.monitor_id"), week: text("d.week") },
  sql: ({ select, p }) =>
    `WITH d AS (INSERT INTO monitor_digests (id, monitor_id, workspace_id, week, tick_id, subject, next_attempt_at, created_at)
      SELECT c.id, m.id, m.workspace_id, c.week, c.tick, c.subject, ${atUtc(p.first)}, ${atUtc(p.now)}
      FROM jsonb_to_recordset(${p.rows}::jsonb) AS c(id text, monitor text, week text, tick text, subject text)
      JOIN monitors m ON m.id = c.monitor AND m.status = 'active' AND m.alerts->>'digest' = 'weekly'
      ON CONFLICT (monitor_id, week) DO NOTHING
      RETURNING id, monitor_id, week)
    SELECT ${select} FROM d`,
});

/** Pending digests whose next attempt is due, by the (status, next_attempt_at) index. */
const RETRIES_DUE = defineStatement({
  label: "digests_retries_due",
  params: ["now", "limit"],
  columns: { id: text("d.id"), attempts: int("d.attempts"), lastAttemptAt: date("d.last_attempt_at").nullable },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM monitor_digests d WHERE d.status = 'pending' AND d.next_attempt_at <= ${atUtc(p.now)} ORDER BY d.next_attempt_at LIMIT ${p.limit}::int`,
});

/** A digest whose last attempt never recorded its outcome (its server died in it): failed. */
const GIVE_UP = defineStatement({
  label: "digest_give_up",
  params: ["digest", "attempts"],
  sql: ({ p }) =>
    `UPDATE monitor_digests SET status = 'failed', next_attempt_at = NULL,
      reason = 'The last attempt was interrupted (the server stopped during it) and no retry is left.'
    WHERE id = ${p.digest} AND status = 'pending' AND attempts = ${p.attempts}::int`,
});

/** The event id of a digest's attempt: one job per attempt. */
export const digestAttemptEvent = (digestId: string, attempt: number): JobEvent => jobEvent(digestDue, `${digestId}.${attempt}`, { digest_id: digestId, attempt });

/** The wait after attempt `n` fails: the next retry's, or, after the last, the time it is taken as lost. */
export const digestWaitAfter = (attempt: number) => RETRY_WAITS_MS[attempt - 1] ?? LAST_ATTEMPT_LOST_MS;

/**
 * Claims every digest due at `now` and queues each one's first attempt, in one transaction; then
 * the jobs go to the work driver. Answers the digests this call claimed (another instance's are
 * not among them).
 */
export async function claimDueDigests(now: Date): Promise<{ id: string; monitorId: string; week: string }[]> {
  const due = await DUE.query(standalone(), { now, limit: DIGEST_BATCH });
  if (due.length === 0) return [];
  const rows = due.map((d) => ({ id: newId("digest"), monitor: d.monitorId, week: d.week, tick: d.tickId, subject: digestSubject(d.name, d.week) }));
  const { claimed, events } = await textTransaction(currentDb(), async (sql) => {
    const claimed = await CLAIM.query(sql, { rows: JSON.stringify(rows), now, first: new Date(now.getTime() + FIRST_ATTEMPT_LOST_MS) });
    const events = claimed.map((d) => digestAttemptEvent(d.id, 1));
    await queueJobs(sql, events);
    return { claimed, events };
  });
  await dispatch(events);
  return claimed;
}

/**
 * The retries' sweep: each pending digest whose next attempt is due gets that attempt's job (its
 * event id says which, so two looks queue it once); one whose last attempt was lost is failed.
 */
export async function sweepDigests(now: Date): Promise<{ queued: number; failed: number }> {
  const due = await RETRIES_DUE.query(standalone(), { now, limit: DIGEST_BATCH });
  let failed = 0;
  for (const d of due.filter((d) => d.attempts >= MAX_ATTEMPTS)) {
    await GIVE_UP.query(standalone(), { digest: d.id, attempts: d.attempts });
    failed += 1;
  }
  const events = due.filter((d) => d.attempts < MAX_ATTEMPTS).map((d) => digestAttemptEvent(d.id, d.attempts + 1));
  if (events.length > 0) {
    await queueJobs(standalone(), events);
    await dispatch(events);
  }
  return { queued: events.length, failed };
}

/** The digests' one check (every MONITOR_CHECK_SECONDS locally, every minute from Inngest's cron, on every instance). */
export async function checkDigests(now: Date): Promise<{ claimed: number; queued: number; failed: number }> {
  const claimed = await claimDueDigests(now);
  const swept = await sweepDigests(now);
  if (claimed.length > 0) log.info("monitor digests claimed", { digests: claimed.map((d) => `${d.id} ${d.monitorId} ${d.week}`) });
  return { claimed: claimed.length, ...swept };
}
