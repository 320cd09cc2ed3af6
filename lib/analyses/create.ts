// POST /citation-analyses: computed at once from the named runs' stored sources, stored, presented,
// and remembered for the first GET.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { db } from "../db/client";
import { newId } from "../db/ids";
import { JsonText } from "../http/respond";
import { type CitationAnalysis, type CitationAnalysisRequest } from "../schemas/analyses";
import { domainNameOf } from "../schemas/projects";
import { computeCitationAnalysis } from "./citations";
import { observationsOf, runsOfOneProject, subjectOf } from "./runs";
import { presentCitationAnalysis, type AnalysisRow } from "./present";
import { rememberAnalysisBody } from "./read";

type ContextTerms = { brands: string[]; domains: string[] };

/** brands/domains as given win; the project context is used only when both are empty and asked for. */
async function termsFor(body: z.output<typeof CitationAnalysisRequest>, projectId: string): Promise<ContextTerms> {
  const given = {
    brands: [...new Set((body.brands ?? []).map((b) => b.trim()).filter((b) => b !== ""))],
    domains: [...new Set((body.domains ?? []).map((d) => domainNameOf(d)!))],
  };
  if (given.brands.length || given.domains.length || !body.use_project_context) return given;
  const project = await db().project.findUniqueOrThrow({ where: { id: projectId }, select: { context: true } });
  const context = (project.context ?? {}) as { primary_domain?: string | null; domains?: string[]; brands?: string[]; competitors?: string[] };
  return {
    brands: [...new Set([...(context.brands ?? []), ...(context.competitors ?? [])].map((b) => b.trim()).filter((b) => b !== ""))],
    domains: [...new Set([context.primary_domain, ...(context.domains ?? [])].filter((d): d is string => !!d))],
  };
}


/** POST /citation-analyses: the analysis computed, stored and presented, with the version of its row. */
async function storeCitationAnalysis(principal: Principal, body: z.output<typeof CitationAnalysisRequest>) {
  const { named, projectId } = await runsOfOneProject(principal, body.ids);
  const terms = await termsFor(body, projectId);
  const observations = await observationsOf(named, terms.brands.length > 0);
  const figures = computeCitationAnalysis(observations, terms);
  const project = await db().project.findUniqueOrThrow({ where: { id: projectId }, select: { workspaceId: true } });
  const now = new Date();
  const id = newId("citationAnalysis");
  const input = body;
  // Written with SQL: the figures (about 2 MiB over 10,000 runs) travel as one text parameter, and
  // the stored JSON is read back as text, so the answer is what GET /analyses/{id} will send.
  const stored = await db().$transaction(async (tx) => {
    const [created] = await tx.$queryRawUnsafe<{ result: string; version: string }[]>(
      `INSERT INTO "analyses" ("id", "kind", "status", "workspace_id", "project_id", "subject", "input", "result",
                               "created_by_user_id", "api_key_id", "created_at", "completed_at")
       VALUES ($1, 'citations', 'completed', $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8,
               ($9::timestamptz AT TIME ZONE 'UTC'), ($9::timestamptz AT TIME ZONE 'UTC'))
       RETURNING "result"::text AS "result", xmin::text AS "version"`,
      id, project.workspaceId, projectId, subjectOf(observations, "Citations"), JSON.stringify(input), JSON.stringify(figures),
      principal.user.id, principal.apiKeyId, now.toISOString(),
    );
    // One statement whatever the number of runs (createMany sends three parameters a row).
    await tx.$executeRawUnsafe(
      `INSERT INTO "analysis_runs" ("analysis_id", "run_id", "position")
       SELECT $1, r.id, (r.ord - 1)::integer FROM unnest($2::text[]) WITH ORDINALITY AS r(id, ord)`,
      id,
      figures.run_ids,
    );
    return created!;
  });
  const row: AnalysisRow = {
    id, kind: "citations", status: "completed", projectId, subject: subjectOf(observations, "Citations"),
    input, result: JSON.parse(stored.result), error: null, createdAt: now, completedAt: now, createdBy: { email: principal.user.email },
  };
  return { analysis: presentCitationAnalysis(row), version: stored.version };
}

export async function createCitationAnalysis(principal: Principal, body: z.output<typeof CitationAnalysisRequest>) {
  return (await storeCitationAnalysis(principal, body)).analysis;
}

/**
 * POST /citation-analyses as the API sends it: the body serialised once, and remembered for
 * GET /analyses/{id} under the version the statement there will read (ANALYSIS_BY_ID).
 */
export async function createCitationAnalysisBody(principal: Principal, body: z.output<typeof CitationAnalysisRequest>) {
  const { analysis, version } = await storeCitationAnalysis(principal, body);
  const text = JSON.stringify(analysis);
  rememberAnalysisBody(analysis.id, `${version}:${principal.user.email}`, analysis.status, text);
  return new JsonText<z.input<typeof CitationAnalysis>>(text);
}
