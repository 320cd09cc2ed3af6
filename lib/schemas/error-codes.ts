// The error codes of the API and their HTTP statuses (spec 7): data only, so the CLI can import it.

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
