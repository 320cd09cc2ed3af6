// Comparison analyses: how far two engines' answers to the same prompts are apart (the brands
// each names with the difference and its interval, the pages each cites, the searches, the order
// of names); as tables, as CSV or JSON lines of the per-prompt figures, or with --json the API's body.
import type { z } from "zod";
import { getAnalysis } from "../../lib/schemas/analyses";
import { ENGINE_IDS } from "../../lib/schemas/common";
import { createComparisonAnalysis, type ComparisonAnalysis } from "../../lib/schemas/comparison";
import { COMPARISON_COLUMNS, comparisonCsv, comparisonLines } from "../../lib/comparison/csv";
import { EXIT } from "../client";
import { arg, noExtraArgs, opt, out, printJson, request, str, table, truncate, UsageError, waitOption, type Ctx, type Section } from "../command";
import { counted, engineName, FLAT_INTERVAL, isFlat, percent, percentRange, points, pointsRange } from "../../lib/words/format";
import { entitiesOf, excludedInWords, summaryLines } from "./visibility";

type Analysis = z.output<typeof ComparisonAnalysis>;
type Engine = (typeof ENGINE_IDS)[number];

/** A mean over prompts with its interval and n; "the same on each prompt" where the interval has no width (not "0–0%"). */
const mean = (value: number | null, interval: readonly [number, number] | null, n: number) =>
  value === null
    ? `- (0 prompts)`
    : interval && isFlat(interval)
      ? `${percent(value)} (${counted(n, "prompt")}, ${FLAT_INTERVAL})`
      : `${percent(value)} (95% ${interval ? percentRange(interval) : "-"}, ${counted(n, "prompt")})`;

/** The figures as tables: each entity on both engines with the difference, the overlaps, the domains only one cites, every prompt. */
export function formatComparison(c: Analysis): string {
  const A = engineName(c.a);
  const B = engineName(c.b);
  const lines = [
    ...summaryLines(c.summary),
    `comparison ${c.id}: ${c.status} · a = ${c.a} (${A}), b = ${c.b} (${B}) · ${truncate(c.subject, 60)}`,
    `${counted(c.prompts_compared, "prompt")} compared · ${c.excluded_prompts.length} answered by one engine only · ${c.excluded_runs.length} runs left out`,
    "",
    table(
      c.rows.map((r) => ({
        entity: truncate(r.name, 30),
        role: r.role,
        "a named": `${r.a.runs_mentioning}/${r.a.runs}`,
        a: percent(r.a.visibility),
        "a 95%": percentRange(r.a.visibility_interval),
        "b named": `${r.b.runs_mentioning}/${r.b.runs}`,
        b: percent(r.b.visibility),
        "b 95%": percentRange(r.b.visibility_interval),
        "b - a": points(r.diff),
        interval: pointsRange(r.diff_interval),
        significant: r.significant ? "yes" : "no",
      })),
      ["entity", "role", "a named", "a", "a 95%", "b named", "b", "b 95%", "b - a", "interval", "significant"],
    ),
    `difference: b's visibility less a's, Newcombe's interval at ${percent(c.confidence)} (Bonferroni over ${c.entities.length} entities); significant when it excludes 0`,
    "",
    `cited domains alike (Jaccard, mean over prompts): ${mean(c.sources.jaccard, c.sources.jaccard_interval, c.sources.prompts)}`,
    c.searches === null
      ? "searches: not compared (an engine does not report its queries)"
      : `a's searches b also ran (mean over prompts): ${mean(c.searches.overlap, c.searches.overlap_interval, c.searches.prompts)}`,
    `order alike (rank-biased overlap, p = 0.9, mean over prompts): ${mean(c.order.rbo, c.order.rbo_interval, c.order.prompts)} · ${counted(c.order.pairs, "run pair")}`,
    "",
    `only ${c.a} cites: ${c.sources.only_a.map((d) => `${d.domain} (${d.runs_citing})`).join(", ") || "(none)"}`,
    `only ${c.b} cites: ${c.sources.only_b.map((d) => `${d.domain} (${d.runs_citing})`).join(", ") || "(none)"}`,
    "",
    "by prompt",
    table(
      c.by_prompt.map((p) => ({
        prompt: truncate(p.prompt, 50),
        answers: `${p.runs_a}/${p.runs_b}`,
        jaccard: p.jaccard === null ? "-" : percent(p.jaccard),
        queries: p.query_overlap === null ? "-" : percent(p.query_overlap),
        rbo: p.rbo === null ? "-" : percent(p.rbo),
      })),
      ["prompt", "answers", "jaccard", "queries", "rbo"],
    ),
  ];
  if (c.excluded_prompts.length) lines.push("", `left out (one engine only): ${c.excluded_prompts.map((p) => `"${truncate(p.prompt, 40)}" (${p.engine}, ${p.runs})`).join(", ")}`);
  if (c.excluded_runs.length) lines.push(`excluded runs: ${excludedInWords(c.excluded_runs)}`);
  return lines.join("\n");
}

function formatOf(ctx: Ctx): "csv" | "jsonl" | null {
  const format = str(ctx, "format");
  if (format === undefined) return null;
  if (format !== "csv" && format !== "jsonl") throw new UsageError(`unknown format "${format}": --format takes csv or jsonl`);
  if (ctx.json) throw new UsageError("--format writes CSV or JSON lines; leave out --json (or drop --format for the API's body)");
  return format;
}

export function printComparison(ctx: Ctx, format: "csv" | "jsonl" | null, result: { text: string; body: Analysis }) {
  if (format === "csv") process.stdout.write(comparisonCsv(result.body));
  else if (format === "jsonl") process.stdout.write(comparisonLines(result.body).map((l) => `${JSON.stringify(l)}\n`).join(""));
  else if (ctx.json) printJson(result.text, ctx.pretty);
  else out(formatComparison(result.body));
}

const formatOption = {
  format: { type: "string", arg: "csv|jsonl", values: ["csv", "jsonl"], help: `export one line per prompt and entity: ${COMPARISON_COLUMNS.join(", ")}; CSV as the pages write figures, JSON lines as the API states them` },
} as const;

function engineOf(ctx: Ctx, key: "a" | "b"): Engine {
  const engine = str(ctx, key);
  if (engine === undefined) throw new UsageError(`--${key} ENGINE is required: the two engines to compare (${ENGINE_IDS.join(", ")})`);
  if (!(ENGINE_IDS as readonly string[]).includes(engine)) throw new UsageError(`unknown engine "${engine}": --${key} takes ${ENGINE_IDS.join(", ")}`);
  return engine as Engine;
}

export const compare: Section = {
  title: "Comparisons of two engines",
  commands: [
    {
      words: ["compare"],
      args: "dr_…|rq_…|fo_… …",
      summary: "how far two engines' answers to the same prompts are apart: brands named (difference with its interval), pages cited, searches, order (free; stored as cm_…)",
      options: {
        a: { type: "string", arg: "ENGINE", values: ENGINE_IDS, help: "the first engine (the baseline), e.g. chatgpt" },
        b: { type: "string", arg: "ENGINE", values: ENGINE_IDS, help: "the engine compared with it, e.g. chatgpt_app" },
        brand: { type: "string", arg: "NAME", multiple: true, help: "a brand of yours to track (repeat for more); without entities, the project's context" },
        competitor: { type: "string", arg: "NAME", multiple: true, help: "a competitor to track (repeat for more)" },
        alias: { type: "string", arg: "NAME=ALIAS", multiple: true, help: "another name that counts as NAME (repeat for more)" },
        domain: { type: "string", arg: "NAME=DOMAIN", multiple: true, help: "a domain of NAME (repeat for more)" },
        "case-sensitive": { type: "string", arg: "NAME", multiple: true, help: "match NAME only as written (an ordinary word: Monday, Notion)" },
        entities: { type: "string", arg: "FILE", help: "the entities as a JSON list (name, role, aliases, domains, case_sensitive); - reads standard input" },
        ...formatOption,
      },
      async run(ctx) {
        if (ctx.args.length === 0) arg(ctx, 0, "run, batch or fanout ids (dr_…, rq_… or fo_…)");
        const format = formatOf(ctx);
        const a = engineOf(ctx, "a");
        const b = engineOf(ctx, "b");
        const entities = entitiesOf(ctx);
        const made = await request(ctx, createComparisonAnalysis, { body: { ids: ctx.args, a, b, ...(entities ? { entities } : {}) } });
        printComparison(ctx, format, { text: made.text, body: made.body });
        return EXIT.ok;
      },
    },
    {
      words: ["compare", "get"],
      args: "cm_…",
      summary: "a stored comparison, as `geoscope compare` printed it",
      options: { wait: opt.wait, ...formatOption },
      async run(ctx) {
        const id = arg(ctx, 0, "comparison id (cm_…)");
        noExtraArgs(ctx, 1);
        const format = formatOf(ctx);
        const result = await request(ctx, getAnalysis, { params: { analysis_id: id }, query: { wait: waitOption(ctx) } });
        if (result.body.kind !== "comparison") throw new UsageError(`${id} is a ${result.body.kind} analysis: read it with \`geoscope analysis get ${id}\``);
        printComparison(ctx, format, { text: result.text, body: result.body });
        return EXIT.ok;
      },
    },
  ],
};
