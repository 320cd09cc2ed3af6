// GET /batches/{batch_id}: a batch and its runs, with long-polling until every run finished.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { notFound } from "../http/errors";
import { JsonText } from "../http/respond";
import type { PromptBatch } from "../schemas/runs";
import { readWaiting, waitUntilFinished } from "../changes/wait";
import { batchRunsFinished, readBatch } from "./read";

/** Sleeps until every run of the batch finished, or `seconds` passed, or the client left. */
export async function waitForBatch(batchId: string, seconds: number, signal?: AbortSignal): Promise<void> {
  await waitUntilFinished(batchId, { seconds, signal, isFinished: () => batchRunsFinished(batchId) });
}

/** GET /batches/{batch_id} as the API sends it: the batch and its runs' bodies as JSON text (./read.ts). */
export async function getBatchBody(principal: Principal, batchId: string, options: { wait?: number; signal?: AbortSignal } = {}) {
  const batch = await readWaiting(batchId, () => readBatch(principal, batchId), {
    ...options, isFinished: () => batchRunsFinished(batchId), missing: () => notFound("batch", batchId),
  });
  return new JsonText<z.input<typeof PromptBatch>>(batch.text);
}

/** A batch and its runs as an object (pages): the API's body, parsed. */
export async function getBatch(principal: Principal, batchId: string, options: { wait?: number; signal?: AbortSignal } = {}): Promise<z.input<typeof PromptBatch>> {
  return JSON.parse((await getBatchBody(principal, batchId, options)).text) as z.input<typeof PromptBatch>;
}
