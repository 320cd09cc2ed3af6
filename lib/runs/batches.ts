// GET /batches/{batch_id}: a batch and its runs, with long-polling until every run finished.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { db } from "../db/client";
import { notFound } from "../http/errors";
import { JsonText } from "../http/respond";
import type { PromptBatch } from "../schemas/runs";
import { readWaiting, waitUntilFinished } from "../changes/wait";
import { reachableBy } from "../workspaces/access";
import { presentPromptBatch, runSelect } from "./present";
import { batchRunsFinished, readBatchText } from "./read";
import { isFinished } from "./status";

const batchInclude = { createdBy: { select: { email: true } } } as const;

/** A batch the credential can act on, or 404 (the same answer as a missing one). */
export async function getBatchRowOrThrow(principal: Principal, batchId: string) {
  const batch = await db().batch.findFirst({ where: { id: batchId, ...reachableBy(principal) }, include: batchInclude });
  if (!batch) throw notFound("batch", batchId);
  return batch;
}

/** Sleeps until every run of the batch finished, or `seconds` passed, or the client left. */
export async function waitForBatch(batchId: string, seconds: number, signal?: AbortSignal): Promise<void> {
  await waitUntilFinished(batchId, { seconds, signal, isFinished: () => batchRunsFinished(batchId) });
}

/**
 * GET /batches/{batch_id} as the API sends it: JSON text assembled by prepared statements from
 * the runs' stored JSON (./read.ts); byte for byte JSON.stringify(getBatch(…)).
 */
export async function getBatchBody(principal: Principal, batchId: string, options: { wait?: number; signal?: AbortSignal } = {}) {
  const batch = await readWaiting(batchId, () => readBatchText(principal, batchId), {
    ...options, isFinished: () => batchRunsFinished(batchId), missing: () => notFound("batch", batchId),
  });
  return new JsonText<z.input<typeof PromptBatch>>(batch.text);
}

export async function getBatch(principal: Principal, batchId: string, options: { wait?: number; signal?: AbortSignal } = {}) {
  // The batch, the access check and its runs in one read.
  const batch = await db().batch.findFirst({
    where: { id: batchId, ...reachableBy(principal) },
    include: { ...batchInclude, runs: { select: runSelect, orderBy: { id: "asc" } } },
  });
  if (!batch) throw notFound("batch", batchId);
  let runs = batch.runs;
  if (options.wait && runs.some((r) => !isFinished(r.status))) {
    await waitForBatch(batchId, options.wait, options.signal);
    runs = await db().run.findMany({ where: { batchId }, select: runSelect, orderBy: { id: "asc" } });
  }
  return presentPromptBatch(batch, runs);
}
