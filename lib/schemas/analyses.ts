// Analyses (spec 2.6, 4.2–4.4; decisions.md "Citation analyses"): objects derived from runs.
// Citation analyses are computed at once from stored results; GET /analyses/{id} answers any
// analysis as a union discriminated by `kind`. zod only.
import { z } from "zod";
import { RunCharge } from "./billing";
import { DateTime, cursorParam, idOf, limitParam, listOf, trimmedText, waitParam } from "./common";
import { defineEndpoint } from "./endpoint";
import { exampleAnalysisSummary, exampleCitationAnalysis, exampleCitationAnalysisRequest, exampleQuestionsAnalysis } from "./examples";
import { DomainName, ProjectId } from "./projects";
import { RunError } from "./results";
import { QuestionsAnalysis } from "./questions";
import { ComparisonAnalysis } from "./comparison";
import { RunId, RunStatus } from "./runs";
import { MENTION_CSV_COLUMNS, MentionPage, MentionsQuery, VisibilityAnalysis, VisibilityAnalysisId } from "./visibility";
import { OpportunityAnalysis } from "./opportunities";
import { WorkspaceId } from "./workspaces";

/** Bounds of a citation analysis request (docs/decisions.md "Citation analyses"). */
export const CITATION_LIMITS = { ids: 10_000, runs: 20_000, terms: 50, domains: 50 } as const;

export const AnalysisKind = z.enum(["questions", "citations", "visibility", "comparison", "opportunities"]).meta({
  id: "AnalysisKind",
  description:
    "`questions`: questions generated for a topic. `citations`: what a set of runs cited. `visibility`: how often a set of runs named each brand and competitor, in what place. `comparison`: how far two engines' answers to the same prompts are apart. `opportunities`: what a visibility analysis says to do next.",
});

export const AnalysisId = idOf("fa", "ca", "va", "cm", "op");
export const CitationAnalysisId = idOf("ca");

const count = z.int().min(0);
const Interval = z
  .tuple([z.number(), z.number()])
  .describe("[low, high]: the 95% Wilson score interval of the rate over runs, rounded to 4 places; [0, 1] over no runs. An addition to the spec.");

export const CitationAnalysisRequest = z
  .strictObject({
    ids: z
      .array(z.string())
      .min(1, { error: "must have at least 1 id" })
      .max(CITATION_LIMITS.ids, { error: `must have at most ${CITATION_LIMITS.ids} ids` })
      .describe(
        `Run ids (\`dr_…\`), batch ids (\`rq_…\`) and fanout ids (\`fo_…\`), 1 to ${CITATION_LIMITS.ids}; a batch or a fanout contributes all its runs. Any id the caller cannot see (missing, foreign, malformed) answers 404 naming it; runs of more than one project answer 400.`,
      ),
    brands: z
      .array(trimmedText(1, 200))
      .max(CITATION_LIMITS.terms, { error: `must have at most ${CITATION_LIMITS.terms} terms` })
      .optional()
      .describe("Terms counted in answer text (whole words, any case)."),
    domains: z
      .array(DomainName)
      .max(CITATION_LIMITS.domains, { error: `must have at most ${CITATION_LIMITS.domains} domains` })
      .optional()
      .describe("Domains to report coverage for; subdomains count. A URL is cut to its host, lower-cased."),
    use_project_context: z
      .boolean()
      .optional()
      .describe(
        "With no brands and no domains given, use the runs' project domains (primary_domain and domains) and its brands and competitors as terms. What was used is recorded in `brands` and `target_domains`.",
      ),
  })
  .meta({ id: "CitationAnalysisRequest", examples: [exampleCitationAnalysisRequest] });

export const CitationTotals = z
  .object({
    runs: count.describe("Runs counted (those not in excluded_runs)."),
    prompts: count.describe("Distinct prompt texts."),
    engines: count,
    citations: count.describe("Over cited sources, the sum of max(citation_count, 1)."),
    unique_cited_urls: count,
    unique_cited_domains: count,
    sources_observed: count.describe("Every source any answer cited or listed, one per run and page."),
    retrieved_not_cited: count.describe("Sources seen in search results or retrieval but not cited, one per run and page."),
    citation_status_unknown: count.describe("Sources whose citation status the provider did not expose."),
    unresolved_sources: count.describe("Redirect URLs that could not be resolved."),
    runs_without_citation_marks: count,
  })
  .meta({ id: "CitationTotals" });

export const CitationOverlap = z
  .object({
    engines: count,
    domains_by_engine_count: z.record(z.string(), count).describe('How many cited domains were cited by 1, 2, … engines ("1" to the engine count, 0 included).'),
    pages_by_engine_count: z.record(z.string(), count).describe("The same for pages."),
    domains_cited_by_every_engine: z.array(z.string()),
    pages_cited_by_every_engine: z.array(z.string()),
  })
  .meta({ id: "CitationOverlap" });

export const EngineSummary = z
  .object({
    engine: z.string(),
    runs: count,
    runs_with_citations: count,
    citations: count,
    unique_cited_domains: count,
    runs_without_citation_marks: count,
  })
  .meta({ id: "EngineSummary" });

export const DomainRow = z
  .object({
    domain: z.string(),
    citations: count,
    pages: count.describe("Distinct cited pages on the domain."),
    runs: count.describe("Runs that cited it."),
    prompts: count.describe("Prompts with a run that cited it."),
    engines: z.array(z.string()).describe("Engines that cited it."),
    seen_not_cited: count.describe("Runs where it was seen in search results or retrieval without being cited."),
  })
  .meta({ id: "DomainRow", description: "A registered domain cited or seen; sorted by citations, then runs, descending, then by name." });

export const PageRow = z
  .object({
    url: z.string(),
    domain: z.string().nullable(),
    citations: count,
    runs: count.describe("Runs that cited it."),
    prompts: count,
    engines: z.array(z.string()),
    seen_not_cited: count.describe("Runs where it was seen in search results or retrieval without being cited."),
  })
  .meta({ id: "PageRow", description: "A page (source url) cited or seen; sorted by citations, then runs, descending, then by url." });

export const SeenNotCited = z
  .object({
    url: z.string(),
    runs: count.describe("Runs where it was seen in search results or retrieval and not cited."),
    engines: z.array(z.string()),
    domain: z.string().nullable(),
  })
  .meta({ id: "SeenNotCited" });

export const TextualMention = z
  .object({
    term: z.string(),
    runs_mentioning: count,
    runs: count,
    prompts_mentioning: count,
    prompts: count,
    occurrences: count,
    runs_mentioning_by_engine: z.record(z.string(), count),
  })
  .meta({
    id: "TextualMention",
    description:
      "A naive case-insensitive whole-word match in answer text (Unicode-aware: `Café` matches `café`; `Acme` does not match `Acmeville`), so an ordinary-word brand or a differently written brand is miscounted.",
  });

export const EngineCoverage = z
  .object({
    engine: z.string(),
    runs: count,
    cited_runs: count,
    unknown_runs: count,
    cited_rate: z.number().describe("cited_runs / runs, rounded to 4 places; a floor when unknown_runs > 0. An addition to the spec."),
    cited_rate_interval: Interval,
  })
  .meta({ id: "EngineCoverage" });

export const DomainCoverage = z
  .object({
    domain: z.string(),
    runs: count,
    cited_runs: count.describe("Runs that cited a page of the domain or a subdomain."),
    unknown_runs: count.describe("Runs that did not cite it but whose citations were not exposed (no citation marks, or a source of unknown citation status)."),
    cited_rate: z
      .number()
      .describe("cited_runs / runs, rounded to 4 places. A floor when unknown_runs > 0: those runs may have cited it without showing it."),
    cited_rate_interval: Interval,
    prompts: count,
    cited_prompts: count,
    citations: count,
    pages: z.array(z.string()).describe("Its cited pages, by citations descending."),
    by_engine: z.array(EngineCoverage),
    prompts_cited: z.array(z.string()),
    prompts_seen_not_cited: z.array(z.string()).describe("Prompts where it appeared in results but was never cited."),
    prompts_absent: z.array(z.string()).describe("Prompts where it was neither cited nor seen."),
  })
  .meta({ id: "DomainCoverage" });

export const ExclusionReason = z.enum(["unfinished", "failed", "not_a_prompt_run", "duplicate"]).meta({
  id: "ExclusionReason",
  description: "`unfinished` (queued or running), `failed`, `not_a_prompt_run` (an audit or questions run), `duplicate` (named twice, directly or through a batch).",
});

export const ExcludedRun = z.object({ run_id: RunId, reason: ExclusionReason }).meta({ id: "ExcludedRun" });

export const CountryCitations = z
  .object({
    country: z.string().nullable().describe("The searcher's country the runs were made for (ISO 3166-1 alpha-2); null for runs without a location."),
    runs: count.describe("Counted runs made for this country."),
    prompts: count.describe("Distinct prompt texts among them."),
    engines: z.array(z.string()),
    citations: count.describe("Over their cited sources, the sum of max(citation_count, 1)."),
    unique_cited_domains: count,
    domains: z
      .array(z.object({ domain: z.string(), citations: count, runs: count.describe("Runs of this country that cited it.") }))
      .describe("The domains these runs cited, by citations, then runs, descending, then by name."),
  })
  .meta({ id: "CountryCitations" });

export const CitationAnalysis = z
  .object({
    id: CitationAnalysisId,
    kind: z.literal("citations"),
    status: RunStatus.describe("Always `completed`: a citation analysis is computed when it is asked for."),
    subject: z.string(),
    run_ids: z.array(RunId).describe("Every run the ids named, once each, in the order named (batches in run order); excluded ones too."),
    created_at: DateTime,
    completed_at: DateTime.nullable(),
    project_id: ProjectId.nullable().describe("The project of its runs; null on a shared page."),
    created_by: z.string().nullable().describe("Null on a shared page."),
    error: RunError.nullable(),
    method: z.string().describe("`stored_results_v1`."),
    brands: z.array(z.string()).describe("The terms counted: as given, or from the project context."),
    target_domains: z.array(z.string()).describe("The domains covered: as given, or from the project context."),
    totals: CitationTotals,
    engines: z.array(EngineSummary),
    domains: z.array(DomainRow),
    pages: z.array(PageRow),
    retrieved_not_cited: z.array(SeenNotCited).describe("By runs descending, then url."),
    textual_mentions: z.array(TextualMention),
    domain_coverage: z.array(DomainCoverage),
    by_country: z
      .array(CountryCitations)
      .optional()
      .describe(
        "The counted runs grouped by the searcher's country they were made for, by country code, runs without a location last: every counted run is in one row, so runs and citations add up to the totals. Absent on analyses made before markets existed.",
      ),
    overlap: CitationOverlap,
    excluded_runs: z.array(ExcludedRun),
    charge: RunCharge.nullable().describe("Always null: citation analyses are free."),
  })
  .meta({ id: "CitationAnalysis", examples: [exampleCitationAnalysis] });

/** Every kind of analysis GET /analyses/{id} answers, discriminated by `kind`. */
const analysisMembers = [QuestionsAnalysis, CitationAnalysis, VisibilityAnalysis, ComparisonAnalysis, OpportunityAnalysis] as const;
export const Analysis = z
  .discriminatedUnion("kind", analysisMembers)
  .meta({ id: "Analysis", description: "A questions, citation, visibility, comparison or opportunities analysis, discriminated by `kind`.", examples: [exampleQuestionsAnalysis, exampleCitationAnalysis] });

export const AnalysisSummary = z
  .object({
    id: AnalysisId,
    kind: AnalysisKind,
    status: RunStatus,
    subject: z.string(),
    run_count: count,
    created_at: DateTime,
    project_id: ProjectId.nullable(),
    created_by: z.string().nullable(),
    completed_at: DateTime.nullable(),
  })
  .meta({ id: "AnalysisSummary", examples: [exampleAnalysisSummary] });

export const AnalysisList = listOf(AnalysisSummary, "AnalysisList", { description: "Newest first.", examples: [{ items: [exampleAnalysisSummary], next_cursor: null }] });

export const AnalysesQuery = z.object({
  kind: AnalysisKind.optional().describe("Only analyses of this kind."),
  project: ProjectId.optional().describe("Only this project's analyses."),
  workspace: WorkspaceId.optional().describe("Only this workspace's analyses."),
  limit: limitParam,
  cursor: cursorParam,
});

export const createCitationAnalysis = defineEndpoint({
  method: "POST", path: "/citation-analyses", operationId: "createCitationAnalysis", summary: "What a set of runs cited, by engine, domain and page; finished at once",
  description:
    "The runs are named by run, batch (`rq_…`) or fanout (`fo_…`) ids; a batch or fanout contributes all its runs. Computed from stored results (no model is called, nothing is charged) and stored, so GET /analyses/{id} answers it unchanged. Runs that cannot count are listed in excluded_runs.",
  tags: ["Analyses"], auth: "bearer", body: CitationAnalysisRequest, response: CitationAnalysis, status: 201,
  errors: ["not_found"],
});
export const listAnalyses = defineEndpoint({
  method: "GET", path: "/analyses", operationId: "listAnalyses", summary: "Analyses, newest first",
  description:
    "Questions, citation, visibility and comparison analyses across the workspaces the credential can act in, newest first, paginated with `cursor`; `kind`, `project` and `workspace` narrow the list.",
  tags: ["Analyses"], auth: "bearer", query: AnalysesQuery, response: AnalysisList, status: 200,
});
export const getAnalysis = defineEndpoint({
  method: "GET", path: "/analyses/{analysis_id}", operationId: "getAnalysis", summary: "One analysis, of any kind",
  description:
    "`wait` holds until the analysis has finished (a questions analysis while its run generates); a citation, visibility or comparison analysis is finished when made, so it answers at once. " +
    "A citation, visibility, comparison or opportunities analysis is answered, here and by the POST that made it, as ASCII JSON: a character outside ASCII (a name, the summary's dashes) is written as a `\\u` escape, the same string to any JSON parser.",
  tags: ["Analyses"], auth: "bearer", params: z.object({ analysis_id: AnalysisId }), query: z.object({ wait: waitParam }), response: Analysis, status: 200,
});

export const listMentions = defineEndpoint({
  method: "GET", path: "/analyses/{analysis_id}/mentions", operationId: "listMentions",
  summary: "The mentions behind a visibility analysis's figures, with offsets and sentences",
  description:
    "Every mention the analysis found, counted or not (with its reason), by run in the analysis's order then by offset; `entity`, `engine`, `run_id` and `counted` narrow them. Paged with `limit` and `cursor`, or with `format=csv` every matching mention at once as text/csv. Only a visibility analysis has mentions: the path takes a `va_` id, and a `fa_` or `ca_` id answers 404 (`No such visibility analysis`), as any id in a path that names no object of the path's kind does.",
  tags: ["Analyses"], auth: "bearer", params: z.object({ analysis_id: VisibilityAnalysisId }), query: MentionsQuery, response: MentionPage, status: 200,
  alternative: { mediaType: "text/csv", description: `With format=csv: a header line (${MENTION_CSV_COLUMNS.join(",")}), then one line per mention (RFC 4180).` },
});

export type CitationAnalysis = z.infer<typeof CitationAnalysis>;
export type CitationAnalysisRequest = z.infer<typeof CitationAnalysisRequest>;
