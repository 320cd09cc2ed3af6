// Sending alerts: one attempt of a delivery at a time (the deliver-alert job), and the sweep that
// queues the retries when they fall due (a periodic task, on the clock it is given).
//
// An attempt first claims the delivery (attempts + 1, conditional on the count it expects, so an
// attempt runs once however often its job runs) and sets when the next one is due, as if this one
// failed: a server that dies in the middle of it leaves a delivery the sweep retries at that time,
// never one stuck. Then it sends and records the outcome (delivered, the retry kept, or failed
// once the retries are spent), conditional on its claim.
//
// A webhook is POSTed through lib/net's safe request, the audit fetcher's address rules: http(s)
// only, a public address unless its host is in WEBHOOK_ALLOW_HOSTS, checked on the resolved
// addresses and again on the connected socket (no DNS rebinding window), redirects not followed.
import { describeFailure } from "../audits/fetch";
import { config } from "../config/env";
import { atUtc, date, defineStatement, int, text } from "../db/statement";
import { standalone } from "../db/sql";
import { log } from "../log";
import { mailConfigured, sendMail, type Mail } from "../mail/mailer";
import { openWebhookSecret, WebhookSecretUnreadable } from "../monitors/secret";
import { safeRequest } from "../net/safe-fetch";
import { dispatch, queueJobs } from "../work/dispatch";
import { attemptEvent } from "./raise";
import { SIGNATURE_HEADER, signatureHeader } from "./signature";

/** The waits before each retry, after the attempt before (1 min, 5 min, 30 min, 2 h, 6 h). */
export const RETRY_WAITS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000] as const;
/** The first attempt and its retries. */
export const MAX_ATTEMPTS = RETRY_WAITS_MS.length + 1;
/** A webhook is delivered by a 2xx answered within this (the whole answer). */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** After the last attempt's claim: when the sweep takes it as lost (its server died in it). */
const LAST_ATTEMPT_LOST_MS = 60_000;
/** What is read of a receiver's answer: its status decides, its body is not kept. */
const ANSWER_MAX_BYTES = 64 * 1024;
/** Deliveries the sweep hands their attempt in one look; the rest wait for the next look. */
const SWEEP_BATCH = 500;

/** The wait after attempt `n` fails: the next retry's, or, after the last, the time it is taken as lost. */
const waitAfter = (attempt: number) => RETRY_WAITS_MS[attempt - 1] ?? LAST_ATTEMPT_LOST_MS;

const CLAIM = defineStatement({
  label: "alert_delivery_claim",
  params: ["delivery", "attempt", "now", "next"],
  columns: {
    id: text("d.id"),
    channel: text<"webhook" | "email">("d.channel"),
    monitorId: text("d.monitor_id"),
    body: text("d.body").nullable,
    secret: text("d.secret").nullable,
    webhookUrl: text("m.alerts->>'webhook_url'").nullable,
    monitorName: text("m.name"),
    creatorEmail: text("u.email").nullable,
    scheduledFor: date("t.scheduled_for").nullable,
  },
  sql: ({ select, p }) =>
    `WITH d AS (UPDATE alert_deliveries SET attempts = ${p.attempt}::int, last_attempt_at = ${atUtc(p.now)}, next_attempt_at = ${atUtc(p.next)}
      WHERE id = ${p.delivery} AND status = 'pending' AND attempts = ${p.attempt}::int - 1 RETURNING *)
    SELECT ${select} FROM d JOIN monitors m ON m.id = d.monitor_id LEFT JOIN users u ON u.id = m.created_by_user_id
      LEFT JOIN monitor_ticks t ON t.id = d.tick_id`,
});

const RECORD = defineStatement({
  label: "alert_delivery_record",
  params: ["delivery", "attempt", "status", "outcome", "error", "now"],
  columns: { status: text("status") },
  sql: ({ select, p }) =>
    `UPDATE alert_deliveries SET status = ${p.status}::"AlertDeliveryStatus", last_status = ${p.outcome}, last_error = ${p.error},
      next_attempt_at = CASE WHEN ${p.status}::text = 'pending' THEN next_attempt_at END,
      secret = CASE WHEN ${p.status}::text = 'pending' THEN secret END,
      history = history || jsonb_build_array(jsonb_build_object('attempt', ${p.attempt}::int, 'at', ${p.now}::text, 'status', ${p.outcome}::text, 'error', ${p.error}::text))
    WHERE id = ${p.delivery} AND attempts = ${p.attempt}::int AND status = 'pending'
    RETURNING ${select}`,
});

/** The alerts a tick's email lists: those that joined it before its first attempt. */
const EMAIL_ALERTS = defineStatement({
  label: "alert_email_alerts",
  params: ["delivery"],
  columns: { summary: text("a.summary") },
  sql: ({ select, p }) => `SELECT ${select} FROM monitor_alerts a WHERE a.email_delivery_id = ${p.delivery} ORDER BY a.id`,
});

/** Pending deliveries whose next attempt is due, by the (status, next_attempt_at) index. */
const DUE = defineStatement({
  label: "alert_deliveries_due",
  params: ["now", "limit"],
  columns: { id: text("d.id"), attempts: int("d.attempts") },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM alert_deliveries d WHERE d.status = 'pending' AND d.next_attempt_at <= ${atUtc(p.now)} ORDER BY d.next_attempt_at LIMIT ${p.limit}::int`,
});

/** A delivery whose last attempt never recorded its outcome (its server died in it): failed. */
const GIVE_UP = defineStatement({
  label: "alert_delivery_give_up",
  params: ["delivery", "attempts", "now"],
  sql: ({ p }) =>
    `UPDATE alert_deliveries SET status = 'failed', last_status = 'interrupted', next_attempt_at = NULL, secret = NULL,
      last_error = 'the last attempt was interrupted (the server stopped during it) and no retry is left',
      history = history || jsonb_build_array(jsonb_build_object('attempt', ${p.attempts}::int, 'at', ${p.now}::text, 'status', 'interrupted', 'error', 'the server stopped during the attempt'))
    WHERE id = ${p.delivery} AND status = 'pending' AND attempts = ${p.attempts}::int`,
});

/** An attempt's outcome: `status` is last_status; `final` ends the delivery whatever attempts are left. */
type Outcome = { delivered: boolean; status: string; error: string | null; final?: boolean };

type Claimed = NonNullable<Awaited<ReturnType<typeof CLAIM.first>>>;

/** POSTs the webhook's body, signed now with the secret kept for it; never throws. */
async function sendWebhook(d: Claimed, now: Date, timeoutMs: number): Promise<Outcome> {
  if (!d.webhookUrl) return { delivered: false, status: "no_webhook_url", error: "the monitor has no webhook URL any more", final: true };
  if (d.body === null || d.secret === null) return { delivered: false, status: "secret_unreadable", error: "the delivery has no body or secret", final: true };
  let secret: string;
  try {
    secret = openWebhookSecret(d.secret);
  } catch (error) {
    if (!(error instanceof WebhookSecretUnreadable)) throw error;
    return { delivered: false, status: "secret_unreadable", error: error.message, final: true };
  }
  try {
    const answer = await safeRequest(d.webhookUrl, {
      method: "POST",
      body: d.body,
      headers: { "content-type": "application/json", "user-agent": "geoscope-webhooks/1", [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(secret, d.body, now) },
      timeoutMs,
      maxBytes: ANSWER_MAX_BYTES,
      allowHosts: config().WEBHOOK_ALLOW_HOSTS,
    });
    const status = String(answer.status);
    if (answer.status >= 200 && answer.status < 300) return { delivered: true, status, error: null };
    if (answer.status >= 300 && answer.status < 400) {
      const location = typeof answer.headers.location === "string" ? ` to ${answer.headers.location}` : "";
      return { delivered: false, status, error: `answered ${status}, a redirect${location}: redirects are not followed` };
    }
    return { delivered: false, status, error: `answered ${status}` };
  } catch (error) {
    const failure = describeFailure(error);
    return { delivered: false, status: failure.code ? failure.code.replace(/^page_/, "") : "connection_error", error: failure.error };
  }
}

/** The tick's email to the monitor's creator, listing its alerts; logged instead when the server has no SMTP_URL. */
async function sendEmail(d: Claimed): Promise<Outcome> {
  if (!d.creatorEmail) return { delivered: false, status: "no_recipient", error: "the monitor's creator has no account any more", final: true };
  const alerts = await EMAIL_ALERTS.query(standalone(), { delivery: d.id });
  const when = d.scheduledFor ? ` for ${d.scheduledFor.toISOString().slice(0, 16).replace("T", " ")} UTC` : "";
  const mail: Mail = {
    to: d.creatorEmail,
    subject: `geoscope: ${alerts.length === 1 ? "an alert" : `${alerts.length} alerts`} from the monitor "${d.monitorName}"`,
    text: [
      `The monitor "${d.monitorName}" raised ${alerts.length === 1 ? "an alert" : `${alerts.length} alerts`} at its tick${when}:`,
      "",
      ...alerts.map((a) => `- ${a.summary}`),
      "",
      `The monitor: ${config().PUBLIC_BASE_URL}/monitors/${d.monitorId}`,
      `You receive this because the monitor's alerts.email is on; PATCH /monitors/${d.monitorId} with {"alerts": {"email": false}} turns it off.`,
    ].join("\n"),
  };
  if (!mailConfigured()) {
    log.info("monitor alert email (no SMTP_URL set, so it was not mailed)", { to: mail.to, subject: mail.subject, text: mail.text });
    return { delivered: true, status: "logged", error: null };
  }
  return (await sendMail(mail)) ? { delivered: true, status: "sent", error: null } : { delivered: false, status: "smtp_error", error: "the SMTP server did not accept the message" };
}

export type AttemptResult = "delivered" | "pending" | "failed" | "skipped";

/**
 * Attempt `attempt` of a delivery (the deliver-alert job): claimed, sent, recorded. `skipped` when
 * it is not this attempt's turn (already made, or the delivery is over).
 */
export async function attemptDelivery(deliveryId: string, attempt: number, now = new Date(), options: { timeoutMs?: number } = {}): Promise<AttemptResult> {
  const claimed = await CLAIM.first(standalone(), { delivery: deliveryId, attempt, now, next: new Date(now.getTime() + waitAfter(attempt)) });
  if (!claimed) return "skipped";
  const outcome = claimed.channel === "webhook" ? await sendWebhook(claimed, now, options.timeoutMs ?? WEBHOOK_TIMEOUT_MS) : await sendEmail(claimed);
  const status = outcome.delivered ? "delivered" : outcome.final || attempt >= MAX_ATTEMPTS ? "failed" : "pending";
  const recorded = await RECORD.first(standalone(), { delivery: deliveryId, attempt, status, outcome: outcome.status, error: outcome.error, now: now.toISOString() });
  if (!outcome.delivered) log.warn("alert delivery attempt failed", { delivery_id: deliveryId, channel: claimed.channel, attempt, status: outcome.status, error: outcome.error, then: status });
  return (recorded?.status as AttemptResult | undefined) ?? "skipped";
}

/**
 * The deliveries' sweep (every MONITOR_CHECK_SECONDS on the local driver, every minute from
 * Inngest's cron, on every instance, at the time it is given): each pending delivery whose next
 * attempt is due gets that attempt's job (its event id says which attempt, so two looks queue it
 * once); one whose last attempt was lost is failed.
 */
export async function sweepDeliveries(now: Date): Promise<{ queued: number; failed: number }> {
  const due = await DUE.query(standalone(), { now, limit: SWEEP_BATCH });
  let failed = 0;
  for (const d of due.filter((d) => d.attempts >= MAX_ATTEMPTS)) {
    await GIVE_UP.query(standalone(), { delivery: d.id, attempts: d.attempts, now: now.toISOString() });
    failed += 1;
  }
  const events = due.filter((d) => d.attempts < MAX_ATTEMPTS).map((d) => attemptEvent(d.id, d.attempts + 1));
  if (events.length > 0) {
    await queueJobs(standalone(), events);
    await dispatch(events);
  }
  return { queued: events.length, failed };
}
