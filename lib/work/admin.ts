// The operator's `job:send`: records the job an event starts, from outside the server (the
// durability tests use it; an operator can re-send an event whose job was lost). The local
// driver of the running server picks the row up; nothing runs in the operator's process.
import { standalone } from "../db/sql";
import { AdminUsageError } from "../billing/admin";
import { inngestConfigured, queueJobs } from "./dispatch";
import { eventByName, jobEvent } from "./events";

export async function sendJob(eventName: string, id: string, json: string): Promise<{ id: string; event: string; job: string; driver: "local" | "inngest" }> {
  const type = eventByName(eventName);
  if (!type) throw new AdminUsageError(`--event: no event is named ${eventName}`);
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch {
    throw new AdminUsageError("--data: must be a JSON object");
  }
  let event;
  try {
    event = jobEvent(type, id, data as never);
  } catch (error) {
    throw new AdminUsageError(`--data: does not fit ${eventName}: ${(error as Error).message}`);
  }
  if (inngestConfigured()) {
    // Sent directly (not through dispatch, which only logs a failure): the operator sees it.
    const { sendEvents } = await import("./inngest-driver");
    await sendEvents([event]);
    return { id, event: eventName, job: type.job, driver: "inngest" };
  }
  await queueJobs(standalone(), [event]);
  return { id, event: eventName, job: type.job, driver: "local" };
}
