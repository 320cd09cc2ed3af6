// What a prompt run records (spec 2.3): the answer, the pages shown, the searches run, the
// tokens used, and the error of a failed run. zod only: no server code may be imported here.
import { z } from "zod";
import { Usd } from "./common";
import { examplePromptResult, exampleRunError, exampleSearches, exampleSources, exampleUsage } from "./examples";

const count = z.int().min(0);

export const Resolution = z.enum(["direct", "resolved", "unresolved"]).meta({
  id: "Resolution",
  description:
    "`direct`: the engine gave the page URL. `resolved`: the engine gave a redirect URL and the service followed it to the page. `unresolved`: a redirect that could not be followed.",
});

export const SourceObservation = z
  .object({
    url: z.string().describe("The page URL, resolved and normalised (lower-case host, no fragment, tracking parameters removed). For an unresolved redirect, the redirect URL."),
    raw_url: z.string().describe("Exactly as the engine returned it."),
    resolution: Resolution,
    domain: z.string().nullable().describe("Registered domain of `url` by the Public Suffix List; null if unresolved."),
    cited: z.boolean().nullable().describe("Whether the answer cited the page; null where the engine does not expose citations."),
    search_query_observed: z
      .boolean()
      .nullable()
      .describe("The page appeared in the results of a search the engine ran; null where the engine does not expose results."),
    retrieval_observed: z
      .boolean()
      .nullable()
      .describe("The provider showed that the page content reached the model; null where it does not expose it."),
    domain_hint: z.string().nullable().describe("For an unresolved redirect, the domain the engine's title named; a hint only."),
    title: z.string().nullable(),
    citation_count: count.default(0),
    citation_positions: z
      .array(z.int().min(1))
      .optional()
      .describe("1-based positions in the answer's citation sequence (every citation mark, in the order they appear in the answer)."),
  })
  .meta({ id: "SourceObservation", examples: [exampleSources[0]] });

export const SearchObservation = z
  .object({
    query: z.string(),
    position: z.int().min(1).nullable().describe("1-based place of the query across the run."),
    search_call: z
      .int()
      .min(1)
      .nullable()
      .describe("1-based search call the query belongs to. Queries of one call were issued together and have no order among themselves."),
    provider_search_id: z.string().nullable(),
  })
  .meta({ id: "SearchObservation", examples: [exampleSearches[0]] });

export const LocaleApplied = z
  .object({
    location: z.boolean().describe("The request carried the searcher's location in the provider's own parameter."),
    language: z.boolean().describe("The request carried the searcher's language in the provider's own parameter (Gemini's API and the apps through DataForSEO take one)."),
    city: z
      .string()
      .nullable()
      .optional()
      .describe(
        "The city that reached the provider: by name where it takes one (OpenAI's and Anthropic's `user_location.city`, Perplexity's), else the city of the place data whose coordinates it was given (Gemini's `latLng`, DataForSEO's `location_coordinate`). Where the location's city is one the place data does not know, or none was given, the coordinates are the country's most populous city's, and this names that city (`Berlin` for a run asking for a small German town). Null where no city reached it (no location, or the country by name only). Absent on runs normalised before it existed.",
      ),
  })
  .meta({
    id: "LocaleApplied",
    description:
      "What of the run's `location` and `language` reached the provider, read from the request as sent: true only where the request carried it. OpenAI's, Anthropic's and Perplexity's web search take a location and no language; Gemini takes coordinates (none for a territory without a known city) and a language; DataForSEO (the apps) takes coordinates and a language code.",
  });

export const PromptResult = z
  .object({
    answer: z.string(),
    sources: z.array(SourceObservation),
    searches: z.array(SearchObservation),
    citations_exposed: z.boolean().describe("Whether the answer carried any citation marks."),
    searched: z.boolean().nullable().describe("Whether the engine searched; null if not recorded."),
    search_calls: count
      .nullable()
      .describe("Number of search calls; one call can carry several queries, or none the provider showed. Null where the engine does not expose calls."),
    locale_applied: LocaleApplied.optional().describe("Absent on runs recorded before markets existed (their requests carried neither)."),
    shown: z
      .boolean()
      .optional()
      .describe(
        "Whether the engine showed an answer at all. False only where Google showed no AI Overview (or AI Mode answer) for the query: the run completed, with `answer` empty and no sources, and analyses leave it out as `no_answer`. Absent on runs recorded before the apps existed (they all showed one).",
      ),
    provider_cost_usd: Usd.nullable()
      .optional()
      .describe("What the vendor says this call cost it (Perplexity's `usage.cost.total_cost`, DataForSEO's task `cost`); null where the vendor reports no cost. Not what geoscope charged (see the run's `charge`). Absent on runs recorded before it existed."),
    search_count: count
      .nullable()
      .optional()
      .describe("How many searches the engine says it ran where it reports a count without their queries (Perplexity's `usage.num_search_queries`); null elsewhere (see `searches`). Absent on runs recorded before it existed."),
  })
  .meta({ id: "PromptResult", examples: [examplePromptResult] });

export const Usage = z
  .object({
    input_tokens: count.nullable(),
    output_tokens: count.nullable(),
    reasoning_tokens: count.nullable(),
    total_tokens: count.nullable(),
    web_searches: count.nullable(),
  })
  .meta({ id: "Usage", examples: [exampleUsage] });

export const RunError = z
  .object({
    code: z.string(),
    message: z.string(),
    engine: z.string().nullable(),
    retryable: z.boolean().default(false),
  })
  .meta({ id: "RunError", examples: [exampleRunError] });

export type Resolution = z.infer<typeof Resolution>;
export type SourceObservation = z.infer<typeof SourceObservation>;
export type SearchObservation = z.infer<typeof SearchObservation>;
export type PromptResult = z.infer<typeof PromptResult>;
export type LocaleApplied = z.infer<typeof LocaleApplied>;
export type Usage = z.infer<typeof Usage>;
export type RunError = z.infer<typeof RunError>;

/** A run's result as a PromptResult, or null for an audit's document (or no result): answers have `answer`. */
export function promptResultOf<R extends object>(result: R | null | undefined): Extract<R, { answer: string }> | null {
  return result && "answer" in result ? (result as Extract<R, { answer: string }>) : null;
}

/** A run's result as an audit document, or null for a prompt's answer (or no result): audits have `findings`. */
export function auditResultOf<R extends object>(result: R | null | undefined): Extract<R, { findings: unknown }> | null {
  return result && "findings" in result ? (result as Extract<R, { findings: unknown }>) : null;
}
