// robots.txt for an audited page: read once at the page's origin, then asked for the product
// token `geoscope` (may the audit fetch the page?) and for every AI crawler token.
import robotsParser from "robots-parser";
import type { RobotsTxt } from "../schemas/audits";
import { safeFetch, type SafeFetchOptions } from "../net/safe-fetch";
import { AI_CRAWLER_TOKENS, AUDIT_ROBOTS_TOKEN, type AiCrawlerToken, type RobotsReading } from "./types";

/** Google reads 500 KiB of a robots.txt; RFC 9309 asks for at least that much. */
export const ROBOTS_MAX_BYTES = 512 * 1024;
/** RFC 9309 2.3.1.2: follow at least five consecutive redirects. */
const ROBOTS_MAX_REDIRECTS = 5;

export type RobotsOutcome = { robotsTxt: RobotsTxt; reading: RobotsReading };

/** Every AI crawler token set to one value, no deciding lines. */
export function uniformReading(value: boolean | null): RobotsReading {
  return { aiCrawlers: Object.fromEntries(AI_CRAWLER_TOKENS.map((t) => [t, value])) as Record<AiCrawlerToken, boolean | null>, decidingLines: {} };
}

export function robotsUrlOf(page: URL): string {
  return `${page.origin}/robots.txt`;
}

/**
 * What a robots.txt body says about a page: whether `geoscope` may fetch it, and each AI
 * crawler token. A deciding line is kept for every token that is refused.
 */
export function interpretRobots(robotsUrl: string, body: string, pageUrl: string): { allowsPage: boolean; reading: RobotsReading; pageDecidingLine: string | null } {
  const robots = robotsParser(robotsUrl, body);
  const lines = body.split(/\r\n|\r|\n/);
  const decidingLines: RobotsReading["decidingLines"] = {};
  const ask = (token: AiCrawlerToken | typeof AUDIT_ROBOTS_TOKEN): boolean => {
    // undefined only when the page is not on robots.txt's origin, which robotsUrlOf rules out.
    const allowed = robots.isAllowed(pageUrl, token) !== false;
    if (!allowed) {
      const line = lines[robots.getMatchingLineNumber(pageUrl, token) - 1]?.trim();
      if (line) decidingLines[token] = line;
    }
    return allowed;
  };
  const aiCrawlers = Object.fromEntries(AI_CRAWLER_TOKENS.map((t) => [t, ask(t)])) as Record<AiCrawlerToken, boolean>;
  const allowsPage = ask(AUDIT_ROBOTS_TOKEN);
  return { allowsPage, reading: { aiCrawlers, decidingLines }, pageDecidingLine: decidingLines[AUDIT_ROBOTS_TOKEN] ?? null };
}

/**
 * Reads robots.txt at the page's origin through the same checked fetcher as the page.
 * 2xx: parsed. 4xx (404, 410 and the rest) or too many redirects: no robots.txt, all allowed.
 * 5xx, a network failure or a refused hop: unknown (allows_page null), the page is still fetched.
 */
export async function readRobots(page: URL, options: SafeFetchOptions): Promise<RobotsOutcome & { pageDecidingLine: string | null }> {
  const url = robotsUrlOf(page);
  const unknown = { robotsTxt: { url, http_status: null, found: false, allows_page: null }, reading: uniformReading(null), pageDecidingLine: null };
  let response;
  try {
    response = await safeFetch(url, { ...options, maxBytes: ROBOTS_MAX_BYTES, maxRedirects: ROBOTS_MAX_REDIRECTS });
  } catch {
    return unknown;
  }
  const status = response.status;
  if (status >= 200 && status < 300) {
    // RFC 9309: robots.txt is UTF-8; TextDecoder also drops a byte order mark.
    const body = new TextDecoder("utf-8").decode(response.body);
    const { allowsPage, reading, pageDecidingLine } = interpretRobots(url, body, page.toString());
    return { robotsTxt: { url, http_status: status, found: true, allows_page: allowsPage }, reading, pageDecidingLine };
  }
  if (status >= 300 && status < 500) {
    return { robotsTxt: { url, http_status: status, found: false, allows_page: true }, reading: uniformReading(true), pageDecidingLine: null };
  }
  return { ...unknown, robotsTxt: { ...unknown.robotsTxt, http_status: status } };
}
