// POST /questions: one analysis, its `questions` run and a hold for `count` questions, in one
// transaction (all or nothing), then handed to the work driver (jobs/generate-questions.ts).
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { actorOf, holdCredit } from "../billing/holds";
import { insertAnalysis } from "../analyses/store";
import { findHold } from "../billing/store";
import { engineConfig } from "../config/engines";
import { currentDb } from "../db/client";
import { textTransaction } from "../db/sql";
import { newId } from "../db/ids";
import { ApiError } from "../http/errors";
import { getProjectOrThrow } from "../projects/read";
import { checkRunsInFlight } from "../runs/create";
import { insertQuestionsRun } from "../runs/other-kinds";
import type { QuestionsRequest } from "../schemas/questions";
import { dispatch, queueJobs } from "../work/dispatch";
import { jobEvent, questionsQueued } from "../work/events";
import { presentQuestionsAnalysis, type QuestionsRow } from "./present";

export async function createQuestionsAnalysis(principal: Principal, input: z.output<typeof QuestionsRequest>) {
  const engine = engineConfig().questionsEngine;
  if (!engine) throw new ApiError("invalid_request", "No answer engine is enabled on this server.", { retryable: false });
  const project = await getProjectOrThrow(principal, input.project);
  const workspaceId = project.workspaceId;
  const analysisId = newId("questionsAnalysis");
  const runId = newId("run");
  const who = { createdByUserId: principal.user.id, apiKeyId: principal.apiKeyId };
  const job = jobEvent(questionsQueued, analysisId, { analysis_id: analysisId, run_id: runId, engine });

  const { analysis, hold } = await textTransaction(currentDb(), async (sql) => {
    // Under the workspace's one lock, taken by holdCredit: see lib/runs/create.ts.
    let analysis!: QuestionsRow;
    await holdCredit(
      sql,
      { workspaceId, operationId: analysisId, actor: actorOf(principal), lines: [{ product: "questions", units: input.count, runId, analysisId }] },
      async () => {
        await checkRunsInFlight(sql, workspaceId, 1);
        const at = new Date();
        await insertAnalysis(sql, {
          id: analysisId, kind: "questions", status: "queued", workspaceId, projectId: project.id, subject: input.topic,
          input: JSON.stringify({ topic: input.topic, count: input.count, project: project.id, engine }), result: null,
          runs: [runId], userId: principal.user.id, apiKeyId: principal.apiKeyId, at,
        });
        analysis = {
          id: analysisId, status: "queued", subject: input.topic, input: { topic: input.topic, count: input.count, project: project.id, engine },
          result: null, error: null, projectId: project.id, createdAt: at, completedAt: null, createdBy: { email: principal.user.email },
        };
        await insertQuestionsRun(sql, {
          id: runId, workspaceId, projectId: project.id, engine, topic: input.topic, count: input.count, analysisId, ...who,
        });
      },
    );
    await queueJobs(sql, [job]);
    return { analysis, hold: await findHold(sql, { runId }) };
  });

  // Committed: the run and its job are durable now. Dispatch failures are recovered by the driver's sweep.
  await dispatch([job]);
  return presentQuestionsAnalysis(analysis, [runId], hold);
}
