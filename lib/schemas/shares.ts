// Share links (spec 2.7, 3.2, 4.2; decisions.md "Sharing"): one public, read-only, unindexed link
// per finished run or analysis, which any member may create, rotate or revoke. zod only.
import { z } from "zod";
import { DateTime, idOf } from "./common";
import { defineEndpoint } from "./endpoint";
import { exampleShareState, exampleShareStatus } from "./examples";
import { AnalysisId } from "./analyses";
import { RunId } from "./runs";

export const ShareId = idOf("sh");

export const ShareTargetKind = z.enum(["run", "analysis"]).meta({ id: "ShareTargetKind", description: "What is shared: a `run` or an `analysis`." });

export const ShareState = z
  .object({
    id: ShareId,
    url: z.string().describe("The public page (`<PUBLIC_BASE_URL>/s/<token>`); anyone with it can read the object. Add `.json` for the object as the API answers it."),
    target_id: z.string().describe("The shared run (`dr_…`) or analysis (`fa_…`, `ca_…`)."),
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

const runParams = z.object({ run_id: RunId });
const analysisParams = z.object({ analysis_id: AnalysisId });

function shareEndpoints<P extends z.ZodObject>(collection: "runs" | "analyses", param: string, params: P, noun: string, tag: string) {
  const base = `/${collection}/{${param}}/share`;
  const Noun = noun[0]!.toUpperCase() + noun.slice(1);
  const A = /^[aeiou]/.test(noun) ? "An" : "A";
  return {
    get: defineEndpoint({
      method: "GET", path: base, operationId: `get${Noun}Share`, summary: `Whether the ${noun} is shared, and its link`,
      description: `\`shared\` true with the working link, or false with the last revoked one (\`share\` null if never shared). Any member of the ${noun}'s workspace may ask.`,
      tags: [tag], auth: "bearer", params, response: ShareStatus, status: 200,
    }),
    create: defineEndpoint({
      method: "POST", path: base, operationId: `share${Noun}`, summary: `Share a finished ${noun}: one public read-only link`,
      description: `Any member may share. ${A} ${noun} that has not finished (queued or running) answers 409; one already shared answers its link unchanged.`,
      tags: [tag], auth: "bearer", params, response: ShareState, status: 200, errors: ["conflict"],
    }),
    revoke: defineEndpoint({
      method: "DELETE", path: base, operationId: `unshare${Noun}`, summary: "Revoke the link: it stops working at once",
      description: `204 also when the ${noun} is not shared. A revoked link never works again; sharing again makes a new one.`,
      tags: [tag], auth: "bearer", params, status: 204,
    }),
    rotate: defineEndpoint({
      method: "POST", path: `${base}/rotate`, operationId: `rotate${Noun}Share`, summary: "Replace the link: the old one stops working at once",
      description: `The new share's rotated_from names the old one. ${A} ${noun} that is not shared answers 409.`,
      tags: [tag], auth: "bearer", params, response: ShareState, status: 200, errors: ["conflict"],
    }),
  };
}

const runShares = shareEndpoints("runs", "run_id", runParams, "run", "Sharing");
const analysisShares = shareEndpoints("analyses", "analysis_id", analysisParams, "analysis", "Sharing");

export const getRunShare = runShares.get;
export const shareRun = runShares.create;
export const unshareRun = runShares.revoke;
export const rotateRunShare = runShares.rotate;
export const getAnalysisShare = analysisShares.get;
export const shareAnalysis = analysisShares.create;
export const unshareAnalysis = analysisShares.revoke;
export const rotateAnalysisShare = analysisShares.rotate;

export type ShareState = z.infer<typeof ShareState>;
export type ShareStatus = z.infer<typeof ShareStatus>;
