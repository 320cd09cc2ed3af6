// A fetch wrapper handed to each SDK so the envelope holds exactly what went over the wire:
// the request body and the provider's full response body, never a header carrying a key.
import type { CapturedExchange } from "./types";

// Response headers worth keeping: what explains an error or a retry. No cookies, no keys.
const KEPT_HEADERS = ["content-type", "retry-after", "retry-after-ms", "x-request-id", "request-id", "openai-processing-ms"];

function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    url.searchParams.delete("key");
    return url.toString();
  } catch {
    return raw;
  }
}

function parseBody(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    // A body that is not JSON is kept as text: it is the evidence of a malformed response.
    return text;
  }
}

function requestUrl(input: RequestInfo | URL): string {
  if (typeof input === "string") return input;
  if (input instanceof URL) return input.toString();
  return input.url;
}

export function capturingFetch(exchanges: CapturedExchange[], base: typeof fetch = fetch): typeof fetch {
  return async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = typeof init?.body === "string" ? parseBody(init.body) : null;
    const exchange: CapturedExchange = {
      request: { method: init?.method ?? "GET", url: redactUrl(requestUrl(input)), body },
      response: null,
    };
    exchanges.push(exchange);
    const response = await base(input, init);
    const text = await response.text();
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    exchange.response = { status: response.status, headers, body: parseBody(text) };
    // The body is already decoded: its encoding and length headers no longer describe it.
    const passed = new Headers(response.headers);
    passed.delete("content-encoding");
    passed.delete("content-length");
    const empty = response.status === 204 || response.status === 304;
    return new Response(empty ? null : text, { status: response.status, statusText: response.statusText, headers: passed });
  };
}
