// The prompt-run job: execute one queued prompt run on its engine (lib/runs/execute.ts), at most
// ENGINE_CONCURRENCY engine calls per engine at once. One step: executeRun is idempotent (its
// claim and its final write are conditional), so a step run again finishes the run at most once.
import { config } from "../../config/env";
import { runQueued } from "../../work/events";
import { RetryAfter, defineJob } from "../../work/job";
import { executeRun } from "../execute";
import { RUN_JOB_RETRIES, failRun, leaseRemainingMs } from "../lifecycle";
import { log } from "../../log";
import { observeFinishedRun } from "../../visibility/run-observations";
import { closeTickIfLastRun } from "../../monitors/ticks";

export const promptRunJob = defineJob({
  id: "execute-run",
  event: runQueued,
  concurrency: { limit: () => config().ENGINE_CONCURRENCY },
  retries: RUN_JOB_RETRIES,
  async run({ run_id }, step, { releaseSlot }) {
    return step.run("execute run", async () => {
      let inFanout = false;
      const outcome = await executeRun(run_id, { onEngineDone: releaseSlot, onStored: (fanoutId) => (inFanout = fanoutId !== null) });
      // Another worker's lease is live (a job resumed after a crash): try again once it expires.
      if (outcome === "busy") throw new RetryAfter(`run ${run_id} is held by another worker`, await leaseRemainingMs(run_id));
      // Read once for its project's and its monitor's entities, so that their analyses add up kept readings (best effort).
      if (outcome === "completed") await observeFinishedRun(run_id);
      // The last run of a monitor tick's fanout: the tick closes now, not at the scheduler's next look (best effort).
      if (inFanout) await closeTickIfLastRun(run_id);
      return outcome;
    });
  },
  async onFailure({ run_id }, error) {
    // The cause (a database error, say) is for the server log, not for the run's public error.
    log.error("run failed for good after its retries", { run_id, error });
    if (await failRun(run_id, { code: "internal_error", message: "The run could not be executed; the service failed. Asking again may succeed.", engine: null, retryable: true })) await closeTickIfLastRun(run_id);
  },
});
