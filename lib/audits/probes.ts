// Stage 1b of a page audit: /llms.txt and /llms-full.txt at the final URL's origin, and the
// markdown versions of the page, through the same address-checked fetcher, all in parallel.
import type { LlmsTxtProbe } from "../schemas/audits";
import { safeFetch } from "../net/safe-fetch";
import { auditRequestSettings, looksLikeHtml, type AuditFetchOptions } from "./fetch";
import type { FetchedPage, Probes } from "./types";

export const PROBE_MAX_BYTES = 1024 * 1024;
const PROBE_TIMEOUT_MS = 5_000;
const PROBE_MAX_REDIRECTS = 5;
/** A page naming more markdown alternates than this has the rest ignored. */
const MAX_MARKDOWN_LINKS = 10;
const LLMS_TXT_FILES = ["llms.txt", "llms-full.txt"] as const;

/** `[text](url)` links, images (`![alt](src)`) not counted. */
export function countMarkdownLinks(text: string): number {
  return text.match(/(?<!!)\[[^\]\n]*\]\([^)\s]+(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\)/g)?.length ?? 0;
}

/**
 * The markdown URLs guessed from the page's URL (llmstxt.org): `.md` appended to the path,
 * and for a path ending in `/`, `index.html.md` (the proposal's rule) and `index.md` (what
 * static site generators write). None for a path that is already `.md`.
 */
export function derivedMarkdownUrls(pageUrl: string): string[] {
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    return [];
  }
  url.hash = "";
  const path = url.pathname;
  if (path.toLowerCase().endsWith(".md")) return [];
  const withPath = (p: string) => {
    const derived = new URL(url);
    derived.pathname = p;
    return derived.toString();
  };
  return path.endsWith("/") ? [withPath(`${path}index.html.md`), withPath(`${path}index.md`)] : [withPath(`${path}.md`)];
}

/** A probe's GET: status and body, or null when it failed in any way. */
async function get(url: string, options: AuditFetchOptions): Promise<{ status: number; body: Buffer } | null> {
  const settings = auditRequestSettings(options);
  try {
    const response = await safeFetch(url, {
      ...settings,
      // Some servers negotiate: ask for the text, not the HTML page.
      headers: { ...settings.headers, accept: "text/markdown,text/plain;q=0.9,*/*;q=0.5" },
      timeoutMs: options.timeoutMs ?? PROBE_TIMEOUT_MS,
      maxBytes: options.maxBytes ?? PROBE_MAX_BYTES,
      maxRedirects: options.maxRedirects ?? PROBE_MAX_REDIRECTS,
    });
    return { status: response.status, body: response.body };
  } catch {
    return null;
  }
}

const answersWithText = (answer: { status: number; body: Buffer } | null): answer is { status: number; body: Buffer } =>
  answer !== null && answer.status === 200 && !looksLikeHtml(answer.body);

async function probeLlmsTxt(origin: string, kind: (typeof LLMS_TXT_FILES)[number], options: AuditFetchOptions): Promise<LlmsTxtProbe> {
  const url = `${origin}/${kind}`;
  const answer = await get(url, options);
  const found = answersWithText(answer);
  return { kind, url, http_status: answer?.status ?? null, found, links: found ? countMarkdownLinks(new TextDecoder("utf-8").decode(answer.body)) : 0 };
}

/**
 * The probes made once the page is known. `options` as for fetchPage; the probes' own caps
 * (5 s, 1 MiB, 5 redirects) apply unless given. Skipped (empty lists) when the page was blocked:
 * its host is not public, or robots.txt keeps the audit off it. A probe that fails in any way
 * is "not found".
 */
export async function probe(fetched: FetchedPage, markdownLinks: string[], options: AuditFetchOptions = {}): Promise<Probes> {
  let origin: string;
  try {
    const final = new URL(fetched.page.final_url);
    if (final.protocol !== "http:" && final.protocol !== "https:") throw new Error("not http(s)");
    origin = final.origin;
  } catch {
    return { llmsTxt: [], markdownAlternates: [] };
  }
  if (fetched.fetch.status === "blocked") return { llmsTxt: [], markdownAlternates: [] };

  const linked = markdownLinks
    .map((link) => {
      try {
        const url = new URL(link);
        url.hash = "";
        return url.protocol === "http:" || url.protocol === "https:" ? url.toString() : null;
      } catch {
        return null;
      }
    })
    .filter((link): link is string => link !== null)
    .slice(0, MAX_MARKDOWN_LINKS);
  const candidates = [...new Set([...linked, ...derivedMarkdownUrls(fetched.page.final_url)])];

  const [llmsTxt, answers] = await Promise.all([
    Promise.all(LLMS_TXT_FILES.map((kind) => probeLlmsTxt(origin, kind, options))),
    Promise.all(candidates.map((url) => get(url, options))),
  ]);
  return { llmsTxt, markdownAlternates: candidates.filter((_, i) => answersWithText(answers[i]!)) };
}
