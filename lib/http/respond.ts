// Turning results and errors into HTTP responses: JSON bodies, the error envelope of spec 7,
// and the request id every response carries. No database access or auth: the 404/405 stand-ins
// (lib/http/methods.ts) use it too.
import type { EndpointDefinition } from "../schemas/endpoint";
import { newUlid } from "../db/ids";
import { log } from "../log";
import { ApiError } from "./errors";

const BASE_HEADERS = { "Cache-Control": "no-store" };

/** Every response carries one in X-Request-Id; a 500's message repeats it and the log records it. */
export function newRequestId(): string {
  return `req_${newUlid()}`;
}

const NON_ASCII = /[\u0080-\uffff]/;
const NON_ASCII_ALL = /[\u0080-\uffff]/g;
const escaped = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * JSON text in ASCII: every character outside it written as a \u escape (a character beyond the
 * BMP as its two surrogates), the same value to any JSON parser (docs/decisions.md "Analyses'
 * bodies in ASCII"). One "–" in a 1 MB body otherwise makes the whole text two-byte, and every
 * decode of it (the driver reading a kept body, the client reading the answer) takes about three
 * times as long as ASCII's.
 */
export function asciiJson(value: unknown): string {
  const text = JSON.stringify(value);
  return NON_ASCII.test(text) ? text.replace(NON_ASCII_ALL, escaped) : text;
}

/**
 * A response body serialised already, sent as it is: a read that splices stored JSON text into
 * its envelope instead of parsing it into objects only to serialise them again (lib/runs/read.ts).
 * `T` is the shape the text is (the endpoint's response); with GEOSCOPE_VALIDATE_RESPONSES on
 * the text is parsed and checked like any other result.
 */
export class JsonText<T = unknown> {
  declare readonly shape?: T;
  /** `status`: the endpoint's otherStatus when this body answers with it; otherwise its status. */
  constructor(
    readonly text: string,
    readonly status?: number,
  ) {}
}

/**
 * A response body in another media type than JSON, sent as a stream (an endpoint's `alternative`,
 * such as the mentions of a visibility analysis as CSV): not checked against the JSON schema.
 */
export class StreamedText {
  constructor(
    readonly body: ReadableStream<Uint8Array>,
    readonly contentType: string,
    readonly headers: Record<string, string> = {},
  ) {}
}

export function respond(endpoint: EndpointDefinition, data: unknown, requestId: string, validate: boolean): Response {
  const headers = { ...BASE_HEADERS, "X-Request-Id": requestId };
  if (endpoint.status === 204) return new Response(null, { status: 204, headers });
  if (data instanceof StreamedText) {
    return new Response(data.body, { status: endpoint.status, headers: { ...headers, ...data.headers, "Content-Type": data.contentType } });
  }
  if (validate && endpoint.response) {
    const checked = endpoint.response.safeParse(data instanceof JsonText ? JSON.parse(data.text) : data);
    if (!checked.success) {
      throw new Error(`Response of ${endpoint.operationId} does not match its schema: ${checked.error.message}`);
    }
  }
  if (data instanceof JsonText) {
    return new Response(data.text, {
      status: data.status !== undefined && data.status === endpoint.otherStatus?.status ? data.status : endpoint.status,
      headers: { ...headers, "Content-Type": "application/json; charset=utf-8" },
    });
  }
  return jsonResponse(data, endpoint.status, headers);
}

export function jsonResponse(data: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(data), {
    status,
    headers: { ...BASE_HEADERS, ...headers, "Content-Type": "application/json; charset=utf-8" },
  });
}

export function toErrorResponse(error: unknown, requestId: string, request?: Request): Response {
  const apiError =
    error instanceof ApiError
      ? error
      : new ApiError(
          "internal_error",
          `The service failed unexpectedly. If it keeps happening, report request id ${requestId}.`,
        );
  if (!(error instanceof ApiError)) {
    // Details go to the server log only; the request's headers may hold credentials, so none are logged.
    log.error("unhandled error", {
      requestId,
      method: request?.method,
      path: request ? new URL(request.url).pathname : undefined,
      error,
    });
  }
  return jsonResponse(apiError.toBody(), apiError.status, { ...apiError.headers, "X-Request-Id": requestId });
}
