// How far along unfinished objects are, for the browser's live pages (app/live/route.ts): one
// short signature per object, which changes whenever something a page shows about it changes
// (a run of a batch or fanout ending, an analysis finishing). The page renders the signature it
// showed; the live stream compares and tells the page to refresh only when it moved.
import type { Principal } from "../auth/principal";
import { reachableAnalysisTarget } from "../analyses/store";
import { fanoutReachable } from "../fanouts/reach";
import { notFound } from "../http/errors";
import { engineConfig } from "../config/engines";
import { MAX_ENGINE_ATTEMPTS } from "../runs/lifecycle";
import { reachedRunStatus, runAttemptsByStatus, runningAttempts } from "../runs/page-reads";
import { batchReachable } from "../runs/read";
import { isFinished } from "../runs/status";
import { attemptView, type AttemptView } from "./attempts";

/** The objects a page can follow, by id prefix. */
const FOLLOWABLE = /^(dr|rq|fo|fa|ca)_[0-9A-HJKMNP-TV-Z]{26}$/;

export function isFollowable(id: string): boolean {
  return FOLLOWABLE.test(id);
}

export type Progress = { signature: string; finished: boolean };

/** `finished/total` of a set of runs (and the engine attempts they are at), and whether all have ended. */
async function runsProgress(where: { batchId: string } | { fanoutId: string }): Promise<Progress> {
  const groups = await runAttemptsByStatus(where);
  let total = 0;
  let done = 0;
  let attempts = 0;
  for (const g of groups) {
    total += g.count;
    if (isFinished(g.status)) done += g.count;
    else attempts += g.engineAttempts;
  }
  return { signature: `${done}/${total}${attempts ? `+${attempts}` : ""}`, finished: done === total };
}

/**
 * The progress of one object the principal can reach; 404 (as the API answers) for one it cannot.
 * Runs and analyses: their status. Batches and fanouts: how many of their runs have ended.
 */
export async function progressOf(principal: Principal, id: string): Promise<Progress> {
  const prefix = id.slice(0, 2);
  if (prefix === "dr") {
    const run = await reachedRunStatus(principal, id);
    if (!run) throw notFound("run", id);
    const attempt = run.status === "running" && run.engineAttempt ? `#${run.engineAttempt}` : "";
    return { signature: `${run.status}${attempt}`, finished: isFinished(run.status) };
  }
  if (prefix === "rq") {
    if (!(await batchReachable(principal, id))) throw notFound("batch", id);
    return runsProgress({ batchId: id });
  }
  if (prefix === "fo") {
    if (!(await fanoutReachable(principal, id))) throw notFound("fanout", id);
    return runsProgress({ fanoutId: id });
  }
  const analysis = await reachableAnalysisTarget(principal, id);
  if (!analysis) throw notFound("analysis", id);
  return { signature: analysis.status, finished: isFinished(analysis.status) };
}

/**
 * Where the engine call of each running prompt run among `runIds` is (attemptView), for the
 * run's and its batch's pages; runs the principal cannot reach, or not running, are left out.
 */
export async function engineAttemptsOf(principal: Principal, runIds: readonly string[]): Promise<Map<string, AttemptView>> {
  if (runIds.length === 0) return new Map();
  const rows = await runningAttempts(principal, runIds);
  const rules = { maxAttempts: MAX_ENGINE_ATTEMPTS, timeoutMs: engineConfig().timeoutMs };
  return new Map(
    rows.flatMap((r) => {
      const view = attemptView({ attempt: r.engineAttempt, at: r.engineAttemptAt, startedAt: r.startedAt }, rules);
      return view ? [[r.id, view] as const] : [];
    }),
  );
}

/** The combined signature of several objects, as a page renders it and the stream compares it. */
export async function progressOfAll(principal: Principal, ids: readonly string[]): Promise<Progress> {
  const each = await Promise.all(ids.map((id) => progressOf(principal, id)));
  return { signature: each.map((p) => p.signature).join(","), finished: each.every((p) => p.finished) };
}
