// The Inngest driver: one event per run, the run id as the event id, so Inngest deduplicates a
// run dispatched twice. The function that handles it is inngest/functions/execute-run.ts.
import { inngest } from "@/inngest/client";
import type { QueuedRun } from "./local-driver";

export const RUN_QUEUED_EVENT = "geoscope/run.queued";

export async function sendRunEvents(runs: QueuedRun[]): Promise<void> {
  await inngest.send(runs.map((run) => ({ id: run.id, name: RUN_QUEUED_EVENT, data: { run_id: run.id, engine: run.engine ?? "" } })));
}
