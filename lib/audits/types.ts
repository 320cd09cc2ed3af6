// The stages of a page audit and what each hands the next (decisions.md "Audits"):
//   1. fetch (fetch.ts): robots.txt, then the page hop by hop through the address-checked
//      fetcher; the probes of /llms.txt, /llms-full.txt and markdown alternates.
//   2. analyse (analyse/): the HTML parsed once with cheerio and handed to small pure analysers.
//   3. findings (findings/): every catalog entry once, from what stages 1 and 2 observed.
// run.ts puts them together into the AuditResult stored as the audit run's result.
import type { AUDIT_UNANSWERED_CODES, AuditContent, AuditFetch, AuditMetadata, AuditPage, AuditStructure, LlmsTxtProbe } from "../schemas/audits";

/** The AI crawler product tokens whose access robots.txt decides (decisions.md "Audits"). */
export const AI_CRAWLER_TOKENS = [
  "GPTBot",
  "OAI-SearchBot",
  "ChatGPT-User",
  "ClaudeBot",
  "Claude-SearchBot",
  "Claude-User",
  "anthropic-ai",
  "PerplexityBot",
  "Perplexity-User",
  "Google-Extended",
  "Applebot-Extended",
  "CCBot",
  "Bytespider",
  "meta-externalagent",
  "Amazonbot",
] as const;
export type AiCrawlerToken = (typeof AI_CRAWLER_TOKENS)[number];

/** The product token robots.txt is obeyed for. */
export const AUDIT_ROBOTS_TOKEN = "geoscope";

/** What robots.txt said, beyond AuditFetch.robots_txt. */
export type RobotsReading = {
  /** Per AI crawler token: may it read the page (true), is it refused (false), or unknown (null: no robots.txt read). */
  aiCrawlers: Record<AiCrawlerToken, boolean | null>;
  /** For evidence: the robots.txt line that decided for each refused token (e.g. "Disallow: /"), when known. */
  decidingLines: Partial<Record<AiCrawlerToken | typeof AUDIT_ROBOTS_TOKEN, string>>;
};

/** Stage 1: the page as fetched. */
export type FetchedPage = {
  page: AuditPage;
  /** Complete, robots_txt included. */
  fetch: AuditFetch;
  robots: RobotsReading;
  /** The body decoded to text when it is an HTML page that was fetched (status success), else null. */
  html: string | null;
  /**
   * Why the page gave no HTTP answer at all (refused address, DNS, refused connection, timeout,
   * TLS), else null: such an audit fails and is not charged (execute.ts). A page robots.txt
   * forbids, or one reached through an answered redirect, is not "unanswered": the site answered.
   */
  unanswered: Unanswered | null;
};

/** The RunError code of an audit whose page gave no HTTP answer (decisions.md "Audits"). */
export type UnansweredCode = (typeof AUDIT_UNANSWERED_CODES)[number];

/** A page that gave no HTTP answer: the code and the reason, as fetch.error says it. */
export type Unanswered = { code: UnansweredCode; error: string };

/** Stage 2: what the HTML says. Null parts when there was no HTML. */
export type PageAnalysis = {
  content: AuditContent;
  structure: AuditStructure;
  /** Everything of AuditMetadata read from the page itself and its headers (not llms_txt, not the .md probe). */
  metadata: Omit<AuditMetadata, "llms_txt" | "markdown_alternates">;
  /** h1 headings anywhere in the page, not only the main content (the missing_h1 finding). */
  pageH1Count: number;
  /** `<link rel="alternate" type="text/markdown">` targets, absolute. */
  markdownLinks: string[];
  /** JSON-LD: whether an author or publisher is named anywhere in it (no_author_or_publisher). */
  hasAuthorOrPublisher: boolean;
};

/** Stage 1b: the probes made once the page is known. */
export type Probes = {
  llmsTxt: LlmsTxtProbe[];
  /** markdownLinks that answered, plus `<page>.md` when it answers 200 with a body that is not HTML. */
  markdownAlternates: string[];
};

/** Everything the findings are computed from. `analysis` is null when there was no HTML to analyse. */
export type AuditObservation = {
  fetched: FetchedPage;
  analysis: PageAnalysis | null;
  probes: Probes;
  /** When the audit ran (stale_content compares the modified date with it). */
  now: Date;
};
