// Share links (spec 2.7, 3.2, 4.2; decisions.md "Sharing", "Sharing, wave 3"): one public,
// read-only, unindexed link per finished run, analysis, fanout or prompt batch, and per monitor
// (its live series), which any member may create, rotate or revoke. zod only.
//
// What can be shared is SHARE_TARGETS: a kind is one entry there (its collection, path parameter
// and id), which gives it its four endpoints here, its MCP tools and its CLI prefix; the server's
// side of a kind is one entry of SHARE_KINDS (lib/shares/read.ts) and one of PUBLIC_COPIES
// (lib/shares/present.ts).
import { z } from "zod";
import { DateTime, idOf, idSchemas } from "./common";
import { defineEndpoint } from "./endpoint";
import { exampleShareState, exampleShareStatus } from "./examples";
import { AnalysisId } from "./analyses";
import { MonitorId } from "./monitors";
import { BatchId, FanoutId, RunId } from "./runs";

export const ShareId = idOf("sh");

export type ShareTarget = {
  /** The collection the object is read from (`/runs/{run_id}`): its share endpoints live beside it. */
  collection: string;
  param: string;
  id: z.ZodString;
  /** How the documentation, the CLI and the pages name it. */
  noun: string;
  /** Its operation ids' word: getRunShare, shareRun, unshareRun, rotateRunShare. */
  name: string;
  /** The statuses that are finished, in words, when only a finished one can be shared (else null: any time). */
  finished: string | null;
};

export const SHARE_TARGETS = {
  run: { collection: "runs", param: "run_id", id: RunId, noun: "run", name: "Run", finished: "completed or failed" },
  analysis: { collection: "analyses", param: "analysis_id", id: AnalysisId, noun: "analysis", name: "Analysis", finished: "completed or failed" },
  fanout: { collection: "fanouts", param: "fanout_id", id: FanoutId, noun: "fanout", name: "Fanout", finished: "completed, partial or failed" },
  batch: { collection: "batches", param: "batch_id", id: BatchId, noun: "prompt batch", name: "Batch", finished: "completed, partial or failed" },
  monitor: { collection: "monitors", param: "monitor_id", id: MonitorId, noun: "monitor", name: "Monitor", finished: null },
} as const satisfies Record<string, ShareTarget>;

export type ShareKind = keyof typeof SHARE_TARGETS;
export const SHARE_KIND_NAMES = Object.keys(SHARE_TARGETS) as [ShareKind, ...ShareKind[]];

/** The id prefixes of a kind's objects (`dr`; `fa` and `ca`). */
export function sharePrefixesOf(kind: ShareKind): readonly string[] {
  return idSchemas.get(SHARE_TARGETS[kind].id)!.prefixes;
}

/** The kind an id names by its prefix, or undefined. */
export function shareKindOfId(id: string): ShareKind | undefined {
  return SHARE_KIND_NAMES.find((kind) => sharePrefixesOf(kind).some((prefix) => id.startsWith(`${prefix}_`)));
}

export const ShareTargetKind = z
  .enum(SHARE_KIND_NAMES)
  .meta({ id: "ShareTargetKind", description: "What is shared: a `run`, an `analysis`, a `fanout`, a prompt `batch` or a `monitor` (its live series)." });

export const ShareState = z
  .object({
    id: ShareId,
    url: z.string().describe("The public page (`<PUBLIC_BASE_URL>/s/<token>`); anyone with it can read the object. Add `.json` for the object as the API answers it, without what identifies or bills the workspace."),
    target_id: z.string().describe("The shared run (`dr_…`), analysis (`fa_…`, `ca_…`), fanout (`fo_…`), prompt batch (`rq_…`) or monitor (`mo_…`)."),
    target_kind: ShareTargetKind,
    created_at: DateTime,
    revoked_at: DateTime.nullable().describe("When the link stopped working; null while it works."),
    rotated_from: ShareId.nullable().describe("The share this one replaced by rotation, else null."),
  })
  .meta({ id: "ShareState", examples: [exampleShareState] });

export const ShareStatus = z
  .object({
    shared: z.boolean().describe("Whether a link works now."),
    share: ShareState.nullable().describe("The working share; when none works, the last one revoked (revoked_at set); null if never shared."),
  })
  .meta({ id: "ShareStatus", examples: [exampleShareStatus] });

function shareEndpoints(kind: ShareKind) {
  const { collection, param, id, noun, name, finished } = SHARE_TARGETS[kind] as ShareTarget;
  const params = z.object({ [param]: id }) as z.ZodObject<Record<string, z.ZodString>>;
  const base = `/${collection}/{${param}}/share`;
  const A = /^[aeiou]/.test(noun) ? "An" : "A";
  const tags = ["Sharing"];
  const when = finished ? `${A} ${noun} that has not finished (${finished}) answers 409` : `${A} ${noun} can be shared at any time`;
  return {
    get: defineEndpoint({
      method: "GET", path: base, operationId: `get${name}Share`, summary: `Whether the ${noun} is shared, and its link`,
      description: `\`shared\` true with the working link, or false with the last revoked one (\`share\` null if never shared). Any member of the ${noun}'s workspace may ask.`,
      tags, auth: "bearer", params, response: ShareStatus, status: 200,
    }),
    create: defineEndpoint({
      method: "POST", path: base, operationId: `share${name}`, summary: `Share ${finished ? `a finished ${noun}` : `${A.toLowerCase()} ${noun}`}: one public read-only link`,
      description: `Any member may share. ${when}; one already shared answers its link unchanged.`,
      tags, auth: "bearer", params, response: ShareState, status: 200, errors: ["conflict"],
    }),
    revoke: defineEndpoint({
      method: "DELETE", path: base, operationId: `unshare${name}`, summary: "Revoke the link: it stops working at once",
      description: `204 also when the ${noun} is not shared. A revoked link never works again; sharing again makes a new one.`,
      tags, auth: "bearer", params, status: 204,
    }),
    rotate: defineEndpoint({
      method: "POST", path: `${base}/rotate`, operationId: `rotate${name}Share`, summary: "Replace the link: the old one stops working at once",
      description: `The new share's rotated_from names the old one. ${A} ${noun} that is not shared answers 409.`,
      tags, auth: "bearer", params, response: ShareState, status: 200, errors: ["conflict"],
    }),
  };
}

export type ShareEndpoints = ReturnType<typeof shareEndpoints>;

/** Each kind's four share endpoints. */
export const SHARE_ENDPOINTS = Object.fromEntries(SHARE_KIND_NAMES.map((kind) => [kind, shareEndpoints(kind)])) as Record<ShareKind, ShareEndpoints>;

/** Every share endpoint, kind by kind (the registry lists them in this order). */
export const shareEndpointList = SHARE_KIND_NAMES.flatMap((kind) => {
  const e = SHARE_ENDPOINTS[kind];
  return [e.get, e.create, e.revoke, e.rotate];
});

export const { get: getRunShare, create: shareRun, revoke: unshareRun, rotate: rotateRunShare } = SHARE_ENDPOINTS.run;
export const { get: getAnalysisShare, create: shareAnalysis, revoke: unshareAnalysis, rotate: rotateAnalysisShare } = SHARE_ENDPOINTS.analysis;
export const { get: getFanoutShare, create: shareFanout, revoke: unshareFanout, rotate: rotateFanoutShare } = SHARE_ENDPOINTS.fanout;
export const { get: getBatchShare, create: shareBatch, revoke: unshareBatch, rotate: rotateBatchShare } = SHARE_ENDPOINTS.batch;
export const { get: getMonitorShare, create: shareMonitor, revoke: unshareMonitor, rotate: rotateMonitorShare } = SHARE_ENDPOINTS.monitor;

export type ShareState = z.infer<typeof ShareState>;
export type ShareStatus = z.infer<typeof ShareStatus>;
