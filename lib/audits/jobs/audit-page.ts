// The audit-page job: audit one queued page (lib/audits/execute.ts), at most AUDIT_CONCURRENCY
// audits of one host at once, so a sweep of a site does not hammer it. One step: executeAudit is
// idempotent (its claim and its final write are conditional).
import { config } from "../../config/env";
import { log } from "../../log";
import { RUN_JOB_RETRIES, failRun, leaseRemainingMs } from "../../runs/lifecycle";
import { auditQueued } from "../../work/events";
import { RetryAfter, defineJob } from "../../work/job";
import { executeAudit } from "../execute";

export const auditPageJob = defineJob({
  id: "audit-page",
  event: auditQueued,
  concurrency: { limit: () => config().AUDIT_CONCURRENCY },
  retries: RUN_JOB_RETRIES,
  async run({ run_id }, step) {
    return step.run("audit page", async () => {
      const outcome = await executeAudit(run_id);
      if (outcome === "busy") throw new RetryAfter(`run ${run_id} is held by another worker`, await leaseRemainingMs(run_id));
      return outcome;
    });
  },
  async onFailure({ run_id }, error) {
    log.error("audit failed for good after its retries", { run_id, error });
    await failRun(run_id, { code: "internal_error", message: "The page could not be audited; the service failed. Asking again may succeed.", engine: null, retryable: true });
  },
});
