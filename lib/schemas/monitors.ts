// Monitors (decisions.md "Monitors"): the same prompts re-run every day or week, each run of them
// a tick (a fanout made through the same code as POST /fanouts). Ids `mo_`, ticks `mt_`. zod only.
import { z } from "zod";
import { DateTime, ENGINE_IDS, EngineId, StructuredEngineId, Usd, cursorParam, idOf, limitParam, listOf, name, readDecimal, waitParam } from "./common";
import { defineEndpoint } from "./endpoint";
import { exampleMonitorEstimate, ids as exampleIds } from "./examples";
import { FanoutPromptInput, FanoutPromptSource } from "./fanouts";
import { Language, Location, marketFields } from "./locale";
import { DetectableChange, PlanMargin } from "./plan";
import { ProjectId } from "./projects";
import { RunError } from "./results";
import { FanoutId } from "./runs";
import { Summary } from "./summary";
import { tickSummary } from "../words/ticks";
import { Entity, EntityInput, VISIBILITY_LIMITS } from "./visibility";
import { WorkspaceId } from "./workspaces";

/** Bounds and defaults of a monitor (decisions.md "Monitors"). */
export const MONITOR_LIMITS = {
  prompts: 500,
  runs: { min: 1, max: 10, fallback: 3 },
  minChange: { min: 1, max: 100, fallback: 10 },
  /** The schedule when none is given: every day at 06:00 UTC. */
  schedule: { every: "day", at: "06:00" },
  /** The most a monthly budget may be, in USD. */
  budgetUsd: 1_000_000,
} as const;

export const MonitorId = idOf("mo");
export const TickId = idOf("mt");

export const MonitorStatus = z.enum(["active", "paused"]).meta({
  id: "MonitorStatus",
  description: "`active`: its schedule makes ticks. `paused`: none until resumed (POST /monitors/{id}/run still runs one now).",
});

export const TickStatus = z.enum(["queued", "running", "completed", "partial", "failed", "skipped"]).meta({
  id: "TickStatus",
  description:
    "Follows its fanout's: `queued` until a run has started (also before its fanout is made), `running` while any is unfinished (and while the tick's own work after the fanout finishes), then `completed`, `partial` or `failed` as the fanout ended. `skipped`: it could not be paid (see skip_reason) and started nothing. `failed` with no fanout: it could not be started (see error).",
});

export const TickSkipReason = z.enum(["insufficient_credit", "budget_exhausted"]).meta({
  id: "TickSkipReason",
  description:
    "`insufficient_credit`: the workspace's available credit did not cover the tick's fanout. `budget_exhausted`: the monitor's spend this UTC month plus the tick's price would pass monthly_budget_usd.",
});

export const TickTrigger = z.enum(["schedule", "manual"]).meta({
  id: "TickTrigger",
  description: "`schedule`: a slot of the monitor's schedule. `manual`: POST /monitors/{id}/run.",
});

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
const atField = z
  .string()
  .regex(HHMM, { error: "must be a UTC time of day HH:MM, 00:00 to 23:59" })
  .describe("The time of day, UTC, as HH:MM (00:00 to 23:59).");
const weekdayRule = "must be a whole number from 1 (Monday) to 7 (Sunday)";
const weekdayField = z.int({ error: weekdayRule }).min(1, { error: weekdayRule }).max(7, { error: weekdayRule });

export const ScheduleInput = z
  .strictObject({
    every: z.enum(["day", "week"]).describe("`day`: every day at `at`. `week`: every week on `weekday` at `at`."),
    at: atField,
    weekday: weekdayField.optional().describe('Weeks only, refused with 400 with `every: "day"`: the ISO weekday, 1 (Monday) to 7 (Sunday); default 1.'),
  })
  .superRefine((schedule, ctx) => {
    if (schedule.every === "day" && schedule.weekday !== undefined) {
      ctx.addIssue({ code: "custom", path: ["weekday"], message: 'is only for every: "week"' });
    }
  })
  .meta({ id: "ScheduleInput", examples: [{ every: "week", at: "07:30", weekday: 1 }] });

const WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/** A schedule in words: "every day at 06:00 UTC", "every Wednesday at 07:30 UTC" (the CLI and the pages say it alike). */
export function scheduleInWords(s: { every: "day" | "week"; at: string; weekday?: number | null }): string {
  return s.every === "day" ? `every day at ${s.at} UTC` : `every ${WEEKDAY_NAMES[(s.weekday ?? 1) - 1]} at ${s.at} UTC`;
}

export const Schedule = z
  .object({
    every: z.enum(["day", "week"]),
    at: z.string().describe("UTC, HH:MM."),
    weekday: z.int().nullable().describe("ISO weekday (1 = Monday) for weekly schedules; null for daily ones."),
  })
  .meta({ id: "Schedule", description: "When the monitor's ticks are due (slots, UTC).", examples: [{ every: "day", at: "06:00", weekday: null }] });

const minChangeRule = `must be a whole number from ${MONITOR_LIMITS.minChange.min} to ${MONITOR_LIMITS.minChange.max}`;

/** The weekly digest's setting (lib/digests): off by default. */
export const DigestSetting = z
  .enum(["off", "weekly"], { error: 'must be "off" or "weekly"' })
  .describe(
    'A weekly e-mail digest to the monitor\'s creator: "weekly" sends one a week, on the schedule\'s weekday (daily monitors: Monday), once that day\'s tick has finished: the latest completed tick\'s summary, the week\'s significant changes, the top opportunities and a link to the monitor. GET /monitors/{id}/digests lists them. "off" (default): none.',
  );

export const AlertsInput = z
  .strictObject({
    webhook_url: z
      .string()
      .max(2048, { error: "must be at most 2048 characters" })
      .nullable()
      .optional()
      .describe(
        "Where alerts are POSTed (signed with the monitor's webhook secret); null: none. http or https only; an address that is not public (loopback, private, link-local…, or a name resolving to one) is refused, unless its host is listed in WEBHOOK_ALLOW_HOSTS.",
      ),
    email: z.boolean().optional().describe("Email the monitor's creator about its alerts."),
    min_change: z
      .int({ error: minChangeRule })
      .min(MONITOR_LIMITS.minChange.min, { error: minChangeRule })
      .max(MONITOR_LIMITS.minChange.max, { error: minChangeRule })
      .optional()
      .describe(`The smallest change of visibility, in percentage points, worth an alert (${MONITOR_LIMITS.minChange.min} to ${MONITOR_LIMITS.minChange.max}).`),
    digest: DigestSetting.optional(),
  })
  .meta({
    id: "AlertsInput",
    description: `When creating, a field left out takes its default (webhook_url null, email false, min_change ${MONITOR_LIMITS.minChange.fallback}, digest "off"); in PATCH, it keeps its value.`,
    examples: [{ webhook_url: "https://hooks.acme.dev/geoscope", email: true, min_change: 10, digest: "weekly" }],
  });

export const Alerts = z
  .object({ webhook_url: z.string().nullable(), email: z.boolean(), min_change: z.int(), digest: DigestSetting })
  .meta({ id: "Alerts", description: "Where and when the monitor's alerts go.", examples: [{ webhook_url: null, email: false, min_change: 10, digest: "off" }] });

const budgetRule = `must be an amount in USD above 0 and at most ${MONITOR_LIMITS.budgetUsd}, as a decimal string with at most 6 decimals ("25.00")`;
/**
 * Above 0 and at most 1,000,000 with at most 6 decimals, as a pattern (OpenAPI: a client cannot
 * generate "0" or "1000000.01"); the server also takes leading zeros ("025.00"), the pattern not.
 */
const BUDGET_PATTERN =
  "^(?:[1-9][0-9]{0,5}(?:\\.[0-9]{1,6})?|0\\.(?:[1-9][0-9]{0,5}|0[1-9][0-9]{0,4}|00[1-9][0-9]{0,3}|000[1-9][0-9]{0,2}|0000[1-9][0-9]?|00000[1-9])|1000000(?:\\.0{1,6})?)$";
export const BudgetInput = z
  .string({ error: budgetRule })
  .regex(/^\d{1,7}(\.\d{1,6})?$/, { error: budgetRule })
  .refine((v) => Number(v) > 0 && Number(v) <= MONITOR_LIMITS.budgetUsd, { error: budgetRule })
  .meta({
    pattern: BUDGET_PATTERN,
    description: `An amount in USD above 0 and at most ${MONITOR_LIMITS.budgetUsd}, as a decimal string with at most 6 decimals ("25.00"); "0" is refused with 400.`,
    examples: ["25.00"],
  });

const runsRule = `must be a whole number from ${MONITOR_LIMITS.runs.min} to ${MONITOR_LIMITS.runs.max}`;

/** Changing any of these starts a new series (version + 1). */
const measuredFields = {
  prompts: z
    .array(FanoutPromptInput)
    .min(1, { error: "must have at least 1 prompt" })
    .max(MONITOR_LIMITS.prompts, { error: `must have at most ${MONITOR_LIMITS.prompts} prompts` })
    .describe(`The prompts every tick runs, 1 to ${MONITOR_LIMITS.prompts}, as for fanouts (each may carry its source and its own market).`),
  engines: z
    .array(EngineId)
    .min(1, { error: "must have at least 1 engine when given" })
    .describe("Engine ids; when left out at creation, every engine enabled then (kept, so a later engine does not change the series)."),
  runs: z
    .int({ error: runsRule })
    .min(MONITOR_LIMITS.runs.min, { error: runsRule })
    .max(MONITOR_LIMITS.runs.max, { error: runsRule })
    .describe(`Executions of each prompt on each engine per tick, ${MONITOR_LIMITS.runs.min} to ${MONITOR_LIMITS.runs.max}, default ${MONITOR_LIMITS.runs.fallback}.`),
  entities: z
    .array(EntityInput)
    .min(1, { error: "must have at least 1 entity when given" })
    .max(VISIBILITY_LIMITS.entities, { error: `must have at most ${VISIBILITY_LIMITS.entities} entities` })
    .describe(
      `The brands and competitors whose visibility the ticks measure, 1 to ${VISIBILITY_LIMITS.entities}. Left out at creation: the project context's brands and competitors, frozen then (a later change to the project does not change the series).`,
    ),
};

/** An entity named twice (ignoring case) is refused, naming the repeat. */
function refuseRepeatedEntities(entities: readonly { name: string }[] | undefined, ctx: z.RefinementCtx) {
  const seen = new Map<string, number>();
  entities?.forEach((entity, i) => {
    const key = entity.name.trim().normalize("NFC").toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) ctx.addIssue({ code: "custom", path: ["entities", i, "name"], message: `repeats entities[${first}].name` });
    else seen.set(key, i);
  });
}

// ---------------------------------------------------------------------------
// Sentiment over time (#47): a monitor may judge each tick's answers
// ---------------------------------------------------------------------------

/**
 * A monitor's judge: each tick's visibility analysis is made with it (as POST
 * /visibility-analyses with `judge`), so the tick's sentiment figures are that analysis's own.
 * `discover` is refused: a monitor's entities are fixed per version.
 */
export const MonitorJudgeInput = z
  .strictObject({
    engine: StructuredEngineId.describe("The engine that judges every counted run of each tick (one structured-output call per run, product `judge` on the rate card); it must be enabled on this server."),
    sentiment: z.literal(true, { error: "must be true (a monitor's judge is asked for sentiment)" }).optional().describe("Judge how each answer speaks of every tracked entity (positive, neutral, negative), with a verbatim quote. Always true; default true."),
    discover: z.unknown().optional().describe("Refused with 400: a monitor's entities are fixed per version (judge a tick's fanout with POST /visibility-analyses and judge.discover to find names to track)."),
  })
  .superRefine((judge, ctx) => {
    if (judge.discover !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["discover"],
        message: "is not available on monitors: a monitor's entities are fixed per version (judge a tick's fanout with POST /visibility-analyses and judge.discover to find names to track)",
      });
    }
  })
  .meta({
    id: "MonitorJudgeInput",
    description:
      "Judge each tick's answers for sentiment: `{engine, sentiment: true}`. Charged as judged visibility analyses are: held at the tick's start for every run of its fanout, captured per run judged, the rest released; counted in monthly_budget_usd. Changing it keeps the version (it adds a figure; what is measured is the same). `discover` is refused with 400 (a monitor's entities are fixed per version).",
    examples: [{ engine: "claude", sentiment: true }],
  });

export const MonitorJudge = z
  .object({ engine: StructuredEngineId, sentiment: z.literal(true) })
  .meta({ id: "MonitorJudge", description: "The engine judging each tick's answers for sentiment (series metric `sentiment`).", examples: [{ engine: "claude", sentiment: true }] });

const judgeField = MonitorJudgeInput.nullable()
  .optional()
  .describe("Judge each tick's answers for sentiment with this engine, or null (the default) for no judge. A tick's judge is charged per run judged and counted in the monthly budget.");

const exampleRequest = {
  project: exampleIds.project,
  name: "CRM visibility",
  prompts: [{ text: "best crm for a small agency" }, { text: "pipedrive vs hubspot" }],
  engines: ["chatgpt", "claude", "gemini"],
  runs: 3,
  schedule: { every: "day", at: "06:00" },
  location: { country: "US" },
  monthly_budget_usd: "25.00",
  alerts: { webhook_url: null, email: true, min_change: 10, digest: "off" },
};

export const MonitorRequest = z
  .strictObject({
    project: ProjectId.describe("The project the monitor and its ticks belong to (`pr_…`); required."),
    name: name(100).optional().describe("1 to 100 characters; defaults to the first prompt, cut to 100 characters."),
    prompts: measuredFields.prompts,
    engines: measuredFields.engines.optional(),
    runs: measuredFields.runs.optional(),
    schedule: ScheduleInput.optional().describe(`When ticks are due; default every day at ${MONITOR_LIMITS.schedule.at} UTC.`),
    location: marketFields.location.describe("The searcher's location for every prompt that does not give its own."),
    language: marketFields.language,
    entities: measuredFields.entities.optional(),
    monthly_budget_usd: BudgetInput.nullable()
      .optional()
      .describe("The most the monitor's ticks may spend in a UTC month (decimal string), or null for no limit (the default). A tick that would pass it is skipped."),
    alerts: AlertsInput.optional(),
    judge: judgeField,
  })
  .superRefine((body, ctx) => refuseRepeatedEntities(body.entities, ctx))
  .meta({ id: "MonitorRequest", examples: [exampleRequest] });

export const MonitorUpdateRequest = z
  .strictObject({
    name: name(100).optional(),
    status: MonitorStatus.optional().describe("`paused` stops the schedule; `active` resumes it from the next slot after now (missed slots are not run)."),
    schedule: ScheduleInput.optional().describe("A new schedule; the next run is its next slot after now."),
    monthly_budget_usd: BudgetInput.nullable().optional().describe("A new budget, or null for none."),
    alerts: AlertsInput.optional(),
    prompts: measuredFields.prompts.optional(),
    engines: measuredFields.engines.optional(),
    runs: measuredFields.runs.optional(),
    location: Location.nullable().optional().describe("A new searcher location, or null for none."),
    language: Language.nullable().optional().describe("A new searcher language, or null for none."),
    entities: measuredFields.entities.optional(),
    judge: MonitorJudgeInput.nullable().optional().describe("A judge for the ticks from now on, or null to stop judging; keeps the version (sentiment points exist only for judged ticks)."),
  })
  .superRefine((body, ctx) => refuseRepeatedEntities(body.entities, ctx))
  .meta({
    id: "MonitorUpdateRequest",
    description:
      "Only the fields given change. name, status, schedule, monthly_budget_usd, alerts and judge keep the version; a change to prompts, engines, runs, location, language or entities starts a new series (version + 1). Giving a measured field its current value changes nothing.",
    examples: [{ status: "paused" }, { runs: 5, schedule: { every: "week", at: "07:30", weekday: 1 } }],
  });

export const TickComparison = z
  .object({ a: EngineId, b: EngineId, analysis_id: idOf("cm") })
  .meta({ id: "TickComparison", description: "A tick's comparison of two engines: a (the API) and b (its app), and the comparison analysis." });

const tickFields = {
  id: TickId,
  version: z.int().describe("The monitor's version when the tick was made: its series."),
  scheduled_for: DateTime.describe("The slot it was made for (a manual tick: when it was asked for)."),
  trigger: TickTrigger,
  status: TickStatus,
  skip_reason: TickSkipReason.nullable().describe("Why a skipped tick was skipped; null otherwise, and in a share link's .json (the reason is the workspace's credit or the monitor's budget)."),
  summary: Summary.describe(
    "What to read first, in plain words: how often each entity was named in the tick's answers; what changed since the previous completed tick of its version, only where the series' test (the alerts') calls it a change, else that nothing changed beyond chance; which engines name the brand least and most. A tick without figures yet says where it stands (queued, running, skipped, failed). See Summary.",
  ),
  fanout_id: FanoutId.nullable().describe("The fanout the tick ran (GET /fanouts/{id}); null when skipped, failed before it started, or not made yet."),
  analysis_id: idOf("va").nullable().describe("The visibility analysis of its fanout, made when the fanout finished; null until then."),
  comparisons: z
    .array(TickComparison)
    .describe(
      "The comparison analyses of its fanout (GET /analyses/{id}), one for each API and app pair among the monitor's engines (chatgpt and chatgpt_app, gemini and google_ai_mode, gemini_app or google_ai_overview), made when the fanout finished; empty until then, and for a monitor that tracks no such pair.",
    ),
  charged_usd: Usd.nullable().describe("What its fanout's runs paid so far (all of it once finished); null while billing is off."),
  error: RunError.nullable().describe("Why a failed tick could not start its fanout; null otherwise."),
  created_at: DateTime,
  completed_at: DateTime.nullable().describe("When it closed: its fanout finished and its own work was done, or it was skipped or failed."),
};

const exampleCell = (entity: string, engine: string, k: number, n: number, interval: [number, number]) => ({ entity, engine, k, n, interval });
const exampleTickSummary = {
  id: "mt_01M7VRMMR088ASXAB0JMYCMVPS",
  version: 1,
  scheduled_for: "2026-11-21T06:00:00.000Z",
  trigger: "schedule",
  status: "completed",
  skip_reason: null,
  // Worded by the server's own templates from these figures, so the example says what the server would.
  summary: tickSummary({
    status: "completed",
    figures: {
      cells: [
        exampleCell("Acme CRM", "all", 22, 30, [0.5555, 0.8582]),
        exampleCell("Acme CRM", "chatgpt", 9, 10, [0.5958, 0.9821]),
        exampleCell("Acme CRM", "claude", 6, 10, [0.3127, 0.8318]),
        exampleCell("Acme CRM", "gemini", 7, 10, [0.3968, 0.8922]),
        exampleCell("HubSpot", "all", 25, 30, [0.6644, 0.9266]),
      ],
      focus: "Acme CRM",
      changes: [
        { entity: "Acme CRM", engine: "all", before: { k: 10, n: 30, interval: [0.1923, 0.5122] }, after: { k: 22, n: 30, interval: [0.5555, 0.8582] }, test: { diff: 0.4, interval: [0.1034, 0.6025], significant: true } },
        { entity: "HubSpot", engine: "all", before: { k: 24, n: 30, interval: [0.6269, 0.9049] }, after: { k: 25, n: 30, interval: [0.6644, 0.9266] }, test: { diff: 0.0333, interval: [-0.2, 0.26], significant: false } },
      ],
    },
  }),
  fanout_id: "fo_01M7VRMMR088ASXAB0JMYCMVPV",
  analysis_id: "va_01M7VRMMR088ASXAB0JMYCMVPW",
  comparisons: [],
  charged_usd: "0.39",
  error: null,
  created_at: "2026-11-21T06:00:04.512Z",
  completed_at: "2026-11-21T06:03:41.208Z",
};
const monitorId = "mo_01M7VRMMR088ASXAB0JMYCMVPP";
const exampleTick = { ...exampleTickSummary, monitor_id: monitorId };
const exampleSkippedTick = {
  ...exampleTick,
  id: "mt_01M7VRMMR088ASXAB0JMYCMVPR",
  scheduled_for: "2026-11-22T06:00:00.000Z",
  status: "skipped",
  skip_reason: "budget_exhausted",
  summary: tickSummary({ status: "skipped", figures: null }),
  fanout_id: null,
  analysis_id: null,
  charged_usd: "0.00",
  created_at: "2026-11-22T06:00:03.004Z",
  completed_at: "2026-11-22T06:00:03.011Z",
};

export const TickSummary = z.object(tickFields).meta({ id: "TickSummary", description: "A tick as its monitor shows it (last_tick).", examples: [exampleTickSummary] });

export const Tick = z
  .object({ ...tickFields, monitor_id: MonitorId })
  .meta({ id: "Tick", description: "One run of a monitor's prompts: a fanout made through the same code as POST /fanouts, or a tick skipped before anything started.", examples: [exampleTick, exampleSkippedTick] });

export const TickList = listOf(Tick, "TickList", { description: "Newest first.", examples: [{ items: [exampleSkippedTick, exampleTick], next_cursor: null }] });

const monitorSummaryFields = {
  id: MonitorId,
  project: ProjectId.describe("Its project (`pr_…`); null in a share link's .json, which leaves out what identifies or bills the workspace (also created_by, monthly_budget_usd, spend_month_to_date_usd, alerts, last_tick.charged_usd and last_tick.skip_reason)."),
  name: z.string(),
  status: MonitorStatus,
  version: z.int().describe("Starts at 1; + 1 whenever what is measured changes (a new series)."),
  engines: z.array(EngineId),
  runs: z.int().describe("Executions of each prompt on each engine per tick."),
  schedule: Schedule,
  location: Location.nullable(),
  language: z.string().nullable(),
  entities: z.array(Entity).describe("The brands and competitors measured, as the ticks' analyses use them."),
  monthly_budget_usd: Usd.nullable(),
  alerts: Alerts,
  judge: MonitorJudge.nullable().describe("The engine judging each tick's answers for sentiment; null when the ticks are not judged."),
  next_run_at: DateTime.describe("The next slot of its schedule (while paused: the one it would run at)."),
  last_tick: TickSummary.nullable().describe("Its newest tick; null before the first."),
  spend_month_to_date_usd: Usd.describe(
    "What its ticks spent in this UTC month, what their unfinished runs still hold included: the figure monthly_budget_usd is compared with. A finished tick counts in the month it finished.",
  ),
  created_at: DateTime,
  created_by: z.string().nullable().describe("The email of who created it; its ticks are made and charged in their name."),
};

const exampleEntities = [
  { name: "Acme CRM", role: "brand", aliases: ["Acme"], domains: ["acme.example"], case_sensitive: false },
  { name: "HubSpot", role: "competitor", aliases: ["HubSpot CRM"], domains: ["hubspot.com"], case_sensitive: false },
];
const exampleMonitorSummary = {
  id: monitorId,
  project: exampleIds.project,
  name: "CRM visibility",
  status: "active",
  version: 1,
  engines: ["chatgpt", "claude", "gemini"],
  runs: 3,
  schedule: { every: "day", at: "06:00", weekday: null },
  location: { country: "US" },
  language: null,
  entities: exampleEntities,
  monthly_budget_usd: "25.00",
  alerts: { webhook_url: null, email: true, min_change: 10, digest: "off" },
  judge: null,
  next_run_at: "2026-11-22T06:00:00.000Z",
  last_tick: exampleTickSummary,
  spend_month_to_date_usd: "0.39",
  created_at: "2026-11-20T09:12:40.301Z",
  created_by: "ana@acme.dev",
  prompt_count: 2,
};
const { prompt_count: _count, ...exampleMonitorFields } = exampleMonitorSummary;
const exampleMonitor = {
  ...exampleMonitorFields,
  prompts: [
    { text: "best crm for a small agency", source: null, location: null, language: null },
    { text: "pipedrive vs hubspot", source: null, location: null, language: null },
  ],
};

export const MonitorPrompt = z
  .object({
    text: z.string(),
    source: FanoutPromptSource.nullable(),
    location: Location.nullable().describe("This prompt's own location; null: the monitor's (if any)."),
    language: z.string().nullable().describe("This prompt's own language; null: the monitor's (if any)."),
  })
  .meta({ id: "MonitorPrompt", description: "A prompt as the monitor keeps it." });

export const MonitorSummary = z
  .object({ ...monitorSummaryFields, prompt_count: z.int() })
  .meta({ id: "MonitorSummary", description: "A monitor without its prompts (GET /monitors/{id} has them).", examples: [exampleMonitorSummary] });

export const Monitor = z
  .object({ ...monitorSummaryFields, prompts: z.array(MonitorPrompt) })
  .meta({ id: "Monitor", description: "The same prompts re-run on a schedule, each run of them a tick.", examples: [exampleMonitor] });

const exampleSecret = "whsec_8fK2mQ7xVb3NcR9tLw4ZpH6yJd1sGa5eUo0iTqXnCkMv";

export const MonitorCreated = z
  .object({
    ...monitorSummaryFields,
    prompts: z.array(MonitorPrompt),
    webhook_secret: z
      .string()
      .describe("The secret the monitor's webhooks are signed with (HMAC-SHA256): shown here once, never again; POST /monitors/{id}/webhook-secret/rotate makes a new one."),
  })
  .meta({ id: "MonitorCreated", description: "A monitor with its webhook secret, shown once.", examples: [{ ...exampleMonitor, webhook_secret: exampleSecret }] });


// ---------------------------------------------------------------------------
// The series (GET /monitors/{id}/series)
// ---------------------------------------------------------------------------

export const SERIES_METRICS = ["visibility", "share_of_voice", "cited_rate", "average_position", "top3_rate", "sentiment"] as const;

export const SeriesMetric = z.enum(SERIES_METRICS).meta({
  id: "SeriesMetric",
  description:
    "`visibility`: runs mentioning the entity / runs. `share_of_voice`: runs mentioning it / runs mentioning any tracked entity, summed over entities (share_of_voice_n). `cited_rate`: runs citing a page of its domains / runs. `top3_rate`: runs where it was among the first three named / runs. `average_position`: the mean rank of its first counted mention over the runs mentioning it (1 = named first; lower is better). `sentiment`: the judge's sentiment score, the share of positive among the positive and negative verified sentiments of the entity in the tick's judged runs (the `score` of the tick analysis's rows[].sentiment; 1 = all positive); points exist only for ticks the monitor judged (its `judge`), so a monitor never judged answers no points.",
});

const seriesEngine = z.enum([...ENGINE_IDS, "all"]);

const rule = "must be a whole number from 1 to the monitor's current version";

export const SeriesQuery = z.object({
  metric: SeriesMetric.prefault("visibility").describe("The figure: visibility (default), share_of_voice, cited_rate, average_position, top3_rate or sentiment (judged ticks only)."),
  entity: z
    .string()
    .min(1, { error: "must name one of the monitor's entities" })
    .optional()
    .describe("An entity's name as the monitor's entities write it (matched exactly, else ignoring case); default the first (its brand). Another name is 400 listing them."),
  engine: seriesEngine.optional().describe("An engine id of the version's engines, or `all` (the default): every engine's runs together. An engine the version does not run is 400 naming those it runs."),
  version: z
    .preprocess(readDecimal, z.int({ error: rule }).min(1, { error: rule }).max(2147483647, { error: rule }))
    .optional()
    .describe("The series (the monitor's version); default the current one. Above the current version is 400."),
});

export const SeriesChange = z
  .object({
    diff: z.number().describe("This point's value minus the previous point's, rounded to 4 places (for average_position, in positions: positive is a worse rank)."),
    interval: z
      .tuple([z.number(), z.number()])
      .describe("The difference's interval at 1 − 0.05/m (m: the tick's entity × engine cells, engine `all` included): Newcombe's hybrid score interval for the rates (sentiment's score included); a normal (Welch) interval from each tick's positions for average_position."),
    significant: z
      .boolean()
      .describe("Rates (sentiment's score included): the interval excludes 0 and |diff| ≥ the monitor's alerts.min_change points. average_position: the interval excludes 0 and each tick has at least 10 runs mentioning the entity (min_change, in points of a rate, does not apply)."),
  })
  .meta({ id: "SeriesChange", description: "The change from the previous point of the series (the previous completed or partial tick of the same version with this cell)." });

export const SeriesPoint = z
  .object({
    tick_id: TickId,
    at: DateTime.describe("The tick's scheduled_for."),
    runs: z.int().min(0).describe("The runs of this entity × engine cell the tick's analysis counted."),
    n: z.int().min(0).describe("What value is over: runs (visibility, cited_rate, top3_rate), share_of_voice_n (share_of_voice) or the runs mentioning the entity (average_position), or for sentiment the judged runs with a positive or negative verified sentiment of the entity (neutral ones are in no score). An addition: every figure with its n."),
    value: z.number().nullable().describe("The figure, as the tick's visibility analysis states it; null when undefined (share of voice with no tracked entity mentioned, average position when never mentioned, sentiment when no judged run spoke of the entity positively or negatively)."),
    interval: z
      .tuple([z.number(), z.number()])
      .nullable()
      .describe("95%: Wilson's for the rates (share_of_voice over share_of_voice_n; sentiment over n, the tick analysis's score_interval); for average_position the tick's analysis's interval (Student's t from its runs' positions, clipped to 1..entities; a bootstrap interval on ticks analysed before t); null with a null value."),
    change: SeriesChange.nullable().describe("Null for the first point, or when either value is null."),
  })
  .meta({ id: "SeriesPoint", description: "One completed (or partial) tick's figure of one cell." });

export const MonitorSeries = z
  .object({
    metric: SeriesMetric,
    entity: z.string(),
    engine: seriesEngine,
    version: z.int().min(1),
    points: z
      .array(SeriesPoint)
      .describe("Oldest first: every completed or partial tick of the version with an analysis; for sentiment, only those whose analysis was judged (empty for a monitor that never judged its ticks)."),
    sentiment: z
      .array(
        z.object({
          tick_id: TickId,
          runs_judged: z.int().min(0).describe("The runs of this cell the judge judged (of `runs`)."),
          positive: z.int().min(0),
          neutral: z.int().min(0),
          negative: z.int().min(0),
        }),
      )
      .optional()
      .describe("metric=sentiment only: each point's counts, in the points' order (the score is positive / (positive + negative) = value)."),
  })
  .meta({
    id: "MonitorSeries",
    description: "One metric of one entity on one engine (or all) over a version's ticks.",
    examples: [
      {
        metric: "visibility",
        entity: "Acme CRM",
        engine: "all",
        version: 1,
        points: [
          { tick_id: "mt_01M7VRMMR088ASXAB0JMYCMVPS", at: "2026-11-21T06:00:00.000Z", runs: 30, n: 30, value: 0.3333, interval: [0.1923, 0.5122], change: null },
          {
            tick_id: "mt_01M7VRMMR088ASXAB0JMYCMVPT", at: "2026-11-22T06:00:00.000Z", runs: 30, n: 30, value: 0.7333, interval: [0.5558, 0.8582],
            change: { diff: 0.4, interval: [0.1034, 0.6025], significant: true },
          },
        ],
      },
    ],
  });

export const MonitorList = listOf(MonitorSummary, "MonitorList", { description: "Newest first.", examples: [{ items: [exampleMonitorSummary], next_cursor: null }] });

export const MonitorsQuery = z.object({
  project: ProjectId.optional().describe("Only this project's monitors."),
  workspace: WorkspaceId.optional().describe("Only this workspace's monitors."),
  limit: limitParam,
  cursor: cursorParam,
});

const monitorParams = z.object({ monitor_id: MonitorId });

export const MonitorEstimate = z
  .object({
    prompts: z.int(),
    engines: z.array(EngineId),
    runs: z.int(),
    executions_per_tick: z.int().describe("prompts × engines × runs."),
    max_executions: z.int().describe("The most one tick may run on this server; creating a larger monitor is refused."),
    ticks_per_month: z.int().describe("The most ticks a month can have on its schedule: 31 every day, 5 every week."),
    lines: z
      .array(z.object({ engine: EngineId, executions: z.int(), unit_price_usd: Usd, amount_usd: Usd }))
      .describe("One tick's price per engine, at the current rate card."),
    judge: z
      .object({ engine: StructuredEngineId, runs: z.int().describe("The runs a tick's judge holds for: executions_per_tick."), unit_price_usd: Usd, amount_usd: Usd })
      .nullable()
      .describe("One tick's judge, its own line (product `judge`, per run, at the current rate card): held for every run at the tick's start, paid per run judged; included in per_tick_usd. Null without a judge."),
    per_tick_usd: Usd.describe("The runs' lines plus the judge's line."),
    per_month_usd: Usd.describe("per_tick_usd × ticks_per_month: the most a month can cost without a budget."),
    monthly_budget_usd: Usd.nullable().describe("The budget asked for, or null for none."),
    ticks_within_budget: z.int().nullable().describe("How many ticks a month the budget pays for (the rest are skipped); null without a budget."),
    pricing_version: z.string(),
    billing_enabled: z.boolean(),
    margin: PlanMargin.describe("How precise each tick's visibility rates will be per engine."),
    detectable_change: DetectableChange,
  })
  .meta({ id: "MonitorEstimate", description: "Informational: creates, starts and holds nothing, and is not a quote.", examples: [exampleMonitorEstimate] });

export const estimateMonitor = defineEndpoint({
  method: "POST", path: "/monitors/estimate", operationId: "estimateMonitor", summary: "What a monitor would run, cost and be able to see; creates nothing",
  description:
    "The body POST /monitors takes; nothing is created, held or checked against credit, and the webhook URL is not resolved. Each tick is priced at the current rate card; `margin` says how precise each tick's rates will be, `detectable_change` how large a change between two ticks its alerts catch 8 times in 10. 400 for what POST /monitors refuses in its body (sources, no entity); over max_executions it answers 200 with the limit, as the fanout estimate does.",
  tags: ["Monitors"], auth: "bearer", body: MonitorRequest, response: MonitorEstimate, status: 200,
});

export const createMonitor = defineEndpoint({
  method: "POST", path: "/monitors", operationId: "createMonitor", summary: "Re-run a set of prompts every day or week",
  description:
    "Creates the monitor (nothing runs now: the first tick is due at next_run_at; POST /monitors/{id}/run runs one at once). Its webhook secret is in this answer only. 400 over max_executions (prompts × engines × runs), for sources as POST /fanouts, or when no entity is given and the project context names no brand or competitor. Also refused with 400 naming the field: `schedule.weekday` with `every: \"day\"` (a weekday is only for `every: \"week\"`); two entities whose names differ only in case or spaces; an engine not enabled on this server; a location whose city the place data knows only in another country (see Location).",
  tags: ["Monitors"], auth: "bearer", body: MonitorRequest, response: MonitorCreated, status: 201,
});
export const listMonitors = defineEndpoint({
  method: "GET", path: "/monitors", operationId: "listMonitors", summary: "Monitors, newest first, without their prompts",
  description: "Across the workspaces the credential can act in, newest first, paginated; `project` and `workspace` narrow the list.",
  tags: ["Monitors"], auth: "bearer", query: MonitorsQuery, response: MonitorList, status: 200,
});
export const getMonitor = defineEndpoint({
  method: "GET", path: "/monitors/{monitor_id}", operationId: "getMonitor", summary: "One monitor, its prompts, next run and last tick",
  description: "Everything it measures and when, its next slot, its newest tick and what its ticks spent this UTC month. Never its webhook secret.",
  tags: ["Monitors"], auth: "bearer", params: monitorParams, response: Monitor, status: 200,
});
export const updateMonitor = defineEndpoint({
  method: "PATCH", path: "/monitors/{monitor_id}", operationId: "updateMonitor", summary: "Change a monitor: when and how much keep its series, what is measured starts a new one",
  description:
    "Only the fields given change. name, status, schedule, monthly_budget_usd and alerts keep the version; a change to prompts, engines, runs, location, language or entities makes version + 1, a new series.",
  tags: ["Monitors"], auth: "bearer", params: monitorParams, body: MonitorUpdateRequest, response: Monitor, status: 200,
});
export const deleteMonitor = defineEndpoint({
  method: "DELETE", path: "/monitors/{monitor_id}", operationId: "deleteMonitor", summary: "Delete a monitor; its fanouts and analyses stay",
  description: "The monitor and its ticks are gone (404 afterwards); the fanouts and analyses its ticks made stay, as does what they were charged.",
  tags: ["Monitors"], auth: "bearer", params: monitorParams, status: 204,
});
export const runMonitor = defineEndpoint({
  method: "POST", path: "/monitors/{monitor_id}/run", operationId: "runMonitor", summary: "A tick now, outside the schedule",
  description:
    "Makes a tick at once (also while paused): its fanout, through the same code as POST /fanouts, or a tick skipped for credit or budget, which started nothing. 429 past the in-flight limit (no tick is made).",
  tags: ["Monitors"], auth: "bearer", params: monitorParams, response: Tick, status: 202,
  errors: ["rate_limited"],
});
export const rotateMonitorWebhookSecret = defineEndpoint({
  method: "POST", path: "/monitors/{monitor_id}/webhook-secret/rotate", operationId: "rotateMonitorWebhookSecret",
  summary: "A new webhook secret, shown once; alerts raised from now on are signed with it",
  description:
    "Makes a new signing secret for the monitor's webhooks and answers it in this 201 only; alerts raised from now on are signed with it. The retries of an alert raised before keep the secret its first attempt was signed with (and only that one): keep the old secret until they are over. The version is kept.",
  tags: ["Monitors"], auth: "bearer", params: monitorParams, response: MonitorCreated, status: 201,
});
export const listMonitorTicks = defineEndpoint({
  method: "GET", path: "/monitors/{monitor_id}/ticks", operationId: "listMonitorTicks", summary: "A monitor's ticks, newest first",
  description: "Every tick, scheduled or manual, skipped or run, newest first and paginated, each with its version (series), status, fanout and charge.",
  tags: ["Monitors"], auth: "bearer", params: monitorParams, query: z.object({ limit: limitParam, cursor: cursorParam }), response: TickList, status: 200,
});

export const getMonitorTick = defineEndpoint({
  method: "GET", path: "/monitors/{monitor_id}/ticks/{tick_id}", operationId: "getMonitorTick", summary: "One tick of a monitor",
  description:
    "The tick as the list shows it. With `wait=N` (up to 30) the request returns as soon as the tick has closed (completed, partial, failed or skipped): a tick closes once its fanout's last run has finished and its figures are made, so its `summary` then says what it found. A tick of another monitor answers 404, as a missing one does.",
  tags: ["Monitors"], auth: "bearer", params: monitorParams.extend({ tick_id: TickId }), query: z.object({ wait: waitParam }), response: Tick, status: 200,
});

export const getMonitorSeries = defineEndpoint({
  method: "GET", path: "/monitors/{monitor_id}/series", operationId: "getMonitorSeries", summary: "A metric of one entity and engine over a version's ticks, with intervals and changes",
  description:
    "One point per completed or partial tick of the version (default the current one), oldest first, read from the figures each tick's visibility analysis stored: the value with its n and 95% interval, and its change from the previous point with the interval at 1 − 0.05/m and whether it is significant (as alerts decide). 400 naming metric, entity, engine or version when the monitor has no such one.",
  tags: ["Monitors"], auth: "bearer", params: monitorParams, query: SeriesQuery, response: MonitorSeries, status: 200,
});

export type MonitorBody = z.input<typeof Monitor>;
export type TickBody = z.input<typeof Tick>;
