// Page audits: starting one audit run per URL (arguments, a file or standard input), following
// them, and the report of a finished audit (what failed and why, with its evidence, then the facts
// the audit read), which `runs get` prints for an audit run too.
import type { z } from "zod";
import { AUDIT_UNANSWERED_CODES, AuditRequest, FINDING_SEVERITIES, type AuditResult } from "../../lib/schemas/audits";
import { auditResultOf } from "../../lib/schemas/results";
import { createAudit, getRun, type Run } from "../../lib/schemas/runs";
import { CliHttpError, EXIT } from "../client";
import {
  date, followUntilFinished, linesOfFile, note, opt, out, printJson, projectOf, request, str, table, truncate, UsageError, waitBudget, wrap,
  type Ctx, type OptionSpec, type Section,
} from "../command";
import { plural } from "../../lib/text";

type RunBody = z.output<typeof Run>;
type Audit = z.output<typeof AuditResult>;
type Finding = Audit["findings"][number];
type Result = { text: string; body: RunBody };

const WIDTH = 80;
const MAX_OUTLINE = 30;
const MAX_VALUE = 160;
const SEVERITY_RANK = new Map<string, number>(FINDING_SEVERITIES.map((s, i) => [s, i]));

/** `lead`, then `text` wrapped to 80 columns, its later lines indented by `indent`. */
function hanging(lead: string, text: string, indent = lead.length): string[] {
  const first = wrap(text, WIDTH - lead.length);
  const rest = wrap(first.slice(1).join(" "), WIDTH - indent);
  return [`${lead}${first[0]}`, ...(first.length > 1 ? rest.map((line) => `${" ".repeat(indent)}${line}`) : [])];
}

const yesNo = (value: boolean | null | undefined, unset = "unknown") => (value === true ? "yes" : value === false ? "no" : unset);
const elapsed = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

/** An evidence value as one line of text: strings as they are, nothing found as "none", anything else as JSON, long ones cut. */
function valueText(value: unknown): string {
  if (value === null || value === undefined) return "none";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return truncate(text, MAX_VALUE);
}

function robotsLine(fetch: Audit["fetch"]): string {
  const robots = fetch.robots_txt;
  if (robots === null) return "not read";
  const http = robots.http_status === null ? "" : `, HTTP ${robots.http_status}`;
  if (robots.allows_page === null) return `could not be read (${robots.url}${http})`;
  if (!robots.found) return `none (${robots.url}${http}): crawlers may fetch the page`;
  return `${robots.allows_page ? "allows" : "FORBIDS"} the page (${robots.url}${http})`;
}

function fetchLines(audit: Audit): string[] {
  const { fetch, page } = audit;
  const head = [fetch.status, fetch.http_status !== null ? `HTTP ${fetch.http_status}` : null, elapsed(fetch.elapsed_ms), fetch.content_type || null];
  const lines = hanging("Fetch: ", head.filter(Boolean).join(" · "), 2);
  const hops = fetch.redirect_chain.length;
  if (page.final_url !== page.url) lines.push(...hanging("  final URL: ", `${page.final_url} (after ${plural(hops, "redirect")})`, 4));
  else if (hops > 0) lines.push(`  redirects: ${hops}`);
  lines.push(...hanging("  robots.txt: ", robotsLine(fetch), 4));
  if (fetch.truncated) lines.push("  body: cut at 5 MiB (truncated)");
  if (fetch.error) lines.push(...hanging("  error: ", fetch.error, 4));
  return lines;
}

const bySeverity = (a: Finding, b: Finding) => (SEVERITY_RANK.get(a.severity) ?? 9) - (SEVERITY_RANK.get(b.severity) ?? 9);

/** `label: value  (source)`, the source on a line of its own when it does not fit. */
function evidenceLines(e: Finding["items"][number]["evidence"][number]): string[] {
  const lines = hanging("      ", `${e.label}: ${valueText(e.value)}`, 8);
  if (!e.source) return lines;
  const source = `(${e.source})`;
  if (lines.at(-1)!.length + 2 + source.length <= WIDTH) lines[lines.length - 1] += `  ${source}`;
  else lines.push(`${" ".repeat(8)}${source}`);
  return lines;
}

/** One failing, warning or erroring finding: its line, its items with their evidence, what to do. */
function findingLines(symbol: string, f: Finding): string[] {
  const lines = hanging(`${symbol} [${f.severity}] `, `${f.name}${f.reason ? ` — ${f.reason}` : ""}`, 2);
  for (const item of f.items) {
    lines.push(...hanging("  - ", item.summary, 4));
    for (const e of item.evidence) lines.push(...evidenceLines(e));
  }
  if (f.status !== "error") lines.push(...hanging("  Fix: ", f.recommendation, 7));
  return lines;
}

function findingsLines(findings: readonly Finding[]): string[] {
  const of = (status: Finding["status"]) => findings.filter((f) => f.status === status).sort(bySeverity);
  const failing = of("fail");
  const warnings = of("warn");
  const errors = of("error");
  const passing = findings.filter((f) => f.status === "pass");
  const notApplicable = findings.filter((f) => f.status === "not_applicable");
  const lines: string[] = [];
  const group = (title: string, symbol: string, list: Finding[]) => {
    if (list.length === 0) return;
    lines.push("", `${title} (${list.length})`);
    list.forEach((f, i) => lines.push(...(i > 0 ? [""] : []), ...findingLines(symbol, f)));
  };
  group("Failing", "✗", failing);
  group("Warnings", "!", warnings);
  group("Checks that could not run", "?", errors);
  if (failing.length === 0 && warnings.length === 0) lines.push("", "Nothing failing, no warnings.");
  lines.push("");
  if (passing.length) lines.push(...hanging(`Passed (${passing.length}, none of these found): `, passing.map((f) => f.name).join(", "), 2));
  if (notApplicable.length) {
    const reasons = new Set(notApplicable.map((f) => f.reason));
    const only = reasons.size === 1 ? [...reasons][0] : null;
    lines.push(...hanging(`Not applicable (${notApplicable.length}): `, `${notApplicable.map((f) => f.name).join(", ")}${only ? ` — ${only}` : ""}`, 2));
  }
  return lines;
}

function contentLines({ content: c }: Audit): string[] {
  const l = c.links;
  return [
    "",
    ...hanging("Content: ", `${c.extraction_method} · ${plural(c.word_count, "word")} · ${plural(c.blocks, "block")} · ${plural(c.code_blocks, "code block")} · ${plural(c.tables, "table")}`, 2),
    ...hanging("  links: ", `${l.total} (main ${l.main}, navigation ${l.navigation}, internal ${l.internal}, external ${l.external})`, 4),
    `  likely JavaScript-dependent: ${yesNo(c.likely_js_dependent)}`,
  ];
}

function llmsText(m: Audit["metadata"]): string {
  const probes = m.llms_txt.map((p) => `${p.kind} ${p.found ? `found (${plural(p.links, "link")})` : `not found${p.http_status !== null ? ` (HTTP ${p.http_status})` : ""}`}`);
  return probes.length ? probes.join(" · ") : "not probed";
}

function metadataLines({ metadata: m }: Audit): string[] {
  const field = (label: string, value: string | null) => hanging(`  ${label}: `, value ?? "-", 4);
  const robots = [m.robots ? `meta ${m.robots}` : null, m.x_robots_tag ? `X-Robots-Tag ${m.x_robots_tag}` : null].filter(Boolean).join("; ") || "-";
  const og = Object.keys(m.open_graph);
  const dates = [
    m.dates.published ? `published ${m.dates.published}` : null,
    m.dates.modified ? `modified ${m.dates.modified}` : null,
    m.dates.last_modified_header ? `Last-Modified ${m.dates.last_modified_header}` : null,
  ].filter(Boolean);
  const jsonLd = m.structured_data_blocks
    ? `${m.structured_data_types.join(", ") || "no @type"} (${plural(m.structured_data_blocks, "block")}, ${plural(m.structured_data_errors, "error")})`
    : "none";
  return [
    "",
    "Metadata",
    ...field("title", m.title),
    ...field("description", m.description),
    ...field("canonical", m.canonical),
    ...hanging("  ", `lang: ${m.lang ?? "-"} · robots: ${robots} · noindex: ${yesNo(m.noindex, "not set")} · nofollow: ${yesNo(m.nofollow, "not set")}`, 4),
    ...field("Open Graph", og.length ? og.join(", ") : "none"),
    ...field("dates", dates.length ? dates.join(" · ") : "none found"),
    ...field("JSON-LD", jsonLd),
    ...field("llms.txt", llmsText(m)),
    ...field("markdown alternates", m.markdown_alternates.length ? m.markdown_alternates.join(", ") : "none"),
  ];
}

function outlineLines({ structure }: Audit): string[] {
  const { headings } = structure;
  const lines = ["", `Outline (${plural(headings.length, "heading")}, ${plural(structure.h1_count, "h1")})`];
  if (headings.length === 0) lines.push("  (no headings in the main content)");
  for (const h of headings.slice(0, MAX_OUTLINE)) {
    const lead = `${" ".repeat(2 * h.level)}h${h.level} `;
    lines.push(`${lead}${truncate(h.text, WIDTH - lead.length)}`);
  }
  if (headings.length > MAX_OUTLINE) lines.push(`  … and ${headings.length - MAX_OUTLINE} more`);
  return lines;
}

/** The URL a run audits: its page as requested, else its input. */
export function auditUrlOf(run: RunBody): string {
  const audit = auditResultOf(run.result);
  return audit?.page.url ?? (typeof run.input.url === "string" ? run.input.url : "(no URL)");
}

const UNANSWERED: ReadonlySet<string> = new Set(AUDIT_UNANSWERED_CODES);

/** A failed audit: the page that gave no HTTP answer (why, whether asking again may help), or the service's error. */
function failureLines(error: RunBody["error"]): string[] {
  if (!error) return ["error: no error recorded"];
  if (!UNANSWERED.has(error.code)) return hanging("error: ", `${error.code}: ${error.message}`, 2);
  return [
    "",
    ...hanging("", error.message, 0),
    `(${error.code}; ${error.retryable ? "asking again may succeed" : "asking again will not help"})`,
  ];
}

/**
 * The report of an audit run, for 80 columns: the fetch, failing findings then warnings (most
 * severe first) with their evidence and what to do, the passing and not applicable ones in a line
 * each, then what the audit read: content, metadata and the outline. An unfinished run says how to
 * wait for it; a failed one says why (a page that could not be fetched, in words).
 */
export function formatAudit(run: RunBody): string {
  const audit = auditResultOf(run.result);
  const charge = run.charge ? (run.charge.status === "released" ? "nothing charged (hold released)" : `${run.charge.status} $${run.charge.amount_usd}`) : null;
  const facts = [run.completed_at ? date(run.completed_at) : null, charge, run.duration_ms != null ? elapsed(run.duration_ms) : null].filter(Boolean);
  const lines = [`audit ${run.id}: ${run.status} · ${auditUrlOf(run)}`];
  if (facts.length) lines.push(facts.join(" · "));
  if (run.status === "failed") {
    lines.push(...failureLines(run.error));
    return lines.join("\n");
  }
  if (!audit) {
    lines.push(`Not audited yet. Wait for it with: geoscope runs get ${run.id} --wait 30`);
    return lines.join("\n");
  }
  lines.push("", ...fetchLines(audit), ...findingsLines(audit.findings));
  // Without HTML there is no content, metadata or outline to show; llms.txt is the site's, and was probed all the same.
  if (audit.content.extraction_method === null) lines.push("", "Content, metadata, outline: none (no HTML page was analysed)", ...hanging("llms.txt: ", llmsText(audit.metadata), 2));
  else lines.push(...contentLines(audit), ...metadataLines(audit), ...outlineLines(audit));
  return lines.join("\n");
}

/** One row of the table several audits print first. */
function summaryRow(run: RunBody) {
  const audit = auditResultOf(run.result);
  const count = (status: Finding["status"]) => (audit ? audit.findings.filter((f) => f.status === status).length : null);
  // A page that gave no HTTP answer has no fetch to show: its error code says what happened instead.
  const fetch = audit?.fetch.status ?? (run.error && UNANSWERED.has(run.error.code) ? run.error.code : null);
  return { status: run.status, fetch, http: audit?.fetch.http_status ?? null, fail: count("fail"), warn: count("warn"), url: auditUrlOf(run) };
}

// ---------- the command ----------

/**
 * The URLs: the arguments, then --file's lines (blank lines and `#` comments skipped; `--file -`
 * reads standard input, and only then: an agent's stdin that never closes must not hang it), each
 * once. All of them are checked with the request's own rule before anything is sent.
 */
export function urlsOf(ctx: Ctx): string[] {
  const file = str(ctx, "file");
  const fromFile =
    file === undefined
      ? []
      : linesOfFile(file);
  const given = [...ctx.args, ...fromFile];
  if (given.length === 0) throw new UsageError("no URL: geoscope audit URL … --project pr_…, or --file FILE (one URL per line; - for standard input)");
  const bad = given.flatMap((url) => {
    if (AuditRequest.shape.url.safeParse(url).success) return [];
    const hint = /^[\w-]+(\.[\w-]+)+(\/|$)/.test(url) ? ` (did you mean https://${url}?)` : "";
    return [`${url}${hint}`];
  });
  if (bad.length) throw new UsageError(`not an absolute http(s) URL: ${bad.join(", ")}; nothing was started`);
  const urls = [...new Set(given)];
  if (urls.length < given.length) note(`${given.length - urls.length} repeated URL(s) audited once`);
  return urls;
}

/**
 * Asks again (`?wait`, at most 30 s a time) until the run has finished or `deadline` has passed;
 * each new unfinished status on stderr. The finished one is not: the report (or the JSON body)
 * that follows opens with it, and the line printed twice read as two audits.
 */
function follow(ctx: Ctx, first: Result, deadline: number): Promise<Result> {
  let shown = "";
  const progress = (body: RunBody) => {
    // followUntilFinished prints what differs from the line before: repeating it prints nothing.
    if (body.status === "queued" || body.status === "running") shown = `audit ${body.id}: ${body.status} · ${auditUrlOf(body)}`;
    return shown;
  };
  return followUntilFinished(first, deadline, progress, (id, wait) => request(ctx, getRun, { params: { run_id: id }, query: { wait } }));
}

/** POST /audits for each URL in turn; if one is refused, the runs already started are named before the error. */
export async function startAudits(ctx: Ctx, urls: readonly string[], project: string): Promise<Result[]> {
  const started: Result[] = [];
  for (const url of urls) {
    try {
      started.push(await request(ctx, createAudit, { body: { url, project } }));
    } catch (error) {
      if (error instanceof CliHttpError && started.length) {
        note(`audit of ${url} refused; already started: ${started.map((r) => `${r.body.id} (${auditUrlOf(r.body)})`).join(", ")}`);
      }
      throw error;
    }
  }
  return started;
}

/** --json: one body as sent; several, one body a line (JSON lines), or indented one after another with --pretty. */
function printBodies(ctx: Ctx, results: readonly Result[]) {
  if (results.length === 1) return printJson(results[0]!.text, ctx.pretty);
  for (const r of results) out(ctx.pretty ? JSON.stringify(JSON.parse(r.text), null, 2) : r.text.includes("\n") ? JSON.stringify(JSON.parse(r.text)) : r.text);
}

function printReports(results: readonly Result[], waited: boolean) {
  const runs = results.map((r) => r.body);
  if (runs.length === 1) {
    out(formatAudit(runs[0]!));
    return;
  }
  if (!waited) {
    out(table(runs.map((r) => ({ id: r.id, status: r.status, url: auditUrlOf(r) })), ["id", "status", "url"]));
    note(`Queued. Read each report with: geoscope runs get ${runs[0]!.id} --wait 30 (and the other ids above)`);
    return;
  }
  out([table(runs.map(summaryRow), ["status", "fetch", "http", "fail", "warn", "url"]), ...runs.map((r) => `${"=".repeat(WIDTH)}\n${formatAudit(r)}`)].join("\n\n"));
}

const auditOptions = {
  project: opt.project,
  file: { type: "string", arg: "FILE", help: "read URLs from FILE too, one per line (blank lines and # comments skipped; `-`: standard input)" },
  wait: { type: "string", arg: "SECONDS", valueOptional: true, help: "wait until every audit has finished (progress on stderr) and print the reports, or at most SECONDS" },
} as const satisfies Record<string, OptionSpec>;

export const audits: Section = {
  title: "Page audits",
  commands: [
    {
      words: ["audit"],
      args: "URL …",
      summary: "audit pages: can answer engines reach, read and cite them (a run dr_… per URL, its price held from your credit; --json of several URLs: one body a line)",
      options: auditOptions,
      async run(ctx) {
        const project = projectOf(ctx);
        const urls = urlsOf(ctx);
        const budget = waitBudget(ctx);
        const deadline = Date.now() + (budget ?? 0) * 1000;
        let results = await startAudits(ctx, urls, project);
        if (budget !== undefined) {
          const finished: Result[] = [];
          for (const r of results) finished.push(await follow(ctx, r, deadline));
          results = finished;
        }
        if (ctx.json) printBodies(ctx, results);
        else printReports(results, budget !== undefined);
        return results.some((r) => r.body.status === "failed") ? EXIT.other : EXIT.ok;
      },
    },
  ],
};
