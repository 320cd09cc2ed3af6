// The server's side of each kind of shared object (decisions.md "Sharing", "Sharing, wave 3"): how
// a credential's access to it and its status are looked up (to share it), how a working link reads
// it (the API's own read, lib/shares/reader.ts), and what the public copy leaves out. A kind is
// one entry here beside its entry in SHARE_TARGETS (lib/schemas/shares.ts).
//
// The public copy is the object as GET answers it without what identifies or bills the workspace:
// `project_id` and `created_by` null (spec), every charge null (`charge`, `held_usd`,
// `charged_usd`), and the project id echoed in an input (`input.project`) removed. A monitor also
// leaves out its budget, month's spend, alert settings (the webhook URL) and why a tick was skipped
// (credit or budget): `null`. Batch, fanout and analysis ids stay: they open nothing without an
// account.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { readAnalysisText } from "../analyses/read";
import { reachableAnalysisTarget } from "../analyses/store";
import { readFanoutText } from "../fanouts/read";
import { readMonitor } from "../monitors/read";
import { runStartsByStatus } from "../runs/page-reads";
import { readBatch, readRun } from "../runs/read";
import { statusOfCounts, type RunCounts } from "../runs/status";
import type { Analysis } from "../schemas/analyses";
import type { Fanout } from "../schemas/fanouts";
import type { Monitor } from "../schemas/monitors";
import type { PromptBatch, Run, RunStatus } from "../schemas/runs";
import type { ShareKind } from "../schemas/shares";
import { defineStatement, standalone, text } from "../db/statement";
import { reachableSql, reachOf } from "../workspaces/access";
import type { ShareReader } from "./reader";

/** What sharing needs to know of an object the credential reaches. */
export type ShareTarget = { workspaceId: string; status: string };

type KindOf<Body> = {
  /** The object the credential can reach, or null (404 exactly as a missing one). */
  target(principal: Principal, id: string): Promise<ShareTarget | null>;
  /** The object as GET answers it (JSON text), read through the working share; null once it is not. */
  read(reader: ShareReader, id: string): Promise<{ text: string } | null>;
  /** What anyone with the link sees of it. */
  publicCopy(body: Body): Body;
};

type MonitorBody = z.input<typeof Monitor>;

/** A monitor as its link shows it: no project, creator, budget, spend, charge or alert settings (webhook URL). */
export type PublicMonitor = Omit<MonitorBody, "project" | "spend_month_to_date_usd" | "alerts"> & {
  project: string | null;
  spend_month_to_date_usd: string | null;
  alerts: MonitorBody["alerts"] | null;
};

export type PublicBodies = {
  run: z.input<typeof Run>;
  analysis: z.input<typeof Analysis>;
  fanout: z.input<typeof Fanout>;
  batch: z.input<typeof PromptBatch>;
  monitor: PublicMonitor;
};

type Input = Record<string, unknown>;

/** An input without the project it names. */
function withoutProject(input: Input): Input {
  const { project: _project, ...rest } = input;
  return rest;
}

function publicRun(run: z.input<typeof Run>): z.input<typeof Run> {
  return { ...run, input: withoutProject(run.input), project_id: null, created_by: null, charge: null };
}

/** A batch's or fanout's status, derived from its runs as their reads derive it (lib/runs/status.ts). */
/** The workspace and status of a shareable object the credential reaches, by table (alias `t`). */
const targetOf = (label: string, table: string, status: string | null) =>
  defineStatement({
    label,
    params: ["id", "user", "own"],
    columns: { workspaceId: text("t.workspace_id"), status: text(status ? `t.${status}` : "''") },
    sql: ({ select, p }) => `SELECT ${select} FROM ${table} t WHERE t.id = ${p.id} AND ${reachableSql("t", p)}`,
  });
const TARGETS = {
  run: targetOf("share_target_run", "runs", "status"),
  analysis: targetOf("share_target_analysis", "analyses", "status"),
  fanout: targetOf("share_target_fanout", "fanouts", null),
  batch: targetOf("share_target_batch", "batches", null),
  monitor: targetOf("share_target_monitor", "monitors", "status"),
};

/** The object `id` of a kind, as sharing needs it, when the credential reaches it. */
async function reachedTarget(kind: keyof typeof TARGETS, principal: Principal, id: string): Promise<ShareTarget | null> {
  return (await TARGETS[kind].first(standalone(), { id, ...reachOf(principal) })) ?? null;
}

async function statusOfRuns(where: { batchId: string } | { fanoutId: string }): Promise<string> {
  const groups = await runStartsByStatus(where);
  const counts: RunCounts = { queued: 0, running: 0, completed: 0, failed: 0 };
  for (const g of groups) counts[g.status] = g.count;
  return statusOfCounts(counts, groups.some((g) => g.status !== "queued" || g.lastStartedAt !== null));
}

export const SHARE_KINDS: { [K in ShareKind]: KindOf<PublicBodies[K]> } = {
  run: {
    target: (principal, id) => reachedTarget("run", principal, id),
    read: (reader, id) => readRun(reader, id),
    publicCopy: publicRun,
  },
  analysis: {
    target: async (principal, id) => (await reachableAnalysisTarget(principal, id)) ?? null,
    read: (reader, id) => readAnalysisText(reader, id),
    publicCopy: (analysis) => ({ ...analysis, project_id: null, created_by: null, charge: null }),
  },
  fanout: {
    async target(principal, id) {
      const fanout = await reachedTarget("fanout", principal, id);
      return fanout && { workspaceId: fanout.workspaceId, status: await statusOfRuns({ fanoutId: id }) };
    },
    read: (reader, id) => readFanoutText(reader, id),
    publicCopy: (fanout) => ({
      ...fanout,
      project_id: null,
      created_by: null,
      held_usd: null,
      charged_usd: null,
      prompts: fanout.prompts.map((prompt) => ({
        ...prompt,
        engines: prompt.engines.map((engine) => ({ ...engine, runs: engine.runs.map((run) => ({ ...run, charge: null })) })),
      })),
    }),
  },
  batch: {
    async target(principal, id) {
      const batch = await reachedTarget("batch", principal, id);
      return batch && { workspaceId: batch.workspaceId, status: await statusOfRuns({ batchId: id }) };
    },
    read: (reader, id) => readBatch(reader, id),
    publicCopy: ({ batch, runs }) => ({
      batch: { ...batch, input: withoutProject(batch.input), project_id: null, created_by: null },
      runs: runs.map(publicRun),
    }),
  },
  monitor: {
    // Shared at any time (a live dashboard); its status (active or paused) does not matter.
    target: (principal, id) => reachedTarget("monitor", principal, id),
    async read(reader, id) {
      const monitor = await readMonitor(reader, id);
      return monitor && { text: JSON.stringify(monitor) };
    },
    publicCopy: (monitor) => ({
      ...monitor,
      project: null,
      created_by: null,
      monthly_budget_usd: null,
      spend_month_to_date_usd: null,
      alerts: null,
      // "skipped" stays; why (the workspace's credit, the monitor's budget) is the workspace's business.
      last_tick: monitor.last_tick && { ...monitor.last_tick, charged_usd: null, skip_reason: null },
    }),
  },
};

/** The entry of a kind stored on a share row, or undefined for a kind this server does not share. */
export function shareKindEntry(kind: string): KindOf<PublicBodies[ShareKind]> | undefined {
  return Object.hasOwn(SHARE_KINDS, kind) ? (SHARE_KINDS[kind as ShareKind] as KindOf<PublicBodies[ShareKind]>) : undefined;
}
