// Fanouts (spec 2.5, 4.2, 4.4 items 3-4; decisions.md "Fanouts"): every prompt of a set on every
// engine, `runs` times, with the queries each engine searched. zod only.
import { z } from "zod";
import { RunCharge } from "./billing";
import { DateTime, EngineId, Usd, cursorParam, idOf, limitParam, listOf, name, trimmedText, waitParam } from "./common";
import { defineEndpoint } from "./endpoint";
import { PlanMargin } from "./plan";
import { exampleFanout, exampleFanoutEstimate, exampleFanoutQueryReport, exampleFanoutRequest, exampleFanoutSummary } from "./examples";
import { Language, Location, marketFields } from "./locale";
import { ProjectId } from "./projects";
import { RunError } from "./results";
import { FanoutId, RunId, RunStatus } from "./runs";
import { WorkspaceId } from "./workspaces";

/** Bounds of decisions.md "Bounds and limits"; `max_executions` is the server's, in the estimate. */
export const FANOUT_RUNS = { min: 1, max: 20, fallback: 3 } as const;

export const FanoutStatus = z.enum(["queued", "running", "completed", "partial", "failed"]).meta({
  id: "FanoutStatus",
  description:
    "Derived from its runs: queued while none has started; running while any is unfinished and one has started; then completed (all completed), partial (some failed) or failed (all failed).",
});

export const FanoutPromptSource = z
  .strictObject({
    kind: z.enum(["question"]).default("question").describe("What the prompt came from; `question` (the default)."),
    analysis_id: idOf("fa").describe("A questions analysis of the fanout's workspace."),
    question_id: z
      .string()
      .regex(/^q[1-9][0-9]{0,5}$/, { error: "must be a question id of the analysis: q followed by its number, such as q3" })
      .describe("One of that analysis's question ids (`q1`, `q2`, …)."),
  })
  .meta({ id: "FanoutPromptSource", description: "Records that a prompt came from a questions analysis. An `analysis_id` that is no questions analysis of the workspace, or a `question_id` it does not have, is refused with 400 naming the prompt." });

export const FanoutPromptInput = z
  .strictObject({
    text: trimmedText(1, 4000).describe("The prompt: 1 to 4000 characters (Unicode code points; most emoji count one) after leading and trailing whitespace is trimmed, so whitespace only is refused. Stored and sent to the engines trimmed. NUL (U+0000) and unpaired surrogates are refused."),
    source: FanoutPromptSource.nullable().optional(),
    location: Location.nullable()
      .optional()
      .describe("This prompt's searcher location, in place of the fanout's `location`; null: none for this prompt. A fanout across markets gives the same text once per market."),
    language: Language.nullable().optional().describe("This prompt's searcher language, in place of the fanout's `language`; null: none for this prompt."),
  })
  .meta({ id: "FanoutPromptInput" });

export const FanoutRequest = z
  .strictObject({
    prompts: z
      .array(FanoutPromptInput)
      .min(1, { error: "must have at least 1 prompt" })
      .describe("Kept exactly as given, in order; a prompt given twice runs twice. At most max_executions prompts."),
    name: name(200).nullable().optional().describe("Defaults to the first prompt, cut to 200 characters."),
    engines: z
      .array(EngineId)
      .min(1, { error: "must have at least 1 engine when given" })
      .optional()
      .describe("Engine ids (`chatgpt`, `claude`, `gemini`); every enabled engine when omitted. A repeated engine runs once."),
    runs: z
      .int({ error: `must be a whole number from ${FANOUT_RUNS.min} to ${FANOUT_RUNS.max}` })
      .min(FANOUT_RUNS.min, { error: `must be a whole number from ${FANOUT_RUNS.min} to ${FANOUT_RUNS.max}` })
      .max(FANOUT_RUNS.max, { error: `must be a whole number from ${FANOUT_RUNS.min} to ${FANOUT_RUNS.max}` })
      .optional()
      .describe(`Independent executions of each prompt on each engine, ${FANOUT_RUNS.min} to ${FANOUT_RUNS.max}, default ${FANOUT_RUNS.fallback}.`),
    project: ProjectId.describe("The project the work belongs to (`pr_…`); required."),
    location: marketFields.location.describe("The searcher's location for every prompt that does not give its own."),
    language: marketFields.language,
  })
  .meta({ id: "FanoutRequest", examples: [exampleFanoutRequest] });

export const FanoutEstimateLine = z
  .object({
    engine: EngineId,
    executions: z.int(),
    unit_price_usd: Usd,
    amount_usd: Usd,
  })
  .meta({ id: "FanoutEstimateLine" });

export const FanoutEstimate = z
  .object({
    prompts: z.int(),
    engines: z.array(EngineId),
    runs: z.int(),
    executions: z.int().describe("prompts × engines × runs."),
    max_executions: z.int().describe("The most one fanout may run on this server."),
    identical_prompts: z.int().describe("Prompts whose text repeats an earlier one; they are run all the same."),
    lines: z.array(FanoutEstimateLine),
    total_usd: Usd.describe("At current prices; a failed run is not charged."),
    pricing_version: z.string(),
    billing_enabled: z.boolean(),
    available_usd: Usd.nullable().describe("Null while billing is off."),
    sufficient: z.boolean().nullable().describe("Whether available credit covers total_usd; null while billing is off."),
    margin: PlanMargin,
  })
  .meta({ id: "FanoutEstimate", description: "Informational: starts nothing, holds nothing, and is not a quote.", examples: [exampleFanoutEstimate] });

export const ObservedQuery = z
  .object({
    text: z.string(),
    position: z.int().nullable().describe("1-based place in the run's envelope."),
    search_call: z.int().nullable(),
    provider_search_id: z.string().nullable(),
  })
  .meta({ id: "ObservedQuery" });

export const ShownRate = z
  .object({
    completed_runs: z.int(),
    runs_shown: z.int().describe("Completed runs where the engine showed an answer (`result.shown` not false)."),
    rate: z.number().nullable().describe("runs_shown / completed_runs, rounded to 4 places; null before any run completed."),
    interval: z.tuple([z.number(), z.number()]).nullable().describe("95% Wilson score interval of rate, rounded to 4 places; null with rate."),
  })
  .meta({
    id: "ShownRate",
    description:
      "How often the engine showed an answer at all. Google shows an AI Overview (or an AI Mode answer) for some searches only; a run without one completes with `result.shown` false. Every other engine shows one every time.",
  });

export const FanoutEngineShown = z
  .object({ engine: EngineId, ...ShownRate.shape })
  .meta({ id: "FanoutEngineShown", description: "An engine's shown rate over all of a fanout's prompts." });

export const FanoutRunObservation = z
  .object({
    run_id: RunId,
    run_index: z.int().describe("1-based repeat of this prompt on this engine."),
    status: RunStatus,
    created_at: DateTime,
    model: z.string().nullable(),
    searched: z.boolean().nullable().describe("Null if not recorded or not done."),
    shown: z.boolean().nullable().describe("Whether the engine showed an answer (false where Google showed no AI Overview); null unless completed."),
    search_calls: z.int().nullable().describe("May exceed the calls with a query if one showed no query text."),
    queries: z.array(ObservedQuery),
    error: RunError.nullable(),
    charge: RunCharge.nullable(),
    started_at: DateTime.nullable(),
    completed_at: DateTime.nullable(),
  })
  .meta({ id: "FanoutRunObservation" });

export const FanoutEngineObservations = z
  .object({
    engine: EngineId,
    query_count: z.int().describe("Across this engine's completed runs of the prompt, nothing deduplicated."),
    shown: ShownRate.describe("How often this engine showed an answer for this prompt."),
    runs: z.array(FanoutRunObservation).describe("Ordered by run_index."),
  })
  .meta({ id: "FanoutEngineObservations" });

export const FanoutPromptObservations = z
  .object({
    index: z.int().describe("1-based place in the request."),
    text: z.string(),
    source: FanoutPromptSource.nullable(),
    location: Location.nullable().describe("The searcher location its runs were made for (its own, else the fanout's); null when none."),
    language: z.string().nullable().describe("The searcher language its runs were made for; null when none."),
    query_count: z.int().describe("This prompt, all engines, completed runs, nothing deduplicated."),
    engines: z.array(FanoutEngineObservations).describe("In the fanout's engine order."),
  })
  .meta({ id: "FanoutPromptObservations" });

const summaryFields = {
  id: FanoutId,
  name: z.string(),
  status: FanoutStatus,
  engines: z.array(EngineId),
  runs: z.int().describe("Repeats per prompt per engine."),
  prompt_count: z.int(),
  execution_count: z.int(),
  counts: z
    .object(Object.fromEntries(RunStatus.options.map((status) => [status, z.int().min(0)])) as Record<z.infer<typeof RunStatus>, z.ZodInt>)
    .describe("Executions by run status: every status, 0 included."),
  query_count: z.int().describe("Queries observed so far in completed runs, nothing deduplicated."),
  created_at: DateTime,
  project_id: ProjectId.nullable().describe("Null on a shared page."),
  created_by: z.string().nullable().describe("The email of who started it; null on a shared page."),
  completed_at: DateTime.nullable().describe("When the last run finished, once all have."),
};

export const FanoutSummary = z.object(summaryFields).meta({ id: "FanoutSummary", examples: [exampleFanoutSummary] });

export const Fanout = z
  .object({
    ...summaryFields,
    prompts: z.array(FanoutPromptObservations),
    shown: z
      .array(FanoutEngineShown)
      .describe("Per engine over all prompts, in the fanout's engine order: how often it showed an answer (the `shown_rate` of decisions.md: for Google's AI Overview, how often Google showed one)."),
    held_usd: Usd.nullable().describe("Credit still held for its unfinished runs; null while billing is off, and on a shared page."),
    charged_usd: Usd.nullable().describe("Paid for its completed runs so far; null while billing is off, and on a shared page."),
  })
  .meta({
    id: "Fanout",
    description: "The detail nests prompt, then engine, then run. Each run's answer and sources: GET /runs/{run_id}.",
    examples: [exampleFanout],
  });

export const FanoutList = listOf(FanoutSummary, "FanoutList", { description: "Newest first.", examples: [{ items: [exampleFanoutSummary], next_cursor: null }] });

export const FanoutQueryShare = z
  .object({
    query: z.string().describe("The query as first seen; queries equal after folding case and whitespace are one."),
    runs: z.int().describe("Completed runs that issued it at least once."),
    occurrences: z.int().describe("Times it was issued across those runs."),
    share: z.number().describe("runs / completed_runs, rounded to 4 places."),
    share_interval: z.tuple([z.number(), z.number()]).describe("95% Wilson score interval of share, rounded to 4 places."),
  })
  .meta({ id: "FanoutQueryShare" });

export const FanoutQueryGroup = z
  .object({
    prompt_index: z.int(),
    prompt: z.string(),
    engine: EngineId,
    completed_runs: z.int(),
    queries: z.array(FanoutQueryShare).describe("By share, descending, then by query."),
  })
  .meta({ id: "FanoutQueryGroup" });

export const FanoutQueryCountryGroup = z
  .object({
    country: z.string().nullable().describe("The searcher's country (ISO 3166-1 alpha-2); null for prompts run without a location."),
    prompt: z.string(),
    engine: EngineId,
    prompt_indexes: z.array(z.int()).describe("The fanout's prompts (1-based) with this text and country, whose runs this row counts."),
    completed_runs: z.int(),
    queries: z.array(FanoutQueryShare).describe("By share, descending, then by query."),
  })
  .meta({ id: "FanoutQueryCountryGroup" });

export const FanoutQueryReport = z
  .object({
    fanout_id: FanoutId,
    status: FanoutStatus,
    groups: z.array(FanoutQueryGroup).describe("One per prompt × engine, in prompt then engine order."),
    by_country: z
      .array(FanoutQueryCountryGroup)
      .describe(
        "The same completed runs grouped per prompt text × engine × country (prompts in order of first appearance, then engine, then country, no country last): which queries one engine ran for one prompt in each market. For each prompt text and engine, its rows' completed_runs add up to that text's groups' completed_runs.",
      ),
  })
  .meta({
    id: "FanoutQueryReport",
    description:
      "The observed queries of a fanout aggregated per prompt × engine over its completed runs: how many runs issued each distinct query and the share with a 95% interval.",
    examples: [exampleFanoutQueryReport],
  });

export const FanoutsQuery = z.object({
  project: ProjectId.optional().describe("Only this project's fanouts."),
  workspace: WorkspaceId.optional().describe("Only this workspace's fanouts."),
  limit: limitParam,
  cursor: cursorParam,
});

const fanoutParams = z.object({ fanout_id: FanoutId });

export const estimateFanout = defineEndpoint({
  method: "POST", path: "/fanouts/estimate", operationId: "estimateFanout", summary: "What a fanout would run and cost; starts nothing",
  description:
    "Informational: starts nothing, holds nothing, and is not a quote. Executions are prompts × engines × runs, each priced at its engine's current prompt price. Answers 200 even over max_executions, which it reports.",
  tags: ["Fanouts"], auth: "bearer", body: FanoutRequest, response: FanoutEstimate, status: 200,
});
export const createFanout = defineEndpoint({
  method: "POST", path: "/fanouts", operationId: "createFanout", summary: "Run every prompt on every engine, repeated; runs are queued",
  description:
    "Creates the fanout, all its runs (queued) and the credit hold for its whole price in one transaction, or nothing: 402 when available credit does not cover it, 400 over max_executions, 429 past the in-flight limit. Each run is charged when it completes and released if it fails.",
  tags: ["Fanouts"], auth: "bearer", body: FanoutRequest, response: Fanout, status: 202,
  errors: ["insufficient_credit", "rate_limited"],
});
export const listFanouts = defineEndpoint({
  method: "GET", path: "/fanouts", operationId: "listFanouts", summary: "Fanouts, newest first, without observations",
  description:
    "Summaries (statuses, counts, queries so far) across the workspaces the credential can act in, newest first, paginated; `project` and `workspace` narrow the list. GET /fanouts/{fanout_id} has the observations.",
  tags: ["Fanouts"], auth: "bearer", query: FanoutsQuery, response: FanoutList, status: 200,
});
export const getFanout = defineEndpoint({
  method: "GET", path: "/fanouts/{fanout_id}", operationId: "getFanout", summary: "One fanout: prompt, engine, run, with the observed queries",
  description:
    "Prompt, then engine, then run, each run with the queries it searched; `held_usd` and `charged_usd` sum its runs' charges. With `wait=N` (up to 30) the request returns as soon as every run has finished. Each run's answer and sources are at GET /runs/{run_id}.",
  tags: ["Fanouts"], auth: "bearer", params: fanoutParams, query: z.object({ wait: waitParam }), response: Fanout, status: 200,
});
export const getFanoutQueries = defineEndpoint({
  method: "GET", path: "/fanouts/{fanout_id}/queries", operationId: "getFanoutQueries",
  summary: "The observed queries per prompt × engine, with how many runs issued each",
  description:
    "Over completed runs, per prompt × engine: each distinct query (case and runs of whitespace folded, shown as first seen), the runs that issued it, its occurrences, and its share of the runs with a 95% Wilson interval.",
  tags: ["Fanouts"], auth: "bearer", params: fanoutParams, response: FanoutQueryReport, status: 200,
});

export type FanoutStatus = z.infer<typeof FanoutStatus>;
