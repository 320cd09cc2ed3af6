// Batch (and fanout) status derived from its runs' statuses (decisions.md, Status derivation).
import type { BatchStatus, RunStatus } from "../schemas/runs";

export function isFinished(status: RunStatus): boolean {
  return status === "completed" || status === "failed";
}

export function deriveBatchStatus(runs: readonly { status: RunStatus; startedAt?: Date | null }[]): BatchStatus {
  if (runs.length === 0) return "queued";
  if (runs.some((r) => !isFinished(r.status))) {
    // A retried run may be back to queued after having started: it still counts as started.
    const started = runs.some((r) => r.status !== "queued" || r.startedAt);
    return started ? "running" : "queued";
  }
  const failed = runs.filter((r) => r.status === "failed").length;
  if (failed === 0) return "completed";
  return failed === runs.length ? "failed" : "partial";
}
