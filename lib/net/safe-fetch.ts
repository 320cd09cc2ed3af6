// Outbound HTTP for URLs the server did not choose (engine redirects, audited pages): only
// public addresses, checked on the address actually connected to (so DNS rebinding cannot
// slip through), a short timeout, a byte cap, and redirects handled by the caller, hop by hop.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { isAllowedAddress, type AddressPolicy } from "./address";

/** Why a URL is refused: not a URL, not http(s), credentials in it, or a private or reserved address. */
export type UnsafeReason = "url" | "scheme" | "credentials" | "address";

export class UnsafeUrlError extends Error {
  override name = "UnsafeUrlError";
  constructor(
    message: string,
    readonly reason: UnsafeReason = "address",
  ) {
    super(message);
  }
}

export class FetchTimeoutError extends Error {
  override name = "FetchTimeoutError";
}

/** Every address a name resolves to. dns.lookup by default; tests inject one to work offline. */
export type ResolveHost = (hostname: string) => Promise<LookupAddress[]>;

export interface SafeRequestOptions extends AddressPolicy {
  method?: "GET" | "HEAD" | "POST";
  headers?: Record<string, string>;
  /** Sent as the request's body (a POST's): its length is sent as Content-Length. */
  body?: string | Buffer;
  timeoutMs?: number;
  /** Stop reading the body after this many bytes and report `truncated`. */
  maxBytes?: number;
  signal?: AbortSignal;
  /**
   * `host` or `host:port` entries (lower-case; IPv6 in brackets) reached without the address
   * check: tests and intranets (AUDIT_ALLOW_HOSTS). A bare host matches every port.
   */
  allowHosts?: readonly string[];
  resolve?: ResolveHost;
}

export interface SafeResponse {
  url: string;
  status: number;
  headers: IncomingHttpHeaders;
  /** Names and values as sent, alternating (Node's `rawHeaders`): nothing merged or dropped. */
  rawHeaders: string[];
  body: Buffer;
  truncated: boolean;
  /** The address connected to. */
  address: string | null;
}

/** One redirect answered: the URL asked, its status and its Location made absolute. */
export interface Hop {
  url: string;
  status: number;
  location: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;

const defaultResolve: ResolveHost = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

/** Whether the URL's host is on the allow-list, as `host` or as `host:port` (default ports spelled out). */
export function isAllowListedHost(url: URL, allowHosts: readonly string[] = []): boolean {
  if (allowHosts.length === 0) return false;
  const hostname = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return allowHosts.some((entry) => {
    const allowed = entry.toLowerCase();
    return allowed === hostname || allowed === `${hostname}:${port}`;
  });
}

function checkUrl(raw: string, policy: AddressPolicy, allowHosts?: readonly string[]): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError(`not an absolute URL: ${raw}`, "url");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UnsafeUrlError(`only http and https URLs are fetched, not ${url.protocol}`, "scheme");
  if (url.username || url.password) throw new UnsafeUrlError("URLs with credentials are not fetched", "credentials");
  if (isAllowListedHost(url, allowHosts)) return url;
  // The WHATWG parser has already turned 127.1, 0x7f000001, 2130706433 and the like into a dotted quad.
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && !isAllowedAddress(host, policy)) throw new UnsafeUrlError(`${url.hostname} is a private or reserved address`);
  return url;
}

/**
 * Refuses, before anything is sent, a URL the fetcher would refuse: wrong scheme, credentials,
 * or a host that is (or resolves to) an address that is not public. The connect-time check in
 * safeRequest still applies: a name may resolve differently a moment later.
 */
export async function checkTarget(rawUrl: string, options: Pick<SafeRequestOptions, "allowLoopback" | "allowHosts" | "resolve"> = {}): Promise<URL> {
  const policy: AddressPolicy = { allowLoopback: options.allowLoopback === true };
  const url = checkUrl(rawUrl, policy, options.allowHosts);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) || isAllowListedHost(url, options.allowHosts)) return url;
  const addresses = await (options.resolve ?? defaultResolve)(host);
  if (addresses.length === 0 || addresses.some((a) => !isAllowedAddress(a.address, policy))) {
    throw new UnsafeUrlError(`${url.hostname} resolves to a private or reserved address`);
  }
  return url;
}

/** A DNS lookup that fails unless every address the name resolves to is allowed (or no check is asked). */
function guardedLookup(policy: AddressPolicy, resolve: ResolveHost, check: boolean): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 4 || options.family === "IPv4" ? 4 : options.family === 6 || options.family === "IPv6" ? 6 : 0;
    resolve(hostname).then(
      (all) => {
        if (check && all.some((a) => !isAllowedAddress(a.address, policy))) {
          return callback(new UnsafeUrlError(`${hostname} resolves to a private or reserved address`), "", 0);
        }
        const addresses = family === 0 ? all : all.filter((a) => a.family === family);
        if (addresses.length === 0) {
          return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND", hostname }), "", 0);
        }
        if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, "", 0),
    );
  };
}

/** One request, one response: redirects are returned, never followed. */
export function safeRequest(rawUrl: string, options: SafeRequestOptions = {}): Promise<SafeResponse> {
  const policy: AddressPolicy = { allowLoopback: options.allowLoopback === true };
  return new Promise((resolve, reject) => {
    let url: URL;
    try {
      url = checkUrl(rawUrl, policy, options.allowHosts);
    } catch (error) {
      return reject(error);
    }
    const checked = !isAllowListedHost(url, options.allowHosts);
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let address: string | null = null;
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      fn();
    };

    const req = send(
      url,
      {
        method: options.method ?? "GET",
        headers: {
          "accept-encoding": "identity",
          ...(options.body !== undefined ? { "content-length": String(Buffer.byteLength(options.body)) } : {}),
          ...options.headers,
        },
        lookup: guardedLookup(policy, options.resolve ?? defaultResolve, checked),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        const done = () =>
          finish(() =>
            resolve({ url: url.toString(), status: res.statusCode ?? 0, headers: res.headers, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks), truncated, address }),
          );
        res.on("data", (chunk: Buffer) => {
          if (truncated) return;
          const room = maxBytes - size;
          if (chunk.length > room) {
            chunks.push(chunk.subarray(0, room));
            size = maxBytes;
            truncated = true;
            done();
            res.destroy();
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        res.on("end", done);
        res.on("error", (error) => finish(() => reject(error)));
      },
    );
    // Checked again on the connected socket: the address that matters is the one in use.
    req.on("socket", (socket) => {
      socket.once("connect", () => {
        address = socket.remoteAddress ?? null;
        if (checked && (address === null || !isAllowedAddress(address, policy))) {
          req.destroy(new UnsafeUrlError("connected to a private or reserved address"));
        }
      });
    });
    req.on("error", (error) => finish(() => reject(error)));
    const timer = setTimeout(() => req.destroy(new FetchTimeoutError(`no complete answer from ${url.host} within ${timeoutMs} ms`)), timeoutMs);
    const onAbort = () => req.destroy(new FetchTimeoutError("aborted"));
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
    req.end(options.body);
  });
}

export interface SafeFetchOptions extends SafeRequestOptions {
  maxRedirects?: number;
}

export interface SafeFetchResponse extends SafeResponse {
  /** Each URL a redirect led to, in order. */
  redirects: string[];
  hops: Hop[];
  /** From the first request to the last byte. */
  elapsedMs: number;
}

/** The absolute Location of a redirect response, or null when it is not a redirect with one. */
export function redirectLocation(response: Pick<SafeResponse, "status" | "headers">, base: string): string | null {
  const location = response.headers.location;
  if (response.status < 300 || response.status >= 400 || typeof location !== "string" || location === "") return null;
  try {
    return new URL(location, base).toString();
  } catch {
    return null;
  }
}

/**
 * Follows redirects itself, checking every hop like the first. `timeoutMs` is the budget of
 * the whole chain. Past `maxRedirects` the last redirect response is returned as it is.
 */
export async function safeFetch(rawUrl: string, options: SafeFetchOptions = {}): Promise<SafeFetchResponse> {
  const started = Date.now();
  const deadline = started + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const hops: Hop[] = [];
  let current = rawUrl;
  for (;;) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new FetchTimeoutError(`no complete answer within ${options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`);
    const response = await safeRequest(current, { ...options, timeoutMs: remaining });
    const location = redirectLocation(response, current);
    if (location === null || hops.length >= (options.maxRedirects ?? 10)) {
      return { ...response, redirects: hops.map((h) => h.location), hops, elapsedMs: Date.now() - started };
    }
    hops.push({ url: current, status: response.status, location });
    current = location;
  }
}
