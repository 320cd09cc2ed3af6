// Comparison analyses (decisions.md "Comparison analyses"; docs/decisions.md "Comparison
// analyses"): how far two engines' answers to the same prompts are apart (chatgpt's API and the
// ChatGPT app, Gemini and Google AI Mode, any pair): the brands each names, with the difference
// and its Newcombe interval, the pages each cites, the searches each runs, the order each names
// the brands in. Kind `comparison`, ids `cm_`. zod only. POST /comparison-analyses is declared
// here; GET /analyses and GET /analyses/{id} answer the analysis through the union in ./analyses.ts.
import { z } from "zod";
import { DateTime, EngineId, idOf } from "./common";
import { defineEndpoint } from "./endpoint";
import { ProjectId } from "./projects";
import { RunError } from "./results";
import { RunId, RunStatus } from "./runs";
import { Summary } from "./summary";
import { Entity, EntityRole, VisibilityAnalysisRequest } from "./visibility";
import { comparisonSummary } from "../words/comparison";

export const ComparisonAnalysisId = idOf("cm");

/** How many domains `only_a` and `only_b` list at most. */
export const ONLY_DOMAINS = 20;
/** The persistence of rank-biased overlap (decisions.md: p = 0.9). */
export const RBO_P = 0.9;

const count = z.int().min(0);
const rate = z.number().min(0).max(1);
const RateInterval = z
  .tuple([z.number(), z.number()])
  .describe("[low, high]: the 95% Wilson score interval of the rate over the side's runs, rounded to 4 places; [0, 1] over no runs.");
const MeanInterval = (what: string) =>
  z
    .tuple([z.number(), z.number()])
    .nullable()
    .describe(
      `[low, high]: the 95% Student's t interval of the mean ${what} over the prompts that have one (\`prompts\`), mean ± t(0.975, n − 1) · s / √n, clipped to 0..1, rounded to 4 places; [0, 1] for a single prompt; null for none.`,
    );

const visibilityShape = VisibilityAnalysisRequest.shape;

export const ComparisonAnalysisRequest = z
  .strictObject({
    ids: visibilityShape.ids,
    a: EngineId.describe("The first engine (the baseline): its runs among those the ids name are side a."),
    b: EngineId.describe("The second engine, compared with a: every `diff` is b − a. It must differ from `a`."),
    entities: visibilityShape.entities,
    use_project_context: visibilityShape.use_project_context,
  })
  .superRefine((body, ctx) => {
    if (body.a === body.b) ctx.addIssue({ code: "custom", path: ["b"], message: `must differ from a (both are ${body.a}): a comparison needs two engines` });
    if (body.entities === undefined && body.use_project_context === false) {
      ctx.addIssue({ code: "custom", path: ["entities"], message: "must be given when use_project_context is false" });
    }
    const seen = new Map<string, number>();
    body.entities?.forEach((entity, i) => {
      const key = entity.name.trim().normalize("NFC").toLowerCase();
      const first = seen.get(key);
      if (first !== undefined) ctx.addIssue({ code: "custom", path: ["entities", i, "name"], message: `repeats entities[${first}].name` });
      else seen.set(key, i);
    });
  })
  .meta({
    id: "ComparisonAnalysisRequest",
    examples: [
      {
        ids: ["fo_01M8A2Q6W1S2ZD2R6X3V4B5N7M"],
        a: "chatgpt",
        b: "chatgpt_app",
        entities: [
          { name: "Acme CRM", role: "brand", aliases: ["Acme"], domains: ["acme.example"] },
          { name: "HubSpot", role: "competitor", aliases: ["HubSpot CRM"], domains: ["hubspot.com"] },
        ],
      },
    ],
  });

export const ComparisonExclusionReason = z
  .enum(["unfinished", "failed", "not_a_prompt_run", "duplicate", "no_answer", "other_engine", "one_engine_only"])
  .meta({
    id: "ComparisonExclusionReason",
    description:
      "As for visibility analyses: `unfinished` (queued or running), `failed`, `not_a_prompt_run`, `duplicate` (named twice), `no_answer` (completed with an empty answer, such as Google showing no AI Overview: `result.shown` false). And: `other_engine` (a run of neither a nor b), `one_engine_only` (its prompt was answered by one of the two engines only: see excluded_prompts).",
  });

export const ComparisonExcludedRun = z.object({ run_id: RunId, reason: ComparisonExclusionReason }).meta({ id: "ComparisonExcludedRun" });

export const ExcludedPrompt = z
  .object({
    prompt: z.string().describe("The prompt's text less any [[sim:…]] directive, trimmed: what prompts are matched by."),
    engine: EngineId.describe("The one engine of the two that answered it."),
    runs: count.describe("That engine's answered runs of it (each listed in excluded_runs as one_engine_only)."),
  })
  .meta({ id: "ExcludedPrompt", description: "A prompt only one of the two engines answered: not compared, its runs left out." });

export const ComparisonSide = z
  .object({
    runs: count.describe("The engine's runs counted (of the prompts compared): the n of visibility."),
    runs_mentioning: count.describe("Those with at least one counted mention of the entity (the visibility analysis's matching, visibility-v2)."),
    visibility: rate.describe("runs_mentioning / runs, rounded to 4 places; 0 over no runs."),
    visibility_interval: RateInterval,
  })
  .meta({ id: "ComparisonSide" });

export const ComparisonRow = z
  .object({
    name: z.string(),
    role: EntityRole,
    a: ComparisonSide,
    b: ComparisonSide,
    diff: z.number().min(-1).max(1).describe("b's visibility − a's, rounded to 4 places (0.25 is 25 points more often named on b)."),
    diff_interval: z
      .tuple([z.number(), z.number()])
      .describe("[low, high]: Newcombe's hybrid score interval of the difference (method 10) at `confidence` (1 − 0.05/m, Bonferroni over the m entities), rounded to 4 places."),
    significant: z.boolean().describe("Whether diff_interval excludes 0: the engines name it at different rates beyond chance."),
  })
  .meta({ id: "ComparisonRow", description: "One entity's visibility on each engine and how far apart they are." });

export const OnlyDomain = z
  .object({ domain: z.string().describe("A registrable domain (www.g2.com and g2.com are g2.com)."), runs_citing: count.describe("The engine's compared runs citing a page of it.") })
  .meta({ id: "OnlyDomain" });

export const ComparisonSources = z
  .object({
    jaccard: rate.nullable().describe("The mean over prompts of each prompt's jaccard (the Jaccard index of the registrable domains a and b cited for it), rounded to 4 places; null when no prompt has one."),
    jaccard_interval: MeanInterval("Jaccard index"),
    prompts: count.describe("Prompts with a jaccard (either engine cited a page): the n of the mean."),
    only_a: z.array(OnlyDomain).max(ONLY_DOMAINS).describe(`The ${ONLY_DOMAINS} domains a cited most (by runs citing, then name) that b never cited in the prompts compared.`),
    only_b: z.array(OnlyDomain).max(ONLY_DOMAINS).describe(`The ${ONLY_DOMAINS} domains b cited most that a never cited.`),
  })
  .meta({ id: "ComparisonSources", description: "How alike the pages the two engines cite are." });

export const ComparisonSearches = z
  .object({
    overlap: rate.nullable().describe("The mean over prompts of query_overlap (the share of a's distinct queries that b also ran, compared lower-cased with spaces collapsed), rounded to 4 places; null when a ran no query for any prompt."),
    overlap_interval: MeanInterval("query overlap"),
    prompts: count.describe("Prompts where a ran a query: the n of the mean."),
  })
  .meta({ id: "ComparisonSearches", description: "How alike the searches the two engines run are." });

export const ComparisonOrder = z
  .object({
    rbo: rate.nullable().describe(`The mean over prompts of each prompt's rbo, rounded to 4 places; null when no prompt has one.`),
    rbo_interval: MeanInterval("rank-biased overlap"),
    prompts: count.describe("Prompts with an rbo: the n of the mean."),
    pairs: count.describe("Run pairs (a run of a with a run of b, of one prompt) where both named a tracked entity: what the prompts' rbo average."),
  })
  .meta({
    id: "ComparisonOrder",
    description: `How alike the order the two engines name the tracked entities in is: rank-biased overlap (RBO_ext, Webber, Moffat and Zobel 2010, eq. 32; p = ${RBO_P}) of each run's first-mention order: 1 for the same order, 0 for no entity in common.`,
  });

export const PromptEntity = z
  .object({
    name: z.string(),
    a: rate.describe("Visibility on a for this prompt (runs_a the n)."),
    b: rate.describe("Visibility on b for this prompt (runs_b the n)."),
    diff: z.number().min(-1).max(1).describe("b − a, rounded to 4 places; no interval or significance per prompt (too few runs, too many tests)."),
  })
  .meta({ id: "PromptEntity" });

export const PromptComparison = z
  .object({
    prompt: z.string().describe("The prompt's text less any [[sim:…]] directive, trimmed."),
    runs_a: count,
    runs_b: count,
    jaccard: rate.nullable().describe("|A ∩ B| / |A ∪ B| of the registrable domains a's runs and b's runs cited for it (each the union over its runs), rounded to 4 places; null when neither cited a page."),
    query_overlap: rate
      .nullable()
      .describe("The share of a's distinct queries for it that b also ran, rounded to 4 places; null when a ran none, or when either engine reports no queries (searches is null)."),
    rbo: rate.nullable().describe("Rank-biased overlap averaged over its run pairs where both runs named a tracked entity, rounded to 4 places; null when no pair has one."),
    entities: z.array(PromptEntity).describe("One per entity, in the order of `entities`."),
  })
  .meta({ id: "PromptComparison" });

const side = (runs: number, k: number, interval: [number, number]) => ({ runs, runs_mentioning: k, visibility: Math.round((k / runs) * 10_000) / 10_000, visibility_interval: interval });
const comparisonFigures = {
  id: "cm_01M8C4T2Q9W3E5R7T9Y1V3K5N7",
  kind: "comparison" as const,
  status: "completed" as const,
  subject: "best crm for a small agency (+11 more prompts)",
  run_count: 74,
  created_at: "2026-11-20T10:02:41.318Z",
  completed_at: "2026-11-20T10:02:41.318Z",
  project_id: "pr_01M6GDXDT8KGYAFXTZVXZHNXKE",
  created_by: "dana@example.com",
  error: null,
  method: "comparison-v1" as const,
  a: "chatgpt" as const,
  b: "chatgpt_app" as const,
  confidence: 0.975,
  entities: [
    { name: "Acme CRM", role: "brand" as const, aliases: ["Acme"], domains: ["acme.example"], case_sensitive: false },
    { name: "HubSpot", role: "competitor" as const, aliases: ["HubSpot CRM"], domains: ["hubspot.com"], case_sensitive: false },
  ],
  run_ids: ["dr_01M8A2R1B7C3D4E5F6G7H8J9K0", "dr_01M8A2R1B7C3D4E5F6G7H8J9K1"],
  excluded_runs: [{ run_id: "dr_01M8A2R1B7C3D4E5F6G7H8J9K1", reason: "one_engine_only" as const }],
  excluded_prompts: [{ prompt: "acme crm reviews", engine: "chatgpt" as const, runs: 3 }],
  prompts_compared: 12,
  rows: [
    { name: "Acme CRM", role: "brand" as const, a: side(36, 12, [0.2019, 0.4901]), b: side(35, 4, [0.0454, 0.2597]), diff: -0.2190, diff_interval: [-0.4189, -0.0037] as [number, number], significant: true },
    { name: "HubSpot", role: "competitor" as const, a: side(36, 30, [0.6814, 0.9196]), b: side(35, 31, [0.7400, 0.9547]), diff: 0.0524, diff_interval: [-0.1378, 0.2414] as [number, number], significant: false },
  ],
  sources: {
    jaccard: 0.2143,
    jaccard_interval: [0.1322, 0.2964] as [number, number],
    prompts: 12,
    only_a: [{ domain: "techcrunch.com", runs_citing: 9 }, { domain: "forbes.com", runs_citing: 5 }],
    only_b: [{ domain: "reddit.com", runs_citing: 14 }, { domain: "youtube.com", runs_citing: 6 }],
  },
  searches: { overlap: 0.0417, overlap_interval: [0, 0.1334] as [number, number], prompts: 12 },
  order: { rbo: 0.6125, rbo_interval: [0.4871, 0.7379] as [number, number], prompts: 11, pairs: 96 },
  by_prompt: [
    {
      prompt: "best crm for a small agency",
      runs_a: 3,
      runs_b: 3,
      jaccard: 0.25,
      query_overlap: 0,
      rbo: 0.55,
      entities: [
        { name: "Acme CRM", a: 0.6667, b: 0, diff: -0.6667 },
        { name: "HubSpot", a: 1, b: 1, diff: 0 },
      ],
    },
  ],
  charge: null,
};
const exampleComparisonAnalysis = { ...comparisonFigures, summary: comparisonSummary(comparisonFigures) };

export const ComparisonAnalysis = z
  .object({
    id: ComparisonAnalysisId,
    kind: z.literal("comparison"),
    status: RunStatus.describe("Always `completed`: a comparison is computed when it is asked for."),
    subject: z.string(),
    summary: Summary.describe(
      "What to read first, in plain words: how many prompts were compared, the entity whose visibility differs most (said a difference only when significant), how alike the cited domains, the searches and the brand order are. See Summary.",
    ),
    run_count: count.describe("Runs named (run_ids), excluded ones included."),
    created_at: DateTime,
    completed_at: DateTime.nullable(),
    project_id: ProjectId.nullable().describe("The project of its runs; null on a shared page."),
    created_by: z.string().nullable().describe("Null on a shared page."),
    error: RunError.nullable(),
    method: z.literal("comparison-v1").describe("How the engines were compared (docs/decisions.md \"Comparison analyses\"); mentions are matched as visibility-v2 matches them."),
    a: EngineId,
    b: EngineId,
    confidence: z.number().describe("The confidence of every diff_interval: 1 − 0.05/m for m entities (Bonferroni), rounded to 4 places."),
    entities: z.array(Entity).describe("The entities tracked, as used: given, or from the project context."),
    run_ids: z.array(RunId).describe("Every run the ids named, once each, in the order named; excluded ones too."),
    excluded_runs: z.array(ComparisonExcludedRun),
    excluded_prompts: z.array(ExcludedPrompt).describe("Prompts only one of the two engines answered, in the order first named. An addition to decisions.md."),
    prompts_compared: count.describe("Prompts both engines answered: what every figure covers."),
    rows: z.array(ComparisonRow).describe("One per entity, in the order of `entities`."),
    sources: ComparisonSources,
    searches: ComparisonSearches.nullable().describe("Null when a or b does not report its searches (GET /engines reports_queries)."),
    order: ComparisonOrder,
    by_prompt: z.array(PromptComparison).describe("One per prompt compared, in the order first named."),
    charge: z.null().describe("Always null: comparisons are computed from stored runs for free."),
  })
  .meta({ id: "ComparisonAnalysis", examples: [exampleComparisonAnalysis] });

export const createComparisonAnalysis = defineEndpoint({
  method: "POST", path: "/comparison-analyses", operationId: "createComparisonAnalysis",
  summary: "How far two engines' answers to the same prompts are apart: brands named, pages cited, searches, order; finished at once",
  description:
    "The runs are named by run, batch (`rq_…`) or fanout (`fo_…`) ids, as for visibility analyses; `a` and `b` are two engines that have runs among them (400 naming the one that has none). Only prompts both engines answered are compared (matched by their text less any [[sim:…]] directive); the others are listed in excluded_prompts and their runs in excluded_runs. 201, computed from stored answers (no model is called, nothing is charged) and stored, so GET /analyses/{id} answers it unchanged.",
  tags: ["Analyses"], auth: "bearer", body: ComparisonAnalysisRequest, response: ComparisonAnalysis, status: 201,
  errors: ["not_found"],
});

export type ComparisonAnalysisRequest = z.infer<typeof ComparisonAnalysisRequest>;
export type ComparisonAnalysis = z.infer<typeof ComparisonAnalysis>;
export type ComparisonExclusionReason = z.infer<typeof ComparisonExclusionReason>;
