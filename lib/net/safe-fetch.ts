// Outbound HTTP for URLs the server did not choose (engine redirects, audited pages): only
// public addresses, checked on the address actually connected to (so DNS rebinding cannot
// slip through), a short timeout, a byte cap, and redirects handled by the caller, hop by hop.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { isAllowedAddress, type AddressPolicy } from "./address";

export class UnsafeUrlError extends Error {
  override name = "UnsafeUrlError";
}

export class FetchTimeoutError extends Error {
  override name = "FetchTimeoutError";
}

export interface SafeRequestOptions extends AddressPolicy {
  method?: "GET" | "HEAD";
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** Stop reading the body after this many bytes and report `truncated`. */
  maxBytes?: number;
  signal?: AbortSignal;
}

export interface SafeResponse {
  url: string;
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  truncated: boolean;
  /** The address connected to. */
  address: string | null;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;

function checkUrl(raw: string, policy: AddressPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError(`not an absolute URL: ${raw}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UnsafeUrlError(`only http and https URLs are fetched, not ${url.protocol}`);
  if (url.username || url.password) throw new UnsafeUrlError("URLs with credentials are not fetched");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && !isAllowedAddress(host, policy)) throw new UnsafeUrlError(`address ${host} is private or reserved`);
  return url;
}

/** A DNS lookup that fails unless every address the name resolves to is allowed. */
function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family, hints: options.hints }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 0);
      const refused = addresses.find((a) => !isAllowedAddress(a.address, policy));
      if (refused || addresses.length === 0) {
        return callback(new UnsafeUrlError(`${hostname} resolves to ${refused?.address ?? "nothing"}, which is private or reserved`), "", 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** One request, one response: redirects are returned, never followed. */
export function safeRequest(rawUrl: string, options: SafeRequestOptions = {}): Promise<SafeResponse> {
  const policy: AddressPolicy = { allowLoopback: options.allowLoopback === true };
  return new Promise((resolve, reject) => {
    let url: URL;
    try {
      url = checkUrl(rawUrl, policy);
    } catch (error) {
      return reject(error);
    }
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
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
        headers: { "accept-encoding": "identity", ...options.headers },
        lookup: guardedLookup(policy),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        const done = () =>
          finish(() => resolve({ url: url.toString(), status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), truncated, address }));
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
        if (address === null || !isAllowedAddress(address, policy)) {
          req.destroy(new UnsafeUrlError(`connected to ${address}, which is private or reserved`));
        }
      });
    });
    req.on("error", (error) => finish(() => reject(error)));
    const timer = setTimeout(() => req.destroy(new FetchTimeoutError(`no complete answer from ${url.host} within ${options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`)), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const onAbort = () => req.destroy(new FetchTimeoutError("aborted"));
    options.signal?.addEventListener("abort", onAbort, { once: true });
    req.end();
  });
}

export interface SafeFetchOptions extends SafeRequestOptions {
  maxRedirects?: number;
}

/** Follows redirects itself, checking every hop like the first. */
export async function safeFetch(rawUrl: string, options: SafeFetchOptions = {}): Promise<SafeResponse & { redirects: string[] }> {
  const redirects: string[] = [];
  let current = rawUrl;
  for (;;) {
    const response = await safeRequest(current, options);
    const location = response.headers.location;
    if (response.status >= 300 && response.status < 400 && typeof location === "string") {
      if (redirects.length >= (options.maxRedirects ?? 10)) return { ...response, redirects };
      current = new URL(location, current).toString();
      redirects.push(current);
      continue;
    }
    return { ...response, redirects };
  }
}
