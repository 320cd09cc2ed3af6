// POST /citation-analyses: computed at once from the named runs' stored sources, stored, presented,
// and remembered for the first GET.
import type { z } from "zod";
import type { Principal } from "../auth/principal";
import { currentDb } from "../db/client";
import { textTransaction } from "../db/sql";
import { newId } from "../db/ids";
import { notFound } from "../http/errors";
import { asciiJson, JsonText } from "../http/respond";
import { readProjectContext } from "../projects/read";
import { type CitationAnalysis, type CitationAnalysisRequest } from "../schemas/analyses";
import { domainNameOf } from "../schemas/projects";
import type { EntityContext } from "../visibility/entities";
import { computeCitationAnalysis } from "./citations";
import { observationsOf, runsOfOneProject, subjectOf } from "./runs";
import { presentCitationAnalysis } from "./present";
import type { AnalysisRow } from "./store";
import { rememberAnalysisBody } from "./read";
import { insertAnalysis } from "./store";

type ContextTerms = { brands: string[]; domains: string[] };

/** brands/domains as given win; the project context is used only when both are empty and asked for. */
async function termsFor(body: z.output<typeof CitationAnalysisRequest>, context: EntityContext | null): Promise<ContextTerms> {
  const given = {
    brands: [...new Set((body.brands ?? []).map((b) => b.trim()).filter((b) => b !== ""))],
    domains: [...new Set((body.domains ?? []).map((d) => domainNameOf(d)!))],
  };
  if (given.brands.length || given.domains.length || !body.use_project_context) return given;
  return {
    brands: [...new Set([...(context?.brands ?? []), ...(context?.competitors ?? [])].map((b) => b.trim()).filter((b) => b !== ""))],
    domains: [...new Set([context?.primary_domain, ...(context?.domains ?? [])].filter((d): d is string => !!d))],
  };
}


/** POST /citation-analyses: the analysis computed, stored and presented, with the version of its row. */
async function storeCitationAnalysis(principal: Principal, body: z.output<typeof CitationAnalysisRequest>) {
  const { named, projectId } = await runsOfOneProject(principal, body.ids);
  const project = await readProjectContext(projectId);
  if (!project) throw notFound("project", projectId);
  const terms = await termsFor(body, project.context);
  const observations = await observationsOf(named, terms.brands.length > 0);
  const figures = computeCitationAnalysis(observations, terms);
  const now = new Date();
  const id = newId("citationAnalysis");
  const input = body;
  // The figures (about 2 MiB over 10,000 runs) travel as one text parameter, and the stored JSON
  // is read back as text, so the answer is what GET /analyses/{id} will send.
  const stored = await textTransaction(currentDb(), async (sql) => {
    const created = await insertAnalysis(
      sql,
      {
        id, kind: "citations", status: "completed", workspaceId: project.workspaceId, projectId, subject: subjectOf(observations, "Citations"),
        input: JSON.stringify(input), result: JSON.stringify(figures), runs: figures.run_ids, userId: principal.user.id, apiKeyId: principal.apiKeyId, at: now,
      },
      { readBack: true },
    );
    return { result: created.result!, version: created.version };
  });
  const row: AnalysisRow = {
    id, kind: "citations", status: "completed", projectId, subject: subjectOf(observations, "Citations"),
    input, result: JSON.parse(stored.result), error: null, createdAt: now, completedAt: now, createdBy: { email: principal.user.email }, promptRows: null,
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
  const text = asciiJson(analysis);
  rememberAnalysisBody(analysis.id, `${version}:${principal.user.email}`, analysis.status, text);
  return new JsonText<z.input<typeof CitationAnalysis>>(text);
}
