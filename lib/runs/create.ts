// POST /prompts: one batch, one queued run per engine and their credit holds, in one
// transaction (all or nothing), then handed to the work driver.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { actorOf, holdCredit } from "../billing/holds";
import { db, type Tx } from "../db/client";
import { sqlIn } from "../db/sql";
import { engineConfig } from "../config/engines";
import { config } from "../config/env";
import { newId } from "../db/ids";
import { ApiError } from "../http/errors";
import { getProjectOrThrow } from "../projects/read";
import type { PromptRequest } from "../schemas/runs";
import { dispatch, queueJobs } from "../work/dispatch";
import { jobEvent, runQueued } from "../work/events";
import { presentPromptBatch } from "./present";
import { runRowsByIds } from "./read";

/** The engines a request runs on: the ones named (each once, in the order given) or every enabled one. */
export function resolveEngines(requested: string[] | undefined, enabled: readonly string[]): string[] {
  if (enabled.length === 0) throw new ApiError("invalid_request", "No answer engine is enabled on this server.", { retryable: false });
  if (!requested) return [...enabled];
  const engines = [...new Set(requested)];
  const refused = engines.filter((e) => !enabled.includes(e));
  if (refused.length > 0) {
    const names = refused.map((e) => `"${e}"`).join(", ");
    throw new ApiError(
      "invalid_request",
      `engines: ${names} ${refused.length === 1 ? "is not an enabled engine" : "are not enabled engines"}; enabled: ${enabled.join(", ")}`,
    );
  }
  return engines;
}

/**
 * Refuses work that would take the workspace's queued plus running runs above the limit.
 * Called under the workspace's balance lock (holdCredit's `work`), so concurrent requests are
 * counted one after another and exactly the limit is admitted.
 */
export async function checkRunsInFlight(tx: Tx, workspaceId: string, adding: number): Promise<void> {
  const limit = config().RUNS_IN_FLIGHT_LIMIT;
  const inFlight = await tx.run.count({ where: { workspaceId, status: { in: ["queued", "running"] } } });
  if (inFlight + adding > limit) {
    throw new ApiError(
      "rate_limited",
      `Too many runs at once: this workspace has ${inFlight} runs queued or running, this request adds ${adding}, ` +
        `and the limit is ${limit}. Retry when some have finished.`,
      { retryable: true },
    );
  }
}

export async function createPromptBatch(principal: Principal, input: z.output<typeof PromptRequest>) {
  const engines = resolveEngines(input.engines, engineConfig().enabled);
  const project = await getProjectOrThrow(principal, input.project);
  const workspaceId = project.workspaceId;
  const batchId = newId("batch");
  const runIds = engines.map(() => newId("run"));
  const who = { createdByUserId: principal.user.id, apiKeyId: principal.apiKeyId };
  const jobs = engines.map((engine, i) => jobEvent(runQueued, runIds[i]!, { run_id: runIds[i]!, engine }));
  const market = { location: input.location ?? null, language: input.language ?? null };

  const { batch, runs } = await db().$transaction(
    async (tx) => {
      // Under the workspace's one lock, taken by holdCredit (the balance row): the in-flight count
      // is decided one request after another, even with billing off.
      await holdCredit(
        tx,
        {
          workspaceId,
          operationId: batchId,
          actor: actorOf(principal),
          lines: engines.map((engine, i) => ({ product: "prompt" as const, engine, units: 1, runId: runIds[i]! })),
        },
        async () => {
          await checkRunsInFlight(tx, workspaceId, engines.length);
          await tx.batch.create({
            data: { id: batchId, kind: "prompt", workspaceId, projectId: project.id, ...who, input: { prompt: input.prompt, engines, project: project.id, ...market } },
          });
          await tx.run.createMany({
            data: engines.map((engine, i) => ({
              id: runIds[i]!,
              kind: "prompt" as const,
              status: "queued" as const,
              workspaceId,
              projectId: project.id,
              batchId,
              engine,
              subject: input.prompt,
              input: { prompt: input.prompt, engine, project: project.id, ...market },
              ...who,
            })),
          });
        },
      );
      await queueJobs(tx, jobs);
      const batch = await tx.batch.findUniqueOrThrow({ where: { id: batchId }, include: { createdBy: { select: { email: true } } } });
      return { batch, runs: await runRowsByIds(runIds, sqlIn(tx)) };
    },
    // Busy workspaces queue on the balance lock; wait for it rather than failing the request.
    { maxWait: 30_000, timeout: 30_000 },
  );

  // Committed: the runs and their jobs are durable now. Dispatch failures are recovered by the driver's sweep.
  await dispatch(jobs);
  return presentPromptBatch(batch, runs);
}
