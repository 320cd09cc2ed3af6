// Fanouts: every prompt on every engine, repeated, and the queries each engine searched. Prompts
// come from arguments, a file (one per line) or standard input.
import type { z } from "zod";
import { ENGINE_IDS } from "../../lib/schemas/common";
import { createFanout, estimateFanout, getFanout, getFanoutQueries, listFanouts, type Fanout, type FanoutEstimate, type FanoutQueryReport, type FanoutRequest } from "../../lib/schemas/fanouts";
import { reportsQueries } from "../../lib/schemas/engines";
import { shownSentences, shownShort } from "../../lib/words/fanouts";
import { counted, percent, percentRange } from "../../lib/words/format";
import { EXIT } from "../client";
import {
  arg, date, enginesInOrder, inEngineOrder, intOption, linesOfFile, list, noExtraArgs, note, opt, out, printJson, projectOf, request, show, str, table, truncate, UsageError, waitOption,
  type Ctx, type OptionSpec, type Section,
} from "../command";
import { fanoutMarketOptions, marketLabel, marketsOf } from "../market";
import { FINISHED } from "./runs";

type FanoutBody = z.output<typeof Fanout>;

/** How a fanout runs its prompts, whatever they came from: read with `planOf`. */
export const runOptions = {
  engines: { type: "string", arg: ENGINE_IDS.join(","), help: "engines to run on (default: every enabled engine)" },
  runs: { type: "string", arg: "N", help: "executions of each prompt on each engine, 1 to 20 (default 3)" },
} as const satisfies Record<string, OptionSpec>;

const planOptions = {
  project: opt.project,
  file: { type: "string", arg: "FILE", help: "read the prompts from FILE, one per line (blank lines and # comments skipped; `-`: standard input)" },
  ...runOptions,
  ...fanoutMarketOptions,
  name: { type: "string", arg: "NAME", help: "a name for the fanout (default: the first prompt)" },
} as const satisfies Record<string, OptionSpec>;

/** `fanout create --wait`. */
export const followOption = {
  type: "boolean",
  help: "follow it to its end (progress on stderr), then print the queries per prompt and engine",
} as const satisfies OptionSpec;

type FanoutRequestBody = z.input<typeof FanoutRequest>;

/** The prompts: the arguments, or --file's lines as `audit --file` reads them (linesOfFile). */
export function promptsOf(ctx: Ctx): string[] {
  const file = str(ctx, "file");
  if (file !== undefined && ctx.args.length > 0) throw new UsageError("give the prompts as arguments or with --file, not both");
  const prompts = file === undefined ? ctx.args : linesOfFile(file);
  if (prompts.length === 0) throw new UsageError('no prompts: give them as arguments ("TEXT" …) or with --file FILE (one per line, # comments skipped; - for standard input)');
  return prompts;
}

/** --engines, --runs and --name, as the request's fields (left out when not given). */
export function planOf(ctx: Ctx): Pick<FanoutRequestBody, "engines" | "runs" | "name"> {
  const engines = list(str(ctx, "engines"));
  const runs = intOption(ctx, "runs");
  const name = str(ctx, "name");
  return {
    // Passed through as typed: the API refuses an unknown engine naming it (400).
    ...(engines !== undefined ? { engines: engines as FanoutRequestBody["engines"] } : {}),
    ...(runs !== undefined ? { runs } : {}),
    ...(name !== undefined ? { name } : {}),
  };
}

/**
 * The request: with one location (or none) it is the fanout's; with several countries every
 * prompt is given once per country, in prompt then country order, each with its own location.
 */
function requestBody(ctx: Ctx): FanoutRequestBody {
  const project = projectOf(ctx);
  const { locations, language } = marketsOf(ctx, true);
  const texts = promptsOf(ctx);
  const prompts = locations.length > 1 ? texts.flatMap((text) => locations.map((location) => ({ text, location }))) : texts.map((text) => ({ text }));
  return {
    prompts,
    project,
    ...planOf(ctx),
    ...(locations.length === 1 ? { location: locations[0] } : {}),
    ...(language !== undefined ? { language } : {}),
  };
}

/** The estimate, after the prompts it was made for, numbered as the fanout will number them. */
export function formatEstimate(
  e: z.output<typeof FanoutEstimate>,
  prompts: readonly { text: string; location?: { country: string; city?: string } | null; language?: string | null }[],
): string {
  const marketOfPrompt = (p: (typeof prompts)[number]) => {
    const market = marketLabel(p.location, p.language);
    return market ? `  [${market}]` : "";
  };
  const lines = [
    `prompts (${prompts.length}):`,
    ...prompts.map((p, i) => `${String(i + 1).padStart(String(prompts.length).length)}. ${p.text.replace(/\s+/g, " ").trim()}${marketOfPrompt(p)}`),
    "",
    `${counted(e.prompts, "prompt")} × ${counted(e.engines.length, "engine")} (${enginesInOrder(e.engines).join(", ")}) × ${counted(e.runs, "run")} = ${counted(e.executions, "execution")}` +
      (e.identical_prompts === 1 ? " (1 prompt repeats an earlier one; it runs all the same)" : e.identical_prompts ? ` (${e.identical_prompts} prompts repeat an earlier one; they run all the same)` : ""),
    table(inEngineOrder(e.lines, (l) => l.engine).map((l) => ({ ...l, amount: `$${l.amount_usd}`, price: `$${l.unit_price_usd}` })), ["engine", "executions", "price", "amount"]),
    `total $${e.total_usd} at prices ${e.pricing_version}` +
      (e.billing_enabled ? `; available $${e.available_usd}: ${e.sufficient ? "enough" : "NOT enough"}` : " (billing is off: nothing is charged)"),

    ...(e.margin?.summary ?? []),
  ];
  if (e.executions > e.max_executions) lines.push(`over this server's limit of ${e.max_executions} executions per fanout: creating it would be refused`);
  return lines.join("\n");
}

/** "fanout fo_…: running, 5/12 runs finished, 9 queries so far": `--wait`'s progress line. */
function progressOf(f: FanoutBody): string {
  const done = f.counts.completed + f.counts.failed;
  return `fanout ${f.id}: ${f.status}, ${done}/${counted(f.execution_count, "run")} finished${f.counts.failed ? ` (${f.counts.failed} failed)` : ""}, ${counted(f.query_count, "query", "queries")} so far`;
}

/** Per prompt and engine: runs finished and the distinct queries, most issued first. */
export function formatFanout(f: FanoutBody): string {
  const lines = [
    `fanout ${f.id}: ${f.status} · ${f.name}`,
    `${counted(f.prompt_count, "prompt")} × ${enginesInOrder(f.engines).join(", ")} × ${counted(f.runs, "run")}; ${f.counts.completed} completed, ${f.counts.failed} failed, ` +
      `${f.counts.queued + f.counts.running} unfinished · ${counted(f.query_count, "query", "queries")}` +
      (f.charged_usd !== null ? ` · charged $${f.charged_usd}, held $${f.held_usd}` : ""),
    ...shownSentences(f.shown ?? []),
  ];
  for (const prompt of f.prompts) {
    const market = marketLabel(prompt.location, prompt.language);
    lines.push("", `${prompt.index}. ${prompt.text}${market ? `  [${market}]` : ""}`);
    for (const engine of inEngineOrder(prompt.engines, (e) => e.engine)) {
      const finished = engine.runs.filter((r) => r.status === "completed").length;
      const counts = new Map<string, number>();
      for (const run of engine.runs) for (const q of new Set(run.queries.map((x) => x.text))) counts.set(q, (counts.get(q) ?? 0) + 1);
      const ranked = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
      const shown = engine.shown && engine.shown.runs_shown < engine.shown.completed_runs ? `, ${shownShort(engine.shown)}` : "";
      lines.push(`   ${engine.engine} (${finished}/${counted(engine.runs.length, "run")} completed, ${counted(engine.query_count, "query", "queries")}${shown})`);
      if (ranked.length === 0) lines.push(finished && !reportsQueries(engine.engine) ? "      (it does not say which searches it ran)" : "      (no queries)");
      for (const [query, runs] of ranked) lines.push(`      ${runs}/${finished || engine.runs.length}  ${query}`);
    }
  }
  return lines.join("\n");
}

/** The by_country rows: which queries each engine ran for each prompt in each country. */
function formatByCountry(r: z.output<typeof FanoutQueryReport>): string {
  const rows = r.by_country.flatMap((g) =>
    g.queries.map((q) => ({
      prompt: truncate(g.prompt, 30),
      engine: g.engine,
      country: g.country ?? "-",
      runs: `${q.runs}/${g.completed_runs}`,
      share: percent(q.share),
      query: truncate(q.query, 60),
    })),
  );
  return [`fanout ${r.fanout_id}: ${r.status}, by country`, table(rows, ["prompt", "engine", "country", "runs", "share", "query"])].join("\n");
}

function formatQueryReport(r: z.output<typeof FanoutQueryReport>): string {
  const groups = inEngineOrder(r.groups, (g) => g.engine).sort((a, b) => a.prompt_index - b.prompt_index);
  const rows = groups.flatMap((g) =>
    g.queries.map((q) => ({
      prompt: g.prompt_index,
      engine: g.engine,
      runs: `${q.runs}/${g.completed_runs}`,
      share: percent(q.share),
      "95%": percentRange(q.share_interval),
      query: truncate(q.query, 70),
    })),
  );
  return [`fanout ${r.fanout_id}: ${r.status}`, table(rows, ["prompt", "engine", "runs", "share", "95%", "query"])].join("\n");
}

/** One row per run × query of a fanout's detail: what `fanout queries --format` exports. */
export function queryRows(f: FanoutBody) {
  return f.prompts.flatMap((prompt) =>
    inEngineOrder(prompt.engines, (e) => e.engine).flatMap((engine) =>
      engine.runs.flatMap((run) =>
        run.queries.map((q) => ({
          prompt_index: prompt.index,
          prompt: prompt.text,
          country: prompt.location?.country ?? null,
          language: prompt.language,
          engine: engine.engine,
          run_id: run.run_id,
          run_index: run.run_index,
          position: q.position,
          search_call: q.search_call,
          query: q.text,
        })),
      ),
    ),
  );
}

const csvCell = (value: unknown) => {
  const text = value === null || value === undefined ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export function toCsv(rows: readonly Record<string, unknown>[], columns: readonly string[]): string {
  return [columns.join(","), ...rows.map((row) => columns.map((c) => csvCell(row[c])).join(","))].join("\r\n") + "\r\n";
}

/** POST /fanouts/estimate, printed as `fanout estimate` prints it. */
export async function printEstimate(ctx: Ctx, body: FanoutRequestBody): Promise<number> {
  show(ctx, await request(ctx, estimateFanout, { body }), (estimate) => formatEstimate(estimate, body.prompts));
  return EXIT.ok;
}

/** A fanout (as just read) followed to its end with `wait`, its progress on stderr when it changes; answers the last read. */
export async function followFanout(ctx: Ctx, first: { text: string; body: FanoutBody }): Promise<{ text: string; body: FanoutBody }> {
  let current = first;
  let last = progressOf(current.body);
  note(last);
  while (!FINISHED.has(current.body.status)) {
    current = await request(ctx, getFanout, { params: { fanout_id: current.body.id }, query: { wait: 30 } });
    const progress = progressOf(current.body);
    if (progress !== last) note(progress);
    last = progress;
  }
  return current;
}

/** POST /fanouts, followed to its end with --wait, printed as `fanout create` prints it. */
export async function createAndPrint(ctx: Ctx, body: FanoutRequestBody): Promise<number> {
  let current: { text: string; body: FanoutBody } = await request(ctx, createFanout, { body });
  const waiting = ctx.values.wait === true;
  if (waiting) current = await followFanout(ctx, current);
  if (ctx.json) printJson(current.text, ctx.pretty);
  else {
    out(formatFanout(current.body));
    if (!waiting) note(`Queued. Follow it with: geoscope fanout get ${current.body.id} --wait 30`);
  }
  return EXIT.ok;
}

export const fanouts: Section = {
  title: "Fanouts",
  commands: [
    {
      words: ["fanout", "estimate"],
      args: '["PROMPT" …]',
      summary: "what a fanout would run and cost; starts and holds nothing",
      options: planOptions,
      run: (ctx) => printEstimate(ctx, requestBody(ctx)),
    },
    {
      words: ["fanout", "create"],
      args: '["PROMPT" …]',
      summary: "run every prompt on every engine, repeated (the whole price is held from your credit; see `fanout estimate`)",
      options: { ...planOptions, wait: followOption },
      run: (ctx) => createAndPrint(ctx, requestBody(ctx)),
    },
    {
      words: ["fanout", "get"],
      args: "fo_…",
      summary: "a fanout: per prompt and engine, its runs and the queries they searched",
      options: { wait: opt.wait },
      async run(ctx) {
        const id = arg(ctx, 0, "fanout id (fo_…)");
        noExtraArgs(ctx, 1);
        show(ctx, await request(ctx, getFanout, { params: { fanout_id: id }, query: { wait: waitOption(ctx) } }), formatFanout);
        return EXIT.ok;
      },
    },
    {
      words: ["fanout", "list"],
      summary: "fanouts, newest first, without observations",
      options: { project: { type: "string", arg: "pr_…", help: "only this project's fanouts" }, workspace: opt.workspace, limit: opt.limit, cursor: opt.cursor },
      async run(ctx) {
        noExtraArgs(ctx, 0);
        const query = { project: str(ctx, "project"), workspace: str(ctx, "workspace"), limit: intOption(ctx, "limit"), cursor: str(ctx, "cursor") };
        show(ctx, await request(ctx, listFanouts, { query }), (body) => {
          if (body.next_cursor) note(`more: --cursor ${body.next_cursor}`);
          const rows = body.items.map((f) => ({
            ...f,
            created_at: date(f.created_at),
            done: `${f.counts.completed + f.counts.failed}/${f.execution_count}`,
            name: truncate(f.name, 40),
          }));
          return table(rows, ["id", "status", "done", "query_count", "created_at", "name"]);
        });
        return EXIT.ok;
      },
    },
    {
      words: ["fanout", "queries"],
      args: "fo_…",
      summary: "the queries each engine searched: shares per prompt and engine, or every run × query as CSV or JSON lines",
      options: {
        format: {
          type: "string",
          arg: "csv|jsonl",
          values: ["csv", "jsonl"],
          help: "export one row per run × query (prompt_index, prompt, country, language, engine, run_id, run_index, position, search_call, query)",
        },
        "by-country": { type: "boolean", help: "the shares per prompt text × engine × country (the report's by_country rows)" },
      },
      async run(ctx) {
        const id = arg(ctx, 0, "fanout id (fo_…)");
        noExtraArgs(ctx, 1);
        const format = str(ctx, "format");
        if (format === undefined) {
          show(ctx, await request(ctx, getFanoutQueries, { params: { fanout_id: id } }), ctx.values["by-country"] === true ? formatByCountry : formatQueryReport);
          return EXIT.ok;
        }
        if (format !== "csv" && format !== "jsonl") throw new UsageError("--format takes csv or jsonl");
        if (ctx.json) throw new UsageError("--format writes CSV or JSON lines; leave out --json (or drop --format for the API's body)");
        const rows = queryRows((await request(ctx, getFanout, { params: { fanout_id: id } })).body);
        if (format === "jsonl") process.stdout.write(rows.map((row) => `${JSON.stringify(row)}\n`).join(""));
        else process.stdout.write(toCsv(rows, ["prompt_index", "prompt", "country", "language", "engine", "run_id", "run_index", "position", "search_call", "query"]));
        return EXIT.ok;
      },
    },
  ],
};
