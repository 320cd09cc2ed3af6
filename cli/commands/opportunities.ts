// Opportunity lists (decisions.md "Opportunities"): what a visibility analysis says to do next:
// prompts lost to competitors, pages cited where they are named and the brand is not, the brand's
// own pages cited, and the searches run on lost prompts. Human tables led by the summary; --json
// the API's body; --format csv one section.
import type { z } from "zod";
import { getAnalysis } from "../../lib/schemas/analyses";
import { getPricing } from "../../lib/schemas/billing";
import { formatUsd, parseUsd } from "../../lib/billing/money";
import { startAudits } from "./audits";
import { createOpportunityAnalysis, type OpportunityAnalysis } from "../../lib/schemas/opportunities";
import { OPPORTUNITY_SECTIONS, opportunitiesCsv, type OpportunitySection } from "../../lib/opportunities/csv";
import { count, counted, engineName, percent, percentRange, points, pointsRange } from "../../lib/words/format";
import { EXIT } from "../client";
import { arg, note, noExtraArgs, out, printJson, request, str, strs, table, truncate, UsageError, type Ctx, type Section } from "../command";

type List = z.output<typeof OpportunityAnalysis>;

/** The list as tables, each row with its n; the summary first. */
export function formatOpportunities(a: List): string {
  const t = a.totals;
  const lines = [
    ...a.summary,
    "",
    `opportunities ${a.id} for ${a.brand} (from ${a.analysis_id}): ${counted(t.runs, "answer")}, ${t.lost_prompts} of ${counted(t.prompts, "prompt")} lost · competitors: ${a.competitors.join(", ") || "none"}`,
    "",
    `prompts lost (a competitor named more often, Newcombe's 95% interval of the difference above 0)`,
    a.lost_prompts.length
      ? table(
          a.lost_prompts.map((l, i) => ({
            "#": i + 1,
            prompt: truncate(l.prompt.replace(/\s+/g, " "), 50),
            competitor: truncate(l.competitor.name, 20),
            named: `${count(l.competitor.runs_mentioning, l.n)} (${percent(l.competitor.visibility)}, ${percentRange(l.competitor.visibility_interval)})`,
            [a.brand]: `${count(l.brand.runs_mentioning, l.n)} (${percent(l.brand.visibility)}, ${percentRange(l.brand.visibility_interval)})`,
            diff: points(l.diff),
            "95%": pointsRange(l.diff_interval),
            evidence: truncate((l.evidence[0]?.sentence ?? "").replace(/\s+/g, " "), 50),
          })),
          ["#", "prompt", "competitor", "named", a.brand, "diff", "95%", "evidence"],
        )
      : "(none)",
    "",
    `pages to be cited on (of ${t.target_runs} answers of lost prompts naming a competitor and not ${a.brand})`,
    a.citation_targets.length
      ? table(
          a.citation_targets.slice(0, 20).map((c, i) => ({ "#": i + 1, page: truncate(c.url, 70) + (c.owner ? ` (${c.owner}'s own)` : ""), citing: count(c.runs_citing, c.n), competitors: c.competitors.map((x) => `${x.name} (${x.runs})`).join(", ") })),
          ["#", "page", "citing", "competitors"],
        )
      : "(none)",
    "",
    `${a.brand}'s own pages cited (${a.brand_domains.join(", ") || "no domain tracked"})`,
    a.own_pages.length
      ? table(
          a.own_pages.slice(0, 20).map((o, i) => ({
            "#": i + 1, page: truncate(o.url, 70), citing: count(o.runs_citing, o.n), "not naming it": count(o.cited_not_mentioned, o.runs_citing),
            engines: o.by_engine.map((g) => `${engineName(g.engine)} ${g.runs_citing}`).join(", "),
          })),
          ["#", "page", "citing", "not naming it", "engines"],
        )
      : "(none)",
    "",
    "searches on lost prompts",
    a.query_gaps.length
      ? table(
          a.query_gaps.slice(0, 20).map((q, i) => ({ "#": i + 1, query: truncate(q.query, 60), engine: engineName(q.engine), runs: count(q.runs, q.n) })),
          ["#", "query", "engine", "runs"],
        )
      : "(none)",
  ];
  if (a.citation_targets.length > 20 || a.own_pages.length > 20 || a.query_gaps.length > 20) lines.push("", `every row: geoscope opportunities get ${a.id} --format csv --section SECTION`);
  return lines.join("\n");
}

function sectionOf(ctx: Ctx): OpportunitySection | null {
  const format = str(ctx, "format");
  const section = str(ctx, "section");
  if (format === undefined) {
    if (section !== undefined) throw new UsageError("--section goes with --format csv");
    return null;
  }
  if (format !== "csv") throw new UsageError(`unknown format "${format}": --format takes csv`);
  if (ctx.json) throw new UsageError("--format csv writes one section; leave out --json (or drop --format for the API's body)");
  if (section === undefined) throw new UsageError(`--format csv needs --section: ${OPPORTUNITY_SECTIONS.join(", ")}`);
  if (!(OPPORTUNITY_SECTIONS as readonly string[]).includes(section)) throw new UsageError(`unknown section "${section}": --section takes ${OPPORTUNITY_SECTIONS.join(", ")}`);
  return section as OpportunitySection;
}

async function print(ctx: Ctx, section: OpportunitySection | null, result: { text: string; body: List }) {
  if (section) process.stdout.write(opportunitiesCsv(result.body, section));
  else if (ctx.json) printJson(result.text, ctx.pretty);
  else out(formatOpportunities(result.body));
  await audit(ctx, result.body);
}

/** --audit URL: a page audit of each page named (one of the list's targets or own pages), its price said first (on stderr). */
async function audit(ctx: Ctx, list: List) {
  const urls = [...new Set(strs(ctx, "audit"))];
  if (urls.length === 0) return;
  const pages = new Set([...list.citation_targets.map((t) => t.url), ...list.own_pages.map((o) => o.url)]);
  const foreign = urls.find((u) => !pages.has(u));
  if (foreign !== undefined) throw new UsageError(`--audit ${foreign}: not a page of ${list.id} (its citation targets and own pages are)`);
  if (!list.project_id) throw new UsageError(`--audit: ${list.id} has no project to audit in`);
  const card = (await request(ctx, getPricing)).body;
  const price = card.prices.find((p) => p.product === "audit");
  if (price) {
    const total = parseUsd(price.unit_price_usd) * BigInt(urls.length);
    note(`auditing ${urls.length} ${urls.length === 1 ? "page" : "pages"} at $${price.unit_price_usd} each: $${formatUsd(total)} held from your credit (prices ${card.version})`);
  }
  const started = await startAudits(ctx, urls, list.project_id);
  note(`started: ${started.map((r) => r.body.id).join(", ")} · read each report with: geoscope runs get ${started[0]!.body.id} --wait 30`);
}

const options = {
  format: { type: "string", arg: "csv", values: ["csv"], help: "one section as CSV (with --section), figures as the pages write them" },
  section: { type: "string", arg: "SECTION", values: [...OPPORTUNITY_SECTIONS], help: `the section --format csv writes: ${OPPORTUNITY_SECTIONS.join(", ")}` },
  audit: { type: "string", arg: "URL", multiple: true, help: "then start a page audit of this citation target or own page (repeat for more; its price said first, held from your credit)" },
} as const;

export const opportunities: Section = {
  title: "Opportunities",
  commands: [
    {
      words: ["opportunities"],
      args: "va_…",
      summary: "what a visibility analysis says to do next: prompts lost to competitors, pages to be cited on, own pages, searches (free; stored as op_…)",
      options: { brand: { type: "string", arg: "NAME", help: "the tracked entity to find opportunities for (default: the analysis's brand)" }, ...options },
      async run(ctx) {
        const id = arg(ctx, 0, "visibility analysis id (va_…)");
        noExtraArgs(ctx, 1);
        const section = sectionOf(ctx);
        const brand = str(ctx, "brand");
        const made = await request(ctx, createOpportunityAnalysis, { body: { analysis: id, ...(brand !== undefined ? { brand } : {}) } });
        await print(ctx, section, { text: made.text, body: made.body });
        return EXIT.ok;
      },
    },
    {
      words: ["opportunities", "get"],
      args: "op_…",
      summary: "a stored opportunity list, as `geoscope opportunities` printed it",
      options,
      async run(ctx) {
        const id = arg(ctx, 0, "opportunity list id (op_…)");
        noExtraArgs(ctx, 1);
        const section = sectionOf(ctx);
        const result = await request(ctx, getAnalysis, { params: { analysis_id: id }, query: {} });
        if (result.body.kind !== "opportunities") throw new UsageError(`${id} is a ${result.body.kind} analysis: read it with \`geoscope analysis get ${id}\``);
        await print(ctx, section, { text: result.text, body: result.body });
        return EXIT.ok;
      },
    },
  ],
};
