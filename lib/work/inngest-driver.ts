// The Inngest driver: the event id deduplicates (a run dispatched twice runs once), and the
// functions that handle the events are the registered jobs, adapted in inngest/functions/jobs.ts.
import { inngest } from "@/inngest/client";
import type { JobEvent } from "./events";

export async function sendEvents(events: readonly JobEvent[]): Promise<void> {
  await inngest.send(events.map((e) => ({ id: e.id, name: e.event.name, data: e.data })));
}
