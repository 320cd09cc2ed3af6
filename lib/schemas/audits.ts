// Page audits (spec 2.4, 4.2, 4.3; decisions.md "Audits"): can answer engines reach, read and
// cite a page, and what should change. The audit document is the `result` of an audit run.
// zod only: no server code may be imported here.
import { z } from "zod";
import { exampleAuditRequest, exampleAuditResult } from "./examples";
import { ProjectId } from "./projects";

const count = z.int().min(0);

export const FETCH_STATUSES = ["success", "redirect", "client_error", "server_error", "blocked", "non_html", "fetch_error"] as const;
export const FINDING_CATEGORIES = ["access", "indexing", "content", "structure", "metadata", "structured_data", "ai_access"] as const;
export const FINDING_SEVERITIES = ["critical", "high", "medium", "low", "info"] as const;
export const EVIDENCE_LEVELS = ["observed", "heuristic", "inferred"] as const;
export const FINDING_STATUSES = ["fail", "warn", "pass", "not_applicable", "error"] as const;
export const EXTRACTION_METHODS = ["article", "main", "role_main", "content_score", "body"] as const;
/**
 * The RunError codes of an audit run that failed because its page gave no HTTP answer at all:
 * an address that is not public (or a URL with credentials), no DNS address, a refused
 * connection, a timeout before any answer, another connection failure, a TLS failure.
 */
export const AUDIT_UNANSWERED_CODES = ["page_blocked", "page_dns_error", "page_connection_refused", "page_timeout", "page_connection_error", "page_tls_error"] as const;

export const FetchStatus = z.enum(FETCH_STATUSES).meta({
  id: "FetchStatus",
  description:
    "`success` (2xx HTML), `redirect` (stopped on a redirect: too many hops or no usable Location), `client_error` (4xx), `server_error` (5xx), `blocked` (robots.txt forbids the page, or a redirect led to an address that is not public or to another scheme), `non_html` (2xx that is not an HTML page), `fetch_error` (timeout, connection or TLS failure after a redirect was answered). A page that gave no HTTP answer at all is not a completed audit: its run fails (see POST /audits).",
});

export const FindingSeverity = z.enum(FINDING_SEVERITIES).meta({ id: "FindingSeverity" });
export const EvidenceLevel = z.enum(EVIDENCE_LEVELS).meta({
  id: "EvidenceLevel",
  description: "`observed`: read directly from what was fetched. `heuristic`: a rule of thumb over what was fetched. `inferred`: a guess about something not fetched.",
});
export const FindingStatus = z.enum(FINDING_STATUSES).meta({
  id: "FindingStatus",
  description: "`fail`, `warn`, `pass`; `not_applicable` (the check needs something the audit did not get, e.g. no HTML); `error` (the check itself failed).",
});
export const FindingCategory = z.enum(FINDING_CATEGORIES).meta({ id: "FindingCategory" });

export const AuditPage = z
  .object({
    url: z.string().describe("As requested."),
    final_url: z.string().describe("Where the fetch landed after redirects."),
    domain: z.string().nullable().describe("Registered domain of final_url (Public Suffix List); null for an IP address."),
  })
  .meta({ id: "AuditPage" });

export const RedirectHop = z
  .object({ url: z.string(), status: z.int(), location: z.string() })
  .meta({ id: "RedirectHop", description: "One redirect answered: the URL asked, its status and its Location (absolute)." });

export const RobotsTxt = z
  .object({
    url: z.string(),
    http_status: z.int().nullable(),
    found: z.boolean(),
    allows_page: z.boolean().nullable().describe("Whether robots.txt lets the product token `geoscope` fetch the page; true when there is no robots.txt; null when it could not be read."),
  })
  .meta({ id: "RobotsTxt" });

export const AuditFetch = z
  .object({
    status: FetchStatus,
    http_status: z.int().nullable(),
    redirect_chain: z.array(RedirectHop),
    content_type: z.string().default(""),
    server_headers: z.record(z.string(), z.string()).describe("The final response's headers, names lower-case."),
    elapsed_ms: count.default(0).describe("From the first request to the last byte of the page, redirects included."),
    error: z.string().nullable(),
    truncated: z.boolean().default(false).describe("The body was cut at 5 MiB."),
    robots_txt: RobotsTxt.nullable(),
  })
  .meta({ id: "AuditFetch" });

export const LinkCounts = z
  .object({
    total: count.default(0),
    main: count.default(0),
    navigation: count.default(0),
    internal: count.default(0),
    external: count.default(0),
  })
  .meta({
    id: "LinkCounts",
    description:
      "Only http(s) links count; same-page anchors and mailto:, tel:, javascript: hrefs do not. `main`: in the main content; `navigation`: in nav, header, footer and sidebars; `internal`: same registered domain as the page.",
  });

export const AuditContent = z
  .object({
    extraction_method: z.enum(EXTRACTION_METHODS).nullable().describe("Which arm of the main-content cascade found it: article, main, role_main, content_score, body; null without HTML."),
    word_count: count.default(0),
    blocks: count.default(0).describe("Paragraphs, list items, quotes and the like in the main content."),
    code_blocks: count.default(0),
    tables: count.default(0),
    excerpt: z
      .string()
      .default("")
      .describe(
        "The lead, at most 300 characters: the main content's first real paragraph (not its title, section label, byline, date, caption, ad label or share bar; a date stamp before its text cut), else the page's meta description, else the start of the main text.",
      ),
    likely_js_dependent: z.boolean().nullable().describe("The served HTML looks like a JavaScript shell; the service does not run JavaScript."),
    links: LinkCounts,
    rendering_signals: z
      .record(z.string(), z.unknown())
      .describe("What the JavaScript-shell guess rests on: body text length, script counts and bytes, framework markers, noscript text, empty app roots."),
  })
  .meta({ id: "AuditContent" });

export const Heading = z.object({ level: z.int().min(1).max(6), text: z.string() }).meta({ id: "Heading" });
export const LevelSkip = z
  .object({ from_level: z.int(), to_level: z.int(), at: z.string().describe("The text of the heading that skips.") })
  .meta({ id: "LevelSkip" });

export const AuditStructure = z
  .object({
    headings: z.array(Heading).describe("The main content's outline, in order."),
    h1_count: count.describe("h1 headings in that outline; whether the page has an h1 anywhere is the missing_h1 finding."),
    level_skips: z.array(LevelSkip),
  })
  .meta({ id: "AuditStructure" });

export const AuditDates = z
  .object({
    published: z.string().nullable(),
    modified: z.string().nullable(),
    last_modified_header: z.string().nullable(),
  })
  .meta({ id: "AuditDates", description: "As found (meta tags and JSON-LD for published/modified; the Last-Modified header), not reformatted." });

export const LlmsTxtProbe = z
  .object({
    kind: z.string().describe("`llms.txt` or `llms-full.txt`."),
    url: z.string(),
    http_status: z.int().nullable(),
    found: z.boolean().describe("A 200 whose body is not an HTML page."),
    links: count.describe("Markdown links in it."),
  })
  .meta({ id: "LlmsTxtProbe" });

export const AuditMetadata = z
  .object({
    title: z.string().nullable(),
    description: z.string().nullable(),
    canonical: z.string().nullable(),
    lang: z.string().nullable(),
    robots: z.string().nullable().describe("The robots meta tag's content."),
    x_robots_tag: z.string().nullable(),
    noindex: z.boolean().nullable().describe("From the robots meta tag or X-Robots-Tag."),
    nofollow: z.boolean().nullable(),
    open_graph: z.record(z.string(), z.string()),
    dates: AuditDates,
    structured_data_types: z.array(z.string()).describe("JSON-LD @type values, in order of appearance, each once."),
    structured_data_blocks: count,
    structured_data_errors: count.describe("JSON-LD blocks that do not parse."),
    markdown_alternates: z.array(z.string()),
    llms_txt: z.array(LlmsTxtProbe),
  })
  .meta({ id: "AuditMetadata", description: "Every field is always present (the spec lists them as optional): null, false-y or empty when the page does not say." });

export const FindingEvidence = z
  .object({
    label: z.string(),
    value: z.unknown(),
    source: z.string().describe("Where it was read: a header (`header:x-robots-tag`), a tag (`html:<meta name=\"robots\">`), a file (`robots.txt`), or `fetch`."),
  })
  .meta({ id: "FindingEvidence" });

export const FindingItem = z
  .object({
    summary: z.string(),
    severity: FindingSeverity,
    subtype: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
    evidence: z.array(FindingEvidence),
  })
  .meta({ id: "FindingItem" });

export const AuditFinding = z
  .object({
    key: z.string(),
    version: z.int().min(1),
    name: z.string(),
    category: FindingCategory,
    severity: FindingSeverity.describe("How much it matters when it fails."),
    evidence_level: EvidenceLevel,
    status: FindingStatus,
    why_it_matters: z.string(),
    recommendation: z.string(),
    reason: z.string().nullable().describe("Why this status, in a sentence."),
    items: z.array(FindingItem),
  })
  .meta({ id: "AuditFinding" });

export const AuditResult = z
  .object({
    page: AuditPage,
    fetch: AuditFetch,
    content: AuditContent,
    structure: AuditStructure,
    metadata: AuditMetadata,
    findings: z.array(AuditFinding).describe("Every finding of the catalog once, in catalog order, so two audits compare line by line."),
  })
  .meta({ id: "AuditResult", examples: [exampleAuditResult] });

export const AuditRequest = z
  .strictObject({
    url: z
      .string()
      .trim()
      .max(2048, { error: "must be at most 2048 characters" })
      .refine(
        (value) => {
          try {
            const u = new URL(value);
            return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
          } catch {
            return false;
          }
        },
        { error: "must be an absolute http or https URL" },
      )
      .meta({
        format: "uri",
        pattern: "^\\s*[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+",
        maxLength: 2048,
        description:
          "The page: an absolute `http://` or `https://` URL with a host, at most 2048 characters after leading and trailing whitespace is trimmed (stored trimmed). Any other scheme, or text that is not a URL, is 400.",
      }),
    project: ProjectId.describe("The project the work belongs to (`pr_…`); required."),
  })
  .meta({ id: "AuditRequest", examples: [exampleAuditRequest] });

export type AuditResult = z.infer<typeof AuditResult>;
export type AuditFinding = z.infer<typeof AuditFinding>;
export type FindingItem = z.infer<typeof FindingItem>;
export type AuditFetch = z.infer<typeof AuditFetch>;
export type AuditContent = z.infer<typeof AuditContent>;
export type AuditStructure = z.infer<typeof AuditStructure>;
export type AuditMetadata = z.infer<typeof AuditMetadata>;
export type AuditPage = z.infer<typeof AuditPage>;
export type RedirectHop = z.infer<typeof RedirectHop>;
export type RobotsTxt = z.infer<typeof RobotsTxt>;
export type LlmsTxtProbe = z.infer<typeof LlmsTxtProbe>;
