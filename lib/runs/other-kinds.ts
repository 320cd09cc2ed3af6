// The runs of the kinds other than prompt: an audit's run (lib/audits) and a questions analysis's
// run (lib/questions), each inserted queued in the transaction that holds its credit, and what the
// work executing or settling them reads of them. Claiming and finishing them is ./lifecycle.ts's.
import { db, type Tx } from "../db/client";

/** Who a run is made for: the person, and the API key when a key made it. */
type MadeBy = { createdByUserId: string; apiKeyId: string | null };

/** An audit's run of `url`, queued, in the caller's transaction. */
export async function insertAuditRun(tx: Tx, run: { id: string; workspaceId: string; projectId: string; url: string } & MadeBy): Promise<void> {
  await tx.run.create({
    data: {
      id: run.id, kind: "audit", status: "queued", workspaceId: run.workspaceId, projectId: run.projectId, subject: run.url,
      input: { url: run.url }, createdByUserId: run.createdByUserId, apiKeyId: run.apiKeyId,
    },
  });
}

/** The URL an audit's run was made for (its input). */
export async function auditRunUrl(runId: string): Promise<string> {
  const run = await db().run.findUniqueOrThrow({ where: { id: runId }, select: { input: true } });
  return (run.input as { url: string }).url;
}

/** A questions analysis's run on `engine` for `topic`, queued, in the caller's transaction. */
export async function insertQuestionsRun(
  tx: Tx,
  run: { id: string; workspaceId: string; projectId: string; engine: string; topic: string; count: number; analysisId: string } & MadeBy,
): Promise<void> {
  await tx.run.create({
    data: {
      id: run.id, kind: "questions", status: "queued", workspaceId: run.workspaceId, projectId: run.projectId, engine: run.engine, subject: run.topic,
      input: { topic: run.topic, count: run.count, analysis_id: run.analysisId, project: run.projectId },
      createdByUserId: run.createdByUserId, apiKeyId: run.apiKeyId,
    },
  });
}

/** A run's status, error and completion time, or null when there is no such run. */
export function runOutcome(runId: string) {
  return db().run.findUnique({ where: { id: runId }, select: { status: true, error: true, completedAt: true } });
}
