// A questions analysis as the API shows it (spec 2.6). Prisma types stop here.
import type { z } from "zod";
import { presentRunCharge } from "../billing/present";
import { billingSettings } from "../billing/settings";
import type { HoldRow } from "../billing/store";
import type { QuestionsAnalysis } from "../schemas/questions";
import type { QuestionsResult } from "./execute";

export type QuestionsRow = {
  id: string;
  status: z.input<typeof QuestionsAnalysis>["status"];
  subject: string;
  input: unknown;
  result: unknown;
  error: unknown;
  projectId: string;
  createdAt: Date;
  completedAt: Date | null;
  createdBy: { email: string } | null;
};

export function presentQuestionsAnalysis(row: QuestionsRow, runIds: string[], hold: HoldRow | null): z.input<typeof QuestionsAnalysis> {
  const input = row.input as { topic: string; count: number };
  const result = (row.result ?? null) as QuestionsResult | null;
  return {
    id: row.id,
    kind: "questions",
    status: row.status,
    subject: row.subject,
    run_ids: runIds,
    created_at: row.createdAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
    topic: input.topic,
    requested_count: input.count,
    project_id: row.projectId,
    created_by: row.createdBy?.email ?? null,
    error: (row.error ?? null) as z.input<typeof QuestionsAnalysis>["error"],
    questions: result?.questions ?? [],
    clusters: result?.clusters ?? [],
    provenance: result?.provenance ?? null,
    charge: presentRunCharge(hold, billingSettings().enabled),
  };
}
