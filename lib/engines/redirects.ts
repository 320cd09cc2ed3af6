// Grounding redirect resolution: ask an allow-listed redirect host where a link goes (HEAD,
// then GET if HEAD gives no redirect), never follow it, and never fail the run over it.
import { safeRequest, type SafeRequestOptions, type SafeResponse } from "@/lib/net/safe-fetch";
import type { RedirectOutcome } from "./types";

export interface RedirectOptions {
  /** Hosts (host or host:port) whose links may be asked about. */
  hosts: string[];
  timeoutMs: number;
  concurrency: number;
  /** Only the simulator's redirect endpoint on loopback needs this. */
  allowLoopback?: boolean;
  /** Injected in tests; the SSRF-safe request by default. */
  request?: (url: string, options: SafeRequestOptions) => Promise<SafeResponse>;
}

export function isAllowedRedirectHost(raw: string, hosts: string[]): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  const host = url.host.toLowerCase();
  const hostname = url.hostname.toLowerCase();
  return hosts.some((allowed) => allowed === host || allowed === hostname);
}

function locationOf(response: SafeResponse, base: string): string | null {
  const location = response.headers.location;
  if (response.status < 300 || response.status >= 400 || typeof location !== "string" || location === "") return null;
  try {
    const target = new URL(location, base);
    return target.protocol === "http:" || target.protocol === "https:" ? target.toString() : null;
  } catch {
    return null;
  }
}

export async function resolveRedirect(url: string, options: RedirectOptions): Promise<RedirectOutcome> {
  if (!isAllowedRedirectHost(url, options.hosts)) return { location: null, status: null, error: "host not allow-listed" };
  const request = options.request ?? safeRequest;
  const base: SafeRequestOptions = { timeoutMs: options.timeoutMs, maxBytes: 64 * 1024, allowLoopback: options.allowLoopback === true };
  let status: number | null = null;
  try {
    const head = await request(url, { ...base, method: "HEAD" });
    status = head.status;
    const location = locationOf(head, url);
    if (location) return { location, status, error: null };
    // Some redirect hosts refuse HEAD (405) or answer it differently from GET.
    const get = await request(url, { ...base, method: "GET" });
    status = get.status;
    const fromGet = locationOf(get, url);
    if (fromGet) return { location: fromGet, status, error: null };
    return { location: null, status, error: `no redirect (HTTP ${status})` };
  } catch (error) {
    return { location: null, status, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

/** Resolves distinct URLs with a small concurrency; every URL gets an outcome. */
export async function resolveRedirects(urls: string[], options: RedirectOptions): Promise<Record<string, RedirectOutcome>> {
  const distinct = [...new Set(urls)];
  const outcomes: Record<string, RedirectOutcome> = {};
  let next = 0;
  const worker = async () => {
    while (next < distinct.length) {
      const url = distinct[next++]!;
      outcomes[url] = await resolveRedirect(url, options);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, distinct.length)) }, worker));
  return outcomes;
}
