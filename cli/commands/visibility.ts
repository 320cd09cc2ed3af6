// Visibility analyses: how often answers name each brand and competitor, in what place and how
// prominently, with n and a 95% interval for every figure, and the mentions behind them; as
// tables, as CSV or JSON lines, or with --json the API's body.
import { readFileSync } from "node:fs";
import type { z } from "zod";
import { getAnalysis, listMentions } from "../../lib/schemas/analyses";
import { ENGINE_IDS } from "../../lib/schemas/common";
import { createVisibilityAnalysis, MENTION_CSV_COLUMNS, type EntityInput, type MentionPage, type VisibilityAnalysis } from "../../lib/schemas/visibility";
import { EXIT } from "../client";
import {
  arg, followUntilFinished, inEngineOrder, intOption, noExtraArgs, note, opt, out, printJson, request, str, strs, table, truncate, UsageError, waitBudget, waitOption, type Ctx, type Section,
} from "../command";
import { counted, kappa, percent, percentRange, place, placeRange } from "../../lib/words/format";
import { VISIBILITY_COLUMNS, visibilityCsv, visibilityLines } from "../../lib/visibility/csv";

type Analysis = z.output<typeof VisibilityAnalysis>;

const range = (i: readonly [number, number] | null, f: (i: readonly [number, number]) => string) => (i ? f(i) : "-");

/** The summary, one sentence a line: what the human output leads with. */
export function summaryLines(summary: readonly string[]): string[] {
  return summary.length ? [...summary, ""] : [];
}

/** The figures as tables: every entity over all runs, then visibility by engine; each with its n. */
export function formatVisibilityAnalysis(a: Analysis): string {
  const t = a.totals;
  const basis = a.rows[0]?.share_of_voice_n ?? 0;
  const lines = [
    ...summaryLines(a.summary),
    `visibility analysis ${a.id}: ${a.status} · ${truncate(a.subject, 80)}`,
    `${counted(t.runs, "run")}, ${counted(t.prompts, "prompt")}, ${counted(t.engines, "engine")} · ${counted(t.mentions, "mention")}, ${t.mentions_not_counted.link} in link labels (cited pages), ${t.mentions_not_counted.prompt_echo} quoting the prompt or a search and ${t.mentions_not_counted.absence} in "found nothing about" sentences not counted`,
    "",
    table(
      a.rows.map((r) => ({
        entity: truncate(r.name, 30),
        role: r.role,
        mentioned: `${r.runs_mentioning}/${r.runs}`,
        visibility: percent(r.visibility),
        "95%": percentRange(r.visibility_interval),
        share: r.share_of_voice === null ? "-" : percent(r.share_of_voice),
        "avg pos": r.average_position === null ? "-" : place(r.average_position),
        "pos 95%": range(r.average_position_interval, placeRange),
        top3: `${r.runs_top3}/${r.runs}`,
        prominence: percent(r.prominence),
        cited: `${r.runs_citing}/${r.runs}`,
      })),
      ["entity", "role", "mentioned", "visibility", "95%", "share", "avg pos", "pos 95%", "top3", "prominence", "cited"],
    ),
    `share of voice: of the ${basis} times a run named a tracked entity (a run naming two counts for both) · prominence: the share of an answer's words spent on it, weighted to its start`,
    "",
    "visibility by engine",
    table(
      a.rows.flatMap((r) =>
        inEngineOrder(r.by_engine, (g) => g.engine).map((g) => ({
          entity: truncate(r.name, 30), engine: g.engine, mentioned: `${g.runs_mentioning}/${g.runs}`, visibility: percent(g.visibility), "95%": percentRange(g.visibility_interval),
          "avg pos": g.average_position === null ? "-" : place(g.average_position), cited: `${g.runs_citing}/${g.runs}`,
        })),
      ),
      ["entity", "engine", "mentioned", "visibility", "95%", "avg pos", "cited"],
    ),
  ];
  if (a.excluded_runs.length) lines.push("", `excluded: ${excludedInWords(a.excluded_runs)}`);
  lines.push(...judgedLines(a));
  lines.push("", `evidence: geoscope visibility mentions ${a.id}`);
  return lines.join("\n");
}

/** What the judge added (decisions.md "Judged visibility"): its provenance, sentiment per entity, discovered names, agreement. */
function judgedLines(a: Analysis): string[] {
  const j = a.judge;
  if (!j) return [];
  const lines = [
    "",
    `judged by ${j.engine}${j.model ? ` (${j.model})` : ""}, prompt v${j.prompt_version} sha256 ${j.prompt_sha.slice(0, 12)}… · ${j.runs_judged}/${j.runs} runs judged` +
      (a.status === "queued" || a.status === "running" ? ` · ${j.runs_done}/${j.runs} done, ${a.status}: geoscope visibility get ${a.id} --wait` : "") +
      ` · ${j.quotes_rejected} quotes rejected (not in the answer), ${j.names_dropped} names dropped`,
  ];
  for (const x of j.runs_not_judged) lines.push(`not judged: ${x.run_id} (${truncate(x.reason, 100)})`);
  if (a.rows.some((r) => r.sentiment)) {
    lines.push(
      "",
      "sentiment (judged, every quote checked verbatim in its answer)",
      table(
        a.rows.map((r) => ({
          entity: truncate(r.name, 30),
          positive: r.sentiment?.positive ?? "-",
          neutral: r.sentiment?.neutral ?? "-",
          negative: r.sentiment?.negative ?? "-",
          score: r.sentiment?.score === null || !r.sentiment ? "-" : percent(r.sentiment.score),
          "95%": r.sentiment && r.sentiment.score !== null ? percentRange(r.sentiment.score_interval) : "-",
          quote: truncate((r.sentiment?.quotes[0]?.quote ?? "").replace(/\s+/g, " "), 50),
        })),
        ["entity", "positive", "neutral", "negative", "score", "95%", "quote"],
      ),
      "score: positive / (positive + negative), over the answers that take a side only",
    );
  }
  if (a.discovered) {
    lines.push("", `discovered (named in the answers, not tracked; of ${j.runs_judged} judged runs)`);
    lines.push(
      a.discovered.length
        ? table(
            a.discovered.map((d) => ({ name: truncate(d.name, 30), mentioned: `${d.runs_mentioning}/${j.runs_judged}`, visibility: percent(d.visibility), "95%": percentRange(d.visibility_interval) })),
            ["name", "mentioned", "visibility", "95%"],
          )
        : "(none)",
    );
  }
  if (a.agreement) {
    const g = a.agreement;
    lines.push("", `judge vs rules on "mentioned": ${g.agreeing}/${g.runs} runs agree, ${g.pairs_agreeing}/${g.pairs} run x entity pairs, Cohen's kappa ${kappa(g.kappa)}`);
  }
  return lines;
}

function formatOf(ctx: Ctx): "csv" | "jsonl" | null {
  const format = str(ctx, "format");
  if (format === undefined) return null;
  if (format !== "csv" && format !== "jsonl") throw new UsageError(`unknown format "${format}": --format takes csv or jsonl`);
  if (ctx.json) throw new UsageError("--format writes CSV or JSON lines; leave out --json (or drop --format for the API's body)");
  return format;
}

function printAnalysis(ctx: Ctx, format: "csv" | "jsonl" | null, result: { text: string; body: Analysis }) {
  if (format === "csv") process.stdout.write(visibilityCsv(result.body));
  else if (format === "jsonl") process.stdout.write(visibilityLines(result.body).map((l) => `${JSON.stringify(l)}\n`).join(""));
  else if (ctx.json) printJson(result.text, ctx.pretty);
  else out(formatVisibilityAnalysis(result.body));
}

/** `NAME=VALUE` of --alias and --domain. */
function pairs(ctx: Ctx, option: string): [string, string][] {
  return strs(ctx, option).map((v) => {
    const at = v.indexOf("=");
    if (at <= 0 || at === v.length - 1) throw new UsageError(`--${option} takes NAME=VALUE (got "${v}")`);
    return [v.slice(0, at).trim(), v.slice(at + 1).trim()];
  });
}

/** The entities the options give (--entities FILE, or --brand/--competitor with --alias, --domain and --case-sensitive), or none. */
export function entitiesOf(ctx: Ctx): z.input<typeof EntityInput>[] | undefined {
  const file = str(ctx, "entities");
  const brands = strs(ctx, "brand");
  const competitors = strs(ctx, "competitor");
  const aliases = pairs(ctx, "alias");
  const domains = pairs(ctx, "domain");
  const exact = strs(ctx, "case-sensitive");
  if (file !== undefined) {
    if (brands.length || competitors.length) throw new UsageError("--entities FILE gives the entities: leave out --brand and --competitor");
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file === "-" ? 0 : file, "utf8"));
    } catch (error) {
      throw new UsageError(`--entities ${file}: not a JSON list of entities (${(error as Error).message})`);
    }
    if (!Array.isArray(parsed)) throw new UsageError(`--entities ${file}: not a JSON list of entities`);
    return parsed as z.input<typeof EntityInput>[];
  }
  const names = [...brands, ...competitors];
  if (names.length === 0) {
    if (aliases.length || domains.length || exact.length) throw new UsageError("--alias, --domain and --case-sensitive go with --brand or --competitor");
    return undefined;
  }
  for (const [name] of [...aliases, ...domains]) if (!names.includes(name)) throw new UsageError(`"${name}" is no --brand or --competitor of this command`);
  for (const name of exact) if (!names.includes(name)) throw new UsageError(`--case-sensitive "${name}" is no --brand or --competitor of this command`);
  return names.map((name, i) => ({
    name,
    role: i < brands.length ? "brand" : "competitor",
    aliases: aliases.filter(([n]) => n === name).map(([, v]) => v),
    domains: domains.filter(([n]) => n === name).map(([, v]) => v),
    ...(exact.includes(name) ? { case_sensitive: true } : {}),
  }));
}

/** --judge-engine with --sentiment and --discover, or nothing. */
function judgeOf(ctx: Ctx): { engine: "chatgpt" | "claude" | "gemini"; sentiment: boolean; discover: boolean } | undefined {
  const engine = str(ctx, "judge-engine");
  const sentiment = ctx.values.sentiment === true;
  const discover = ctx.values.discover === true;
  if (engine === undefined) {
    if (sentiment || discover || ctx.values.wait !== undefined) throw new UsageError("--sentiment, --discover and --wait go with --judge-engine ENGINE");
    return undefined;
  }
  if (engine !== "chatgpt" && engine !== "claude" && engine !== "gemini") throw new UsageError(`unknown engine "${engine}": --judge-engine takes chatgpt, claude or gemini`);
  return { engine, sentiment: sentiment || !discover, discover };
}

const formatOption = {
  format: { type: "string", arg: "csv|jsonl", values: ["csv", "jsonl"], help: `export one line per entity and group (all, each engine, prompt and country): ${VISIBILITY_COLUMNS.slice(0, 8).join(", ")}, …; CSV as the pages write figures ("92%", intervals rounded outward), JSON lines as the API states them` },
} as const;

function formatMentions(page: z.output<typeof MentionPage>): string {
  return table(
    page.items.map((m) => ({
      run: m.run_id,
      engine: m.engine,
      entity: truncate(m.entity, 20),
      as: m.alias === m.entity ? "" : truncate(m.alias, 20),
      counted: m.counted ? "yes" : `no (${m.reason})`,
      list: m.list_rank,
      at: `${m.start}-${m.end}`,
      sentence: truncate(m.sentence.replace(/\s+/g, " "), 70),
    })),
    ["run", "engine", "entity", "as", "counted", "list", "at", "sentence"],
  );
}

export const visibility: Section = {
  title: "Visibility analyses",
  commands: [
    {
      words: ["visibility", "create"],
      args: "dr_…|rq_…|fo_… …",
      summary: "how often answers name each brand and competitor, in what place, with n and 95% intervals (free; stored as va_…)",
      options: {
        brand: { type: "string", arg: "NAME", multiple: true, help: "a brand of yours to track (repeat for more); without entities, the project's context" },
        competitor: { type: "string", arg: "NAME", multiple: true, help: "a competitor to track (repeat for more)" },
        alias: { type: "string", arg: "NAME=ALIAS", multiple: true, help: "another name that counts as NAME (repeat for more)" },
        domain: { type: "string", arg: "NAME=DOMAIN", multiple: true, help: "a domain of NAME: a cited page on it or a subdomain counts as citing it (repeat for more)" },
        "case-sensitive": { type: "string", arg: "NAME", multiple: true, help: "match NAME only as written (an ordinary word: Monday, Notion)" },
        entities: { type: "string", arg: "FILE", help: "the entities as a JSON list (name, role, aliases, domains, case_sensitive); - reads standard input" },
        "judge-engine": { type: "string", arg: "ENGINE", values: ["chatgpt", "claude", "gemini"], help: "also have ENGINE judge every run: sentiment with verbatim quotes (charged per run judged; see `geoscope pricing`)" },
        sentiment: { type: "boolean", help: "with --judge-engine: judge sentiment (the default unless --discover alone is given)" },
        discover: { type: "boolean", help: "with --judge-engine: list other brands and products the answers name" },
        wait: { type: "string", arg: "SECONDS", valueOptional: true, help: "with --judge-engine: wait until the judge has finished (progress on stderr), or at most SECONDS" },
        ...formatOption,
      },
      async run(ctx) {
        if (ctx.args.length === 0) arg(ctx, 0, "run, batch or fanout ids (dr_…, rq_… or fo_…)");
        const format = formatOf(ctx);
        const entities = entitiesOf(ctx);
        const judge = judgeOf(ctx);
        const body = { ids: ctx.args, ...(entities ? { entities } : {}), ...(judge ? { judge } : {}) };
        const budget = waitBudget(ctx);
        const deadline = Date.now() + (budget ?? 0) * 1000;
        const made = await request(ctx, createVisibilityAnalysis, { body });
        const created: { text: string; body: Analysis } = { text: made.text, body: made.body };
        const result =
          budget === undefined || !judge
            ? created
            : await followUntilFinished(created, deadline, (b) => `visibility analysis ${b.id}: ${b.status}`, async (id, wait) => {
                const got = await request(ctx, getAnalysis, { params: { analysis_id: id }, query: { wait } });
                if (got.body.kind !== "visibility") throw new UsageError(`${id} is not a visibility analysis`);
                return { text: got.text, body: got.body };
              });
        printAnalysis(ctx, format, result);
        return EXIT.ok;
      },
    },
    {
      words: ["visibility", "get"],
      args: "va_…",
      summary: "a stored visibility analysis, as `visibility create` printed it",
      options: { wait: opt.wait, ...formatOption },
      async run(ctx) {
        const id = arg(ctx, 0, "visibility analysis id (va_…)");
        noExtraArgs(ctx, 1);
        const format = formatOf(ctx);
        const result = await request(ctx, getAnalysis, { params: { analysis_id: id }, query: { wait: waitOption(ctx) } });
        if (result.body.kind !== "visibility") throw new UsageError(`${id} is a ${result.body.kind} analysis: read it with \`geoscope analysis get ${id}\``);
        printAnalysis(ctx, format, { text: result.text, body: result.body });
        return EXIT.ok;
      },
    },
    {
      words: ["visibility", "mentions"],
      args: "va_…",
      summary: "the mentions behind the figures: run, entity, the name matched, offsets, sentence, counted or why not",
      options: {
        entity: { type: "string", arg: "NAME", help: "only this entity's mentions" },
        engine: { type: "string", arg: "ENGINE", values: ENGINE_IDS, help: "only this engine's runs" },
        run: { type: "string", arg: "dr_…", help: "only this run's mentions" },
        counted: { type: "string", arg: "true|false", values: ["true", "false"], help: "only mentions counted (true) or not counted (false: link labels, prompt echoes, absences)" },
        limit: opt.limit,
        cursor: opt.cursor,
        format: { type: "string", arg: "csv|jsonl", values: ["csv", "jsonl"], help: `every matching mention, no paging: ${MENTION_CSV_COLUMNS.join(", ")}` },
      },
      async run(ctx) {
        const id = arg(ctx, 0, "visibility analysis id (va_…)");
        noExtraArgs(ctx, 1);
        const format = formatOf(ctx);
        const counted = str(ctx, "counted");
        if (counted !== undefined && counted !== "true" && counted !== "false") throw new UsageError("--counted takes true or false");
        const query = { entity: str(ctx, "entity"), engine: str(ctx, "engine") as (typeof ENGINE_IDS)[number] | undefined, run_id: str(ctx, "run"), counted: counted as "true" | "false" | undefined };
        if (format === "csv") {
          const response = await ctx.client.stream(listMentions, { params: { analysis_id: id }, query: { ...query, format: "csv" } });
          for await (const chunk of response.body!) process.stdout.write(chunk);
          return EXIT.ok;
        }
        if (format === "jsonl") {
          let cursor: string | undefined;
          do {
            const page = (await request(ctx, listMentions, { params: { analysis_id: id }, query: { ...query, limit: 200, cursor } })).body;
            process.stdout.write(page.items.map((m) => `${JSON.stringify(m)}\n`).join(""));
            cursor = page.next_cursor ?? undefined;
          } while (cursor);
          return EXIT.ok;
        }
        const result = await request(ctx, listMentions, { params: { analysis_id: id }, query: { ...query, limit: intOption(ctx, "limit"), cursor: str(ctx, "cursor") } });
        if (ctx.json) printJson(result.text, ctx.pretty);
        else {
          if (result.body.next_cursor) note(`more: --cursor ${result.body.next_cursor}`);
          out(result.body.items.length ? formatMentions(result.body) : "(no mentions)");
        }
        return EXIT.ok;
      },
    },
  ],
};

/**
 * Runs left out, by reason, a few ids each: "no_answer (2): dr_…, dr_…; other_engine (18): dr_…,
 * dr_…, dr_… and 15 more (--json lists every one)". A fanout's runs of other engines would
 * otherwise fill the screen with ids.
 */
export function excludedInWords(excluded: readonly { run_id: string; reason: string }[], shown = 3): string {
  const byReason = new Map<string, string[]>();
  for (const e of excluded) byReason.set(e.reason, [...(byReason.get(e.reason) ?? []), e.run_id]);
  const parts = [...byReason].map(([reason, ids]) => `${reason} (${ids.length}): ${ids.slice(0, shown).join(", ")}${ids.length > shown ? ` and ${ids.length - shown} more` : ""}`);
  const cut = [...byReason.values()].some((ids) => ids.length > shown);
  return `${parts.join("; ")}${cut ? " (--json lists every one)" : ""}`;
}
