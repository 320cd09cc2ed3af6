// A healthy page's AuditObservation (every finding passes), and overrides merged into it deeply.
import type { AuditFinding } from "@/lib/schemas/audits";
import { evaluateFindings, type FindingKey } from "@/lib/audits/findings";
import { AI_CRAWLER_TOKENS, type AiCrawlerToken, type AuditObservation, type PageAnalysis } from "@/lib/audits/types";

export type Overrides<T> = T extends Date | unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: Overrides<T[K]> }
    : T;

export const PAGE_URL = "https://www.acme.example/blog/choosing-a-crm/";
export const MARKDOWN_URL = "https://www.acme.example/blog/choosing-a-crm.md";
export const NOW = new Date("2026-11-15T12:00:00Z");

export function allCrawlers(allowed: boolean | null): Record<AiCrawlerToken, boolean | null> {
  return Object.fromEntries(AI_CRAWLER_TOKENS.map((token) => [token, allowed])) as Record<AiCrawlerToken, boolean | null>;
}

function healthy(): AuditObservation {
  return {
    fetched: {
      page: { url: PAGE_URL, final_url: PAGE_URL, domain: "acme.example" },
      fetch: {
        status: "success",
        http_status: 200,
        redirect_chain: [],
        content_type: "text/html; charset=utf-8",
        server_headers: { "content-type": "text/html; charset=utf-8", "last-modified": "Tue, 03 Nov 2026 08:00:00 GMT" },
        elapsed_ms: 412,
        error: null,
        truncated: false,
        robots_txt: { url: "https://www.acme.example/robots.txt", http_status: 200, found: true, allows_page: true },
      },
      robots: { aiCrawlers: allCrawlers(true), decidingLines: {} },
      html: "<!doctype html><html lang=\"en\"><head><title>Choosing a CRM for a small B2B team | Acme</title></head><body><article>…</article></body></html>",
      unanswered: null,
    },
    analysis: {
      content: {
        extraction_method: "article",
        word_count: 1184,
        blocks: 31,
        code_blocks: 0,
        tables: 1,
        excerpt: "Choosing a CRM for a small B2B team comes down to three questions…",
        likely_js_dependent: false,
        links: { total: 64, main: 12, navigation: 41, internal: 52, external: 12 },
        rendering_signals: { body_text_chars: 7420, scripts: 9, framework: null, empty_app_root: false },
      },
      structure: {
        headings: [
          { level: 1, text: "Choosing a CRM for a small B2B team" },
          { level: 2, text: "Who enters the data" },
          { level: 3, text: "Mobile entry" },
        ],
        h1_count: 1,
        level_skips: [],
      },
      metadata: {
        title: "Choosing a CRM for a small B2B team | Acme",
        description: "Three questions that decide which CRM a 10-person B2B team should pick, with prices compared.",
        canonical: PAGE_URL,
        lang: "en",
        robots: null,
        x_robots_tag: null,
        noindex: false,
        nofollow: false,
        open_graph: { "og:title": "Choosing a CRM for a small B2B team", "og:description": "Three questions that decide which CRM to pick.", "og:type": "article" },
        dates: { published: "2026-10-12T09:00:00Z", modified: "2026-11-03T08:00:00Z", last_modified_header: "Tue, 03 Nov 2026 08:00:00 GMT" },
        structured_data_types: ["Article", "BreadcrumbList"],
        structured_data_blocks: 2,
        structured_data_errors: 0,
      },
      pageH1Count: 1,
      markdownLinks: [MARKDOWN_URL],
      hasAuthorOrPublisher: true,
    },
    probes: {
      llmsTxt: [
        { kind: "llms.txt", url: "https://www.acme.example/llms.txt", http_status: 200, found: true, links: 12 },
        { kind: "llms-full.txt", url: "https://www.acme.example/llms-full.txt", http_status: 404, found: false, links: 0 },
      ],
      markdownAlternates: [MARKDOWN_URL],
    },
    now: NOW,
  };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);

function merge<T>(base: T, overrides: unknown): T {
  if (!isPlainObject(base) || !isPlainObject(overrides)) return overrides as T;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(overrides)) merged[key] = key in base ? merge(base[key], value) : value;
  return merged as T;
}

/** A healthy page; objects in `overrides` merge into it, anything else (arrays, null) replaces. */
export function observation(overrides: Overrides<AuditObservation> = {}): AuditObservation {
  return merge(healthy(), overrides);
}

/** The healthy page with these metadata fields replaced whole (open_graph, dates: not merged). */
export function withMetadata(fields: Partial<PageAnalysis["metadata"]>): AuditObservation {
  const obs = healthy();
  return { ...obs, analysis: obs.analysis && { ...obs.analysis, metadata: { ...obs.analysis.metadata, ...fields } } };
}

/** The same page as one that could not be analysed: the fetch as given, no HTML. */
export function withoutHtml(fetch: Overrides<AuditObservation["fetched"]["fetch"]>, rest: Overrides<AuditObservation> = {}): AuditObservation {
  return observation({ ...rest, fetched: { ...rest.fetched, fetch, html: null }, analysis: null });
}

export function finding(obs: AuditObservation, key: FindingKey): AuditFinding {
  const found = evaluateFindings(obs).find((f) => f.key === key);
  if (found === undefined) throw new Error(`no finding ${key}`);
  return found;
}
