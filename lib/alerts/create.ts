// The alerts' request that changes something: POST /monitors/{id}/alerts/test, a ping to the
// monitor's webhook now.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { ApiError, notFound } from "../http/errors";
import { reachableMonitorRow } from "../monitors/read";
import type { Alert } from "../schemas/alerts";
import { raisePing } from "./raise";
import { alertOf } from "./read";

/** POST /monitors/{id}/alerts/test: a ping to the webhook now, answered as its alert (its delivery pending). */
export async function testWebhook(principal: Principal, monitorId: string, now = new Date()): Promise<z.input<typeof Alert>> {
  const monitor = await reachableMonitorRow(principal, monitorId);
  if (!monitor.alerts.webhook_url) {
    throw new ApiError(
      "conflict",
      `alerts.webhook_url: the monitor has no webhook URL to send a ping to; set one with PATCH /monitors/${monitor.id} {"alerts": {"webhook_url": "https://…"}}.`,
    );
  }
  const id = await raisePing(monitor.id, now);
  const alert = id ? await alertOf(monitor.id, id) : null;
  // The monitor was deleted between the check and the ping.
  if (!alert) throw notFound("monitor", monitor.id);
  return alert;
}
