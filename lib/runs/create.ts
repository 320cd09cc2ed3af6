// POST /prompts: one batch, one queued run per engine and their credit holds, in one
// transaction (all or nothing), then handed to the work driver.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { actorOf, holdCredit } from "../billing/holds";
import { currentDb } from "../db/client";
import { textTransaction, type SqlSession } from "../db/sql";
import { arrayParam, atUtc, defineStatement, int } from "../db/statement";
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
import { batchColumns, type BatchRow } from "./rows";

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

const RUNS_IN_FLIGHT = defineStatement({
  label: "runs_in_flight",
  params: ["workspace"],
  columns: { count: int("count(*)") },
  sql: ({ select, p }) => `SELECT ${select} FROM runs WHERE workspace_id = ${p.workspace} AND status IN ('queued', 'running')`,
});

// The batch, answered with its columns as the reads answer them (its creator's email joined).
const INSERT_BATCH = defineStatement({
  label: "batch_insert_prompt",
  params: ["id", "workspace", "project", "user", "key", "input", "now"],
  columns: batchColumns,
  sql: ({ select, p }) =>
    `WITH b AS (INSERT INTO batches (id, kind, workspace_id, project_id, created_by_user_id, api_key_id, input, created_at, updated_at)
      VALUES (${p.id}, 'prompt', ${p.workspace}, ${p.project}, ${p.user}, ${p.key}, ${p.input}::jsonb, ${atUtc(p.now)}, ${atUtc(p.now)}) RETURNING *)
    SELECT ${select} FROM b LEFT JOIN users bu ON bu.id = b.created_by_user_id`,
});

// One queued prompt run per engine (ids and engines side by side), each with its input.
const INSERT_PROMPT_RUNS = defineStatement({
  label: "batch_insert_prompt_runs",
  params: ["ids", "engines", "batch", "workspace", "project", "user", "key", "prompt", "location", "language", "now"],
  sql: ({ p }) =>
    `INSERT INTO runs (id, kind, status, workspace_id, project_id, batch_id, engine, subject, input, created_by_user_id, api_key_id, created_at, updated_at)
    SELECT r.id, 'prompt', 'queued', ${p.workspace}, ${p.project}, ${p.batch}, r.engine, ${p.prompt},
      jsonb_build_object('prompt', ${p.prompt}::text, 'engine', r.engine, 'project', ${p.project}::text, 'location', ${p.location}::jsonb, 'language', ${p.language}::text),
      ${p.user}, ${p.key}, ${atUtc(p.now)}, ${atUtc(p.now)}
    FROM unnest(${p.ids}::text[], ${p.engines}::text[]) AS r(id, engine)`,
});

/**
 * Refuses work that would take the workspace's queued plus running runs above the limit.
 * Called under the workspace's balance lock (holdCredit's `work`), so concurrent requests are
 * counted one after another and exactly the limit is admitted.
 */
export async function checkRunsInFlight(sql: SqlSession, workspaceId: string, adding: number): Promise<void> {
  const limit = config().RUNS_IN_FLIGHT_LIMIT;
  const inFlight = (await RUNS_IN_FLIGHT.first(sql, { workspace: workspaceId }))!.count;
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

  const now = new Date();
  const { batch, runs } = await textTransaction(currentDb(), async (sql) => {
    let batch: BatchRow | undefined;
    // Under the workspace's one lock, taken by holdCredit (the balance row): the in-flight count
    // is decided one request after another, even with billing off.
    await holdCredit(
      sql,
      {
        workspaceId,
        operationId: batchId,
        actor: actorOf(principal),
        lines: engines.map((engine, i) => ({ product: "prompt" as const, engine, units: 1, runId: runIds[i]! })),
      },
      async () => {
        await checkRunsInFlight(sql, workspaceId, engines.length);
        const made = { workspace: workspaceId, project: project.id, user: who.createdByUserId, key: who.apiKeyId, now };
        batch = (await INSERT_BATCH.first(sql, { id: batchId, ...made, input: JSON.stringify({ prompt: input.prompt, engines, project: project.id, ...market }) }))!;
        await INSERT_PROMPT_RUNS.query(sql, {
          ...made, batch: batchId, ids: arrayParam(runIds), engines: arrayParam(engines), prompt: input.prompt,
          location: market.location === null ? null : JSON.stringify(market.location), language: market.language,
        });
      },
    );
    await queueJobs(sql, jobs);
    return { batch: batch!, runs: await runRowsByIds(runIds, sql) };
  });

  // Committed: the runs and their jobs are durable now. Dispatch failures are recovered by the driver's sweep.
  await dispatch(jobs);
  return presentPromptBatch(batch, runs);
}
