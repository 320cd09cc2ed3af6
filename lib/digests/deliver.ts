// Sending a weekly digest: one attempt at a time (the deliver-digest job), as an alert's email is
// sent. The attempt first claims the digest (attempts + 1, conditional on the count it expects, so
// an attempt runs once however often its job runs) and sets when the next one is due as if this one
// failed; then it decides the recipient (the monitor's creator, only while a member of the
// monitor's workspace), composes the mail once (kept on the row, so a retry sends the same bytes),
// mails it or logs it, and records the outcome conditionally on its claim.
import { MAX_ATTEMPTS } from "../alerts/deliver";
import { atUtc, bool, date, defineStatement, text } from "../db/statement";
import { standalone } from "../db/sql";
import { reachableSql } from "../workspaces/access";
import { log } from "../log";
import { mailConfigured, trySendMail } from "../mail/mailer";
import { monitorRow } from "../monitors/read";
import { utcMinute } from "../words/digests";
import { digestWaitAfter } from "./claim";
import { composeDigest } from "./compose";

const CLAIM = defineStatement({
  label: "digest_claim_attempt",
  params: ["digest", "attempt", "now", "next"],
  columns: {
    id: text("d.id"),
    monitorId: text("d.monitor_id"),
    week: text("d.week"),
    tickId: text("d.tick_id").nullable,
    subject: text("d.subject"),
    text: text("d.text").nullable,
    html: text("d.html").nullable,
    createdAt: date("d.created_at"),
    creatorId: text("m.created_by_user_id").nullable,
    creatorEmail: text("u.email").nullable,
    // Whether the creator can still reach the monitor: the one access rule, for the creator as the user.
    member: bool(`(${reachableSql("m", { user: "m.created_by_user_id", own: "NULL" })})`),
  },
  sql: ({ select, p }) =>
    `WITH d AS (UPDATE monitor_digests SET attempts = ${p.attempt}::int, last_attempt_at = ${atUtc(p.now)}, next_attempt_at = ${atUtc(p.next)}
      WHERE id = ${p.digest} AND status = 'pending' AND attempts = ${p.attempt}::int - 1 RETURNING *)
    SELECT ${select} FROM d JOIN monitors m ON m.id = d.monitor_id LEFT JOIN users u ON u.id = m.created_by_user_id`,
});

/** The mail as first composed: a retry keeps it. */
const KEEP_MAIL = defineStatement({
  label: "digest_keep_mail",
  params: ["digest", "text", "html"],
  columns: { text: text("text"), html: text("html") },
  sql: ({ select, p }) => `UPDATE monitor_digests SET text = COALESCE(text, ${p.text}), html = COALESCE(html, ${p.html}) WHERE id = ${p.digest} RETURNING ${select}`,
});

const RECORD = defineStatement({
  label: "digest_record_attempt",
  params: ["digest", "attempt", "status", "reason", "recipient", "sent"],
  columns: { status: text("status") },
  sql: ({ select, p }) =>
    `UPDATE monitor_digests SET status = ${p.status}::"DigestStatus", reason = ${p.reason}, recipient = ${p.recipient},
      sent_at = CASE WHEN ${p.sent}::text IS NULL THEN NULL ELSE ${atUtc(p.sent)} END,
      next_attempt_at = CASE WHEN ${p.status}::text = 'pending' THEN next_attempt_at END
    WHERE id = ${p.digest} AND attempts = ${p.attempt}::int AND status = 'pending'
    RETURNING ${select}`,
});

export type DigestStatus = "pending" | "sent" | "logged" | "not_sent" | "failed";
type Outcome = { status: DigestStatus; reason: string | null; recipient: string | null; sent: Date | null };

export const NOT_MEMBER =
  "The monitor's creator is no longer a member of its workspace, so the digest was not sent (a digest goes only to the monitor's creator; whoever re-creates the monitor receives them).";
export const NO_ACCOUNT = "The monitor's creator has no account any more, so the digest was not sent.";
export const NO_SMTP = "SMTP is not configured on this server (SMTP_URL is not set), so the digest was written to the server log instead of mailed.";

/**
 * Attempt `attempt` of a digest (the deliver-digest job): claimed, composed (once), sent or logged,
 * recorded. Answers the digest's status after it, or "skipped" when it was not this attempt's turn
 * (already made, or the digest is over).
 */
export async function attemptDigest(digestId: string, attempt: number, now = new Date()): Promise<DigestStatus | "skipped"> {
  const d = await CLAIM.first(standalone(), { digest: digestId, attempt, now, next: new Date(now.getTime() + digestWaitAfter(attempt)) });
  if (!d) return "skipped";
  const outcome = await send(d, attempt, now);
  const recorded = await RECORD.first(standalone(), {
    digest: digestId, attempt, status: outcome.status, reason: outcome.reason, recipient: outcome.recipient, sent: outcome.sent ? outcome.sent.toISOString() : null,
  });
  if (outcome.status === "pending" || outcome.status === "failed") log.warn("digest attempt failed", { digest_id: digestId, attempt, then: outcome.status, reason: outcome.reason });
  return (recorded?.status as DigestStatus | undefined) ?? "skipped";
}

type Claimed = NonNullable<Awaited<ReturnType<typeof CLAIM.first>>>;

async function send(d: Claimed, attempt: number, now: Date): Promise<Outcome> {
  if (!d.creatorId || !d.creatorEmail) return { status: "not_sent", reason: NO_ACCOUNT, recipient: null, sent: null };
  if (!d.member) return { status: "not_sent", reason: NOT_MEMBER, recipient: null, sent: null };
  const to = d.creatorEmail;
  let mail = d.text !== null && d.html !== null ? { text: d.text, html: d.html } : null;
  if (!mail) {
    const monitor = await monitorRow(standalone(), d.monitorId, now);
    // The monitor was deleted meanwhile: its digests went with it, and the record finds nothing.
    if (!monitor) return { status: "not_sent", reason: "The monitor was deleted.", recipient: null, sent: null };
    const composed = await composeDigest(monitor, d.creatorId, d.week, d.tickId, d.createdAt);
    mail = (await KEEP_MAIL.first(standalone(), { digest: d.id, text: composed.text, html: composed.html })) ?? composed;
  }
  if (!mailConfigured()) {
    log.info("monitor weekly digest (no SMTP_URL set, so it was not mailed)", { digest_id: d.id, to, subject: d.subject, text: mail.text });
    return { status: "logged", reason: NO_SMTP, recipient: to, sent: now };
  }
  const result = await trySendMail({ to, subject: d.subject, text: mail.text, html: mail.html });
  if (result.sent) return { status: "sent", reason: null, recipient: to, sent: now };
  if (attempt >= MAX_ATTEMPTS) {
    return { status: "failed", reason: `The SMTP server did not accept it at any of ${MAX_ATTEMPTS} attempts; the last answer: ${result.error}`, recipient: to, sent: null };
  }
  const next = new Date(now.getTime() + digestWaitAfter(attempt));
  return { status: "pending", reason: `The SMTP server did not accept attempt ${attempt}: ${result.error}. It is tried again at ${utcMinute(next)}.`, recipient: to, sent: null };
}
