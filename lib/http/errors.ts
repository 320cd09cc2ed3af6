// The one error type of the API (spec section 7); the code table itself lives in lib/schemas/error-codes.ts.

import { ERROR_STATUS, type ErrorCode } from "../schemas/error-codes";

export { ERROR_CODES, ERROR_STATUS, type ErrorCode } from "../schemas/error-codes";

// Whether the same request could succeed later, when the thrower does not say.
const RETRYABLE_BY_DEFAULT: ReadonlySet<ErrorCode> = new Set(["rate_limited", "internal_error", "engine_error"]);

export class ApiError extends Error {
  override name = "ApiError";
  readonly code: ErrorCode;
  readonly engine: string | null;
  readonly retryable: boolean;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { engine?: string | null; retryable?: boolean; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.code = code;
    this.engine = options.engine ?? null;
    this.retryable = options.retryable ?? RETRYABLE_BY_DEFAULT.has(code);
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): ErrorEnvelope {
    return { error: { code: this.code, message: this.message, engine: this.engine, retryable: this.retryable } };
  }
}

export type ErrorEnvelope = {
  error: { code: ErrorCode; message: string; engine: string | null; retryable: boolean };
};

/**
 * The answer for anything missing or outside the caller's workspaces: the two must be
 * indistinguishable, so the message names only what the caller asked for, in one pattern:
 * `No such run "dr_01J…".` (the id as given, cut to 80 characters).
 */
export function notFound(kind: string, id?: string | number): ApiError {
  if (id === undefined) return new ApiError("not_found", `No such ${kind}.`);
  const given = String(id);
  const shown = given.length > 80 ? `${given.slice(0, 80)}…` : given;
  return new ApiError("not_found", `No such ${kind} ${JSON.stringify(shown)}.`);
}
