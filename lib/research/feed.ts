// What a project page lists (decisions.md "Research in the browser"): its prompt batches with
// their runs, fanouts, analyses and audits, newest first, a page at a time, read with the same
// access rule as the API (a project outside the person's workspaces is 404). Each prompt run
// carries, at a glance, whether the project's own domains were cited and which of its brands and
// competitors the answer names, by the citation analysis's rules (lib/analyses/citations.ts).
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { countMentions, hostCovered } from "../analyses/citations";
import { listAnalyses } from "../analyses/read";
import { formatUsd, parseUsd } from "../billing/money";
import { listFanouts } from "../fanouts/read";
import { decodeCursor, encodeCursor } from "../http/pagination";
import { getProject } from "../projects/read";
import { promptBatchesOfProject } from "../runs/batches";
import { auditRunIdsOfProject } from "../runs/page-reads";
import { presentPromptBatch, presentRun } from "../runs/present";
import { runRowsByIds } from "../runs/read";
import type { RunRow } from "../runs/rows";
import type { Project } from "../schemas/projects";
import { promptResultOf } from "../schemas/results";
import type { Batch, Run } from "../schemas/runs";

export const FEED_VIEWS = ["prompts", "fanouts", "analyses", "audits"] as const;
export type FeedView = (typeof FEED_VIEWS)[number];
export const PAGE_SIZE = 10;

/** The project's own domains and the names it watches for, from its context. */
export type Watch = { domains: string[]; brands: string[]; competitors: string[] };

export function watchOf(project: Pick<z.input<typeof Project>, "context">): Watch {
  const c = project.context;
  const domains = [c?.primary_domain, ...(c?.domains ?? [])].filter((d): d is string => Boolean(d)).map((d) => d.toLowerCase());
  return { domains: [...new Set(domains)], brands: c?.brands ?? [], competitors: c?.competitors ?? [] };
}

/** One prompt run at a glance: own domain cited, brands and competitors the answer names. */
export type Glance = { ownCited: boolean | null; brands: string[]; competitors: string[] };

export function glanceOf(run: z.input<typeof Run>, watch: Watch): Glance | null {
  const result = promptResultOf(run.result as Run["result"]);
  if (!result) return null;
  const cited = result.sources.filter((s) => s.cited === true);
  return {
    ownCited: watch.domains.length === 0 ? null : cited.some((s) => watch.domains.some((d) => hostCovered(s.url, d))),
    brands: watch.brands.filter((b) => countMentions(result.answer, b) > 0),
    competitors: watch.competitors.filter((b) => countMentions(result.answer, b) > 0),
  };
}

export type FeedRun = { run: z.input<typeof Run>; glance: Glance | null };
/** A prompt batch on the project page: the API's batch (GET /batches/{id}'s `batch`), its runs at a glance, and its charges. */
export type FeedBatch = {
  batch: z.input<typeof Batch>;
  runs: FeedRun[];
  /** The batch's charges so far (held or captured), or null when nothing is billed. */
  chargeUsd: string | null;
};

type Page<T> = { items: T[]; nextCursor: string | null };

function page<T>(rows: T[], idOf: (row: T) => string): { rows: T[]; nextCursor: string | null } {
  const kept = rows.slice(0, PAGE_SIZE);
  return { rows: kept, nextCursor: rows.length > PAGE_SIZE && kept.length ? encodeCursor(idOf(kept.at(-1)!)) : null };
}

function chargeOf(runs: z.input<typeof Run>[]): string | null {
  const charged = runs.filter((r) => r.charge);
  if (charged.length === 0) return null;
  // Decimal strings, summed as integer micro-dollars.
  return formatUsd(charged.reduce((sum, r) => sum + parseUsd(r.charge!.amount_usd), 0n));
}

/** The runs of these ids, by id (the caller found them through the project it checked). */
async function runsById(ids: string[]): Promise<Map<string, RunRow>> {
  return new Map((await runRowsByIds(ids)).map((r) => [r.id, r]));
}

export async function promptBatches(principal: Principal, projectId: string, options: { engine?: string; cursor?: string }): Promise<Page<FeedBatch> & { watch: Watch }> {
  const project = await getProject(principal, projectId);
  const watch = watchOf(project);
  const rows = await promptBatchesOfProject(project.id, {
    ...(options.engine ? { engine: options.engine } : {}),
    ...(options.cursor ? { beforeId: decodeCursor(options.cursor, "rq") } : {}),
    take: PAGE_SIZE + 1,
  });
  const { rows: kept, nextCursor } = page(rows, (r) => r.batch.id);
  const runRows = await runsById(kept.flatMap((b) => b.runIds));
  const items = kept.map((b) => {
    const { batch, runs } = presentPromptBatch(b.batch, b.runIds.map((id) => runRows.get(id)!));
    return { batch, runs: runs.map((run) => ({ run, glance: glanceOf(run, watch) })), chargeUsd: chargeOf(runs) };
  });
  return { items, nextCursor, watch };
}

export async function auditRuns(principal: Principal, projectId: string, options: { cursor?: string }): Promise<Page<z.input<typeof Run>>> {
  const project = await getProject(principal, projectId);
  const rows = await auditRunIdsOfProject(project.id, { beforeId: options.cursor ? decodeCursor(options.cursor, "dr") : undefined, take: PAGE_SIZE + 1 });
  const { rows: kept, nextCursor } = page(rows, (r) => r.id);
  const runRows = await runsById(kept.map((r) => r.id));
  return { items: kept.map((r) => presentRun(runRows.get(r.id)!)), nextCursor };
}

export async function projectFanouts(principal: Principal, projectId: string, options: { cursor?: string }) {
  const list = await listFanouts(principal, { project: projectId, limit: PAGE_SIZE, cursor: options.cursor });
  return { items: list.items, nextCursor: list.next_cursor };
}

export async function projectAnalyses(principal: Principal, projectId: string, options: { cursor?: string }) {
  const list = await listAnalyses(principal, { project: projectId, limit: PAGE_SIZE, cursor: options.cursor });
  return { items: list.items, nextCursor: list.next_cursor };
}
