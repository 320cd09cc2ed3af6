// Access findings: could the page be fetched, quickly, by whom robots.txt allows.
import type { AuditFetch } from "@/lib/schemas/audits";
import { AI_CRAWLER_TOKENS, AUDIT_ROBOTS_TOKEN, type AiCrawlerToken } from "../types";
import { type Check, describeFetch, type Evidence, evidence, fail, type FindingSeverity, notApplicable, pass, plural } from "./check";
import type { FindingKey } from "./catalog";

export const MAX_REDIRECT_HOPS = 2;
export const SLOW_RESPONSE_MS = 3000;

/** A final response arrived (whatever its status), so its timing and redirects mean something. */
function reachedPage(fetch: AuditFetch): boolean {
  return fetch.status === "success" || fetch.status === "non_html" || fetch.status === "client_error" || fetch.status === "server_error";
}

function robotsForbadePage(fetch: AuditFetch): boolean {
  return fetch.status === "blocked" && fetch.robots_txt?.allows_page === false;
}

const seconds = (ms: number): string => `${ms / 1000} s`;

function fetchEvidence(fetch: AuditFetch): Evidence[] {
  const found = [evidence("fetch status", fetch.status, "fetch")];
  if (fetch.http_status !== null) found.push(evidence("HTTP status", fetch.http_status, "fetch"));
  if (fetch.error !== null) found.push(evidence("error", fetch.error, "fetch"));
  return found;
}

// The page could not be fetched, for whatever reason but robots.txt (robots_blocks_page says
// that) or a non-HTML body (non_html): a user wants the one critical line saying so.
const httpError: Check = ({ fetched: { fetch, page } }) => {
  const url = evidence("URL", page.final_url, "fetch");
  switch (fetch.status) {
    case "success":
    case "non_html":
      return pass(`The page answered HTTP ${fetch.http_status ?? "2xx"}.`);
    case "client_error":
    case "server_error": {
      const side = fetch.status === "client_error" ? "an error on the request's side (4xx)" : "a server error (5xx)";
      return fail(`The page answered HTTP ${fetch.http_status ?? "error"}, ${side}.`, [
        { summary: `HTTP ${fetch.http_status ?? "error"}`, subtype: fetch.status, details: { http_status: fetch.http_status }, evidence: [...fetchEvidence(fetch), url] },
      ]);
    }
    case "fetch_error":
      return fail(`The page could not be fetched: ${fetch.error ?? "no answer"}.`, [
        { summary: `No answer: ${fetch.error ?? "the request failed"}`, subtype: "fetch_error", details: { error: fetch.error, elapsed_ms: fetch.elapsed_ms }, evidence: [...fetchEvidence(fetch), url] },
      ]);
    case "redirect": {
      const last = fetch.redirect_chain.at(-1);
      return fail(`The fetch stopped on a redirect after ${plural(fetch.redirect_chain.length, "hop")}: ${fetch.error ?? "too many hops or no usable Location"}.`, [
        {
          summary: `Stopped on a redirect${last ? ` at ${last.url}` : ""}`,
          subtype: "redirect",
          details: { hops: fetch.redirect_chain.length, error: fetch.error },
          evidence: [...fetchEvidence(fetch), ...(last ? [evidence("last redirect", `${last.status} ${last.url} → ${last.location}`, "fetch")] : [])],
        },
      ]);
    }
    case "blocked":
      if (robotsForbadePage(fetch)) return notApplicable("robots.txt forbids fetching the page, so how it answers is unknown (see robots_blocks_page).");
      return fail(`The page's address is not public, so neither the audit nor answer engines on the internet can reach it: ${fetch.error ?? "blocked"}.`, [
        { summary: "Address is not public", subtype: "blocked_address", details: { error: fetch.error }, evidence: [...fetchEvidence(fetch), url] },
      ]);
  }
};

const robotsBlocksPage: Check = ({ fetched: { fetch, robots } }) => {
  const robotsTxt = fetch.robots_txt;
  if (robotsTxt === null) return notApplicable(`robots.txt was not read: ${describeFetch(fetch)}.`);
  if (robotsTxt.allows_page === null) {
    return notApplicable(`robots.txt at ${robotsTxt.url} could not be read${robotsTxt.http_status === null ? "" : ` (HTTP ${robotsTxt.http_status})`}.`);
  }
  if (robotsTxt.allows_page) {
    return pass(
      robotsTxt.found
        ? `robots.txt at ${robotsTxt.url} lets crawlers fetch the page.`
        : `There is no robots.txt${robotsTxt.http_status === null ? "" : ` (HTTP ${robotsTxt.http_status})`}, so crawlers may fetch the page.`,
    );
  }
  const line = robots.decidingLines[AUDIT_ROBOTS_TOKEN];
  return fail(`robots.txt at ${robotsTxt.url} forbids the page${line === undefined ? "" : ` (“${line}”)`}.`, [
    {
      summary: line === undefined ? "robots.txt forbids the page" : `robots.txt forbids the page: ${line}`,
      subtype: AUDIT_ROBOTS_TOKEN,
      details: { token: AUDIT_ROBOTS_TOKEN },
      evidence: robotsEvidence(robotsTxt.url, line),
    },
  ]);
};

function robotsEvidence(url: string, line: string | undefined): Evidence[] {
  const found = [evidence("robots.txt", url, "robots.txt")];
  if (line !== undefined) found.push(evidence("deciding line", line, "robots.txt"));
  return found;
}

type CrawlerPurpose = "search" | "user_request" | "training";

/**
 * Who runs each token and what for, per its operator's documentation. Search and user-request
 * crawlers fetch pages to answer and cite; training tokens decide only whether a page trains
 * models (Google-Extended and Applebot-Extended are control tokens, not crawlers).
 */
export const AI_CRAWLERS: Record<AiCrawlerToken, { operator: string; purpose: CrawlerPurpose }> = {
  GPTBot: { operator: "OpenAI", purpose: "training" },
  "OAI-SearchBot": { operator: "OpenAI", purpose: "search" },
  "ChatGPT-User": { operator: "OpenAI", purpose: "user_request" },
  ClaudeBot: { operator: "Anthropic", purpose: "training" },
  "Claude-SearchBot": { operator: "Anthropic", purpose: "search" },
  "Claude-User": { operator: "Anthropic", purpose: "user_request" },
  "anthropic-ai": { operator: "Anthropic", purpose: "training" },
  PerplexityBot: { operator: "Perplexity", purpose: "search" },
  "Perplexity-User": { operator: "Perplexity", purpose: "user_request" },
  "Google-Extended": { operator: "Google", purpose: "training" },
  "Applebot-Extended": { operator: "Apple", purpose: "training" },
  CCBot: { operator: "Common Crawl", purpose: "training" },
  Bytespider: { operator: "ByteDance", purpose: "training" },
  "meta-externalagent": { operator: "Meta", purpose: "training" },
  Amazonbot: { operator: "Amazon", purpose: "search" },
};

const PURPOSE_WORDS: Record<CrawlerPurpose, string> = {
  search: "indexes pages for AI search",
  user_request: "fetches pages a user asks about",
  training: "collects pages for model training",
};

/** Refusing a crawler that fetches for answers keeps the page out of that engine's answers. */
const ITEM_SEVERITY: Record<CrawlerPurpose, FindingSeverity> = { search: "high", user_request: "high", training: "medium" };

const aiCrawlersBlocked: Check = ({ fetched: { fetch, robots } }) => {
  const robotsTxt = fetch.robots_txt;
  const known = AI_CRAWLER_TOKENS.filter((token) => robots.aiCrawlers[token] !== null);
  if (robotsTxt === null || robotsTxt.allows_page === null || known.length === 0) {
    return notApplicable(robotsTxt === null ? `robots.txt was not read: ${describeFetch(fetch)}.` : `robots.txt at ${robotsTxt.url} could not be read.`);
  }
  const refused = known.filter((token) => robots.aiCrawlers[token] === false);
  if (refused.length === 0) {
    return pass(
      robotsTxt.found
        ? `robots.txt lets all ${known.length} AI crawlers checked read the page.`
        : `There is no robots.txt, so all ${known.length} AI crawlers checked may read the page.`,
    );
  }
  const forAnswers = refused.filter((token) => AI_CRAWLERS[token].purpose !== "training").length;
  return fail(
    `robots.txt refuses ${refused.length} of the ${known.length} AI crawlers checked (${forAnswers} of them fetching pages for answers): ${refused.join(", ")}.`,
    refused.map((token) => {
      const { operator, purpose } = AI_CRAWLERS[token];
      const line = robots.decidingLines[token];
      return {
        summary: `${token} (${operator}; ${PURPOSE_WORDS[purpose]}) may not read the page`,
        severity: ITEM_SEVERITY[purpose],
        subtype: token,
        details: { token, operator, purpose, ...(line === undefined ? {} : { deciding_line: line }) },
        evidence: robotsEvidence(robotsTxt.url, line),
      };
    }),
  );
};

const longRedirectChain: Check = ({ fetched: { fetch } }) => {
  const hops = fetch.redirect_chain;
  if (hops.length > MAX_REDIRECT_HOPS) {
    const first = hops[0];
    const lastHop = hops.at(-1);
    return fail(`The page took ${hops.length} redirects to reach (more than ${MAX_REDIRECT_HOPS}).`, [
      {
        summary: `${hops.length} redirects from ${first?.url ?? "the address"} to ${lastHop?.location ?? "the page"}`,
        subtype: null,
        details: { hops: hops.length },
        evidence: hops.map((hop, i) => evidence(`redirect ${i + 1}`, `${hop.status} ${hop.url} → ${hop.location}`, "fetch")),
      },
    ]);
  }
  if (!reachedPage(fetch)) return notApplicable(`The fetch did not reach the page: ${describeFetch(fetch)}.`);
  return pass(hops.length === 0 ? "The page answered without a redirect." : `The page answered after ${plural(hops.length, "redirect")}.`);
};

const nonHtml: Check = ({ fetched: { fetch } }) => {
  const type = fetch.content_type === "" ? "no Content-Type" : fetch.content_type;
  if (fetch.status === "success") return pass(`The page was served as HTML (${type}).`);
  if (fetch.status !== "non_html") return notApplicable(`There was no successful response whose type to check: ${describeFetch(fetch)}.`);
  const mediaType = fetch.content_type.split(";")[0]?.trim().toLowerCase() || null;
  return fail(`The page was served as ${type}, not as HTML.`, [
    { summary: `Served as ${type}`, subtype: mediaType, details: { content_type: fetch.content_type }, evidence: [evidence("Content-Type", fetch.content_type, "header:content-type")] },
  ]);
};

const truncatedBody: Check = ({ fetched: { fetch } }) => {
  if (fetch.truncated) {
    const length = fetch.server_headers["content-length"];
    return fail("The page is larger than 5 MiB, and the audit read only its first 5 MiB.", [
      {
        summary: "Body cut at 5 MiB",
        details: { truncated: true },
        evidence: [evidence("truncated", true, "fetch"), ...(length === undefined ? [] : [evidence("Content-Length", length, "header:content-length")])],
      },
    ]);
  }
  if (fetch.status !== "success" && fetch.status !== "non_html") return notApplicable(`No page body was read: ${describeFetch(fetch)}.`);
  return pass("The whole page was read (under 5 MiB).");
};

const slowResponse: Check = ({ fetched: { fetch } }) => {
  if (fetch.elapsed_ms > SLOW_RESPONSE_MS) {
    return fail(`The page took ${seconds(fetch.elapsed_ms)} to arrive, over ${seconds(SLOW_RESPONSE_MS)}.`, [
      {
        summary: `${seconds(fetch.elapsed_ms)} to the last byte`,
        details: { elapsed_ms: fetch.elapsed_ms, redirects: fetch.redirect_chain.length },
        evidence: [evidence("elapsed (ms), redirects included", fetch.elapsed_ms, "fetch"), evidence("redirects", fetch.redirect_chain.length, "fetch")],
      },
    ]);
  }
  if (!reachedPage(fetch)) return notApplicable(`The fetch did not reach the page: ${describeFetch(fetch)}.`);
  return pass(`The page arrived in ${seconds(fetch.elapsed_ms)}.`);
};

export const accessChecks = {
  http_error: httpError,
  robots_blocks_page: robotsBlocksPage,
  ai_crawlers_blocked: aiCrawlersBlocked,
  long_redirect_chain: longRedirectChain,
  non_html: nonHtml,
  truncated_body: truncatedBody,
  slow_response: slowResponse,
} satisfies Partial<Record<FindingKey, Check>>;
