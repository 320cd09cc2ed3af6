// Run and batch rows as the API shows them (spec 2.3). Prisma types stop here.
import type { z } from "zod";
import type { Prisma } from "../db/generated/client";
import { presentRunCharge, type HoldRow } from "../billing/present";
import { billingSettings } from "../billing/settings";
import type { Batch, PromptBatch, Run, RunSummary } from "../schemas/runs";
import { deriveBatchStatus } from "./status";

export type RunRow = {
  id: string;
  kind: z.input<typeof Run>["kind"];
  status: z.input<typeof Run>["status"];
  engine: string | null;
  model: string | null;
  subject: string;
  input: unknown;
  result: unknown;
  error: unknown;
  usage: unknown;
  batchId: string | null;
  fanoutId: string | null;
  projectId: string;
  sourceCount: number | null;
  citedCount: number | null;
  durationMs: number | null;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
  createdBy: { email: string } | null;
  hold: HoldRow | null;
};

/**
 * What every read of a run selects: what the presenters need and nothing else (the raw
 * provider envelope and the lease columns stay in the database).
 */
export const runSelect = {
  id: true, kind: true, status: true, engine: true, model: true, subject: true, input: true, result: true, error: true,
  usage: true, batchId: true, fanoutId: true, projectId: true, sourceCount: true, citedCount: true,
  durationMs: true, createdAt: true, updatedAt: true, startedAt: true, completedAt: true,
  createdBy: { select: { email: true } },
  hold: true,
} as const satisfies Prisma.RunSelect;

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

export function presentRunSummary(row: Omit<RunRow, "hold" | "result" | "error" | "usage" | "input">): z.input<typeof RunSummary> {
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

export type BatchRow = {
  id: string;
  kind: string;
  input: unknown;
  projectId: string;
  createdAt: Date;
  updatedAt: Date;
  createdBy: { email: string } | null;
};

export function presentBatch(batch: BatchRow, runs: RunRow[]): z.input<typeof Batch> {
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
