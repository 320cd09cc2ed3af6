// Visibility analyses (decisions.md "Statistics", "Visibility analyses"): how often answer engines
// name each tracked brand and competitor, in what place, how prominently, whether they cite it;
// every rate with its n and its interval, every mention with its evidence. Kind `visibility`, ids
// `va_`. zod only. POST /visibility-analyses and GET /analyses/{id}/mentions are declared here;
// GET /analyses and GET /analyses/{id} answer the analysis through the union in ./analyses.ts.
import { z } from "zod";
import { RunCharge } from "./billing";
import { DateTime, EngineId, StructuredEngineId, chars, cursorParam, idOf, limitParam, listOf, name } from "./common";
import { defineEndpoint } from "./endpoint";
import { exampleMention, exampleVisibilityAnalysis } from "./examples";
import { countryCodePattern, countryName } from "../locale/codes";
import { DomainName, ProjectId } from "./projects";
import { RunError } from "./results";
import { RunId, RunStatus } from "./runs";
import { Summary } from "./summary";

/** Bounds of a visibility analysis request (decisions.md "Visibility analyses"). */
export const VISIBILITY_LIMITS = { ids: 1_000, runs: 20_000, entities: 50, aliases: 20, domains: 20 } as const;

export const VisibilityAnalysisId = idOf("va");

const count = z.int().min(0);
const rate = z.number().min(0).max(1);
const RateInterval = z
  .tuple([z.number(), z.number()])
  .describe("[low, high]: the 95% Wilson score interval of the rate over the runs counted (`runs`), rounded to 4 places; [0, 1] over no runs.");
const MeanInterval = (what: string, range: string) =>
  z
    .tuple([z.number(), z.number()])
    .describe(
      `[low, high]: the 95% interval of ${what}, rounded to 4 places, made as the analysis's interval_method says. \`t\`: Student's t interval, mean ± t(0.975, n - 1) · s / √n over the group's n values, clipped to ${range}; the whole range for a single value. \`bootstrap\` (analyses stored before t): the percentile bootstrap interval of 2,000 resamples of the group's runs, seeded by the analysis id.`,
    );

export const EntityRole = z.enum(["brand", "competitor"]).meta({ id: "EntityRole", description: "`brand`: the project's own. `competitor`: another's." });

const entityFields = {
  name: name(100).describe("What the entity is called; matched in answers like its aliases."),
  role: EntityRole,
  aliases: z
    .array(name(100))
    .max(VISIBILITY_LIMITS.aliases, { error: `must have at most ${VISIBILITY_LIMITS.aliases} aliases` })
    .describe(`Other names that count as the entity ("HubSpot CRM", "Hubspot"), 0 to ${VISIBILITY_LIMITS.aliases}, 1 to 100 characters each.`),
  domains: z
    .array(DomainName)
    .max(VISIBILITY_LIMITS.domains, { error: `must have at most ${VISIBILITY_LIMITS.domains} domains` })
    .describe(`Domains whose pages count as citing it (subdomains too), 0 to ${VISIBILITY_LIMITS.domains}.`),
  case_sensitive: z
    .boolean()
    .describe("Match only as written, for brands that are ordinary words (\"Monday\", \"Notion\"). Otherwise any case matches."),
};

/** An entity as a request gives it: aliases, domains and case_sensitive may be left out. */
export const EntityInput = z
  .strictObject({
    ...entityFields,
    aliases: entityFields.aliases.optional().describe(`${entityFields.aliases.description} Default none.`),
    domains: entityFields.domains.optional().describe(`${entityFields.domains.description} Default none.`),
    case_sensitive: entityFields.case_sensitive.optional().describe(`${entityFields.case_sensitive.description} Default false.`),
  })
  .meta({ id: "EntityInput" });

export const Entity = z
  .object({ ...entityFields, domains: z.array(z.string()).describe("Domain names (hosts, lower-cased); subdomains count.") })
  .meta({ id: "Entity", description: "A brand or competitor the analysis tracks, as it used it (names trimmed, repeats dropped)." });

/** decisions.md "Judged visibility": which engine judges, and what it is asked. */
export const JudgeRequest = z
  .strictObject({
    engine: StructuredEngineId.describe("The engine that judges every counted run (one structured-output call per run); it must be enabled on this server."),
    sentiment: z.boolean().optional().describe("Judge how each answer speaks of every tracked entity it mentions (positive, neutral, negative), with a verbatim quote as evidence. Default true."),
    discover: z.boolean().optional().describe("Also list the other brands and products each answer names (kept only where the name occurs in the answer). Default false."),
  })
  .refine((judge) => judge.sentiment !== false || judge.discover === true, { error: "asks for nothing: set sentiment or discover to true", path: ["sentiment"] })
  .meta({ id: "JudgeRequest" });

export const VisibilityAnalysisRequest = z
  .strictObject({
    ids: z
      .array(z.string())
      .min(1, { error: "must have at least 1 id" })
      .max(VISIBILITY_LIMITS.ids, { error: `must have at most ${VISIBILITY_LIMITS.ids} ids` })
      .describe(
        `Run ids (\`dr_…\`), batch ids (\`rq_…\`) and/or fanout ids (\`fo_…\`), 1 to ${VISIBILITY_LIMITS.ids}, expanding to at most ${VISIBILITY_LIMITS.runs.toLocaleString("en-US")} runs of one project. Any id the caller cannot see answers 404 naming it.`,
      ),
    entities: z
      .array(EntityInput)
      .min(1, { error: "must have at least 1 entity when given" })
      .max(VISIBILITY_LIMITS.entities, { error: `must have at most ${VISIBILITY_LIMITS.entities} entities` })
      .optional()
      .describe(`The brands and competitors to track, 1 to ${VISIBILITY_LIMITS.entities}, reported in this order. Without them, the project context's.`),
    use_project_context: z
      .boolean()
      .optional()
      .describe(
        "Track the project's brands (with its primary_domain and domains) and competitors (with their competitor_domains), each with its aliases. Default true when `entities` is absent; never merged with given entities.",
      ),
    judge: JudgeRequest.optional().describe(
      "Also have an answer engine judge every counted run (sentiment per tracked entity, other brands named): the analysis is then queued (202) and finished by a job; charged per run judged (rate card product `judge`).",
    ),
  })
  .superRefine((body, ctx) => {
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
    id: "VisibilityAnalysisRequest",
    examples: [
      {
        ids: ["fo_01M8A2Q6W1S2ZD2R6X3V4B5N7M"],
        entities: [
          { name: "Acme CRM", role: "brand", aliases: ["Acme"], domains: ["acme.example"] },
          { name: "HubSpot", role: "competitor", aliases: ["HubSpot CRM"], domains: ["hubspot.com"] },
          { name: "Monday", role: "competitor", aliases: ["monday.com"], domains: ["monday.com"], case_sensitive: true },
        ],
      },
    ],
  });

export const NotCountedReason = z.enum(["prompt_echo", "absence", "link"]).meta({
  id: "NotCountedReason",
  description:
    "`prompt_echo`: the mention lies inside a quotation of the prompt or of a search query the run issued. `absence`: its sentence says the engine found or knows nothing about the entity. `link` (visibility-v2): it is the label of a link, the engine citing a page (`[hubspot.com](https://…)`) rather than naming the brand; whether the page was cited is in `cited`. A label of three or more words of prose that names the entity outside a domain (`[HubSpot's free CRM](…)`) counts. A name inside a URL or an e-mail address is no mention at all.",
});

export const MentionsNotCounted = z
  .object({ prompt_echo: count, absence: count, link: count.describe("0 for analyses made before visibility-v2, which did not set link labels aside.") })
  .meta({ id: "MentionsNotCounted", description: "Mentions found but not counted, by reason." });

export const SHARE_OF_VOICE_BASIS = "runs mentioning any tracked entity";

/** The figures of one entity over a group of runs (all of them, one engine, one prompt, one country). */
const figureFields = {
  runs: count.describe("Runs counted in this group: the n of every rate below."),
  runs_mentioning: count.describe("Runs with at least one counted mention: the n of average_position."),
  visibility: rate.describe("runs_mentioning / runs, rounded to 4 places; 0 over no runs."),
  visibility_interval: RateInterval,
  share_of_voice: rate.nullable().describe("runs_mentioning / share_of_voice_n, rounded to 4 places; null when no tracked entity was mentioned."),
  share_of_voice_basis: z.literal(SHARE_OF_VOICE_BASIS).describe("What share_of_voice is a share of."),
  share_of_voice_n: count.describe("The basis: runs_mentioning summed over the tracked entities (a run naming two counts for both). An addition to decisions.md, the n of the share."),
  average_position: z
    .number()
    .nullable()
    .describe("Mean position over runs_mentioning (1 = named first among the tracked entities), rounded to 4 places; null when never mentioned."),
  average_position_interval: MeanInterval("the average position", "1 to the number of entities").nullable().describe("Null when never mentioned."),
  position_counts: z.record(z.string(), count).describe('Runs by position: "1" (named first) to the number of entities, 0 included. An addition: the distribution behind average_position.'),
  runs_top1: count.describe("Runs where it was named first."),
  top1_rate: rate.describe("runs_top1 / runs."),
  top1_rate_interval: RateInterval,
  runs_top3: count.describe("Runs where it was among the first three named."),
  top3_rate: rate.describe("runs_top3 / runs."),
  top3_rate_interval: RateInterval,
  prominence: z
    .number()
    .min(0)
    .max(1)
    .describe(
      "Mean over all runs of the position-adjusted word count (Aggarwal et al., GEO, KDD 2024): the words of the sentences naming it, each weighted exp(-i/N) by its place i (from 0) of N and split equally among the tracked entities it names, over all words of the answer; 0 for a run not naming it. Rounded to 4 places.",
    ),
  prominence_interval: MeanInterval("the mean prominence", "0 to 1 ([0, 1] over no runs)"),
  runs_citing: count.describe("Runs that cited a page of one of its domains or their subdomains."),
  cited_rate: rate.describe("runs_citing / runs."),
  cited_rate_interval: RateInterval,
  mentioned_and_cited: count,
  mentioned_not_cited: count,
  cited_not_mentioned: count.describe("With mentioned_and_cited and mentioned_not_cited, the mentioned x cited table; neither = runs minus the three."),
  mentions: count.describe("Counted mentions."),
  mentions_not_counted: MentionsNotCounted,
};

export const EntityFigures = z.object(figureFields).meta({ id: "EntityFigures" });

export const EngineVisibility = z.object({ engine: z.string(), ...figureFields }).meta({ id: "EngineVisibility" });
export const PromptVisibility = z.object({ prompt: z.string(), ...figureFields }).meta({ id: "PromptVisibility" });
export const CountryVisibility = z
  .object({ country: z.string().nullable().describe("ISO 3166-1 alpha-2; null for runs without a location."), ...figureFields })
  .meta({ id: "CountryVisibility" });

export const Sentiment = z.enum(["positive", "neutral", "negative"]).meta({ id: "Sentiment", description: "How an answer speaks of an entity, as the judge engine read it." });

export const SentimentQuote = z
  .object({
    run_id: RunId,
    engine: z.string().nullable(),
    sentiment: Sentiment,
    quote: z
      .string()
      .describe(
        "The judge's evidence: the whole sentence (or sentences) of the run's answer holding the passage the judge quoted, each link shown as its label. The passage is checked: it occurs verbatim, holds at least three words of prose outside links, lies neither inside a link nor across one, and is no prompt echo; a quote that fails is rejected and its sentiment not counted (judge.quotes_rejected).",
      ),
  })
  .meta({ id: "SentimentQuote" });

export const EntitySentiment = z
  .object({
    runs_judged: count.describe("Runs judged (the judge's reply was usable)."),
    positive: count.describe("Judged runs where the entity is spoken of positively, with a verified quote."),
    neutral: count,
    negative: count,
    score: rate.nullable().describe("positive / (positive + negative), rounded to 4 places; null when both are 0. Its n is positive + negative."),
    score_interval: RateInterval.describe("[low, high]: the 95% Wilson score interval of score over positive + negative judgements; [0, 1] when there are none."),
    quotes: z
      .array(SentimentQuote)
      .describe("Evidence: up to 3 verified quotes of each sentiment, in run order."),
  })
  .meta({
    id: "EntitySentiment",
    description: "The judge's reading of how the answers speak of the entity: one judgement per judged run that mentions it, each backed by a verbatim quote.",
  });

export const DiscoveredEngine = z
  .object({ engine: z.string(), runs: count.describe("Judged runs of this engine."), runs_mentioning: count, visibility: rate, visibility_interval: RateInterval })
  .meta({ id: "DiscoveredEngine" });

export const DiscoveredEntity = z
  .object({
    name: z.string().describe("As most runs naming it write it."),
    aliases: z
      .array(z.string())
      .describe(
        "Other spellings merged into it: names differing only by case, punctuation or a trailing generic word (CRM, app, .com, Inc), or sharing a registrable domain (\"monday CRM\" and \"monday.com\" are one). Empty on analyses judged before the merge.",
      ),
    runs_mentioning: count.describe("Judged runs whose answer names it (the judge named it and the name occurs in the answer)."),
    visibility: rate.describe("runs_mentioning / judge.runs_judged, rounded to 4 places."),
    visibility_interval: RateInterval,
    by_engine: z.array(DiscoveredEngine).describe("By engine name."),
  })
  .meta({ id: "DiscoveredEntity", description: "A brand or product the answers name that the analysis does not track, found by the judge and checked against the answer text." });

export const NotJudgedRun = z
  .object({ run_id: RunId, reason: z.string().describe("Why: the judge's reply was unusable twice (asked once more after the first), or the engine failed.") })
  .meta({ id: "NotJudgedRun" });

export const JudgeProvenance = z
  .object({
    engine: EngineId,
    model: z.string().nullable().describe("The model that answered (the first judged run's); null until one did."),
    prompt_version: z.string().describe("Bumped whenever the judge prompt's template changes."),
    prompt_sha: z.string().describe("SHA-256 (hex) of the judge prompt's template."),
    sentiment: z.boolean(),
    discover: z.boolean(),
    runs: count.describe("Runs to judge: every counted run."),
    runs_done: count.describe("Runs the job has finished with so far (judged or not): progress while `running`."),
    runs_judged: count.describe("Runs whose judgement is used: the n of sentiment and discovered figures."),
    runs_not_judged: z.array(NotJudgedRun).describe("Runs whose judgement could not be used; they are not charged."),
    quotes_rejected: count.describe(
      "Quotes the judge gave that fail the check (not verbatim in the answer, fewer than three words of prose, inside or across a link, or a prompt echo): discarded with their sentiment.",
    ),
    names_dropped: count.describe("Discovered names that do not occur in the answer: dropped."),
  })
  .meta({ id: "JudgeProvenance", description: "Who judged, with which prompt, and how much of it was checked away." });

export const JudgeAgreement = z
  .object({
    runs: count.describe("Judged runs compared."),
    agreeing: count.describe("Judged runs where the judge and the matching rules agree on \"mentioned\" for every tracked entity."),
    pairs: count.describe("(run, entity) pairs compared: runs x entities. An addition: the units of kappa."),
    pairs_agreeing: count,
    kappa: z.number().nullable().describe("Cohen's kappa of judge against rules on \"mentioned\" over the pairs, rounded to 4 places; null when undefined (no pairs, or both always said the same)."),
  })
  .meta({ id: "JudgeAgreement", description: "How far the judge engine and the matching rules agree on which entities each answer mentions." });

export const EntityVisibility = z
  .object({
    name: z.string(),
    role: EntityRole,
    ...figureFields,
    by_engine: z.array(EngineVisibility).describe("By engine name."),
    by_prompt: z.array(PromptVisibility).describe("By prompt, in the order prompts first appear."),
    by_country: z.array(CountryVisibility).describe("By country code, runs without one last."),
    sentiment: EntitySentiment.nullable().describe("Null unless the analysis was judged with sentiment (and until its judge has finished)."),
  })
  .meta({ id: "EntityVisibility", description: "One tracked entity's figures over all runs counted, then the same figures by engine, prompt and country." });

export const VisibilityExclusionReason = z.enum(["unfinished", "failed", "not_a_prompt_run", "duplicate", "no_answer"]).meta({
  id: "VisibilityExclusionReason",
  description:
    "`unfinished` (queued or running), `failed`, `not_a_prompt_run` (an audit or questions run), `duplicate` (named twice, directly or through a batch or fanout), `no_answer` (completed with an empty answer).",
});

export const IntervalMethod = z.enum(["t", "bootstrap"]).meta({
  id: "IntervalMethod",
  description:
    "How the intervals of the means (average_position, prominence) were made. `t`: Student's t interval from the group's n, sum and sum of squares, clipped to the value's range (every analysis made now). `bootstrap`: a 2,000-resample percentile bootstrap (analyses stored before; they keep the intervals they were computed with). Rates always have Wilson's interval.",
});

export const VisibilityExcludedRun = z.object({ run_id: RunId, reason: VisibilityExclusionReason }).meta({ id: "VisibilityExcludedRun" });

export const VisibilityTotals = z
  .object({
    runs: count.describe("Runs counted (those not in excluded_runs)."),
    prompts: count.describe("Distinct prompt texts."),
    engines: count,
    mentions: count.describe("Every mention found, counted or not."),
    mentions_not_counted: MentionsNotCounted,
  })
  .meta({ id: "VisibilityTotals" });

export const VisibilityAnalysis = z
  .object({
    id: VisibilityAnalysisId,
    kind: z.literal("visibility"),
    status: RunStatus.describe(
      "`completed`: a visibility analysis is computed when it is asked for. A judged one is `queued`, then `running` while its judge works (judge.runs_done), then `completed` (or `failed`, with `error`); its rule-based figures are there from the start.",
    ),
    subject: z.string(),
    summary: Summary.describe(
      "What to read first, in plain words: how often each entity is named (brands first), which engines name the brand least and most, the judge's reading of its tone as counts (or that the judge is still at work), how often it is named first, and the other brands the judged answers name. See Summary.",
    ),
    run_count: count.describe("Runs named (run_ids), excluded ones included."),
    created_at: DateTime,
    completed_at: DateTime.nullable(),
    project_id: ProjectId.nullable().describe("The project of its runs; null on a shared page."),
    created_by: z.string().nullable().describe("Null on a shared page."),
    error: RunError.nullable(),
    method: z
      .enum(["visibility-v1", "visibility-v2"])
      .describe(
        "How mentions were matched and counted (docs/decisions.md \"Visibility analyses\", \"Mentions and links\"). Every new analysis is `visibility-v2`: names inside URLs are no mentions, link labels are set aside (`link`), bare domains of the prose name their owner, sentences never break inside a link, a URL, a domain or a number. Stored `visibility-v1` analyses keep the figures they were computed with.",
      ),
    interval_method: IntervalMethod,
    entities: z.array(Entity).describe("The entities tracked, as used: given, or from the project context."),
    run_ids: z.array(RunId).describe("Every run the ids named, once each, in the order named; excluded ones too."),
    excluded_runs: z.array(VisibilityExcludedRun),
    totals: VisibilityTotals,
    rows: z.array(EntityVisibility).describe("One per entity, in the order of `entities`."),
    judge: JudgeProvenance.nullable().describe("Null unless the request asked for a judge."),
    discovered: z
      .array(DiscoveredEntity)
      .nullable()
      .describe("Other brands and products the answers name, most runs first; null unless judged with discover (and until its judge has finished)."),
    agreement: JudgeAgreement.nullable().describe("Null unless judged (and until its judge has finished)."),
    charge: RunCharge.nullable().describe("Null unless judged: the rule-based figures are computed from stored runs for free. Judged: held per counted run at creation, captured for the runs judged."),
  })
  .meta({ id: "VisibilityAnalysis", examples: [exampleVisibilityAnalysis] });

export const Mention = z
  .object({
    run_id: RunId,
    engine: z.string().nullable(),
    prompt: z.string(),
    entity: z.string().describe("The entity's name."),
    alias: z.string().describe("The name, alias or domain that matched, as the entity gives it (a domain when the prose names the entity by a bare domain of its own, `hubspot.com is …`)."),
    start: count.describe("UTF-16 offset into the run's answer text where the mention starts (JavaScript's answer.slice(start, end) is the mention)."),
    end: count.describe("UTF-16 offset just after the mention."),
    sentence: z
      .string()
      .describe(
        "The sentence holding the mention, at most 300 characters around it. visibility-v2: the whole sentence as a reader sees it, each link shown as its label (`[zoho.com](https://…)` reads `zoho.com`); a sentence never ends inside a link, a URL, a domain, a number or a common abbreviation.",
      ),
    list_rank: z.int().min(1).nullable().describe("The item number when the sentence is in a numbered or bulleted list item, else null."),
    counted: z.boolean(),
    reason: NotCountedReason.nullable().describe("Why it is not counted; null when counted."),
  })
  .meta({ id: "Mention", description: "Where a tracked entity's name or alias occurs in one run's answer: the evidence behind every figure.", examples: [exampleMention] });

export const MentionPage = listOf(Mention, "MentionPage", {
  description: "By run (in the analysis's run order), then by offset.",
  examples: [{ items: [exampleMention], next_cursor: null }],
});

/** The columns of `format=csv`, in order: Mention's fields. */
export const MENTION_CSV_COLUMNS = ["run_id", "engine", "prompt", "entity", "alias", "start", "end", "sentence", "list_rank", "counted", "reason"] as const;

export const MentionsQuery = z.object({
  entity: chars(1, 100).optional().describe("Only this entity's mentions (its name as the analysis's `entities` give it); a name the analysis does not track is refused."),
  engine: EngineId.optional().describe("Only this engine's runs."),
  run_id: RunId.optional().describe("Only this run's mentions."),
  counted: z.enum(["true", "false"]).optional().describe("Only counted (`true`) or not counted (`false`) mentions."),
  prompt: chars(1, 4000)
    .optional()
    .describe("Only the mentions in runs of this prompt (its exact text, as `by_prompt` gives it): the evidence of a prompt's figures. An addition to decisions.md."),
  country: z
    .string()
    .overwrite((code) => (code.trim().toLowerCase() === "none" ? "none" : code.trim().toUpperCase()))
    .refine((code) => code === "none" || countryName(code) !== null, {
      error: (issue) => `unknown country ${JSON.stringify(issue.input)}: give an ISO 3166-1 alpha-2 code such as US, DE or BR, or none`,
    })
    .meta({ pattern: countryCodePattern(["none"]), examples: ["DE", "none"] })
    .optional()
    .describe("Only the mentions in runs made for this country (ISO 3166-1 alpha-2), or `none` for runs without a location: the evidence of a `by_country` row. An addition to decisions.md."),
  format: z
    .enum(["json", "csv"])
    .optional()
    .describe(
      `\`csv\`: every matching mention at once, streamed as text/csv with a header line (${MENTION_CSV_COLUMNS.join(", ")}; \`limit\` and \`cursor\` are not read). Default \`json\`, paged.`,
    ),
  limit: limitParam,
  cursor: cursorParam,
});

export const createVisibilityAnalysis = defineEndpoint({
  method: "POST", path: "/visibility-analyses", operationId: "createVisibilityAnalysis",
  summary: "How often answers name each brand and competitor, in what place, with n and 95% intervals; finished at once",
  description:
    "The runs are named by run, batch (`rq_…`) or fanout (`fo_…`) ids; a batch or fanout contributes all its runs. Without `judge`: 201, computed from stored answers (no model is called, nothing is charged) and stored, so GET /analyses/{id} answers it unchanged and GET /analyses/{id}/mentions pages its evidence. A mention inside a quotation of the prompt or of the run's own search queries, or in a sentence saying nothing was found about it, is kept as evidence but not counted. Runs that cannot count are listed in excluded_runs. With `judge`: 202, the rule-based figures at once and the analysis `queued`; a job asks the judge engine once per counted run (structured output), keeps only quotes and names that occur in the answer, and completes the analysis with sentiment, discovered entities and the judge's agreement with the rules (GET /analyses/{analysis_id}?wait=30 follows it). Credit for every counted run is held at once (402 `insufficient_credit`, nothing created, when it does not cover them) and captured for the runs judged. Refused with 400 naming the field, besides what the schema states: a `judge` that asks for nothing (`sentiment: false` without `discover: true`); `use_project_context: false` without `entities`; two entities whose names differ only in case or spaces (`repeats entities[i].name`); no `entities` while the project's context names no brand or competitor; runs of more than one project, or more than the runs limit once batches and fanouts are expanded; a judge engine not enabled on this server.",
  tags: ["Analyses"], auth: "bearer", body: VisibilityAnalysisRequest, response: VisibilityAnalysis, status: 201,
  otherStatus: { status: 202, description: "Accepted (with `judge`): the analysis is queued, its rule-based figures already there; its judge finishes it." },
  errors: ["not_found", "insufficient_credit"],
});


export type EntityRole = z.infer<typeof EntityRole>;
export type EntityInput = z.infer<typeof EntityInput>;
export type EntityFigures = z.infer<typeof EntityFigures>;
export type NotCountedReason = z.infer<typeof NotCountedReason>;
export type VisibilityExclusionReason = z.infer<typeof VisibilityExclusionReason>;
export type Entity = z.infer<typeof Entity>;
export type VisibilityAnalysisRequest = z.infer<typeof VisibilityAnalysisRequest>;
export type EntitySentiment = z.infer<typeof EntitySentiment>;
export type DiscoveredEntity = z.infer<typeof DiscoveredEntity>;
export type JudgeProvenance = z.infer<typeof JudgeProvenance>;
export type JudgeAgreement = z.infer<typeof JudgeAgreement>;
export type EntityVisibility = z.infer<typeof EntityVisibility>;
export type VisibilityAnalysis = z.infer<typeof VisibilityAnalysis>;
export type Mention = z.infer<typeof Mention>;
