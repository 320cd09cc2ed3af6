// The one error type of the API and its table from code to HTTP status (spec section 7).

export const ERROR_STATUS = {
  invalid_request: 400,
  unauthenticated: 401,
  insufficient_credit: 402,
  permission_denied: 403,
  not_found: 404,
  // Not in the spec's table: a known path asked with a method it does not have. The spec
  // tells clients to treat an unknown code as its HTTP status (docs/decisions.md).
  method_not_allowed: 405,
  conflict: 409,
  cli_outdated: 426,
  rate_limited: 429,
  internal_error: 500,
  engine_error: 502,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

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

/** The answer for anything missing or outside the caller's workspaces: the two must be indistinguishable. */
export function notFound(what = "object"): ApiError {
  return new ApiError("not_found", `No such ${what}.`);
}
