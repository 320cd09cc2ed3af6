// A monitor's weekly digests (alerts.digest "weekly"; docs/decisions.md "Weekly digests"): one a
// week per monitor, e-mailed to its creator, each listed with how its sending went. Ids `dg_`.
// zod only.
import { z } from "zod";
import { DateTime, cursorParam, idOf, limitParam, listOf } from "./common";
import { defineEndpoint } from "./endpoint";
import { MonitorId, TickId } from "./monitors";

export const DigestId = idOf("dg");

export const DIGEST_STATUSES = ["pending", "sent", "logged", "not_sent", "failed"] as const;

const exampleDigest = {
  id: "dg_01M7VS1Q2W3E4R5T6Y7V8K9M0P",
  monitor_id: "mo_01M7VRMMR088ASXAB0JMYCMVPP",
  week: "2026-W48",
  tick_id: "mt_01M7VRN3GZ4YQ5Z2S9T5KJ3V2D",
  status: "sent",
  reason: null,
  recipient: "ana@acme.dev",
  subject: "Weekly digest: CRM visibility (week 2026-W48)",
  attempts: 1,
  created_at: "2026-11-23T06:01:30.120Z",
  sent_at: "2026-11-23T06:01:31.004Z",
};

export const Digest = z
  .object({
    id: DigestId,
    monitor_id: MonitorId,
    week: z.string().describe('The ISO 8601 week it is for, of the tick it followed: "2026-W48" (weeks start on Monday, UTC).'),
    tick_id: TickId.nullable().describe("The scheduled tick of the digest's day whose end made it due (completed, partial, failed or skipped)."),
    status: z
      .enum(DIGEST_STATUSES)
      .describe(
        "pending: not sent yet (its first attempt is on its way, or a retry is due after an SMTP error); sent: the SMTP server accepted it; logged: the server has no SMTP_URL, so it was written to the server log; not_sent: nobody to send it to (the monitor's creator left the workspace or has no account); failed: the SMTP server refused it at every attempt (the first and retries at 1 min, 5 min, 30 min, 2 h and 6 h).",
      ),
    reason: z.string().nullable().describe("Why it is logged, not_sent, failed or still pending after a failed attempt, in words; null once sent."),
    recipient: z.string().nullable().describe("The monitor's creator's e-mail it went (or goes) to; null when not_sent."),
    subject: z.string().describe('"Weekly digest: <monitor name> (week <ISO week>)".'),
    attempts: z.int().min(0).describe("Attempts made to send it."),
    created_at: DateTime.describe("When it became due (the digests' check claimed it)."),
    sent_at: DateTime.nullable().describe("When it was sent (or logged); null otherwise."),
  })
  .meta({
    id: "Digest",
    description:
      "A monitor's weekly e-mail digest: the latest completed tick's summary, the week's significant changes (the series' test, as alerts use it), the top 3 lost prompts and citation targets of the latest completed tick's visibility analysis, and a link to the monitor's page. One per monitor and ISO week, however many instances run.",
    examples: [exampleDigest],
  });

export const DigestList = listOf(Digest, "DigestList", { description: "Newest first.", examples: [{ items: [exampleDigest], next_cursor: null }] });

export const listMonitorDigests = defineEndpoint({
  method: "GET", path: "/monitors/{monitor_id}/digests", operationId: "listMonitorDigests", summary: "A monitor's weekly digests, newest first, with how each was sent",
  description:
    'Every weekly digest the monitor made (alerts.digest "weekly"), newest first and paginated. A digest is made once per ISO week, on the schedule\'s weekday (a daily monitor\'s on Monday), once that day\'s scheduled tick has ended, and mailed to the monitor\'s creator: `logged` when the server has no SMTP_URL, `not_sent` (with its reason) when the creator is no longer a member of the workspace. A week whose day had no tick (the monitor paused, or the server down for more than a week) has none.',
  tags: ["Monitors"], auth: "bearer", params: z.object({ monitor_id: MonitorId }), query: z.object({ limit: limitParam, cursor: cursorParam }), response: DigestList, status: 200,
});

export type DigestBody = z.input<typeof Digest>;
