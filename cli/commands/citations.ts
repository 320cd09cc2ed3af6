// Citation analyses: what a set of runs, batches and fanouts cited, by engine, domain and page, with the
// coverage of chosen domains (95% intervals) and brand mentions; as tables or one table as CSV.
import { printComparison } from "./compare";
import { formatOpportunities } from "./opportunities";
import type { z } from "zod";
import { createCitationAnalysis, getAnalysis, listAnalyses, type CitationAnalysis } from "../../lib/schemas/analyses";
import { EXIT } from "../client";
import { arg, date, enginesInOrder, inEngineOrder, intOption, noExtraArgs, note, opt, out, printJson, request, show, str, strs, table, truncate, UsageError, waitOption, type Ctx, type Section } from "../command";
import { counted, percent, percentEnds, percentRange } from "../../lib/words/format";
import { toCsv } from "./fanouts";
import { printQuestionsAnalysis } from "./questions";
import { formatVisibilityAnalysis } from "./visibility";

type Analysis = z.output<typeof CitationAnalysis>;

export const CITATION_TABLES = ["domains", "pages", "coverage", "mentions"] as const;
type TableName = (typeof CITATION_TABLES)[number];

/** A coverage rate and its interval's ends as the CSV writes them: as the pages say them ("33%", rounded outward), which spreadsheets read as numbers. */
function rateCells(rate: number, interval: readonly [number, number]) {
  const [low, high] = percentEnds(interval);
  return { cited_rate: percent(rate), low, high };
}

/** The rows of one table, with the columns `--format csv --table NAME` writes. */
export function citationTable(a: Analysis, name: TableName): { rows: Record<string, unknown>[]; columns: string[] } {
  switch (name) {
    case "domains":
      return {
        rows: a.domains.map((d) => ({ ...d, engines: enginesInOrder(d.engines).join(" ") })),
        columns: ["domain", "citations", "pages", "runs", "prompts", "engines", "seen_not_cited"],
      };
    case "pages":
      return {
        rows: a.pages.map((p) => ({ ...p, engines: enginesInOrder(p.engines).join(" ") })),
        columns: ["url", "domain", "citations", "runs", "prompts", "engines", "seen_not_cited"],
      };
    case "coverage":
      return {
        rows: a.domain_coverage.flatMap((c) => [
          { domain: c.domain, engine: "all", runs: c.runs, cited_runs: c.cited_runs, unknown_runs: c.unknown_runs, ...rateCells(c.cited_rate, c.cited_rate_interval), citations: c.citations, prompts: c.prompts, cited_prompts: c.cited_prompts },
          ...inEngineOrder(c.by_engine, (e) => e.engine).map((e) => ({ domain: c.domain, engine: e.engine, runs: e.runs, cited_runs: e.cited_runs, unknown_runs: e.unknown_runs, ...rateCells(e.cited_rate, e.cited_rate_interval), citations: null, prompts: null, cited_prompts: null })),
        ]),
        columns: ["domain", "engine", "runs", "cited_runs", "unknown_runs", "cited_rate", "low", "high", "citations", "prompts", "cited_prompts"],
      };
    case "mentions":
      return {
        rows: a.textual_mentions.flatMap((m) => [
          { term: m.term, engine: "all", runs_mentioning: m.runs_mentioning, runs: m.runs, prompts_mentioning: m.prompts_mentioning, prompts: m.prompts, occurrences: m.occurrences },
          ...inEngineOrder(Object.entries(m.runs_mentioning_by_engine), ([engine]) => engine).map(([engine, n]) => ({ term: m.term, engine, runs_mentioning: n, runs: null, prompts_mentioning: null, prompts: null, occurrences: null })),
        ]),
        columns: ["term", "engine", "runs_mentioning", "runs", "prompts_mentioning", "prompts", "occurrences"],
      };
  }
}

const TOP = 10;

/** Totals, engines, the top domains and pages, coverage with intervals, mentions and exclusions. */
export function formatCitationAnalysis(a: Analysis): string {
  const t = a.totals;
  const lines = [
    `citation analysis ${a.id}: ${a.status} · ${truncate(a.subject, 80)}`,
    `${counted(t.runs, "run")}, ${counted(t.prompts, "prompt")}, ${counted(t.engines, "engine")} · ${counted(t.citations, "citation")} of ${counted(t.unique_cited_urls, "page")} on ${counted(t.unique_cited_domains, "domain")} · ` +
      `${t.sources_observed} sources seen, ${t.retrieved_not_cited} seen but not cited, ${t.citation_status_unknown} of unknown status, ${t.unresolved_sources} unresolved · ` +
      `${t.runs_without_citation_marks} runs without citation marks`,
    "",
    table(inEngineOrder(a.engines, (e) => e.engine), ["engine", "runs", "runs_with_citations", "citations", "unique_cited_domains", "runs_without_citation_marks"]),
    "",
    `top domains (${Math.min(TOP, a.domains.length)} of ${a.domains.length})`,
    table(a.domains.slice(0, TOP).map((d) => ({ ...d, engines: enginesInOrder(d.engines).join(",") })), ["domain", "citations", "pages", "runs", "prompts", "engines", "seen_not_cited"]),
    "",
    `top pages (${Math.min(TOP, a.pages.length)} of ${a.pages.length})`,
    table(a.pages.slice(0, TOP).map((p) => ({ ...p, url: truncate(p.url, 70) })), ["url", "citations", "runs", "prompts", "seen_not_cited"]),
  ];
  if (a.domain_coverage.length) {
    const rows = a.domain_coverage.flatMap((c) =>
      [{ ...c, engine: "all" }, ...inEngineOrder(c.by_engine, (e) => e.engine)].map((r) => ({
        domain: c.domain,
        engine: r.engine,
        cited: `${r.cited_runs}/${r.runs}`,
        rate: percent(r.cited_rate),
        "95%": percentRange(r.cited_rate_interval),
        unknown: r.unknown_runs,
      })),
    );
    lines.push("", "coverage (a rate is a floor when runs are unknown: they showed no citation status)", table(rows, ["domain", "engine", "cited", "rate", "95%", "unknown"]));
  }
  if (a.textual_mentions.length) {
    const rows = a.textual_mentions.map((m) => ({
      term: m.term,
      runs: `${m.runs_mentioning}/${m.runs}`,
      prompts: `${m.prompts_mentioning}/${m.prompts}`,
      occurrences: m.occurrences,
      by_engine: inEngineOrder(Object.entries(m.runs_mentioning_by_engine), ([e]) => e).map(([e, n]) => `${e} ${n}`).join(", "),
    }));
    lines.push("", "mentions (whole words, any case)", table(rows, ["term", "runs", "prompts", "occurrences", "by_engine"]));
  }
  if (a.excluded_runs.length) {
    lines.push("", `excluded: ${a.excluded_runs.map((e) => `${e.run_id} (${e.reason})`).join(", ")}`);
  }
  return lines.join("\n");
}

/** The table `--format csv` writes, or null for the whole analysis; checked before any request is made. */
function csvTableOf(ctx: Ctx): TableName | null {
  const format = str(ctx, "format");
  const name = str(ctx, "table");
  if (name !== undefined && !(CITATION_TABLES as readonly string[]).includes(name)) {
    throw new UsageError(`unknown table "${name}": --table takes ${CITATION_TABLES.join(", ")}`);
  }
  if (format === undefined) {
    if (name !== undefined) throw new UsageError("--table goes with --format csv");
    return null;
  }
  if (format !== "csv") throw new UsageError(`unknown format "${format}": --format takes csv`);
  if (ctx.json) throw new UsageError("--format writes CSV; leave out --json (or drop --format for the API's body)");
  if (!name) throw new UsageError(`--format csv needs --table ${CITATION_TABLES.join("|")}`);
  return name as TableName;
}

function printAnalysis(ctx: Ctx, csvTable: TableName | null, result: { text: string; body: Analysis }) {
  if (csvTable) {
    const { rows, columns } = citationTable(result.body, csvTable);
    process.stdout.write(toCsv(rows, columns));
  } else if (ctx.json) printJson(result.text, ctx.pretty);
  else out(formatCitationAnalysis(result.body));
}

const outputOptions = {
  format: { type: "string", arg: "csv", values: ["csv"], help: "write one table as CSV (with --table)" },
  table: { type: "string", arg: CITATION_TABLES.join("|"), values: CITATION_TABLES, help: "the table --format csv writes" },
} as const;

export const citations: Section = {
  title: "Citation analyses",
  commands: [
    {
      words: ["citations"],
      args: "dr_…|rq_…|fo_… …",
      summary: "what runs, batches and fanouts (all their runs) cited, by engine, domain and page, with coverage and mentions (free; stored as ca_…)",
      options: {
        brand: { type: "string", arg: "TERM", multiple: true, help: "a term to count in answers (repeat for more)" },
        domain: { type: "string", arg: "DOMAIN", multiple: true, help: "a domain to report coverage for, subdomains included (repeat for more)" },
        "project-context": { type: "boolean", help: "with no --brand and no --domain: the project's domains, brands and competitors" },
        ...outputOptions,
      },
      async run(ctx) {
        if (ctx.args.length === 0) arg(ctx, 0, "run, batch or fanout ids (dr_…, rq_… or fo_…)");
        const csvTable = csvTableOf(ctx);
        const brands = strs(ctx, "brand");
        const domains = strs(ctx, "domain");
        const body = {
          ids: ctx.args,
          ...(brands.length ? { brands } : {}),
          ...(domains.length ? { domains } : {}),
          ...(ctx.values["project-context"] === true ? { use_project_context: true } : {}),
        };
        printAnalysis(ctx, csvTable, await request(ctx, createCitationAnalysis, { body }));
        return EXIT.ok;
      },
    },
    {
      words: ["analysis", "get"],
      args: "ca_…|fa_…|va_…|cm_…",
      summary: "a stored analysis, as `geoscope citations`, `geoscope questions` or `geoscope visibility create` printed it",
      options: { wait: opt.wait, ...outputOptions },
      async run(ctx) {
        const id = arg(ctx, 0, "analysis id (ca_…, fa_…, va_… or cm_…)");
        noExtraArgs(ctx, 1);
        const csvTable = csvTableOf(ctx);
        const result = await request(ctx, getAnalysis, { params: { analysis_id: id }, query: { wait: waitOption(ctx) } });
        if (result.body.kind === "questions") {
          if (csvTable) throw new UsageError(`--format csv is for citation analyses; ${id} is a questions analysis`);
          return printQuestionsAnalysis(ctx, { text: result.text, body: result.body });
        }
        if (result.body.kind === "comparison") {
          if (csvTable) throw new UsageError(`--table is for citation analyses; ${id} is a comparison: \`geoscope compare get ${id} --format csv\` exports it`);
          printComparison(ctx, null, { text: result.text, body: result.body });
          return EXIT.ok;
        }
        if (result.body.kind === "opportunities") {
          if (csvTable) throw new UsageError(`--table is for citation analyses; ${id} is an opportunity list: \`geoscope opportunities get ${id} --format csv --section lost_prompts\` exports it`);
          if (ctx.json) printJson(result.text, ctx.pretty);
          else out(formatOpportunities(result.body));
          return EXIT.ok;
        }
        if (result.body.kind === "visibility") {
          if (csvTable) throw new UsageError(`--table is for citation analyses; ${id} is a visibility analysis: \`geoscope visibility get ${id} --format csv\` exports it`);
          if (ctx.json) printJson(result.text, ctx.pretty);
          else out(formatVisibilityAnalysis(result.body));
          return EXIT.ok;
        }
        printAnalysis(ctx, csvTable, { text: result.text, body: result.body });
        return EXIT.ok;
      },
    },
    {
      words: ["analysis", "list"],
      aliases: [["analyses", "list"], ["analyses"]],
      summary: "analyses of every kind (questions, citations, visibility, comparison), newest first",
      options: {
        kind: { type: "string", arg: "questions|citations|visibility|comparison", values: ["questions", "citations", "visibility", "comparison"], help: "only analyses of this kind" },
        project: { type: "string", arg: "pr_…", help: "only this project's analyses" },
        workspace: opt.workspace,
        limit: opt.limit,
        cursor: opt.cursor,
      },
      async run(ctx) {
        noExtraArgs(ctx, 0);
        const kind = str(ctx, "kind") as "questions" | "citations" | "visibility" | undefined;
        const query = { kind, project: str(ctx, "project"), workspace: str(ctx, "workspace"), limit: intOption(ctx, "limit"), cursor: str(ctx, "cursor") };
        show(ctx, await request(ctx, listAnalyses, { query }), (body) => {
          if (body.next_cursor) note(`more: --cursor ${body.next_cursor}`);
          return table(
            body.items.map((a) => ({ ...a, created_at: date(a.created_at), subject: truncate(a.subject, 50) })),
            ["id", "kind", "status", "run_count", "created_at", "subject"],
          );
        });
        return EXIT.ok;
      },
    },
  ],
};

