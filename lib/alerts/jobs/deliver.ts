// Alerts' background work: `deliver-alert` (on geoscope/alert.delivery-due, its id
// `<delivery>.<attempt>`) makes one attempt of a delivery; the `alert-deliveries` periodic task
// queues each retry when it falls due. The waits between attempts live in the database
// (next_attempt_at), never in a sleeping process: a restarted server, or another instance, picks
// them up at its next look.
import { config } from "../../config/env";
import { alertDeliveryDue } from "../../work/events";
import { defineJob } from "../../work/job";
import { definePeriodic } from "../../work/periodic";
import { attemptDelivery, sweepDeliveries } from "../deliver";

export const deliverAlertJob = defineJob({
  id: "deliver-alert",
  event: alertDeliveryDue,
  // A database error before the outcome is written: tried again (the claim makes the attempt once;
  // a claim left without its outcome is retried by the sweep at its next time).
  retries: 3,
  async run({ delivery_id, attempt }, step) {
    return step.run("attempt", () => attemptDelivery(delivery_id, attempt));
  },
});

export const alertDeliveriesTask = definePeriodic({
  id: "alert-deliveries",
  cron: "* * * * *",
  everyMs: () => config().MONITOR_CHECK_SECONDS * 1000,
  run: (now) => sweepDeliveries(now),
});
