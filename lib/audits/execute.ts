// Executing one audit run: the step of the audit-page job (jobs/audit-page.ts). Claim the run
// (lib/runs/execute.ts claimRun), audit the page (run.ts), then store the document and capture the
// hold in one transaction. A page that fails (404, blocked, timeout, not HTML) is a completed
// audit that says so; only a failure of the service throws, and the job retries, then fails the
// run and releases the hold (onFailure).
//
// Idempotent like a prompt run: the claim and the final write are conditional on the run's status
// and attempt number, so a second execution finishes the run at most once.
import { captureHold, releaseHold } from "../billing/holds";
import { notifyChanged } from "../changes/wait";
import { db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { RUN_LEASE_MS, claimRun, keepLease, type ExecuteOutcome } from "../runs/execute";
import { auditPage, type AuditOptions } from "./run";

export async function executeAudit(runId: string, options: AuditOptions & { leaseMs?: number } = {}): Promise<ExecuteOutcome> {
  const leaseMs = options.leaseMs ?? RUN_LEASE_MS;
  const claim = await claimRun(runId, leaseMs);
  if (claim === null || claim === "busy") return claim ?? "skipped";
  const stopLease = keepLease(claim, leaseMs);
  try {
    const run = await db().run.findUniqueOrThrow({ where: { id: runId }, select: { input: true } });
    const { url } = run.input as { url: string };
    const outcome = await auditPage(url, options);
    const completedAt = new Date();
    const stored = await db().$transaction(
      async (tx) => {
        const { count } = await tx.run.updateMany({
          where: { id: claim.id, status: "running", attempts: claim.attempts },
          data: {
            ...(outcome.ok
              ? { status: "completed", result: outcome.result as unknown as Prisma.InputJsonValue }
              : { status: "failed", error: outcome.error as unknown as Prisma.InputJsonValue }),
            completedAt,
            durationMs: Math.max(0, completedAt.getTime() - claim.startedAt.getTime()),
            leaseExpiresAt: null,
          },
        });
        if (count !== 1) return false;
        const settle = { tx, workspaceId: claim.workspaceId };
        await (outcome.ok ? captureHold({ runId: claim.id }, settle) : releaseHold({ runId: claim.id }, settle));
        return true;
      },
      { maxWait: 30_000, timeout: 30_000 },
    );
    notifyChanged(claim.id, claim.batchId);
    if (!stored) return "skipped";
    return outcome.ok ? "completed" : "failed";
  } finally {
    stopLease();
  }
}
