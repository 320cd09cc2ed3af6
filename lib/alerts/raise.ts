// Raising a monitor's alerts: the rows, and the deliveries they start (a webhook per alert when
// the monitor has a webhook URL, one email per tick when alerts.email is on), in one transaction
// under the monitor's row lock, their first attempts queued with them (lib/alerts/deliver.ts).
//
// Idempotent: an alert is keyed by (tick, kind, entity, engine), so a step that raises again (a
// retried job, a resumed one) makes nothing new and sends nothing twice. A failed or skipped
// tick alerts once per cause (kind and reason) until a tick completes: a later one of the same
// cause is not raised while no completed or partial tick has closed since the last such alert.
import { currentDb } from "../db/client";
import { newId } from "../db/ids";
import { atUtc, defineStatement, int, text } from "../db/statement";
import { standalone, textTransaction } from "../db/sql";
import { log } from "../log";
import { tickRow } from "../monitors/read";
import { lastCompletedTickAtSql, lockAlertMonitor } from "../monitors/store";
import { dispatch, queueJobs } from "../work/dispatch";
import { alertDeliveryDue, jobEvent, type JobEvent } from "../work/events";
import { changeFields, changeSummary, failedSummary, PING_SUMMARY, RUNS_FAILED, skippedSummary, type SignificantChange } from "./words";

export type { SignificantChange } from "./words";

type AlertKind = "significant_change" | "tick_failed" | "tick_skipped" | "ping";

/** An alert about to be raised. */
type Draft = {
  kind: AlertKind;
  reason: string | null;
  change: SignificantChange | null;
  summary: string;
  /** Alert once per cause until a tick completes (failed and skipped ticks). */
  oncePerCause: boolean;
};

/** The event id of a delivery's attempt: one job per attempt. */
export const attemptEventId = (deliveryId: string, attempt: number) => `${deliveryId}.${attempt}`;

export const attemptEvent = (deliveryId: string, attempt: number): JobEvent =>
  jobEvent(alertDeliveryDue, attemptEventId(deliveryId, attempt), { delivery_id: deliveryId, attempt });

/** Whether this cause already alerted since the monitor's last completed (or partial) tick closed. */
const CAUSE_ALERTED = defineStatement({
  label: "alert_cause_alerted",
  params: ["monitor", "kind", "reason"],
  columns: { id: text("a.id") },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM monitor_alerts a WHERE a.monitor_id = ${p.monitor} AND a.kind = ${p.kind}::"AlertKind" AND a.reason = ${p.reason}
      AND a.created_at > COALESCE(${lastCompletedTickAtSql(p.monitor)}, '-infinity'::timestamp)
    LIMIT 1`,
});

/** The alerts, each once per (tick, kind, entity, engine): those already raised are left as they are. */
const INSERT_ALERTS = defineStatement({
  label: "alert_insert",
  params: ["rows", "monitor", "workspace", "tick", "now"],
  columns: { id: text("a.id") },
  sql: ({ select, p }) =>
    `WITH a AS (INSERT INTO monitor_alerts (id, monitor_id, workspace_id, tick_id, kind, reason, entity, engine, metric, change, summary, dedupe_key, created_at)
      SELECT r.id, ${p.monitor}::text, ${p.workspace}::text, ${p.tick}::text, r.kind::"AlertKind", r.reason, r.change->>'entity', r.change->>'engine', r.change->>'metric',
        r.change, r.summary, r.dedupe, ${atUtc(p.now)}
      FROM jsonb_to_recordset(${p.rows}::jsonb) AS r(id text, kind text, reason text, change jsonb, summary text, dedupe text)
      ON CONFLICT (dedupe_key) DO NOTHING
      RETURNING id)
    SELECT ${select} FROM a`,
});

/** A webhook delivery per alert, signed with the monitor's secret as it is now (its sealed value kept on the delivery). */
const INSERT_WEBHOOKS = defineStatement({
  label: "alert_insert_webhooks",
  params: ["rows", "monitor", "now"],
  sql: ({ p }) =>
    `INSERT INTO alert_deliveries (id, monitor_id, channel, alert_id, next_attempt_at, body, secret, created_at)
    SELECT r.id, m.id, 'webhook', r.alert, ${atUtc(p.now)}, r.body, m.webhook_secret, ${atUtc(p.now)}
    FROM jsonb_to_recordset(${p.rows}::jsonb) AS r(id text, alert text, body text) JOIN monitors m ON m.id = ${p.monitor}`,
});

/** The tick's one email, made by its first raise (with the alerts raised then). */
const INSERT_TICK_EMAIL = defineStatement({
  label: "alert_insert_tick_email",
  params: ["id", "monitor", "tick", "now"],
  sql: ({ p }) =>
    `INSERT INTO alert_deliveries (id, monitor_id, channel, tick_id, next_attempt_at, created_at)
    VALUES (${p.id}, ${p.monitor}, 'email', ${p.tick}, ${atUtc(p.now)}, ${atUtc(p.now)}) ON CONFLICT (tick_id) DO NOTHING`,
});

/** The tick's email, locked: an alert joins it only before its first attempt (which takes the same lock). */
const LOCK_TICK_EMAIL = defineStatement({
  label: "alert_lock_tick_email",
  params: ["tick"],
  columns: { id: text("d.id"), attempts: int("d.attempts") },
  sql: ({ select, p }) => `SELECT ${select} FROM alert_deliveries d WHERE d.tick_id = ${p.tick} AND d.status = 'pending' FOR UPDATE`,
});

const JOIN_EMAIL = defineStatement({
  label: "alert_join_email",
  params: ["delivery", "ids"],
  sql: ({ p }) => `UPDATE monitor_alerts SET email_delivery_id = ${p.delivery} WHERE id IN (SELECT jsonb_array_elements_text(${p.ids}::jsonb))`,
});

/** The webhook's body: the same bytes on every attempt (decisions.md: the same event keeps its id). */
export function webhookBody(alert: { id: string; kind: AlertKind; createdAt: Date; monitorId: string; monitorName: string; tickId: string | null } & Draft): string {
  return JSON.stringify({
    id: alert.id,
    type: alert.kind,
    created_at: alert.createdAt.toISOString(),
    monitor_id: alert.monitorId,
    data: { monitor_name: alert.monitorName, tick_id: alert.tickId, reason: alert.reason, ...changeFields(alert.change), summary: alert.summary },
  });
}

const dedupeKey = (tickId: string, d: Draft) => JSON.stringify([tickId, d.kind, d.change?.entity ?? null, d.change?.engine ?? null]);

/**
 * Raises `drafts` for a tick (or, with no tick, a ping of `monitorId`) and queues their
 * deliveries' first attempts; answers the ids of the alerts made now (none for those raised before).
 */
async function raise(target: { tickId: string } | { monitorId: string }, drafts: readonly Draft[], now: Date): Promise<string[]> {
  if (drafts.length === 0) return [];
  const tickId = "tickId" in target ? target.tickId : null;
  const { made, events } = await textTransaction(currentDb(), async (sql) => {
    const session = sql;
    const monitor = await lockAlertMonitor(session, target);
    if (!monitor) return { made: [] as { id: string; draft: Draft }[], events: [] as JobEvent[] };
    const wanted: Draft[] = [];
    for (const draft of drafts) {
      if (draft.oncePerCause && (await CAUSE_ALERTED.first(session, { monitor: monitor.id, kind: draft.kind, reason: draft.reason ?? "" }))) continue;
      wanted.push(draft);
    }
    const rows = wanted.map((draft) => ({ id: newId("alert"), draft }));
    const inserted = new Set(
      (
        await INSERT_ALERTS.query(session, {
          rows: JSON.stringify(
            rows.map(({ id, draft }) => ({ id, kind: draft.kind, reason: draft.reason, change: draft.change, summary: draft.summary, dedupe: tickId ? dedupeKey(tickId, draft) : null })),
          ),
          monitor: monitor.id,
          workspace: monitor.workspaceId,
          tick: tickId,
          now,
        })
      ).map((r) => r.id),
    );
    const made = rows.filter((r) => inserted.has(r.id));
    const events: JobEvent[] = [];
    if (made.length === 0) return { made, events };

    if (monitor.webhookUrl) {
      const webhooks = made.map(({ id, draft }) => ({
        id: newId("alertDelivery"),
        alert: id,
        body: webhookBody({ ...draft, id, createdAt: now, monitorId: monitor.id, monitorName: monitor.name, tickId }),
      }));
      await INSERT_WEBHOOKS.query(session, { rows: JSON.stringify(webhooks), monitor: monitor.id, now });
      events.push(...webhooks.map((w) => attemptEvent(w.id, 1)));
    }
    const emailed = made.filter(({ draft }) => draft.kind !== "ping");
    if (tickId && monitor.email && monitor.creatorEmail && emailed.length > 0) {
      await INSERT_TICK_EMAIL.query(session, { id: newId("alertDelivery"), monitor: monitor.id, tick: tickId, now });
      const email = await LOCK_TICK_EMAIL.first(session, { tick: tickId });
      // One email per tick: an alert raised after it was first tried is not in it.
      if (email && email.attempts === 0) {
        await JOIN_EMAIL.query(session, { delivery: email.id, ids: JSON.stringify(emailed.map((r) => r.id)) });
        events.push(attemptEvent(email.id, 1));
      }
    }
    await queueJobs(sql, events);
    return { made, events };
  });
  await dispatch(events);
  if (made.length > 0) log.info("monitor alerts raised", { tick_id: tickId, alerts: made.map((m) => `${m.id} ${m.draft.kind}`) });
  return made.map((m) => m.id);
}

/**
 * Raises a `significant_change` alert for each cell of a tick whose visibility changed
 * significantly (the series decides which: lib/stats changeTest at 1 - 0.05/m and min_change),
 * and sends them: a webhook each, and the tick's one email. Idempotent per (tick, kind, entity,
 * engine): call it again (a retried step) and nothing is raised or sent twice. Answers the ids of
 * the alerts made by this call.
 */
export async function raiseAlerts(tickId: string, changes: readonly SignificantChange[], now = new Date()): Promise<string[]> {
  return raise(
    { tickId },
    changes.map((change) => ({ kind: "significant_change", reason: null, change, summary: changeSummary(change), oncePerCause: false })),
    now,
  );
}

/**
 * The alert a closed tick's outcome calls for: `tick_skipped` (its skip reason) or `tick_failed`
 * (its error's code, or runs_failed), once per cause until a tick completes; nothing for a
 * completed or partial tick, or one still open. Called where ticks close, skip or fail (the tick
 * jobs, a run now); idempotent.
 */
export async function alertTickOutcome(tickId: string, now = new Date()): Promise<string[]> {
  const tick = await tickRow(standalone(), tickId);
  if (!tick?.completedAt) return [];
  if (tick.status === "skipped" && tick.skipReason) {
    return raise({ tickId }, [{ kind: "tick_skipped", reason: tick.skipReason, change: null, summary: skippedSummary(tick.skipReason), oncePerCause: true }], now);
  }
  if (tick.status === "failed") {
    const error = tick.error as { code?: string; message?: string } | null;
    const reason = error?.code ?? RUNS_FAILED;
    return raise({ tickId }, [{ kind: "tick_failed", reason, change: null, summary: failedSummary(reason, error?.message ?? null), oncePerCause: true }], now);
  }
  return [];
}

/** A ping of the monitor's webhook (POST /monitors/{id}/alerts/test): its alert's id. */
export async function raisePing(monitorId: string, now = new Date()): Promise<string | null> {
  const [id] = await raise({ monitorId }, [{ kind: "ping", reason: null, change: null, summary: PING_SUMMARY, oncePerCause: false }], now);
  return id ?? null;
}
