// Where background work starts, at server start (instrumentation.ts): the registry's jobs are
// installed for the local driver, which resumes whatever was accepted before a crash or restart,
// and the periodic tasks start. The only place (with the Inngest route) that imports every job.
import { log } from "../log";
import { inngestConfigured } from "./dispatch";
import { installJobs, localDriver } from "./local-driver";
import { startPeriodic } from "./periodic";
import { registeredJobs, registeredPeriodic } from "./registry";

/** Starts the background side of the configured driver. */
export async function startWork(): Promise<void> {
  if (inngestConfigured()) return;
  installJobs(registeredJobs());
  // A failed first sweep must not stop the server: the driver sweeps again once per lease period.
  await localDriver()
    .start()
    .catch((error: unknown) => log.error("local driver could not resume jobs at start", { error }));
  // Work on a clock (the monitors' scheduler); on Inngest its cron functions run it.
  startPeriodic(registeredPeriodic());
}
