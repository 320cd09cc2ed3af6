// GET /runs and GET /runs/{run_id}: reading runs the credential can reach, with long-polling.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { ApiError, notFound } from "../http/errors";
import { JsonText } from "../http/respond";
import { decodeCursor, pageOf } from "../http/pagination";
import { readWaiting, waitUntilFinished } from "../changes/wait";
import { getProjectOrThrow } from "../projects/projects";
import type { RawEnvelope, Run, RunList, RunsQuery } from "../schemas/runs";
import { reachableBy, reachableWorkspaceIds, requireWorkspace } from "../workspaces/access";
import { waitForBatch } from "./batches";
import { presentRun, presentRunSummary, runSelect } from "./present";
import { batchReachable, readRunListText, readRunText, type RunListFilter } from "./read";
import { isFinished } from "./status";

async function loadRun(principal: Principal, runId: string) {
  const row = await db().run.findFirst({ where: { id: runId, ...reachableBy(principal) }, select: runSelect });
  if (!row) throw notFound("run", runId);
  return row;
}

/**
 * GET /runs/{run_id} as the API sends it: the body as JSON text, spliced from the run's stored
 * JSON by one prepared statement (./read.ts); byte for byte JSON.stringify(getRun(…)).
 */
export async function getRunBody(
  principal: Principal,
  runId: string,
  options: { wait?: number; signal?: AbortSignal; include?: "raw_envelope" } = {},
): Promise<JsonText<z.input<typeof Run>> | Awaited<ReturnType<typeof getRun>>> {
  if (options.include) return getRun(principal, runId, options);
  const readRun = async () => {
    const run = await readRunText(principal, runId);
    return run && { finished: isFinished(run.status), text: run.text };
  };
  const run = await readWaiting(runId, readRun, { ...options, isFinished: () => runFinished(runId), missing: () => notFound("run", runId) });
  return new JsonText(run.text);
}

async function runFinished(runId: string): Promise<boolean> {
  const now = await db().run.findUnique({ where: { id: runId }, select: { status: true } });
  return !now || isFinished(now.status);
}

/** A run as an object (pages, and the API's include=raw_envelope). */
export async function getRun(
  principal: Principal,
  runId: string,
  options: { wait?: number; signal?: AbortSignal; include?: "raw_envelope" } = {},
) {
  let row = await loadRun(principal, runId);
  if (!isFinished(row.status) && options.wait) {
    await waitUntilFinished(runId, { seconds: options.wait, signal: options.signal, isFinished: () => runFinished(runId) });
    row = await loadRun(principal, runId);
  }
  if (options.include === "raw_envelope") {
    const raw = await db().run.findUnique({ where: { id: runId }, select: { rawEnvelope: true } });
    return { ...presentRun(row), raw_envelope: (raw?.rawEnvelope ?? null) as z.input<typeof RawEnvelope> | null };
  }
  return presentRun(row);
}

/**
 * GET /runs's query checked as the API checks it, as the filter both forms read: a filter naming
 * something the credential cannot reach answers 404, like reading it would; with `wait`, waits
 * for the batch first.
 */
async function runListFilter(principal: Principal, query: z.output<typeof RunsQuery>, signal?: AbortSignal): Promise<RunListFilter> {
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

/**
 * GET /runs as the API sends it: one prepared statement and the body as JSON text (./read.ts);
 * byte for byte JSON.stringify(listRuns(…)).
 */
export async function listRunsBody(principal: Principal, query: z.output<typeof RunsQuery>, options: { signal?: AbortSignal } = {}) {
  const filter = await runListFilter(principal, query, options.signal);
  return new JsonText<z.input<typeof RunList>>(await readRunListText(principal, filter));
}

/** GET /runs as an object, through Prisma (what the prepared statement is compared with). */
export async function listRuns(principal: Principal, query: z.output<typeof RunsQuery>, options: { signal?: AbortSignal } = {}) {
  const filter = await runListFilter(principal, query, options.signal);
  const where: Prisma.RunWhereInput = {
    workspaceId: filter.workspaceId ?? { in: await reachableWorkspaceIds(principal) },
    projectId: filter.projectId,
    batchId: filter.batchId,
    fanoutId: filter.fanoutId,
    status: filter.status as Prisma.RunWhereInput["status"],
    engine: filter.engine,
    ...(filter.country ? { input: { path: ["location", "country"], equals: filter.country } } : {}),
    ...(filter.beforeId ? { id: { lt: filter.beforeId } } : {}),
  };
  const rows = await db().run.findMany({
    where,
    orderBy: { id: "desc" },
    take: query.limit + 1,
    select: {
      id: true, kind: true, status: true, subject: true, engine: true, model: true, batchId: true, fanoutId: true, projectId: true,
      sourceCount: true, citedCount: true, durationMs: true, createdAt: true, updatedAt: true, startedAt: true, completedAt: true,
      createdBy: { select: { email: true } },
    },
  });
  const page = pageOf(rows, query.limit);
  return { items: page.items.map(presentRunSummary), next_cursor: page.next_cursor };
}

/** A run by id, whoever asks: for a public share page, which has checked its token. Null when there is none. */
export async function runById(runId: string) {
  const row = await db().run.findUnique({ where: { id: runId }, select: runSelect });
  return row ? presentRun(row) : null;
}
