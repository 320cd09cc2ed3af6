// Stage 1 of a page audit: robots.txt at the page's origin, then the page hop by hop through the
// address-checked fetcher (lib/net/safe-fetch.ts), mapped onto AuditFetch (spec 2.4).
import { brotliDecompressSync, constants as zlib, gunzipSync, inflateSync } from "node:zlib";
import { getDomain } from "tldts";
import packageJson from "../../package.json";
import { config } from "../config/env";
import type { AuditFetch, RedirectHop } from "../schemas/audits";
import { FetchTimeoutError, UnsafeUrlError, checkTarget, safeRequest, type ResolveHost, type SafeResponse } from "../net/safe-fetch";
import { readRobots, uniformReading } from "./robots";
import { AUDIT_ROBOTS_TOKEN, type FetchedPage, type Unanswered, type UnansweredCode } from "./types";

type FetchStatus = AuditFetch["status"];

export type AuditFetchOptions = {
  /** host or host:port reached although not public; AUDIT_ALLOW_HOSTS by default. */
  allowHosts?: string[];
  /** The page's budget, every hop and the body included (robots.txt has its own, shorter one). */
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  userAgent?: string;
  signal?: AbortSignal;
  /** Name resolution; DNS by default. Tests map names to addresses with it, offline. */
  resolve?: ResolveHost;
};

export const AUDIT_TIMEOUT_MS = 10_000;
export const AUDIT_MAX_BYTES = 5 * 1024 * 1024;
export const AUDIT_MAX_REDIRECTS = 10;
/** robots.txt must not eat the page's budget. */
const ROBOTS_TIMEOUT_MS = 5_000;

const ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8";

export function auditUserAgent(): string {
  return `geoscope-audit/${packageJson.version} (+${config().PUBLIC_BASE_URL})`;
}

/** The settings every request of an audit shares, defaults filled in. */
export function auditRequestSettings(options: AuditFetchOptions) {
  return {
    allowHosts: options.allowHosts ?? config().AUDIT_ALLOW_HOSTS,
    headers: { "user-agent": options.userAgent ?? auditUserAgent(), accept: ACCEPT },
    signal: options.signal,
    resolve: options.resolve,
  };
}

/** The MIME type without parameters, lower-case ("" when absent). */
function essence(contentType: string): string {
  return (contentType.split(";")[0] ?? "").trim().toLowerCase();
}

/**
 * Whether a body is an HTML document: after white space, a byte order mark and comments, it
 * opens with a doctype or an html, head or body tag. Strict on purpose: an llms.txt or a
 * markdown file may well start with `<!-- -->` or a `<div>`, a catch-all HTML page does not.
 */
export function looksLikeHtml(body: Buffer): boolean {
  let text = body.subarray(0, 1024).toString("latin1").replace(/^\xef\xbb\xbf/, "").toLowerCase();
  for (;;) {
    text = text.trimStart();
    if (!text.startsWith("<!--") && !text.startsWith("<?xml")) break;
    const end = text.indexOf(text.startsWith("<!--") ? "-->" : "?>");
    if (end < 0) return false;
    text = text.slice(end + (text.startsWith("<!--") ? 3 : 2));
  }
  return /^<(!doctype\s+html|html|head|body)[\s>/]/.test(text);
}

function isHtmlResponse(contentType: string, body: Buffer): boolean {
  const type = essence(contentType);
  if (type === "") return looksLikeHtml(body);
  return type === "text/html" || type === "application/xhtml+xml";
}

// windows-1252 at 0x80-0x9f (five bytes have no character and stay as they are).
const CP1252_HIGH = "€\x81‚ƒ„…†‡ˆ‰Š‹Œ\x8dŽ\x8f\x90‘’“”•–—˜™š›œ\x9džŸ";

/** Node 20's windows-1252 decoder (also the one for latin1 labels) reads 0x80-0x9f as ISO-8859-1. */
function fixCp1252(text: string): string {
  return text.replace(/[\x80-\x9f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!);
}

type Decoder = { encoding: string; decode: (body: Buffer) => string };

function decoderFor(label: string | undefined): Decoder | null {
  if (!label) return null;
  try {
    const decoder = new TextDecoder(label.trim().replace(/^["']|["']$/g, ""));
    if (decoder.encoding !== "windows-1252") return decoder;
    return { encoding: decoder.encoding, decode: (body) => fixCp1252(decoder.decode(body)) };
  } catch {
    return null;
  }
}

/**
 * The body as text: a byte order mark first, then the Content-Type charset, then a
 * `<meta charset>` or `<meta http-equiv content-type>` in the first 1024 bytes, else UTF-8.
 */
export function decodeBody(body: Buffer, contentType: string): string {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return new TextDecoder("utf-8").decode(body);
  if (body[0] === 0xfe && body[1] === 0xff) return new TextDecoder("utf-16be").decode(body);
  if (body[0] === 0xff && body[1] === 0xfe) return new TextDecoder("utf-16le").decode(body);
  const fromHeader = decoderFor(/;\s*charset\s*=\s*("[^"]*"|[^;\s]+)/i.exec(contentType)?.[1]);
  if (fromHeader) return fromHeader.decode(body);
  const head = body.subarray(0, 1024).toString("latin1");
  const fromMeta = decoderFor(/<meta[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1]);
  // HTML: a meta tag cannot declare UTF-16 (the bytes it is written in say otherwise).
  if (fromMeta && !fromMeta.encoding.startsWith("utf-16")) return fromMeta.decode(body);
  return new TextDecoder("utf-8").decode(body);
}

/**
 * We ask for `identity`; a server that compresses anyway is decoded here. A body that does not
 * decode (cut at the byte cap, or lying about its encoding) is kept as it came.
 */
function decodeContentEncoding(body: Buffer, encoding: string | undefined, maxBytes: number): Buffer {
  const name = (encoding ?? "").trim().toLowerCase();
  const options = { maxOutputLength: maxBytes, finishFlush: zlib.Z_SYNC_FLUSH };
  try {
    if (name === "gzip" || name === "x-gzip") return gunzipSync(body, options);
    if (name === "deflate") return inflateSync(body, options);
    if (name === "br") return brotliDecompressSync(body, { maxOutputLength: maxBytes, finishFlush: zlib.BROTLI_OPERATION_FLUSH });
  } catch {
    return body;
  }
  return body;
}

/**
 * The response's headers with lower-case names, repeated headers joined with ", ". Cookies are
 * not kept: `set-cookie` lists the names of the cookies set, never their values.
 */
export function serverHeaders(rawHeaders: string[]): Record<string, string> {
  const values = new Map<string, string[]>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    const value = name === "set-cookie" ? (rawHeaders[i + 1]!.split("=", 1)[0] ?? "").trim() : rawHeaders[i + 1]!;
    values.set(name, [...(values.get(name) ?? []), value]);
  }
  return Object.fromEntries([...values].map(([name, list]) => [name, list.join(", ")]));
}

/** The registered domain (Public Suffix List); null for an IP address or a bare name. */
function domainOf(url: string): string | null {
  try {
    return getDomain(new URL(url).hostname) ?? null;
  } catch {
    return null;
  }
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

/**
 * A failure as fetch.status and fetch.error (never the address a name resolved to), and the
 * RunError code it gives when the page answered nothing at all; null for an audit stopped from
 * our side (its signal aborted), which is not the page's doing.
 */
export function describeFailure(error: unknown): { status: FetchStatus; error: string; code: UnansweredCode | null } {
  if (error instanceof UnsafeUrlError) {
    if (error.reason === "url") return { status: "fetch_error", error: error.message, code: "page_blocked" };
    return { status: "blocked", error: `refused: ${error.message}`, code: "page_blocked" };
  }
  if (error instanceof FetchTimeoutError) {
    return error.message === "aborted" ? { status: "fetch_error", error: "aborted", code: null } : { status: "fetch_error", error: `timeout: ${error.message}`, code: "page_timeout" };
  }
  const { code, message, hostname } = error as NodeJS.ErrnoException & { hostname?: string };
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_NODATA") return { status: "fetch_error", error: `DNS: no address found for ${hostname ?? "the host"}`, code: "page_dns_error" };
  if (code === "ECONNREFUSED") return { status: "fetch_error", error: "connection refused", code: "page_connection_refused" };
  if (code === "ECONNRESET" || code === "EPIPE") return { status: "fetch_error", error: "connection reset by the server", code: "page_connection_error" };
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return { status: "fetch_error", error: "host unreachable", code: "page_connection_error" };
  if (code && TLS_CODE.test(code)) return { status: "fetch_error", error: `TLS: ${message}`, code: "page_tls_error" };
  return { status: "fetch_error", error: code ? `${code}: ${message}` : String(message ?? error), code: "page_connection_error" };
}

function statusOf(http: number, contentType: string, body: Buffer): FetchStatus {
  if (http >= 200 && http < 300) return isHtmlResponse(contentType, body) ? "success" : "non_html";
  if (http >= 400 && http < 500) return "client_error";
  if (http >= 500 && http < 600) return "server_error";
  return "fetch_error";
}

/**
 * Fetches a page for an audit. Never throws for anything the page or the network does: the
 * outcome is in `fetch.status` and `fetch.error`.
 */
export async function fetchPage(url: string, options: AuditFetchOptions = {}): Promise<FetchedPage> {
  const settings = auditRequestSettings(options);
  const timeoutMs = options.timeoutMs ?? AUDIT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? AUDIT_MAX_BYTES;
  const maxRedirects = options.maxRedirects ?? AUDIT_MAX_REDIRECTS;

  const chain: RedirectHop[] = [];
  let robots = uniformReading(null);
  let robotsTxt: AuditFetch["robots_txt"] = null;
  let last: { url: string; response: SafeResponse } | null = null;
  // From the first request for the page (robots.txt not counted); 0 when none was sent.
  let started: number | null = null;

  const result = (status: FetchStatus, error: string | null, body?: Buffer, unanswered: Unanswered | null = null): FetchedPage => {
    const finalUrl = last?.url ?? url;
    const contentType = last ? String(last.response.headers["content-type"] ?? "") : "";
    const html = status === "success" && body ? decodeBody(body, contentType) : null;
    return {
      page: { url, final_url: finalUrl, domain: domainOf(finalUrl) },
      fetch: {
        status,
        http_status: last?.response.status ?? null,
        redirect_chain: chain,
        content_type: contentType,
        server_headers: last ? serverHeaders(last.response.rawHeaders) : {},
        elapsed_ms: started === null ? 0 : Date.now() - started,
        error,
        truncated: last?.response.truncated ?? false,
        robots_txt: robotsTxt,
      },
      robots,
      html,
      unanswered,
    };
  };
  // No HTTP answer yet (no response, not even a redirect): the page is unanswered.
  const failed = (error: unknown) => {
    const failure = describeFailure(error);
    const unanswered = last === null && failure.code !== null ? { code: failure.code, error: failure.error } : null;
    return result(failure.status, failure.error, undefined, unanswered);
  };

  // Nothing is sent, robots.txt included, to a host that is not public.
  let target: URL;
  try {
    target = await checkTarget(url, settings);
  } catch (error) {
    return failed(error);
  }

  const read = await readRobots(target, { ...settings, timeoutMs: Math.min(timeoutMs, ROBOTS_TIMEOUT_MS) });
  robots = read.reading;
  robotsTxt = read.robotsTxt;
  if (read.robotsTxt.allows_page === false) {
    const line = read.pageDecidingLine ? ` (${read.pageDecidingLine})` : "";
    return result("blocked", `robots.txt disallows ${AUDIT_ROBOTS_TOKEN} from fetching this page${line}`);
  }

  started = Date.now();
  const deadline = started + timeoutMs;
  let current = target.toString();
  for (;;) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      const error = `timeout: no complete answer within ${timeoutMs} ms`;
      return result("fetch_error", error, undefined, last === null ? { code: "page_timeout", error } : null);
    }
    let response: SafeResponse;
    try {
      response = await safeRequest(current, { ...settings, timeoutMs: remaining, maxBytes });
    } catch (error) {
      return failed(error);
    }
    last = { url: current, response };
    const status = response.status;
    if (status < 300 || status >= 400) {
      const body = decodeContentEncoding(response.body, String(response.headers["content-encoding"] ?? ""), maxBytes);
      return result(statusOf(status, String(response.headers["content-type"] ?? ""), body), status < 200 || status >= 600 ? `unexpected HTTP status ${status}` : null, body);
    }
    const rawLocation = response.headers.location;
    if (!rawLocation) return result("redirect", `HTTP ${status} without a Location`);
    let next: URL;
    try {
      next = new URL(rawLocation, current);
    } catch {
      return result("redirect", `HTTP ${status} with an unusable Location: ${rawLocation}`);
    }
    chain.push({ url: current, status, location: next.toString() });
    if (next.protocol !== "http:" && next.protocol !== "https:") {
      return result("blocked", `refused: a redirect to a ${next.protocol} URL; only http and https are fetched`);
    }
    if (chain.length > maxRedirects) return result("redirect", `more than ${maxRedirects} redirects`);
    current = next.toString();
  }
}
