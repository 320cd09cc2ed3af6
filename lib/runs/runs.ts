// GET /runs and GET /runs/{run_id}: reading runs the credential can reach, with long-polling.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { db } from "../db/client";
import { ApiError, notFound } from "../http/errors";
import { JsonText } from "../http/respond";
import { decodeCursor } from "../http/pagination";
import { readWaiting } from "../changes/wait";
import { getProjectOrThrow } from "../projects/projects";
import type { Run, RunList, RunsQuery } from "../schemas/runs";
import { reachableBy, requireWorkspace } from "../workspaces/access";
import { waitForBatch } from "./batches";
import { batchReachable, readRun, readRunList, runFinished, type RunListFilter } from "./read";

type RunOptions = { wait?: number; signal?: AbortSignal; include?: "raw_envelope" };

/** GET /runs/{run_id} as the API sends it: the presented run as JSON text (./read.ts), with its raw envelope when asked. */
export async function getRunBody(principal: Principal, runId: string, options: RunOptions = {}): Promise<JsonText<z.input<typeof Run>>> {
  const envelope = options.include === "raw_envelope";
  const run = await readWaiting(runId, () => readRun(principal, runId, { envelope }), {
    ...options, isFinished: () => runFinished(runId), missing: () => notFound("run", runId),
  });
  return new JsonText(run.text);
}

/** A run as an object (pages): the API's body, parsed. */
export async function getRun(principal: Principal, runId: string, options: RunOptions = {}): Promise<z.input<typeof Run>> {
  return JSON.parse((await getRunBody(principal, runId, options)).text) as z.input<typeof Run>;
}

/**
 * GET /runs's query checked as the API checks it: a filter naming something the credential cannot
 * reach answers 404, like reading it would; with `wait`, waits for the batch first.
 */
export async function runListFilter(principal: Principal, query: z.output<typeof RunsQuery>, signal?: AbortSignal): Promise<RunListFilter> {
  if (query.wait > 0 && !query.batch) {
    throw new ApiError("invalid_request", "wait: only with batch; GET /runs waits for one batch to finish");
  }
  const filter: RunListFilter = { limit: query.limit };
  if (query.workspace) filter.workspaceId = (await requireWorkspace(principal, query.workspace)).workspace.id;
  if (query.project) filter.projectId = (await getProjectOrThrow(principal, query.project)).id;
  if (query.batch) {
    if (!(await batchReachable(principal, query.batch))) throw notFound("batch", query.batch);
    filter.batchId = query.batch;
    if (query.wait > 0) await waitForBatch(query.batch, query.wait, signal);
  }
  if (query.fanout) {
    const fanout = await db().fanout.findFirst({ where: { id: query.fanout, ...reachableBy(principal) }, select: { id: true } });
    if (!fanout) throw notFound("fanout", query.fanout);
    filter.fanoutId = query.fanout;
  }
  if (query.status) filter.status = query.status;
  if (query.engine) filter.engine = query.engine;
  if (query.country) filter.country = query.country;
  if (query.cursor) filter.beforeId = decodeCursor(query.cursor, "dr");
  return filter;
}

/** GET /runs as the API sends it: one statement and the presented page as JSON text (./read.ts). */
export async function listRunsBody(principal: Principal, query: z.output<typeof RunsQuery>, options: { signal?: AbortSignal } = {}) {
  const filter = await runListFilter(principal, query, options.signal);
  return new JsonText<z.input<typeof RunList>>(await readRunList(principal, filter));
}
