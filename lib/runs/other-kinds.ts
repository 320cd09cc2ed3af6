// The runs of the kinds other than prompt: an audit's run (lib/audits) and a questions analysis's
// run (lib/questions), each inserted queued in the transaction that holds its credit, and what the
// work executing or settling them reads of them. Claiming and finishing them is ./lifecycle.ts's.
import { date, defineStatement, json, standalone, text } from "../db/statement";
import type { SqlSession } from "../db/sql";
import type { RunStatus } from "../schemas/runs";

/** Who a run is made for: the person, and the API key when a key made it. */
type MadeBy = { createdByUserId: string; apiKeyId: string | null };

// A run of another kind than prompt, queued (its creator: the person, and the key when a key made it).
const INSERT_RUN = defineStatement({
  label: "run_insert_other_kind",
  params: ["id", "kind", "workspace", "project", "engine", "subject", "input", "user", "key"],
  sql: ({ p }) =>
    `INSERT INTO runs (id, kind, status, workspace_id, project_id, engine, subject, input, created_by_user_id, api_key_id, updated_at)
    VALUES (${p.id}, ${p.kind}::text::"RunKind", 'queued', ${p.workspace}, ${p.project}, ${p.engine}, ${p.subject}, ${p.input}::jsonb, ${p.user}, ${p.key},
      now() AT TIME ZONE 'UTC')`,
});

/** An audit's run of `url`, queued, in the caller's transaction. */
export async function insertAuditRun(sql: SqlSession, run: { id: string; workspaceId: string; projectId: string; url: string } & MadeBy): Promise<void> {
  await INSERT_RUN.query(sql, {
    id: run.id, kind: "audit", workspace: run.workspaceId, project: run.projectId, engine: null, subject: run.url,
    input: JSON.stringify({ url: run.url }), user: run.createdByUserId, key: run.apiKeyId,
  });
}

const RUN_INPUT = defineStatement({
  label: "run_input",
  params: ["run"],
  columns: { input: json("input") },
  sql: ({ select, p }) => `SELECT ${select} FROM runs WHERE id = ${p.run}`,
});

/** The URL an audit's run was made for (its input). */
export async function auditRunUrl(runId: string): Promise<string> {
  const run = await RUN_INPUT.first(standalone(), { run: runId });
  if (!run) throw new Error(`run ${runId} does not exist`);
  return (run.input as { url: string }).url;
}

/** A questions analysis's run on `engine` for `topic`, queued, in the caller's transaction. */
export async function insertQuestionsRun(
  sql: SqlSession,
  run: { id: string; workspaceId: string; projectId: string; engine: string; topic: string; count: number; analysisId: string } & MadeBy,
): Promise<void> {
  await INSERT_RUN.query(sql, {
    id: run.id, kind: "questions", workspace: run.workspaceId, project: run.projectId, engine: run.engine, subject: run.topic,
    input: JSON.stringify({ topic: run.topic, count: run.count, analysis_id: run.analysisId, project: run.projectId }),
    user: run.createdByUserId, key: run.apiKeyId,
  });
}

const RUN_OUTCOME = defineStatement({
  label: "run_outcome",
  params: ["run"],
  columns: { status: text<RunStatus>("status"), error: json("error").nullable, completedAt: date("completed_at").nullable },
  sql: ({ select, p }) => `SELECT ${select} FROM runs WHERE id = ${p.run}`,
});

/** A run's status, error and completion time, or null when there is no such run. */
export async function runOutcome(runId: string) {
  return (await RUN_OUTCOME.first(standalone(), { run: runId })) ?? null;
}
