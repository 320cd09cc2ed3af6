// A monitor's alerts (decisions.md "Alerts and webhooks"): a significant change of a cell after a
// tick, a tick that failed or was skipped, or a ping; each with its deliveries (a signed webhook,
// the tick's email). Ids `al_`. zod only.
import { z } from "zod";
import { DateTime, ENGINE_IDS, cursorParam, idOf, limitParam, listOf } from "./common";
import { defineEndpoint } from "./endpoint";
import { MonitorId, TickId } from "./monitors";

export const AlertId = idOf("al");

/** The attempts of a delivery: the first, then the retries at these waits after the one before (decisions.md). */
export const WEBHOOK_RETRY_WAITS = ["1 min", "5 min", "30 min", "2 h", "6 h"] as const;

export const AlertKind = z.enum(["significant_change", "tick_failed", "tick_skipped", "ping"]).meta({
  id: "AlertKind",
  description:
    "`significant_change`: after a tick, an entity × engine cell whose visibility changed significantly from the previous completed tick of the same version (Newcombe's interval at 1 − 0.05/m excludes 0 and |diff| ≥ min_change points). `tick_failed`: a tick failed (`reason` its error's code, `runs_failed` when every run of its fanout failed). `tick_skipped`: a tick could not be paid (`reason` insufficient_credit or budget_exhausted). A failure or skip alerts once per cause (kind and reason) until a tick completes (completed or partial); the next one alerts again. `ping`: sent by POST /monitors/{id}/alerts/test.",
});

export const AlertChannel = z.enum(["webhook", "email"]).meta({
  id: "AlertChannel",
  description: "`webhook`: a signed POST to the monitor's alerts.webhook_url, one per alert. `email`: one message per tick to the monitor's creator, listing the tick's alerts (alerts.email on).",
});

export const AlertDeliveryStatus = z.enum(["pending", "delivered", "failed"]).meta({
  id: "AlertDeliveryStatus",
  description: `\`pending\`: not sent yet, or waiting for a retry (next_attempt_at). \`delivered\`: a webhook answered 2xx within 10 s; an email was accepted by the SMTP server, or written to the server log when it has no SMTP_URL. \`failed\`: the first attempt and the ${WEBHOOK_RETRY_WAITS.length} retries (${WEBHOOK_RETRY_WAITS.join(", ")} after the attempt before) all failed, or it cannot be sent at all (no webhook URL any more, a secret sealed under another AUTH_SECRET).`,
});

export const DeliveryAttempt = z
  .object({
    attempt: z.int().min(1).describe("1 for the first, 2 for the first retry…"),
    at: DateTime,
    status: z.string().describe("As last_status."),
    error: z.string().nullable().describe("What went wrong, in words; null when it was delivered."),
  })
  .meta({ id: "DeliveryAttempt", description: "One attempt of a delivery, as recorded." });

export const AlertDelivery = z
  .object({
    channel: AlertChannel,
    status: AlertDeliveryStatus,
    attempts: z.int().min(0).describe("Attempts made so far (at most 6: the first and 5 retries)."),
    last_status: z
      .string()
      .nullable()
      .describe(
        "The last attempt's outcome. A webhook: the HTTP status its URL answered, as digits (\"200\", \"503\", \"302\": redirects are not followed), or, when nothing answered, `timeout` (no complete answer within 10 s), `blocked` (the URL's address is not public and its host is not in WEBHOOK_ALLOW_HOSTS), `dns_error`, `connection_refused`, `connection_error`, `tls_error`, `no_webhook_url` (the monitor has none any more) or `secret_unreadable`. An email: `sent`, `logged` (the server has no SMTP_URL: the message went to its log) or `smtp_error`. Null before the first attempt.",
      ),
    last_error: z.string().nullable().describe("The last attempt's failure in words; null when it succeeded or before the first attempt."),
    last_attempt_at: DateTime.nullable(),
    next_attempt_at: DateTime.nullable().describe("When the next attempt is due while pending; null once delivered or failed."),
    history: z.array(DeliveryAttempt).describe("Every attempt, oldest first."),
  })
  .meta({ id: "AlertDelivery", description: "How an alert went out on one channel: every attempt recorded." });

const engineOrAll = z.enum([...ENGINE_IDS, "all"]);

const exampleAlert = {
  id: "al_01M7VRMMR088ASXAB0JMYCMVQ1",
  kind: "significant_change",
  tick_id: "mt_01M7VRMMR088ASXAB0JMYCMVPS",
  reason: null,
  entity: "Acme CRM",
  engine: "all",
  metric: "visibility",
  before: 0.3333,
  after: 0.7333,
  diff: 0.4,
  interval: [0.1034, 0.6025],
  before_runs: 30,
  after_runs: 30,
  confidence: 0.9964,
  summary: "Acme CRM's visibility on all engines rose from 33.3% (n=30) to 73.3% (n=30): +40.0 points (99.64% interval +10.3 to +60.3).",
  created_at: "2026-11-21T06:03:41.208Z",
  deliveries: [
    {
      channel: "webhook",
      status: "delivered",
      attempts: 2,
      last_status: "200",
      last_error: null,
      last_attempt_at: "2026-11-21T06:04:42.015Z",
      next_attempt_at: null,
      history: [
        { attempt: 1, at: "2026-11-21T06:03:41.530Z", status: "503", error: "answered 503" },
        { attempt: 2, at: "2026-11-21T06:04:42.015Z", status: "200", error: null },
      ],
    },
    { channel: "email", status: "delivered", attempts: 1, last_status: "sent", last_error: null, last_attempt_at: "2026-11-21T06:03:41.611Z", next_attempt_at: null, history: [{ attempt: 1, at: "2026-11-21T06:03:41.611Z", status: "sent", error: null }] },
  ],
};

export const Alert = z
  .object({
    id: AlertId,
    kind: AlertKind,
    tick_id: TickId.nullable().describe("The tick it is about; null for a ping."),
    reason: z.string().nullable().describe("tick_skipped: insufficient_credit or budget_exhausted. tick_failed: the error's code, or runs_failed. Null otherwise."),
    entity: z.string().nullable().describe("significant_change: the entity's name; null otherwise."),
    engine: engineOrAll.nullable().describe("significant_change: the engine, or `all` for every engine of the tick together; null otherwise."),
    metric: z.enum(["visibility"]).nullable().describe("significant_change: the figure that changed; null otherwise."),
    before: z.number().nullable().describe("significant_change: the rate at the previous completed tick of the same version (0 to 1)."),
    after: z.number().nullable().describe("significant_change: the rate at this tick (0 to 1)."),
    diff: z.number().nullable().describe("significant_change: after − before, rounded to 4 places."),
    interval: z
      .tuple([z.number(), z.number()])
      .nullable()
      .describe("significant_change: [low, high], Newcombe's hybrid score interval of diff at `confidence`, rounded to 4 places (it excludes 0)."),
    before_runs: z.int().min(0).nullable().describe("significant_change: the runs `before` is counted over."),
    after_runs: z.int().min(0).nullable().describe("significant_change: the runs `after` is counted over."),
    confidence: z.number().nullable().describe("significant_change: the interval's confidence, 1 − 0.05/m over the m cells compared at this tick."),
    summary: z.string().describe("The alert in one sentence, as the email and the monitor page say it."),
    created_at: DateTime,
    deliveries: z.array(AlertDelivery).describe("Its webhook (when the monitor had a webhook URL) and its tick's email (when alerts.email was on and it was raised in time for it); empty when neither."),
  })
  .meta({
    id: "Alert",
    description: "Something a monitor told its webhook and its creator: a significant change, a failed or skipped tick, or a ping.",
    examples: [exampleAlert],
  });

export const AlertList = listOf(Alert, "AlertList", { description: "Newest first.", examples: [{ items: [exampleAlert], next_cursor: null }] });

const monitorParams = z.object({ monitor_id: MonitorId });

export const listMonitorAlerts = defineEndpoint({
  method: "GET", path: "/monitors/{monitor_id}/alerts", operationId: "listMonitorAlerts", summary: "A monitor's alerts, newest first, with their deliveries",
  description:
    "Every alert the monitor raised (significant changes, failed and skipped ticks, pings), newest first and paginated, each with how its webhook and its tick's email went: status, attempts, the last attempt's outcome and every attempt. A webhook is POSTed as JSON `{id, type, created_at, monitor_id, data}` (`id` the alert's, the same on every attempt; `type` its kind; `data` the alert's fields without id, kind, created_at and deliveries, plus `monitor_name`), with the header `Geoscope-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, \"<t>.<body>\")>`, signed with the monitor's webhook secret as it was when the alert was raised. A 2xx within 10 s delivers it; anything else (a redirect included: none is followed) is retried 1 min, 5 min, 30 min, 2 h and 6 h after the attempt before, then it is failed. The URL obeys the audit fetcher's address rules at every attempt.",
  tags: ["Monitors"], auth: "bearer", params: monitorParams, query: z.object({ limit: limitParam, cursor: cursorParam }), response: AlertList, status: 200,
});

export const testMonitorWebhook = defineEndpoint({
  method: "POST", path: "/monitors/{monitor_id}/alerts/test", operationId: "testMonitorWebhook", summary: "Send a ping to the monitor's webhook now",
  description:
    "Raises a `ping` alert and sends it to alerts.webhook_url at once, signed like every alert; answers 202 with the alert, its delivery pending (GET /monitors/{id}/alerts shows how it went, and it is retried like any alert). No email. 409 when the monitor has no webhook URL.",
  tags: ["Monitors"], auth: "bearer", params: monitorParams, response: Alert, status: 202,
  errors: ["conflict"],
});

export type AlertBody = z.input<typeof Alert>;
export type AlertDeliveryBody = z.input<typeof AlertDelivery>;
