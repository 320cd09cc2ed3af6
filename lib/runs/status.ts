// Batch (and fanout) status derived from its runs' statuses (decisions.md, Status derivation).
import type { BatchStatus, RunStatus } from "../schemas/runs";

export function isFinished(status: RunStatus): boolean {
  return status === "completed" || status === "failed";
}

export type RunCounts = Record<RunStatus, number>;

/** The status of a batch or fanout from how many of its runs are in each status, and whether any has started. */
export function statusOfCounts(counts: RunCounts, anyStarted: boolean): BatchStatus {
  const total = counts.queued + counts.running + counts.completed + counts.failed;
  if (total === 0) return "queued";
  // A retried run may be back to queued after having started: it still counts as started.
  if (counts.queued + counts.running > 0) return anyStarted || counts.running > 0 ? "running" : "queued";
  if (counts.failed === 0) return "completed";
  return counts.failed === total ? "failed" : "partial";
}

export function deriveBatchStatus(runs: readonly { status: RunStatus; startedAt?: Date | null }[]): BatchStatus {
  const counts: RunCounts = { queued: 0, running: 0, completed: 0, failed: 0 };
  for (const r of runs) counts[r.status]++;
  return statusOfCounts(counts, runs.some((r) => r.status !== "queued" || r.startedAt));
}
