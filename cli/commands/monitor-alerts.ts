// A monitor's alerts: what it raised and how each delivery went, and a ping to its webhook.
import type { z } from "zod";
import { listMonitorAlerts, testMonitorWebhook, type Alert, type AlertDelivery } from "../../lib/schemas/alerts";
import { EXIT } from "../client";
import { date, intOption, note, opt, out, printJson, request, show, str, type Section } from "../command";
import { idArg } from "./monitors";

type AlertOut = z.output<typeof Alert>;
type DeliveryOut = z.output<typeof AlertDelivery>;

/** How long test-webhook waits for the ping's first attempt (the webhook has 10 s to answer). */
const PING_WAIT_MS = 15_000;

/** "webhook delivered (200, 2 attempts)", "email pending (smtp_error; next 2026-…)". */
export function deliveryText(d: DeliveryOut): string {
  const attempts = d.attempts === 1 ? "1 attempt" : `${d.attempts} attempts`;
  if (d.status === "delivered") return `${d.channel} delivered (${d.last_status}, ${attempts})`;
  if (d.status === "failed") return `${d.channel} failed after ${attempts} (${d.last_status}${d.last_error ? `: ${d.last_error}` : ""})`;
  if (d.attempts === 0) return `${d.channel} pending (not tried yet)`;
  return `${d.channel} pending (${d.last_status}${d.last_error ? `: ${d.last_error}` : ""}; ${attempts}, next ${date(d.next_attempt_at)})`;
}

/** An alert in two lines: when, what and its sentence; then how each delivery went. */
export function alertLines(a: AlertOut): string[] {
  return [
    `${a.id}  ${date(a.created_at)}  ${a.kind}${a.tick_id ? `  tick ${a.tick_id}` : ""}`,
    `  ${a.summary}`,
    `  ${a.deliveries.length ? a.deliveries.map(deliveryText).join("; ") : "no delivery (the monitor had no webhook URL and no email)"}`,
  ];
}

export const monitorAlerts: Section = {
  title: "Monitor alerts",
  commands: [
    {
      words: ["monitor", "alerts"],
      args: "mo_…",
      summary: "a monitor's alerts, newest first, with how each webhook and email went",
      options: { limit: opt.limit, cursor: opt.cursor },
      async run(ctx) {
        const id = idArg(ctx);
        const query = { limit: intOption(ctx, "limit"), cursor: str(ctx, "cursor") };
        show(ctx, await request(ctx, listMonitorAlerts, { params: { monitor_id: id }, query }), (body) => {
          if (body.next_cursor) note(`more: --cursor ${body.next_cursor}`);
          if (body.items.length === 0) return "(no alert yet)";
          return body.items.flatMap(alertLines).join("\n");
        });
        return EXIT.ok;
      },
    },
    {
      words: ["monitor", "test-webhook"],
      args: "mo_…",
      summary: "send a ping to the monitor's webhook now and say how its first attempt went (--json: the 202 as sent, without waiting)",
      async run(ctx) {
        const id = idArg(ctx);
        const sent = await request(ctx, testMonitorWebhook, { params: { monitor_id: id } });
        if (ctx.json) {
          printJson(sent.text, ctx.pretty);
          return EXIT.ok;
        }
        note(`Sent ping ${sent.body.id}; waiting for the webhook's answer…`);
        const deadline = Date.now() + PING_WAIT_MS;
        let delivery = sent.body.deliveries.find((d) => d.channel === "webhook");
        while (delivery && delivery.status === "pending" && delivery.last_status === null && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 500));
          const page = await request(ctx, listMonitorAlerts, { params: { monitor_id: id }, query: { limit: 20 } });
          delivery = page.body.items.find((a) => a.id === sent.body.id)?.deliveries.find((d) => d.channel === "webhook") ?? delivery;
        }
        if (!delivery) {
          out(`Ping ${sent.body.id}: no webhook delivery.`);
          return EXIT.other;
        }
        out(`Ping ${sent.body.id}: ${deliveryText(delivery)}`);
        if (delivery.status === "delivered") return EXIT.ok;
        note(`It is retried like any alert; follow it with: geoscope monitor alerts ${id}`);
        return EXIT.other;
      },
    },
  ],
};
