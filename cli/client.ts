// The one typed client of the public API, shared by the CLI's commands and `geoscope mcp`. Every
// call names an endpoint declared in lib/schemas: the method, path, path parameters, query and body
// are typed from its schemas, and every answer is parsed with its response schema, so a body that
// does not match is an error naming the endpoint and the field, never an untyped value. The raw
// response text is kept beside the parsed body: `--json` and the MCP tools hand it on byte for byte.
import type { z } from "zod";
import { ErrorBody } from "../lib/schemas/common";
import type { EndpointDefinition } from "../lib/schemas/endpoint";
import type { Settings } from "./config";

/** The error envelope of spec 7, as lib/schemas declares it. */
export type ErrorEnvelope = z.output<typeof ErrorBody>;

type Loose = Record<string, unknown>;
type IsWide<E> = EndpointDefinition extends E ? true : false;

/** What a call sends: path parameters, query and body typed from the endpoint's own schemas. */
export type CallInput<E extends EndpointDefinition> =
  IsWide<E> extends true
    ? { params?: Loose; query?: Loose; body?: unknown; token?: string | null }
    : (E["params"] extends z.ZodObject ? { params: z.input<E["params"]> } : { params?: undefined }) &
        (E["query"] extends z.ZodObject ? { query?: Partial<z.input<E["query"]>> } : { query?: undefined }) &
        (E["body"] extends z.ZodType ? { body: z.input<E["body"]> } : { body?: undefined }) & {
          /** Overrides the settings' token for this call (null: send none). */
          token?: string | null;
        };

/** The parsed body: the response schema's output, or undefined for a 204. */
export type ResponseBody<E extends EndpointDefinition> = E["response"] extends z.ZodType ? z.output<E["response"]> : undefined;

export type ApiResult<E extends EndpointDefinition> = {
  status: number;
  /** The body exactly as the server sent it ("" for a 204). */
  text: string;
  headers: Headers;
  body: ResponseBody<E>;
};

/** An answer that is not 2xx, or no usable answer (status 0: unreachable). `text` is the body as sent, or the envelope made here. */
export class CliHttpError extends Error {
  constructor(
    readonly status: number,
    readonly envelope: ErrorEnvelope,
    readonly text: string,
    readonly headers: Headers | null,
  ) {
    super(envelope.error.message);
  }
  get code(): string {
    return this.envelope.error.code;
  }
}

/** A 2xx answer whose body does not match the endpoint's response schema. */
export class ResponseShapeError extends CliHttpError {
  constructor(
    readonly endpoint: EndpointDefinition,
    status: number,
    /** Where the body broke the schema, as `runs[0].status: …`. */
    readonly problems: string[],
    headers: Headers | null,
    /** True when the body lacks a field the schema requires: the server is likely older than this client. */
    readonly missingField = false,
  ) {
    const hint = missingField
      ? "The body lacks a field this client expects: the server may be older than this client (upgrade the server, or use the CLI of the server's version), or it answered something else."
      : "The server may be newer than this client (upgrade it), or it answered something else.";
    const envelope: ErrorEnvelope = {
      error: {
        code: "invalid_response",
        message: `${describeEndpoint(endpoint)} answered a body that does not match its response schema: ${problems.join("; ")}. ${hint}`,
        engine: null,
        retryable: false,
      },
    };
    super(status, envelope, JSON.stringify(envelope), headers);
  }
}

export function describeEndpoint(endpoint: EndpointDefinition): string {
  return `${endpoint.method} ${endpoint.path} (${endpoint.operationId})`;
}

/** A made-up envelope for what the client itself refuses or cannot do (not logged in, server unreachable). */
export function localError(status: number, code: string, message: string, retryable = false): CliHttpError {
  const envelope: ErrorEnvelope = { error: { code, message, engine: null, retryable } };
  return new CliHttpError(status, envelope, JSON.stringify(envelope), null);
}

function issuePath(path: PropertyKey[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("") || "(the body)";
}

/** Parses a body with a schema, or says which fields broke it (at most five). */
export function parseResponse<E extends EndpointDefinition>(endpoint: E, status: number, text: string, headers: Headers | null): ResponseBody<E> {
  if (!endpoint.response) return undefined as ResponseBody<E>;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ResponseShapeError(endpoint, status, [`(the body): not JSON: ${JSON.stringify(text.slice(0, 80))}`], headers);
  }
  const parsed = endpoint.response.safeParse(json);
  if (parsed.success) return parsed.data as ResponseBody<E>;
  const problems = parsed.error.issues.slice(0, 5).map((issue) => `${issuePath(issue.path)}: ${issue.message}`);
  if (parsed.error.issues.length > 5) problems.push(`and ${parsed.error.issues.length - 5} more`);
  const missingField = parsed.error.issues.some((issue) => issue.code === "invalid_type" && /received undefined$/.test(issue.message));
  throw new ResponseShapeError(endpoint, status, problems, headers, missingField);
}

function queryValue(value: unknown): string {
  return typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
}

export function buildUrl(baseUrl: string, endpoint: EndpointDefinition, input: { params?: Loose; query?: Loose }): string {
  const filled = endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = input.params?.[name];
    if (value === undefined || value === null || value === "") throw localError(400, "invalid_request", `${name}: is required`);
    return encodeURIComponent(queryValue(value));
  });
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(input.query ?? {})) if (value !== undefined && value !== null) query.set(key, queryValue(value));
  const qs = query.toString();
  return `${baseUrl}${filled}${qs ? `?${qs}` : ""}`;
}

export class Client {
  constructor(readonly settings: Settings) {}

  /** Calls one endpoint; a non-2xx answer throws CliHttpError, a body that breaks the response schema ResponseShapeError. */
  async call<const E extends EndpointDefinition>(endpoint: E, ...args: {} extends CallInput<E> ? [input?: CallInput<E>] : [input: CallInput<E>]): Promise<ApiResult<E>> {
    const response = await this.send(endpoint, (args[0] ?? {}) as Loose, "application/json");
    const text = await response.text();
    return { status: response.status, text, headers: response.headers, body: parseResponse(endpoint, response.status, text, response.headers) };
  }

  /**
   * Calls one endpoint for its other media type (`alternative`, such as CSV) and answers the
   * response unread, to be streamed on; a non-2xx answer throws CliHttpError as `call` does.
   */
  async stream<const E extends EndpointDefinition>(endpoint: E, ...args: {} extends CallInput<E> ? [input?: CallInput<E>] : [input: CallInput<E>]): Promise<Response> {
    return this.send(endpoint, (args[0] ?? {}) as Loose, endpoint.alternative?.mediaType ?? "application/json");
  }

  /** The request, and the response if it is 2xx; otherwise the error it is, thrown. */
  private async send(endpoint: EndpointDefinition, input: { params?: Loose; query?: Loose; body?: unknown; token?: string | null }, accept: string): Promise<Response> {
    const token = input.token === undefined ? this.settings.token : input.token;
    if (endpoint.auth === "bearer" && !token) {
      throw localError(401, "unauthenticated", "not logged in: run `geoscope login`, or pass --token / set GEOSCOPE_TOKEN");
    }
    const headers: Record<string, string> = { "User-Agent": `geoscope-cli/${this.settings.version}`, Accept: accept };
    if (endpoint.auth === "bearer" && token) headers.Authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (input.body !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(input.body);
    }
    const url = buildUrl(this.settings.baseUrl, endpoint, input);
    let response: Response;
    try {
      response = await fetch(url, { method: endpoint.method, headers, body });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
      throw localError(0, "unreachable", `could not reach ${this.settings.baseUrl} (${why}); is the server running? Set --base-url or GEOSCOPE_BASE_URL.`, true);
    }
    if (response.ok) return response;
    const text = await response.text();
    let envelope: ErrorEnvelope | null = null;
    try {
      const parsed = ErrorBody.safeParse(JSON.parse(text));
      if (parsed.success) envelope = parsed.data;
    } catch {
      /* not JSON: made up below */
    }
    if (!envelope) {
      const made = localError(
        response.status,
        `http_${response.status}`,
        `${describeEndpoint(endpoint)}: the server answered ${response.status} ${response.statusText} without an error envelope`,
        response.status >= 500,
      );
      throw new CliHttpError(made.status, made.envelope, made.text, response.headers);
    }
    throw new CliHttpError(response.status, envelope, text, response.headers);
  }
}

/** Exit codes, one per error class (also in `geoscope --help`). */
export const EXIT = {
  ok: 0,
  other: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  credit: 5,
  rateLimited: 6,
  outdated: 7,
  invalid: 8,
} as const;

const EXIT_BY_CODE: Record<string, number> = {
  invalid_request: EXIT.invalid,
  conflict: EXIT.invalid,
  unauthenticated: EXIT.auth,
  permission_denied: EXIT.auth,
  insufficient_credit: EXIT.credit,
  not_found: EXIT.notFound,
  method_not_allowed: EXIT.notFound,
  cli_outdated: EXIT.outdated,
  rate_limited: EXIT.rateLimited,
  invalid_response: EXIT.other,
};

const EXIT_BY_STATUS: Record<number, number> = {
  400: EXIT.invalid,
  401: EXIT.auth,
  402: EXIT.credit,
  403: EXIT.auth,
  404: EXIT.notFound,
  405: EXIT.notFound,
  409: EXIT.invalid,
  426: EXIT.outdated,
  429: EXIT.rateLimited,
};

/** A known code decides; an unknown one is treated as its HTTP status (spec 7). */
export function exitCodeFor(error: CliHttpError): number {
  return EXIT_BY_CODE[error.code] ?? EXIT_BY_STATUS[error.status] ?? EXIT.other;
}
