// Monitors: the same prompts re-run every day or week, each run a tick (a fanout). Prompts come
// from arguments or a file (one per line, the `--file` reading every command shares).
import { readFileSync } from "node:fs";
import type { z } from "zod";
import type { EntityInput } from "../../lib/schemas/visibility";
import {
  createMonitor, deleteMonitor, estimateMonitor, type MonitorEstimate, getMonitor, getMonitorTick, listMonitors, listMonitorTicks, runMonitor, scheduleInWords, updateMonitor,
  type Monitor, type MonitorCreated, type MonitorRequest, type MonitorSummary, type MonitorUpdateRequest, type Tick,
} from "../../lib/schemas/monitors";
import { getFanout } from "../../lib/schemas/fanouts";
import { STRUCTURED_ENGINE_IDS } from "../../lib/schemas/common";
import { EXIT, type ApiResult } from "../client";
import {
  arg, date, enginesInOrder, intOption, linesOfFile, noExtraArgs, note, opt, out, printJson, projectOf, request, show, str, strs, table, truncate, UsageError,
  type Ctx, type OptionSpec, type Section,
} from "../command";
import { counted } from "../../lib/words/format";
import { keptPrompts } from "../../lib/monitors/prompts";
import { marketLabel, marketOf, marketOptions } from "../market";
import { followFanout, planOf, promptsOf, runOptions } from "./fanouts";

type MonitorBody = z.output<typeof Monitor>;
type RequestBody = z.input<typeof MonitorRequest>;

const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

const createOptions = {
  project: opt.project,
  file: { type: "string", arg: "FILE", help: "read the prompts from FILE, one per line (blank lines and # comments skipped; `-`: standard input)" },
  name: { type: "string", arg: "NAME", help: "a name for the monitor (default: the first prompt)" },
  engines: runOptions.engines,
  runs: { type: "string", arg: "N", help: "executions of each prompt on each engine per tick, 1 to 10 (default 3)" },
  every: { type: "string", arg: "day|week", values: ["day", "week"], help: "how often a tick is due (default day)" },
  at: { type: "string", arg: "HH:MM", help: "the time of day it is due, UTC (default 06:00)" },
  weekday: { type: "string", arg: "1-7|NAME", values: WEEKDAYS, help: "with --every week: the day, 1 (Monday) to 7 (Sunday) or its name (default Monday)" },
  ...marketOptions,
  brand: { type: "string", arg: "NAME", multiple: true, help: "a brand to measure (repeatable); with --competitor, instead of the project's brands and competitors" },
  competitor: { type: "string", arg: "NAME", multiple: true, help: "a competitor to measure (repeatable)" },
  entities: { type: "string", arg: "FILE", help: "the entities to measure as a JSON list of {name, role, aliases?, domains?, case_sensitive?}" },
  budget: { type: "string", arg: "USD", help: "the most its ticks may spend in a UTC month (\"25.00\"); a tick past it is skipped" },
  "webhook-url": { type: "string", arg: "URL", help: "where alerts are POSTed, signed with the monitor's webhook secret" },
  email: { type: "boolean", help: "email you its alerts" },
  "min-change": { type: "string", arg: "N", help: "the smallest change of visibility worth an alert, in points, 1 to 100 (default 10)" },
  judge: { type: "string", arg: "ENGINE", values: STRUCTURED_ENGINE_IDS, help: "judge each tick's answers for sentiment with ENGINE (charged per run judged, counted in the budget)" },
  digest: { type: "string", arg: "off|weekly", values: ["off", "weekly"], help: "weekly: e-mail you a digest each week on its day (daily monitors: Monday); default off" },
} as const satisfies Record<string, OptionSpec>;

/** --judge ENGINE as the API takes it: {engine, sentiment: true}; on update, `off` is null (stop judging). */
function judgeOf(ctx: Ctx, update = false): RequestBody["judge"] | undefined {
  const engine = str(ctx, "judge");
  if (engine === undefined) return undefined;
  if (update && (engine === "off" || engine === "none")) return null;
  if (!(STRUCTURED_ENGINE_IDS as readonly string[]).includes(engine)) {
    throw new UsageError(`unknown judge engine "${engine}": --judge takes ${STRUCTURED_ENGINE_IDS.join(", ")}${update ? ", or off" : ""}`);
  }
  return { engine: engine as NonNullable<RequestBody["judge"]>["engine"], sentiment: true };
}

function weekdayOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (/^[1-7]$/.test(value)) return Number(value);
  const at = WEEKDAYS.findIndex((d) => d.startsWith(value.toLowerCase()) && value.length >= 2);
  if (at === -1) throw new UsageError("--weekday takes 1 (Monday) to 7 (Sunday), or the day's name");
  return at + 1;
}

function scheduleOf(ctx: Ctx): RequestBody["schedule"] | undefined {
  const every = str(ctx, "every");
  const at = str(ctx, "at");
  const weekday = weekdayOf(str(ctx, "weekday"));
  if (every === undefined && at === undefined && weekday === undefined) return undefined;
  if (every !== undefined && every !== "day" && every !== "week") throw new UsageError("--every takes day or week");
  const kind = every ?? (weekday !== undefined ? "week" : "day");
  if (kind === "day" && weekday !== undefined) throw new UsageError("--weekday goes with --every week");
  return { every: kind, at: at ?? "06:00", ...(weekday !== undefined ? { weekday } : {}) };
}

function entitiesOf(ctx: Ctx): z.input<typeof EntityInput>[] | undefined {
  const file = str(ctx, "entities");
  const named = [...strs(ctx, "brand").map((name) => ({ name, role: "brand" as const })), ...strs(ctx, "competitor").map((name) => ({ name, role: "competitor" as const }))];
  if (file !== undefined && named.length > 0) throw new UsageError("give --entities FILE, or --brand and --competitor, not both");
  if (named.length > 0) return named;
  if (file === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file === "-" ? 0 : file, "utf8"));
  } catch (error) {
    throw new UsageError(`--entities: ${file} is not a JSON list of entities (${(error as Error).message})`);
  }
  if (!Array.isArray(value)) throw new UsageError("--entities takes a JSON list of {name, role, aliases?, domains?, case_sensitive?}");
  // Passed through as written: the API checks every field and names what is wrong (400).
  return value as z.input<typeof EntityInput>[];
}

function alertsOf(ctx: Ctx): RequestBody["alerts"] | undefined {
  const webhook = str(ctx, "webhook-url");
  const email = ctx.values.email === true ? true : undefined;
  const minChange = intOption(ctx, "min-change");
  const digest = str(ctx, "digest");
  if (digest !== undefined && digest !== "off" && digest !== "weekly") throw new UsageError("--digest takes off or weekly");
  if (webhook === undefined && email === undefined && minChange === undefined && digest === undefined) return undefined;
  return {
    ...(webhook !== undefined ? { webhook_url: webhook } : {}), ...(email ? { email } : {}), ...(minChange !== undefined ? { min_change: minChange } : {}),
    ...(digest !== undefined ? { digest } : {}),
  };
}

/** What `monitor update` changes: the settings that keep the monitor's version (its series), then what it measures (a new series). */
const updateOptions = {
  name: { type: "string", arg: "NAME", help: "a new name" },
  every: { type: "string", arg: "day|week", values: ["day", "week"], help: "how often a tick is due (the rest of the schedule kept; a week's day Monday unless --weekday)" },
  at: { type: "string", arg: "HH:MM", help: "the time of day it is due, UTC" },
  weekday: { type: "string", arg: "1-7|NAME", values: WEEKDAYS, help: "a weekly monitor's day, 1 (Monday) to 7 (Sunday) or its name" },
  judge: { type: "string", arg: "ENGINE|off", values: [...STRUCTURED_ENGINE_IDS, "off"], help: "judge each tick's answers for sentiment with ENGINE from the next tick; off stops judging" },
  budget: { type: "string", arg: "USD|none", help: "the most its ticks may spend in a UTC month (\"25.00\"); none: no budget" },
  "webhook-url": { type: "string", arg: "URL|none", help: "where alerts are POSTed, signed with the monitor's webhook secret; none: no webhook" },
  email: { type: "string", arg: "on|off", values: ["on", "off"], help: "email you its alerts, or stop" },
  "min-change": { type: "string", arg: "N", help: "the smallest change of visibility worth an alert, in points, 1 to 100" },
  digest: { type: "string", arg: "off|weekly", values: ["off", "weekly"], help: "weekly: e-mail you a digest each week on its day (daily monitors: Monday); off: stop" },
  // What it measures: a change starts a new series (version + 1) from the next tick.
  prompt: { type: "string", arg: "TEXT", multiple: true, help: "new series: the prompts it measures, replacing all of them (repeatable; one given again as it was keeps its question and market)" },
  file: { type: "string", arg: "FILE", help: "new series: the prompts from FILE, one per line (blank lines and # comments skipped; `-`: standard input)" },
  engines: { ...runOptions.engines, help: "new series: the engines it measures, comma-separated, replacing all of them" },
  runs: { type: "string", arg: "N", help: "new series: executions of each prompt on each engine per tick, 1 to 10" },
  country: { type: "string", arg: "CC|none", help: "new series: run as a searcher in this country (ISO 3166-1 alpha-2); none: anywhere" },
  city: { type: "string", arg: "CITY", help: "new series: … in this city (with --country)" },
  language: { type: "string", arg: "TAG|none", help: "new series: … speaking this language (a BCP 47 tag); none: not set" },
  location: marketOptions.location,
  brand: { type: "string", arg: "NAME", multiple: true, help: "new series: a brand to measure (repeatable); with --competitor, replacing every entity" },
  competitor: { type: "string", arg: "NAME", multiple: true, help: "new series: a competitor to measure (repeatable)" },
  entities: { type: "string", arg: "FILE", help: "new series: the entities to measure as a JSON list of {name, role, aliases?, domains?, case_sensitive?}" },
} as const satisfies Record<string, OptionSpec>;

type Measured = Pick<z.input<typeof MonitorUpdateRequest>, "prompts" | "engines" | "runs" | "location" | "language" | "entities">;

/**
 * What `monitor update` changes of what a monitor measures (prompts, engines, runs, market,
 * entities): each replaces the current one whole, and any change starts a new series. Read once
 * per command: `--file -` reads standard input, which can be read only once.
 */
function measuredUpdate(ctx: Ctx): Measured {
  const file = str(ctx, "file");
  if (strs(ctx, "prompt").length > 0 && file !== undefined) throw new UsageError("give the prompts with --prompt or --file, not both");
  const texts = file !== undefined ? linesOfFile(file) : strs(ctx, "prompt");
  if (file !== undefined && texts.length === 0) throw new UsageError(`--file: ${file === "-" ? "standard input" : file} holds no prompt`);
  const { engines, runs } = planOf(ctx);
  // none: the market's part taken away; else as `monitor create` reads it.
  const country = str(ctx, "country");
  const language = str(ctx, "language");
  const noCountry = country?.toLowerCase() === "none";
  if (noCountry && (str(ctx, "city") !== undefined || str(ctx, "location") !== undefined)) throw new UsageError("--country none takes no --city or --location");
  const market = marketOf({ ...ctx, values: { ...ctx.values, ...(noCountry ? { country: undefined } : {}), ...(language?.toLowerCase() === "none" ? { language: undefined } : {}) } });
  const entities = entitiesOf(ctx);
  return {
    ...(texts.length > 0 ? { prompts: texts.map((text) => ({ text })) } : {}),
    ...(engines !== undefined ? { engines } : {}),
    ...(runs !== undefined ? { runs } : {}),
    ...(noCountry ? { location: null } : market.location !== undefined ? { location: market.location } : {}),
    ...(language?.toLowerCase() === "none" ? { language: null } : market.language !== undefined ? { language: market.language } : {}),
    ...(entities !== undefined ? { entities } : {}),
  };
}

/**
 * A new schedule from `monitor update`'s --every, --at and --weekday, the parts not given kept from
 * `current` (the API takes a whole schedule); undefined when none is given.
 */
export function scheduleUpdate(ctx: Ctx, current: z.output<typeof Monitor>["schedule"]): RequestBody["schedule"] | undefined {
  const every = str(ctx, "every");
  const at = str(ctx, "at");
  const weekday = weekdayOf(str(ctx, "weekday"));
  if (every === undefined && at === undefined && weekday === undefined) return undefined;
  if (every !== undefined && every !== "day" && every !== "week") throw new UsageError("--every takes day or week");
  const kind = every ?? (weekday !== undefined ? "week" : current.every);
  if (kind === "day" && weekday !== undefined) throw new UsageError("--weekday goes with a weekly schedule (--every week)");
  const day = kind === "week" ? (weekday ?? (current.every === "week" ? (current.weekday ?? 1) : 1)) : undefined;
  return { every: kind, at: at ?? current.at, ...(day !== undefined ? { weekday: day } : {}) };
}

/** What `monitor update` says on standard error when it was given something of what the monitor measures. */
export function versionNote(id: string, before: number, after: number): string {
  if (after === before) return `What it measures is as it was: still version ${after}, its series goes on.`;
  return (
    `What it measures changed: version ${after}, a new series from the next tick. ` +
    `Version ${before}'s stays readable: geoscope monitor series ${id} --version ${before}`
  );
}

/** Whether `monitor update` was given a part of the schedule (then the current one is read first). */
const schedulePartGiven = (ctx: Ctx) => ["every", "at", "weekday"].some((name) => str(ctx, name) !== undefined);

/** PATCH /monitors/{id}'s body from `monitor update`'s options (`measured`: what it measures, read once): only what is given changes. */
export function updateBody(ctx: Ctx, schedule?: RequestBody["schedule"], measured: Measured = measuredUpdate(ctx)): z.input<typeof MonitorUpdateRequest> {
  const judge = judgeOf(ctx, true);
  const name = str(ctx, "name");
  const budget = str(ctx, "budget");
  const webhook = str(ctx, "webhook-url");
  const email = str(ctx, "email");
  if (email !== undefined && email !== "on" && email !== "off") throw new UsageError("--email takes on or off");
  const minChange = intOption(ctx, "min-change");
  const digest = str(ctx, "digest") as "off" | "weekly" | undefined;
  if (digest !== undefined && digest !== "off" && digest !== "weekly") throw new UsageError("--digest takes off or weekly");
  const alerts = {
    ...(webhook !== undefined ? { webhook_url: webhook === "none" ? null : webhook } : {}),
    ...(email !== undefined ? { email: email === "on" } : {}),
    ...(minChange !== undefined ? { min_change: minChange } : {}),
    ...(digest !== undefined ? { digest } : {}),
  };
  const body = {
    ...(name !== undefined ? { name } : {}),
    ...(schedule !== undefined ? { schedule } : {}),
    ...(judge !== undefined ? { judge } : {}),
    ...(budget !== undefined ? { monthly_budget_usd: budget === "none" ? null : budget } : {}),
    ...(Object.keys(alerts).length ? { alerts } : {}),
    ...measured,
  };
  if (Object.keys(body).length === 0) {
    throw new UsageError(
      "nothing to change: give --name, --every day|week, --at HH:MM, --weekday, --judge ENGINE|off, --budget USD|none, --webhook-url URL|none, --email on|off, --min-change N or --digest off|weekly; " +
        "or, starting a new series, --prompt TEXT, --file FILE, --engines, --runs, --country CC|none, --language TAG|none, --brand/--competitor or --entities FILE",
    );
  }
  return body;
}

function createBody(ctx: Ctx): RequestBody {
  const texts = promptsOf(ctx);
  const { engines, runs, name } = planOf(ctx);
  const schedule = scheduleOf(ctx);
  const entities = entitiesOf(ctx);
  const budget = str(ctx, "budget");
  const alerts = alertsOf(ctx);
  const judge = judgeOf(ctx);
  return {
    project: projectOf(ctx),
    prompts: texts.map((text) => ({ text })),
    ...(typeof name === "string" ? { name } : {}),
    ...(engines !== undefined ? { engines } : {}),
    ...(runs !== undefined ? { runs } : {}),
    ...(schedule ? { schedule } : {}),
    ...marketOf(ctx),
    ...(entities ? { entities } : {}),
    ...(budget !== undefined ? { monthly_budget_usd: budget } : {}),
    ...(alerts ? { alerts } : {}),
    ...(judge ? { judge } : {}),
  };
}

/** POST /monitors/estimate as `monitor estimate` prints it: the size, the price per tick and month, then how precise. */
export function formatMonitorEstimate(e: z.output<typeof MonitorEstimate>): string {
  const lines = [
    `${counted(e.prompts, "prompt")} × ${counted(e.engines.length, "engine")} (${enginesInOrder(e.engines).join(", ")}) × ${counted(e.runs, "run")} = ${counted(e.executions_per_tick, "execution")} per tick`,
    `$${e.per_tick_usd} per tick; at most ${e.ticks_per_month} ticks a month: $${e.per_month_usd} a month at prices ${e.pricing_version}` +
      (e.billing_enabled ? "" : " (billing is off: nothing is charged)"),
  ];
  if (e.judge) lines.push(`of which the judge (${e.judge.engine}): $${e.judge.amount_usd} per tick at most (${e.judge.runs} runs × $${e.judge.unit_price_usd}; paid per run judged)`);
  if (e.monthly_budget_usd !== null) lines.push(`a $${e.monthly_budget_usd} monthly budget pays for ${e.ticks_within_budget} of them; the rest are skipped`);
  if (e.executions_per_tick > e.max_executions) lines.push(`over this server's limit of ${e.max_executions} executions per tick: creating it would be refused`);
  lines.push(...e.margin.summary, ...e.detectable_change.summary);
  return lines.join("\n");
}

/** A tick's status with its skip reason: "skipped (budget_exhausted)". */
export function tickStatusText(t: { status: string; skip_reason: string | null }): string {
  return t.skip_reason ? `${t.status} (${t.skip_reason})` : t.status;
}

/** A tick's summary under a line naming it: what a monitor's and a tick's output lead with. */
function tickWords(t: { id: string; scheduled_for: string; summary: readonly string[] }, what: string): string[] {
  return [`${what} ${t.id} (${date(t.scheduled_for)}):`, ...t.summary.map((s) => `  ${s}`), ""];
}

export function formatMonitor(m: MonitorBody | z.output<typeof MonitorSummary>): string {
  const prompts = "prompts" in m ? m.prompts : null;
  const count = prompts ? prompts.length : (m as z.output<typeof MonitorSummary>).prompt_count;
  const market = marketLabel(m.location, m.language);
  const lines = [
    ...(m.last_tick ? tickWords(m.last_tick, "last tick") : []),
    `monitor ${m.id}: ${m.status} · version ${m.version} · ${m.name}`,
    `${scheduleInWords(m.schedule)}; next run ${m.status === "paused" ? "(paused) " : ""}${date(m.next_run_at)}`,
    `${counted(count, "prompt")} × ${enginesInOrder(m.engines).join(", ")} × ${counted(m.runs, "run")} = ${counted(count * m.engines.length * m.runs, "execution")} per tick${market ? ` · ${market}` : ""}`,
    `spent this month $${m.spend_month_to_date_usd}${m.monthly_budget_usd ? ` of a $${m.monthly_budget_usd} budget` : " (no budget)"}`,
    `entities: ${m.entities.map((e) => `${e.name} (${e.role})`).join(", ")}`,
    `judge: ${m.judge ? `${m.judge.engine} (sentiment; geoscope monitor series ${m.id} --metric sentiment)` : "none"}`,
    `alerts: ${m.alerts.webhook_url ? `webhook ${m.alerts.webhook_url}` : "no webhook"}, ${m.alerts.email ? "email" : "no email"}, from ${m.alerts.min_change} points${m.alerts.digest === "weekly" ? ", weekly digest (geoscope monitor digests " + m.id + ")" : ""}`,
    m.last_tick
      ? `last tick ${m.last_tick.id} for ${date(m.last_tick.scheduled_for)}: ${tickStatusText(m.last_tick)}${m.last_tick.fanout_id ? ` (fanout ${m.last_tick.fanout_id})` : ""}`
      : "no tick yet",
  ];
  if (prompts) {
    lines.push("");
    prompts.forEach((p, i) => {
      const own = marketLabel(p.location, p.language);
      lines.push(`${String(i + 1).padStart(String(prompts.length).length)}. ${p.text.replace(/\s+/g, " ").trim()}${own ? `  [${own}]` : ""}`);
    });
  }
  return lines.join("\n");
}

function tickLine(t: z.output<typeof Tick>): string {
  const where = !t.fanout_id ? "" : t.completed_at ? `; fanout ${t.fanout_id}` : `; fanout ${t.fanout_id} (follow it with: geoscope fanout get ${t.fanout_id} --wait 30)`;
  const why = t.error ? `: ${t.error.message}` : "";
  return [...t.summary, `tick ${t.id} (${t.trigger}, version ${t.version}): ${tickStatusText(t)}${where}${why}`].join("\n");
}

/**
 * `monitor run --wait`: the tick's fanout followed to its end (progress on stderr, as `fanout
 * create --wait` shows it), then the tick read with `wait` until it has closed, its figures made.
 */
async function followTick(ctx: Ctx, monitorId: string, tick: z.output<typeof Tick>): Promise<ApiResult<typeof getMonitorTick>> {
  const params = { monitor_id: monitorId, tick_id: tick.id };
  if (tick.fanout_id) await followFanout(ctx, await request(ctx, getFanout, { params: { fanout_id: tick.fanout_id } }));
  let current = await request(ctx, getMonitorTick, { params, query: { wait: 30 } });
  while (current.body.completed_at === null) {
    note(`tick ${tick.id}: ${tickStatusText(current.body)}, its figures being made`);
    current = await request(ctx, getMonitorTick, { params, query: { wait: 30 } });
  }
  return current;
}

export function idArg(ctx: Ctx): string {
  const id = arg(ctx, 0, "monitor id (mo_…)");
  noExtraArgs(ctx, 1);
  return id;
}

/** PATCH status: paused or active. */
async function setStatus(ctx: Ctx, status: "paused" | "active"): Promise<number> {
  const id = idArg(ctx);
  show(ctx, await request(ctx, updateMonitor, { params: { monitor_id: id }, body: { status } }), (m) =>
    status === "paused" ? `Paused ${m.id}: no tick is made until it is resumed.` : `Resumed ${m.id}: next tick ${date(m.next_run_at)} (${scheduleInWords(m.schedule)}).`,
  );
  return EXIT.ok;
}

export const monitors: Section = {
  title: "Monitors",
  commands: [
    {
      words: ["monitor", "create"],
      args: '["PROMPT" …]',
      summary: "re-run prompts every day or week (nothing runs now; each tick is charged like a fanout)",
      options: createOptions,
      async run(ctx) {
        const result = await request(ctx, createMonitor, { body: createBody(ctx) });
        if (ctx.json) {
          printJson(result.text, ctx.pretty);
          return EXIT.ok;
        }
        const m: z.output<typeof MonitorCreated> = result.body;
        out(formatMonitor(m));
        note(`Created. The first tick is due ${date(m.next_run_at)}; run one now with: geoscope monitor run ${m.id}`);
        note("Its webhook secret is shown once, below; store it now to check its webhooks' signatures.");
        out(`webhook secret: ${m.webhook_secret}`);
        return EXIT.ok;
      },
    },
    {
      words: ["monitor", "estimate"],
      args: '["PROMPT" …]',
      summary: "what a monitor would run and cost per tick and per month, and how precise its figures would be (creates nothing)",
      options: createOptions,
      async run(ctx) {
        show(ctx, await request(ctx, estimateMonitor, { body: createBody(ctx) }), formatMonitorEstimate);
        return EXIT.ok;
      },
    },
    {
      words: ["monitor", "list"],
      summary: "monitors, newest first",
      options: { project: { type: "string", arg: "pr_…", help: "only this project's monitors" }, workspace: opt.workspace, limit: opt.limit, cursor: opt.cursor },
      async run(ctx) {
        noExtraArgs(ctx, 0);
        const query = { project: str(ctx, "project"), workspace: str(ctx, "workspace"), limit: intOption(ctx, "limit"), cursor: str(ctx, "cursor") };
        show(ctx, await request(ctx, listMonitors, { query }), (body) => {
          if (body.next_cursor) note(`more: --cursor ${body.next_cursor}`);
          const rows = body.items.map((m) => ({
            id: m.id,
            status: m.status,
            version: m.version,
            schedule: scheduleInWords(m.schedule),
            next_run: date(m.next_run_at),
            last_tick: m.last_tick ? tickStatusText(m.last_tick) : null,
            name: truncate(m.name, 40),
          }));
          return table(rows, ["id", "status", "version", "schedule", "next_run", "last_tick", "name"]);
        });
        return EXIT.ok;
      },
    },
    {
      words: ["monitor", "update"],
      args: "mo_…",
      summary: "change a monitor's name, schedule, judge, budget or alerts (its weekly digest too), keeping its series; or what it measures (prompts, engines, runs, market, entities), starting a new one",
      options: updateOptions,
      async run(ctx) {
        const id = idArg(ctx);
        const given = schedulePartGiven(ctx);
        const measured = measuredUpdate(ctx);
        const measuring = Object.keys(measured).length > 0;
        // Every option checked before anything is sent (a part of the schedule against a stand-in),
        // then a part of the schedule merged into the monitor's current one, whose version is
        // compared with the new one's when what it measures may change.
        updateBody(ctx, given ? scheduleUpdate(ctx, { every: "day", at: "06:00", weekday: null }) : undefined, measured);
        const current = given || measuring ? (await request(ctx, getMonitor, { params: { monitor_id: id } })).body : null;
        // A prompt given again as it was keeps its question and own market (as on the monitor's page).
        if (measured.prompts && current) measured.prompts = keptPrompts(measured.prompts.map((p) => p.text), current.prompts);
        const body = updateBody(ctx, given ? scheduleUpdate(ctx, current!.schedule) : undefined, measured);
        const updated = await request(ctx, updateMonitor, { params: { monitor_id: id }, body });
        show(ctx, updated, formatMonitor);
        if (measuring && current) note(versionNote(id, current.version, updated.body.version));
        return EXIT.ok;
      },
    },
    {
      words: ["monitor", "get"],
      args: "mo_…",
      summary: "a monitor: what it measures, when, its budget and its last tick",
      async run(ctx) {
        const id = idArg(ctx);
        show(ctx, await request(ctx, getMonitor, { params: { monitor_id: id } }), formatMonitor);
        return EXIT.ok;
      },
    },
    {
      words: ["monitor", "ticks"],
      args: "mo_…",
      summary: "a monitor's ticks, newest first, each with its fanout",
      options: { limit: opt.limit, cursor: opt.cursor },
      async run(ctx) {
        const id = idArg(ctx);
        const query = { limit: intOption(ctx, "limit"), cursor: str(ctx, "cursor") };
        show(ctx, await request(ctx, listMonitorTicks, { params: { monitor_id: id }, query }), (body) => {
          if (body.next_cursor) note(`more: --cursor ${body.next_cursor}`);
          const newest = !str(ctx, "cursor") && body.items[0];
          const rows = body.items.map((t) => ({
            id: t.id,
            version: t.version,
            trigger: t.trigger,
            scheduled_for: date(t.scheduled_for),
            status: tickStatusText(t),
            fanout_id: t.fanout_id,
            charged: t.charged_usd === null ? null : `$${t.charged_usd}`,
            completed_at: date(t.completed_at),
          }));
          const listed = table(rows, ["id", "version", "trigger", "scheduled_for", "status", "fanout_id", "charged", "completed_at"]);
          return newest ? [...tickWords(newest, "newest tick"), listed].join("\n") : listed;
        });
        return EXIT.ok;
      },
    },
    {
      words: ["monitor", "run"],
      args: "mo_…",
      summary: "a tick now, outside the schedule (also while paused): a fanout, charged like one, or skipped when credit or the budget cannot pay it",
      options: {
        wait: {
          type: "boolean",
          help: "follow the tick until it closes (its fanout's progress on stderr), then print what it found (--json: GET /monitors/{id}/ticks/{tick_id}'s body)",
        },
      },
      async run(ctx) {
        const id = idArg(ctx);
        const started = await request(ctx, runMonitor, { params: { monitor_id: id } });
        if (ctx.values.wait !== true) {
          show(ctx, started, tickLine);
          return EXIT.ok;
        }
        show(ctx, await followTick(ctx, id, started.body), tickLine);
        return EXIT.ok;
      },
    },
    {
      words: ["monitor", "pause"],
      args: "mo_…",
      summary: "stop a monitor's schedule (its ticks and series stay)",
      run: (ctx) => setStatus(ctx, "paused"),
    },
    {
      words: ["monitor", "resume"],
      args: "mo_…",
      summary: "start a paused monitor's schedule again, from its next slot",
      run: (ctx) => setStatus(ctx, "active"),
    },
    {
      words: ["monitor", "delete"],
      args: "mo_…",
      summary: "delete a monitor and its ticks; the fanouts they made stay",
      async run(ctx) {
        const id = idArg(ctx);
        show(ctx, await request(ctx, deleteMonitor, { params: { monitor_id: id } }), () => `Deleted ${id}; the fanouts its ticks made stay.`);
        return EXIT.ok;
      },
    },
  ],
};
