// Opportunity lists (kind `opportunities`, ids `op_`; decisions.md "Opportunities"): what a stored
// visibility analysis says to do next, with the evidence of every row. zod only.
import { z } from "zod";
import { opportunitySummary, type OpportunityFacts } from "../words/opportunities";
import { RunCharge } from "./billing";
import { DateTime, idOf, idSaidAs, trimmedText } from "./common";
import { defineEndpoint } from "./endpoint";
import { ProjectId } from "./projects";
import { RunError } from "./results";
import { RunId, RunStatus } from "./runs";
import { Summary } from "./summary";

/** Most rows per section, and most run ids a row lists as its evidence (its counts are always whole). */
export const OPPORTUNITY_LIMITS = { rows: 500, runIds: 100, sentences: 3 } as const;

export const OpportunityAnalysisId = idOf("op");

const count = z.int().min(0);
const Interval = z.tuple([z.number(), z.number()]);
const runIds = z
  .array(RunId)
  .max(OPPORTUNITY_LIMITS.runIds)
  .describe(`The runs behind the row, in the visibility analysis's order: the evidence (at most ${OPPORTUNITY_LIMITS.runIds}; the counts count them all).`);

export const OpportunityAnalysisRequest = z
  .strictObject({
    analysis: idSaidAs("a visibility analysis id: va_", ["va", "fa", "ca", "op"]).describe(
      "The visibility analysis (`va_…`) to read. One the caller cannot see answers 404; an analysis of another kind answers 400 naming it.",
    ),
    brand: trimmedText(1, 200)
      .optional()
      .describe(
        "The tracked entity to find opportunities for, by name (any case); default the analysis's first entity of role `brand`. A name the analysis does not track answers 400 naming it. Its competitors are the analysis's other entities of role `competitor` (every other entity when `brand` names a competitor).",
      ),
  })
  .meta({ id: "OpportunityAnalysisRequest", examples: [{ analysis: "va_01JD4M9RZ6XQ7W8V5T3S2R1P0N" }] });

const Rate = {
  runs_mentioning: count.describe("Counted runs of the prompt that name it (a counted mention)."),
  visibility: z.number().describe("runs_mentioning / n, rounded to 4 places."),
  visibility_interval: Interval.describe("The 95% Wilson interval of visibility, rounded to 4 places."),
};

export const Evidence = z
  .object({ run_id: RunId, engine: z.string().nullable(), sentence: z.string().describe("The sentence of the answer naming the competitor (as GET /analyses/{id}/mentions gives it).") })
  .meta({ id: "OpportunityEvidence" });

export const LostPrompt = z
  .object({
    prompt: z.string(),
    n: count.describe("Counted runs of this prompt: the n of both rates."),
    brand: z.object({ name: z.string(), runs: count, ...Rate }),
    competitor: z.object({ name: z.string(), ...Rate }).describe("The competitor whose visibility exceeds the brand's most on this prompt, its interval excluding 0 (ties: the larger lower bound, then the analysis's entity order)."),
    diff: z.number().describe("competitor.visibility − brand.visibility, from the counts, rounded to 4 places."),
    diff_interval: Interval.describe("Newcombe's 95% hybrid score interval of diff, rounded to 4 places; its low end is above 0."),
    run_ids: runIds.describe(`The runs of this prompt that name the competitor and not the brand (at most ${OPPORTUNITY_LIMITS.runIds}).`),
    evidence: z.array(Evidence).max(OPPORTUNITY_LIMITS.sentences).describe(`The competitor's first counted mention in the first ${OPPORTUNITY_LIMITS.sentences} of run_ids.`),
  })
  .meta({ id: "LostPrompt" });

export const CitationTarget = z
  .object({
    url: z.string().describe("The page, as the engines cited it."),
    domain: z.string().describe("Its host, lower-cased, without `www.`."),
    owner: z
      .string()
      .nullable()
      .describe("The competitor whose own domain this is (the brand cannot be cited there; read it for what the engines take from it), or null for a page no tracked competitor owns, the pages the brand can seek to be cited on. Lists stored before this field read null."),
    runs_citing: count.describe("Runs of lost prompts naming a competitor and not the brand that cite it."),
    n: count.describe("Runs of lost prompts naming a competitor and not the brand (totals.target_runs)."),
    competitors: z.array(z.object({ name: z.string(), runs: count.describe("Of runs_citing, those naming it.") })).describe("The competitors those runs name, most runs first."),
    run_ids: runIds,
  })
  .meta({ id: "CitationTarget" });

const OwnCount = {
  runs_citing: count.describe("Counted runs citing the page."),
  cited_not_mentioned: count.describe("Of runs_citing, those that do not name the brand: the engine used the brand's page and did not say the brand's name."),
};

export const OwnPage = z
  .object({
    url: z.string(),
    domain: z.string(),
    n: count.describe("Counted runs of the visibility analysis (totals.runs)."),
    ...OwnCount,
    by_engine: z.array(z.object({ engine: z.string(), ...OwnCount })).describe("By engine, most runs citing first."),
    by_prompt: z.array(z.object({ prompt: z.string(), ...OwnCount })).describe("By prompt, most runs citing first."),
    run_ids: runIds,
  })
  .meta({ id: "OwnPage" });

export const QueryGap = z
  .object({
    query: z.string().describe("The search query, lower-cased, runs of spaces made one, trimmed: queries that differ only so are one."),
    engine: z.string(),
    runs: count.describe("Runs of lost prompts on this engine that ran it."),
    n: count.describe("Counted runs of lost prompts on this engine."),
    prompts: z.array(z.string()).describe("The lost prompts it was run for."),
    run_ids: runIds,
  })
  .meta({ id: "QueryGap" });

export const OpportunityTotals = z
  .object({
    runs: count.describe("Counted runs of the visibility analysis."),
    prompts: count.describe("Distinct prompts among them."),
    lost_prompts: count,
    lost_runs: count.describe("Counted runs of the lost prompts."),
    target_runs: count.describe("Of lost_runs, those naming a competitor and not the brand: where citation_targets come from."),
    own_runs_citing: count.describe("Counted runs citing any page of the brand's domains."),
    own_cited_not_mentioned: count.describe("Of own_runs_citing, those not naming the brand."),
  })
  .meta({ id: "OpportunityTotals" });

const exampleFacts = {
  brand: "HubSpot",
  brand_domains: ["hubspot.com"],
  competitors: ["Pipedrive", "Zoho CRM"],
  totals: { runs: 12, prompts: 3, lost_prompts: 1, lost_runs: 4, target_runs: 4, own_runs_citing: 3, own_cited_not_mentioned: 1 },
  lost_prompts: [
    {
      prompt: "best crm for small sales teams",
      n: 4,
      brand: { name: "HubSpot", runs: 4, runs_mentioning: 0, visibility: 0, visibility_interval: [0, 0.4899] as [number, number] },
      competitor: { name: "Pipedrive", runs_mentioning: 4, visibility: 1, visibility_interval: [0.5101, 1] as [number, number] },
      diff: 1,
      diff_interval: [0.3072, 1] as [number, number],
      run_ids: ["dr_01JD4M9RZ6XQ7W8V5T3S2R1P0A", "dr_01JD4M9RZ6XQ7W8V5T3S2R1P0B", "dr_01JD4M9RZ6XQ7W8V5T3S2R1P0C", "dr_01JD4M9RZ6XQ7W8V5T3S2R1P0D"],
      evidence: [{ run_id: "dr_01JD4M9RZ6XQ7W8V5T3S2R1P0A", engine: "chatgpt", sentence: "Pipedrive is the easiest pipeline tool for small sales teams." }],
    },
  ],
  citation_targets: [
    {
      url: "https://www.g2.com/categories/crm",
      domain: "g2.com",
      owner: null,
      runs_citing: 3,
      n: 4,
      competitors: [{ name: "Pipedrive", runs: 3 }],
      run_ids: ["dr_01JD4M9RZ6XQ7W8V5T3S2R1P0A", "dr_01JD4M9RZ6XQ7W8V5T3S2R1P0B", "dr_01JD4M9RZ6XQ7W8V5T3S2R1P0C"],
    },
  ],
  own_pages: [
    {
      url: "https://blog.hubspot.com/sales/crm",
      domain: "blog.hubspot.com",
      n: 12,
      runs_citing: 3,
      cited_not_mentioned: 1,
      by_engine: [{ engine: "claude", runs_citing: 2, cited_not_mentioned: 1 }, { engine: "chatgpt", runs_citing: 1, cited_not_mentioned: 0 }],
      by_prompt: [{ prompt: "crm with free plan", runs_citing: 3, cited_not_mentioned: 1 }],
      run_ids: ["dr_01JD4M9RZ6XQ7W8V5T3S2R1P0E", "dr_01JD4M9RZ6XQ7W8V5T3S2R1P0F", "dr_01JD4M9RZ6XQ7W8V5T3S2R1P0G"],
    },
  ],
  query_gaps: [{ query: "best crm small sales team", engine: "chatgpt", runs: 2, n: 2, prompts: ["best crm for small sales teams"], run_ids: ["dr_01JD4M9RZ6XQ7W8V5T3S2R1P0A", "dr_01JD4M9RZ6XQ7W8V5T3S2R1P0B"] }],
};

export const exampleOpportunityAnalysis = {
  id: "op_01JD4M9RZ6XQ7W8V5T3S2R1P0Q",
  kind: "opportunities" as const,
  status: "completed" as const,
  subject: "Opportunities for HubSpot: best crm for small sales teams (+2 more prompts)",
  summary: opportunitySummary(exampleFacts as OpportunityFacts),
  run_count: 12,
  created_at: "2026-11-20T09:30:00.125Z",
  completed_at: "2026-11-20T09:30:00.125Z",
  project_id: "pr_01JD4M9RZ6XQ7W8V5T3S2R1P0K",
  created_by: "ana@example.com",
  error: null,
  method: "opportunities-v1" as const,
  analysis_id: "va_01JD4M9RZ6XQ7W8V5T3S2R1P0N",
  ...exampleFacts,
  charge: null,
};

export const OpportunityAnalysis = z
  .object({
    id: OpportunityAnalysisId,
    kind: z.literal("opportunities"),
    status: RunStatus.describe("Always `completed`: an opportunity list is computed when it is asked for."),
    subject: z.string(),
    summary: Summary.describe(
      "What to read first, in plain words: how many prompts competitors win beyond chance, the widest gap with its interval, the page most cited where a competitor is named and the brand is not, how often the brand's own pages are cited without its name, and the search run most often on the lost prompts. See Summary.",
    ),
    run_count: count.describe("Runs of the visibility analysis, excluded ones included."),
    created_at: DateTime,
    completed_at: DateTime.nullable(),
    project_id: ProjectId.nullable().describe("The project of its runs; null on a shared page."),
    created_by: z.string().nullable().describe("Null on a shared page."),
    error: RunError.nullable(),
    method: z.literal("opportunities-v1").describe("How the sections are found (docs/decisions.md \"Opportunities\")."),
    analysis_id: idOf("va").describe("The visibility analysis read."),
    brand: z.string().describe("The entity the opportunities are for."),
    brand_domains: z.array(z.string()).describe("Its domains, as the visibility analysis tracked them: what makes a page its own."),
    competitors: z.array(z.string()).describe("The entities counted as its competitors."),
    totals: OpportunityTotals,
    lost_prompts: z.array(LostPrompt).describe("Prompts where a competitor is named more often than the brand and Newcombe's 95% interval of the difference excludes 0; by the interval's low end, highest first, then diff, then prompt."),
    citation_targets: z.array(CitationTarget).max(OPPORTUNITY_LIMITS.rows).describe("Pages cited in runs of lost prompts that name a competitor and not the brand, the brand's own domains left out; most runs citing first, then url."),
    own_pages: z.array(OwnPage).max(OPPORTUNITY_LIMITS.rows).describe("The brand's pages cited in any counted run; most runs citing first, then url."),
    query_gaps: z.array(QueryGap).max(OPPORTUNITY_LIMITS.rows).describe("The searches engines ran on lost prompts, per engine; most runs first, then engine, then query."),
    charge: RunCharge.nullable().describe("Always null: read from stored figures and runs, no model is called and nothing is charged."),
  })
  .meta({ id: "OpportunityAnalysis", examples: [exampleOpportunityAnalysis] });


export const createOpportunityAnalysis = defineEndpoint({
  method: "POST", path: "/opportunity-analyses", operationId: "createOpportunityAnalysis",
  summary: "What to do next from a visibility analysis: prompts lost to competitors, pages to be cited on, own pages, searches; finished at once",
  description:
    "Read from a stored visibility analysis and its runs (no model is called, nothing is charged) and stored, so GET /analyses/{id} answers it unchanged and it can be shared like any analysis. Sections: `lost_prompts` (a competitor named more often than the brand, Newcombe's 95% interval of the difference excluding 0), `citation_targets` (pages cited where a competitor is named and the brand is not, its own domains left out), `own_pages` (the brand's pages cited, and how often without its name), `query_gaps` (the searches engines ran on lost prompts). Every row carries its n and its evidence (run ids; the competitor's sentences for lost prompts; the cited URL). An analysis the caller cannot see answers 404 as a missing one; one of another kind, or a `brand` it does not track, answers 400 naming it.",
  tags: ["Analyses"], auth: "bearer", body: OpportunityAnalysisRequest, response: OpportunityAnalysis, status: 201,
  errors: ["not_found"],
});

export type OpportunityAnalysis = z.infer<typeof OpportunityAnalysis>;
export type OpportunityAnalysisRequest = z.infer<typeof OpportunityAnalysisRequest>;
