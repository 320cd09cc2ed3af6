// The rows of runs and batches as the reads answer them (./read.ts) and the presenters read them
// (./present.ts): their columns and types. Rows in, JSON out: neither of the two imports the other.
import type { z } from "zod";
import { holdShape } from "../billing/store";
import { date, int, json, optional, text, type Columns, type RowOf } from "../db/statement";
import type { Run, RunStatus } from "../schemas/runs";

/** The columns of a run (alias r, its creator u, its hold h): what the presenters read of it. */
export const runColumns = {
  id: text("r.id"),
  kind: text<z.input<typeof Run>["kind"]>("r.kind"),
  status: text<RunStatus>("r.status"),
  engine: text("r.engine").nullable,
  model: text("r.model").nullable,
  subject: text("r.subject"),
  input: json("r.input").nullable,
  result: json("r.result").nullable,
  error: json("r.error").nullable,
  usage: json("r.usage").nullable,
  batchId: text("r.batch_id").nullable,
  fanoutId: text("r.fanout_id").nullable,
  projectId: text("r.project_id"),
  sourceCount: int("r.source_count").nullable,
  citedCount: int("r.cited_count").nullable,
  durationMs: int("r.duration_ms").nullable,
  createdAt: date("r.created_at"),
  updatedAt: date("r.updated_at"),
  startedAt: date("r.started_at").nullable,
  completedAt: date("r.completed_at").nullable,
  createdBy: optional({ email: text("u.email") }, "u.id IS NOT NULL"),
  hold: holdShape("h"),
};

export type RunRow = RowOf<typeof runColumns>;

function pick<C extends Columns, K extends keyof C>(columns: C, keys: readonly K[]): Pick<C, K> {
  return Object.fromEntries(keys.map((k) => [k, columns[k]])) as Pick<C, K>;
}

/** What GET /runs shows of a run: never its JSON columns. */
export const runSummaryColumns = pick(runColumns, [
  "id", "kind", "status", "subject", "createdAt", "engine", "batchId", "fanoutId", "projectId", "createdBy", "sourceCount", "citedCount", "completedAt",
]);

export type RunSummaryRow = RowOf<typeof runSummaryColumns>;

/** A batch's columns (alias b, its creator bu). */
export const batchColumns = {
  id: text("b.id"),
  kind: text("b.kind"),
  input: json("b.input").nullable,
  projectId: text("b.project_id"),
  createdAt: date("b.created_at"),
  updatedAt: date("b.updated_at"),
  createdBy: optional({ email: text("bu.email") }, "bu.id IS NOT NULL"),
};

export type BatchRow = RowOf<typeof batchColumns>;
