// Reading a questions analysis: what its row does not hold (its run and that run's hold), then
// its presenter (./present.ts).
import type { z } from "zod";
import { findHold } from "../billing/store";
import { analysisRunIds } from "../analyses/store";
import { standalone } from "../db/sql";
import type { QuestionsAnalysis } from "../schemas/questions";
import { presentQuestionsAnalysis, type QuestionsRow } from "./present";

/** Reads what the row does not hold (its run and that run's hold) and presents it. */
export async function loadQuestionsAnalysis(row: QuestionsRow): Promise<z.input<typeof QuestionsAnalysis>> {
  const runIds = await analysisRunIds(row.id);
  const hold = runIds[0] ? await findHold(standalone(), { runId: runIds[0] }) : null;
  return presentQuestionsAnalysis(row, runIds, hold);
}
