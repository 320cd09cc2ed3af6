// The route handler of a registry endpoint, found from its path the way Next.js finds it, and a
// raw request sender that keeps whatever the handler answers (bytes, any content type). No vitest
// import, so scripts/fuzz.ts can use it too.
import path from "node:path";
import type { EndpointDefinition } from "@/lib/schemas/endpoint";

export type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

const API_DIR = path.resolve(import.meta.dirname, "..", "..", "app", "api", "v1");
const modules = new Map<string, Promise<Record<string, unknown>>>();

/** The function app/api/v1/<path>/route.ts exports for the endpoint's method. */
export async function handlerOf(endpoint: Pick<EndpointDefinition, "method" | "path">): Promise<Handler> {
  const segments = endpoint.path.split("/").filter(Boolean).map((s) => s.replace(/^\{(.+)\}$/, "[$1]"));
  const file = path.join(API_DIR, ...segments, "route.ts");
  let mod = modules.get(file);
  if (!mod) modules.set(file, (mod = import(file) as Promise<Record<string, unknown>>));
  const handler = (await mod)[endpoint.method];
  if (typeof handler !== "function") throw new Error(`${file} exports no ${endpoint.method}`);
  return handler as Handler;
}

/** The endpoint's path with its parameters filled in, each encoded as one path segment. */
export function fillPath(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${template}`);
    return encodeSegment(String(value));
  });
}

/** encodeURIComponent, except that a lone surrogate (which it refuses) goes as its WTF-8 bytes. */
export function encodeSegment(value: string): string {
  let out = "";
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join("");
    } else {
      out += encodeURIComponent(ch);
    }
  }
  return out;
}

export type RawRequest = {
  method: string;
  /** Path under /api/v1 with its query string, already encoded as it goes on the wire. */
  url: string;
  params?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
};

export type RawResponse = { status: number; text: string; contentType: string };

export async function send(handler: Handler, request: RawRequest): Promise<RawResponse> {
  const init: RequestInit = { method: request.method, headers: request.headers ?? {} };
  if (request.body !== undefined) init.body = request.body as BodyInit;
  const response = await handler(new Request(`http://localhost/api/v1${request.url}`, init), {
    params: Promise.resolve(request.params ?? {}),
  });
  return { status: response.status, text: await response.text(), contentType: response.headers.get("content-type") ?? "" };
}

/** A JSON request with a bearer token, for setting things up. Throws unless the status is `expected`. */
export async function sendJson<T = any>(
  endpoint: Pick<EndpointDefinition, "method" | "path">,
  options: { token?: string; params?: Record<string, string>; query?: Record<string, string | number>; body?: unknown; expected?: number },
): Promise<T> {
  const handler = await handlerOf(endpoint);
  const search = new URLSearchParams(Object.entries(options.query ?? {}).map(([k, v]) => [k, String(v)])).toString();
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const res = await send(handler, {
    method: endpoint.method,
    url: `${fillPath(endpoint.path, options.params ?? {})}${search ? `?${search}` : ""}`,
    params: options.params,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  if (options.expected !== undefined && res.status !== options.expected) {
    throw new Error(`${endpoint.method} ${endpoint.path} answered ${res.status}, not ${options.expected}: ${res.text.slice(0, 500)}`);
  }
  return (res.text ? JSON.parse(res.text) : undefined) as T;
}
