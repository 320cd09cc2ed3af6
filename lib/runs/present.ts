// Run and batch rows as the API shows them (spec 2.3): the one presenter of each, whatever read
// the rows (./read.ts's statements, or a test's reference read through Prisma).
import type { z } from "zod";
import { presentRunCharge } from "../billing/present";
import { billingSettings } from "../billing/settings";
import type { Batch, PromptBatch, RawEnvelope, Run, RunSummary } from "../schemas/runs";
import type { BatchRow, RunRow, RunSummaryRow } from "./rows";
import { deriveBatchStatus } from "./status";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentRun(row: RunRow, billingEnabled = billingSettings().enabled): z.input<typeof Run> {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    input: (row.input ?? {}) as Record<string, unknown>,
    created_at: row.createdAt.toISOString(),
    engine: row.engine,
    model: row.model,
    batch_id: row.batchId,
    fanout_id: row.fanoutId,
    project_id: row.projectId,
    created_by: row.createdBy?.email ?? null,
    result: (row.result ?? null) as z.input<typeof Run>["result"],
    error: (row.error ?? null) as z.input<typeof Run>["error"],
    usage: (row.usage ?? null) as z.input<typeof Run>["usage"],
    charge: presentRunCharge(row.hold, billingEnabled),
    cost_usd: null,
    duration_ms: row.durationMs,
    started_at: iso(row.startedAt),
    completed_at: iso(row.completedAt),
  };
}

/** GET /runs/{id}?include=raw_envelope: the run, and what was sent and received. */
export function presentRunWithEnvelope(row: RunRow, envelope: unknown, billingEnabled = billingSettings().enabled): z.input<typeof Run> {
  return { ...presentRun(row, billingEnabled), raw_envelope: (envelope ?? null) as z.input<typeof RawEnvelope> | null };
}

export function presentRunSummary(row: RunSummaryRow): z.input<typeof RunSummary> {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    subject: row.subject,
    created_at: row.createdAt.toISOString(),
    engine: row.engine,
    batch_id: row.batchId,
    fanout_id: row.fanoutId,
    project_id: row.projectId,
    created_by: row.createdBy?.email ?? null,
    source_count: row.sourceCount,
    cited_count: row.citedCount,
    completed_at: iso(row.completedAt),
  };
}

/** What a batch shows of its runs. */
type BatchRun = Pick<RunRow, "id" | "status" | "startedAt" | "updatedAt">;

export function presentBatch(batch: BatchRow, runs: readonly BatchRun[]): z.input<typeof Batch> {
  // A batch changes when its runs do; its own row is written once, at creation.
  const updated = runs.reduce((latest, r) => (r.updatedAt > latest ? r.updatedAt : latest), batch.updatedAt);
  return {
    id: batch.id,
    // A text column (default "prompt"): Batch's enumeration is what the API promises.
    kind: batch.kind as z.input<typeof Batch>["kind"],
    status: deriveBatchStatus(runs),
    input: (batch.input ?? {}) as Record<string, unknown>,
    run_ids: runs.map((r) => r.id),
    created_at: batch.createdAt.toISOString(),
    updated_at: updated.toISOString(),
    project_id: batch.projectId,
    created_by: batch.createdBy?.email ?? null,
  };
}

export function presentPromptBatch(batch: BatchRow, runs: RunRow[]): z.input<typeof PromptBatch> {
  const enabled = billingSettings().enabled;
  return { batch: presentBatch(batch, runs), runs: runs.map((r) => presentRun(r, enabled)) };
}

/** presentPromptBatch's JSON text, from the batch and its runs' bodies already serialised (remembered per version: ./read.ts). */
export function promptBatchText(batch: z.input<typeof Batch>, runBodies: readonly string[]): string {
  return `{"batch":${JSON.stringify(batch)},"runs":[${runBodies.join(",")}]}`;
}
