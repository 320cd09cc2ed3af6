// What sharing shows (decisions.md "Sharing", "Sharing, wave 3"): a share's state (its link), and
// each kind's public copy, what anyone with the link sees of the object.
//
// The public copy is the object as GET answers it without what identifies or bills the workspace:
// `project_id` and `created_by` null (spec), every charge null (`charge`, `held_usd`,
// `charged_usd`), and the project id echoed in an input (`input.project`) removed. A monitor also
// leaves out its budget, month's spend, alert settings (the webhook URL) and why a tick was skipped
// (credit or budget): `null`. Batch, fanout and analysis ids stay: they open nothing without an
// account.
import type { z } from "zod";
import { config } from "../config/env";
import type { Analysis } from "../schemas/analyses";
import type { Fanout } from "../schemas/fanouts";
import type { Monitor } from "../schemas/monitors";
import type { PromptBatch, Run } from "../schemas/runs";
import type { ShareKind, ShareState } from "../schemas/shares";
import { tokenOf } from "./token";

export function shareUrl(shareId: string): string {
  return `${config().PUBLIC_BASE_URL}/s/${tokenOf(shareId)}`;
}

export type ShareRow = { id: string; targetKind: string; targetId: string; createdAt: Date; revokedAt: Date | null; rotatedFromId: string | null };

export function presentShare(row: ShareRow): z.input<typeof ShareState> {
  return {
    id: row.id,
    url: shareUrl(row.id),
    target_id: row.targetId,
    target_kind: row.targetKind as ShareKind,
    created_at: row.createdAt.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
    rotated_from: row.rotatedFromId,
  };
}

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

/** What anyone with the link sees of an object of each kind, made from its body as GET answers it. */
export const PUBLIC_COPIES: { [K in ShareKind]: (body: PublicBodies[K]) => PublicBodies[K] } = {
  run: publicRun,
  analysis: (analysis) => ({ ...analysis, project_id: null, created_by: null, charge: null }),
  fanout: (fanout) => ({
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
  batch: ({ batch, runs }) => ({
    batch: { ...batch, input: withoutProject(batch.input), project_id: null, created_by: null },
    runs: runs.map(publicRun),
  }),
  monitor: (monitor) => ({
    ...monitor,
    project: null,
    created_by: null,
    monthly_budget_usd: null,
    spend_month_to_date_usd: null,
    alerts: null,
    // "skipped" stays; why (the workspace's credit, the monitor's budget) is the workspace's business.
    last_tick: monitor.last_tick && { ...monitor.last_tick, charged_usd: null, skip_reason: null },
  }),
};
