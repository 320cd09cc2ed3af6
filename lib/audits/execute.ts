// Executing one audit run: the step of the audit-page job (jobs/audit-page.ts). Claim the run
// (lib/runs/lifecycle.ts), audit the page (run.ts), then store the outcome and settle the hold in
// one transaction. A page that answered (404, 5xx, not HTML, robots.txt) is a completed audit that
// says so, and is charged; a page that gave no HTTP answer at all (blocked address, DNS, refused,
// timeout, TLS) fails the run and releases the hold. Only a failure of the service throws, and the
// job retries, then fails the run and releases the hold (onFailure).
//
// Idempotent like a prompt run: the claim and the final write are conditional on the run's status
// and attempt number, so a second execution finishes the run at most once.
import { auditRunUrl } from "../runs/other-kinds";
import { claimRun, completion, failure, finishRun, keepLease, type ExecuteOutcome, type RunLease } from "../runs/lifecycle";
import { auditPage, type AuditOptions } from "./run";

export async function executeAudit(runId: string, options: AuditOptions & RunLease = {}): Promise<ExecuteOutcome> {
  const claim = await claimRun(runId, options);
  if (claim === null || claim === "busy") return claim ?? "skipped";
  const stopLease = keepLease(claim, options);
  try {
    const url = await auditRunUrl(runId);
    const outcome = await auditPage(url, options);
    const stored = await finishRun(claim, outcome.ok ? completion({ result: outcome.result }) : failure(outcome.error));
    if (!stored) return "skipped";
    return outcome.ok ? "completed" : "failed";
  } finally {
    stopLease();
  }
}
