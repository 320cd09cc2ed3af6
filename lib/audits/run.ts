// One page audit, start to finish (decisions.md "Audits"): fetch (robots.txt, the page hop by hop,
// address-checked), analyse the HTML once parsed, probe llms.txt and markdown alternates, then
// evaluate every finding of the catalog. A page that answered (404, 5xx, not HTML, a redirect, or
// forbidden by robots.txt) gives a complete document saying so; a page that gave no HTTP answer at
// all gives the RunError its failed run carries; only a failure of the service itself throws.
import { config } from "../config/env";
import type { AuditResult } from "../schemas/audits";
import type { RunError } from "../schemas/results";
import { analysePageOffThread } from "./analyse/pool";
import { fetchPage } from "./fetch";
import { probe } from "./probes";
import { evaluateFindings } from "./findings";
import type { PageAnalysis, Unanswered, UnansweredCode } from "./types";

export type AuditOptions = {
  /** Hosts (host or host:port) let through the address rules; AUDIT_ALLOW_HOSTS by default. */
  allowHosts?: string[];
  signal?: AbortSignal;
  now?: () => Date;
};

const NO_CONTENT: PageAnalysis["content"] = {
  extraction_method: null,
  word_count: 0,
  blocks: 0,
  code_blocks: 0,
  tables: 0,
  excerpt: "",
  likely_js_dependent: null,
  links: { total: 0, main: 0, navigation: 0, internal: 0, external: 0 },
  rendering_signals: {},
};

/** The metadata of a page that gave no HTML: nothing said. */
const NO_METADATA: PageAnalysis["metadata"] = {
  title: null,
  description: null,
  canonical: null,
  lang: null,
  robots: null,
  x_robots_tag: null,
  noindex: null,
  nofollow: null,
  open_graph: {},
  dates: { published: null, modified: null, last_modified_header: null },
  structured_data_types: [],
  structured_data_blocks: 0,
  structured_data_errors: 0,
};

/** What the headers of a page without HTML say (a PDF can carry X-Robots-Tag and Last-Modified). */
function headerMetadata(headers: Record<string, string>): PageAnalysis["metadata"] {
  return {
    ...NO_METADATA,
    x_robots_tag: headers["x-robots-tag"] ?? null,
    dates: { ...NO_METADATA.dates, last_modified_header: headers["last-modified"] ?? null },
  };
}

/** What asking again can do, by cause: a refused address or a broken TLS setup stays so. */
const UNANSWERED_ADVICE: Record<UnansweredCode, { retryable: boolean; advice: string }> = {
  page_blocked: { retryable: false, advice: "Audits fetch only public addresses, the only ones an answer engine can reach." },
  page_dns_error: { retryable: true, advice: "Check the host name; asking again may succeed once it resolves." },
  page_connection_refused: { retryable: true, advice: "Asking again may succeed once the server accepts connections." },
  page_timeout: { retryable: true, advice: "Asking again may succeed." },
  page_connection_error: { retryable: true, advice: "Asking again may succeed." },
  page_tls_error: { retryable: false, advice: "The site's HTTPS setup must be fixed before the page can be fetched." },
};

/** The RunError of an audit whose page gave no HTTP answer: what happened, in words, and whether to ask again. */
export function unansweredError(url: string, { code, error }: Unanswered): RunError {
  const host = new URL(url).host;
  const reason =
    code === "page_connection_refused"
      ? `${host} refused the connection`
      : code === "page_dns_error"
        ? `${error.replace(/^DNS: /, "")} (DNS)`
        : error.replace(/^(refused|timeout): /, "");
  const { retryable, advice } = UNANSWERED_ADVICE[code];
  return { code, message: `The page could not be fetched: ${reason}. ${advice}`, engine: null, retryable };
}

/** An audit's outcome: the audit document, or the RunError of a page that gave no HTTP answer. */
export type AuditOutcome = { ok: true; result: AuditResult } | { ok: false; error: RunError };

export async function auditPage(url: string, options: AuditOptions = {}): Promise<AuditOutcome> {
  const now = (options.now ?? (() => new Date()))();
  const allowHosts = options.allowHosts ?? config().AUDIT_ALLOW_HOSTS;
  const fetched = await fetchPage(url, { allowHosts, signal: options.signal });
  // Stopped from our side: not the page's doing, so no outcome.
  options.signal?.throwIfAborted();
  if (fetched.unanswered) return { ok: false, error: unansweredError(url, fetched.unanswered) };
  // In a worker thread (analyse/pool.ts): the parse of a large page would otherwise hold up every
  // request this server is answering.
  const analysis = fetched.html !== null ? await analysePageOffThread(fetched.html, fetched.page.final_url, fetched.fetch.server_headers) : null;
  const probes = await probe(fetched, analysis?.markdownLinks ?? [], { allowHosts, signal: options.signal });
  const findings = evaluateFindings({ fetched, analysis, probes, now });
  const result: AuditResult = {
    page: fetched.page,
    fetch: fetched.fetch,
    content: analysis?.content ?? NO_CONTENT,
    structure: analysis?.structure ?? { headings: [], h1_count: 0, level_skips: [] },
    metadata: { ...(analysis?.metadata ?? headerMetadata(fetched.fetch.server_headers)), markdown_alternates: probes.markdownAlternates, llms_txt: probes.llmsTxt },
    findings,
  };
  return { ok: true, result };
}
