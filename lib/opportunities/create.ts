// POST /opportunity-analyses: the visibility analysis the credential can reach (404 like a
// missing one otherwise, 400 when it is of another kind), its counted runs read with the entities
// each names (analysis_mentions' counted mask), what each cited and searched, the sections
// computed (./compute.ts), the competitor's sentences of the lost prompts' evidence decoded as
// GET /analyses/{id}/mentions decodes them, and the list stored with the visibility analysis's
// runs. Free: no model, no hold, `charge` null.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { rememberAnalysisBody } from "../analyses/read";
import { insertAnalysis, opportunityRunsOf, opportunitySource } from "../analyses/store";
import { newId } from "../db/ids";
import { reachOf } from "../workspaces/access";
import { currentDb } from "../db/client";
import { textTransaction } from "../db/sql";
import { ApiError, notFound } from "../http/errors";
import { asciiJson, JsonText } from "../http/respond";
import { OPPORTUNITY_LIMITS, type OpportunityAnalysis, type OpportunityAnalysisRequest } from "../schemas/opportunities";
import type { Entity } from "../visibility/entities";
import { MENTION_WIDTH, mentionRows, REASON_CODES, type MatchingMethod } from "../visibility/observe";
import { evidenceRuns } from "../visibility/read";
import { computeOpportunities, type OpportunityRun } from "./compute";
import { presentOpportunityAnalysis, type StoredOpportunities } from "./present";

type Request = z.output<typeof OpportunityAnalysisRequest>;

/** The entity the list is for: `brand` by name (exact, then any case), else the first of role brand; 400 naming it otherwise. */
function brandOf(entities: readonly Entity[], wanted: string | undefined): number {
  if (wanted !== undefined) {
    const name = wanted.normalize("NFC");
    let at = entities.findIndex((e) => e.name === name);
    if (at < 0) at = entities.findIndex((e) => e.name.toLowerCase() === name.toLowerCase());
    if (at < 0) {
      throw new ApiError("invalid_request", `brand: ${JSON.stringify(wanted)} is not tracked by this analysis (it tracks ${entities.map((e) => JSON.stringify(e.name)).join(", ")})`);
    }
    return at;
  }
  const at = entities.findIndex((e) => e.role === "brand");
  if (at < 0) {
    throw new ApiError("invalid_request", `brand: is required: this analysis tracks no entity of role brand (it tracks ${entities.map((e) => JSON.stringify(e.name)).join(", ")})`);
  }
  return at;
}

/** The competitor's first counted mention in each of the first evidence runs of each lost prompt. */
async function evidenceOf(sourceId: string, lost: ReturnType<typeof computeOpportunities>["lost"], runs: Map<string, OpportunityRun>, entities: readonly Entity[], method: MatchingMethod) {
  const wanted = [...new Set(lost.flatMap((l) => l.run_ids.slice(0, OPPORTUNITY_LIMITS.sentences)))];
  const rows = wanted.length ? await evidenceRuns(sourceId, wanted) : [];
  const byRun = new Map(rows.map((r) => [r.runId, r]));
  return lost.map((l) =>
    l.run_ids.slice(0, OPPORTUNITY_LIMITS.sentences).flatMap((id) => {
      const row = byRun.get(id);
      const run = runs.get(id)!;
      if (!row) return [];
      const ints = row.mentions.slice(1, -1).split(",").map(Number);
      // By index, not `at += MENTION_WIDTH`: the production bundle left that imported name unbound
      // in this closure (ReferenceError on next start; in-process tests cannot see it).
      for (let i = 0; i * MENTION_WIDTH < ints.length; i++) {
        const at = i * MENTION_WIDTH;
        if (ints[at] !== l.competitor.index || REASON_CODES[ints[at + 7]!] !== null) continue;
        const [mention] = mentionRows(ints.slice(at, at + MENTION_WIDTH), { run_id: id, engine: run.engine, prompt: run.prompt, answer: row.answer ?? "" }, entities, method);
        return mention ? [{ run_id: id, engine: run.engine, sentence: mention.sentence }] : [];
      }
      return [];
    }),
  );
}

/** POST /opportunity-analyses as the API sends it: the body serialised once (and remembered for GET /analyses/{id}). */
export async function createOpportunityAnalysisBody(principal: Principal, body: Request) {
  return new JsonText<z.input<typeof OpportunityAnalysis>>((await findOpportunities(principal, body)).text);
}

/** Reads, computes and stores the list; answers its id and its body as JSON text (ApiError 400/404 as POST answers them). */
export async function findOpportunities(principal: Principal, body: Request): Promise<{ id: string; text: string }> {
  const { source, figures } = await opportunityFigures(reachOf(principal), body);
  const id = newId("opportunityAnalysis");
  const subject = `Opportunities for ${figures.brand}: ${source.subject}`;
  const now = new Date();
  const version = await textTransaction(currentDb(), async (sql) => {
    const created = await insertAnalysis(sql, {
      id, kind: "opportunities", status: "completed", workspaceId: source.workspaceId, projectId: source.projectId, subject, input: JSON.stringify(body), result: JSON.stringify(figures),
      runs: { sameAs: body.analysis }, userId: principal.user.id, apiKeyId: principal.apiKeyId, at: now,
    });
    return created.version;
  });
  const list = presentOpportunityAnalysis({
    id, status: "completed", subject, createdAt: now, completedAt: now, projectId: source.projectId, createdBy: { email: principal.user.email }, result: figures, error: null,
  });
  const textBody = asciiJson(list);
  rememberAnalysisBody(id, `${version}:${principal.user.email}`, list.status, textBody);
  return { id, text: textBody };
}

/**
 * The figures of an opportunity list of a visibility analysis the reader (a user, and an API key's
 * workspace or null) can reach, computed and not stored: what POST /opportunity-analyses stores,
 * and what a monitor's weekly digest lists (as its creator). ApiError 404 out of reach, 400 for
 * another kind or no brand, as POST answers them.
 */
export async function opportunityFigures(reach: { user: string; own: string | null }, body: Request) {
  const source = await opportunitySource(reach, body.analysis);
  if (!source) throw notFound("analysis", body.analysis);
  if (source.kind !== "visibility") {
    throw new ApiError("invalid_request", `analysis: ${body.analysis} is ${source.kind === "opportunities" ? "an opportunity list" : `a ${source.kind} analysis`}; opportunities are read from a visibility analysis (va_…)`);
  }
  const entities = source.entities ?? [];
  const brand = brandOf(entities, body.brand);
  const brandRole = entities[brand]!.role;
  const competitors = entities.map((e, i) => ({ e, i })).filter(({ e, i }) => i !== brand && (brandRole === "competitor" || e.role === "competitor")).map(({ i }) => i);
  const excluded = new Set((source.excluded ?? []).filter((x) => x.reason !== "duplicate").map((x) => x.run_id));
  const runs: OpportunityRun[] = (await opportunityRunsOf(body.analysis))
    .filter((r) => !excluded.has(r.id))
    .map((r) => ({
      id: r.id,
      engine: r.engine,
      prompt: r.prompt,
      queries: (r.queries ?? []).filter((q): q is string => typeof q === "string"),
      cited: (r.cited ?? []).filter((u): u is string => typeof u === "string"),
      mask: Number(r.mask),
    }));
  const computed = computeOpportunities(runs, entities, brand, competitors);
  const method: MatchingMethod = source.method === "visibility-v1" ? "visibility-v1" : "visibility-v2";
  const evidence = await evidenceOf(body.analysis, computed.lost, new Map(runs.map((r) => [r.id, r])), entities, method);
  const figures: StoredOpportunities = {
    method: "opportunities-v1",
    analysis_id: body.analysis,
    run_count: source.runCount,
    brand: entities[brand]!.name,
    brand_domains: [...entities[brand]!.domains],
    competitors: competitors.map((c) => entities[c]!.name),
    totals: computed.totals,
    lost_prompts: computed.lost.slice(0, OPPORTUNITY_LIMITS.rows).map((l, i) => ({
      prompt: l.prompt,
      n: l.n,
      brand: l.brand,
      competitor: { name: l.competitor.name, runs_mentioning: l.competitor.runs_mentioning, visibility: l.competitor.visibility, visibility_interval: l.competitor.visibility_interval },
      diff: l.diff,
      diff_interval: l.diff_interval,
      run_ids: l.run_ids.slice(0, OPPORTUNITY_LIMITS.runIds),
      evidence: evidence[i]!,
    })),
    citation_targets: computed.citation_targets,
    own_pages: computed.own_pages,
    query_gaps: computed.query_gaps,
  };
  return { source, figures };
}
