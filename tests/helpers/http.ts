// Calls route handlers in-process with real Request objects, the way Next.js does, and checks
// every error body against the envelope (success bodies are checked by the wrapper itself,
// since tests run with GEOSCOPE_VALIDATE_RESPONSES on).
import { expect } from "vitest";
import { ErrorBody } from "@/lib/schemas/common";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

export type CallOptions = {
  token?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  params?: Record<string, string>;
  query?: Record<string, string | number>;
};

export type CallResult<T = any> = { status: number; body: T; headers: Headers; text: string };

export async function call<T = any>(handler: Handler, method: string, path: string, options: CallOptions = {}): Promise<CallResult<T>> {
  const url = new URL(`http://localhost/api/v1${path}`);
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const response = await handler(new Request(url, { method, headers, body }), { params: Promise.resolve(options.params ?? {}) });
  const text = await response.text();
  const parsed = text ? JSON.parse(text) : undefined;
  if (response.status >= 400) {
    const check = ErrorBody.safeParse(parsed);
    expect(check.success, `error body is not the envelope: ${text}`).toBe(true);
    expect(Object.keys(parsed)).toEqual(["error"]);
  }
  return { status: response.status, body: parsed as T, headers: response.headers, text };
}
