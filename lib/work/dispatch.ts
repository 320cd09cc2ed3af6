// Hands committed runs to the configured driver: Inngest when INNGEST_EVENT_KEY or INNGEST_DEV
// is set, otherwise the in-process local driver. Dispatch never fails a request whose runs are
// committed: a lost dispatch is recovered by the local driver's sweep (or by sending again).
import { log } from "../log";
import { localDriver, type QueuedRun } from "./local-driver";

export function inngestConfigured(env: Record<string, string | undefined> = process.env): boolean {
  return Boolean(env.INNGEST_EVENT_KEY?.trim() || env.INNGEST_DEV?.trim());
}

export async function dispatch(runs: QueuedRun[]): Promise<void> {
  if (runs.length === 0) return;
  try {
    if (inngestConfigured()) {
      const { sendRunEvents } = await import("./inngest-driver");
      await sendRunEvents(runs);
    } else {
      localDriver().enqueue(runs);
    }
  } catch (error) {
    log.error("dispatch failed; the runs stay queued for the next sweep", { run_ids: runs.map((r) => r.id), error });
  }
}

/** Starts the background side of the configured driver (instrumentation.ts, at server start). */
export async function startWork(): Promise<void> {
  if (inngestConfigured()) return;
  // A failed first sweep must not stop the server: the driver sweeps again once per lease period.
  await localDriver()
    .start()
    .catch((error: unknown) => log.error("local driver could not resume runs at start", { error }));
}
