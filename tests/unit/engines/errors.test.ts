import { describe, expect, it } from "vitest";
import { failureFromStatus, retryAfterMs } from "@/lib/engines/errors";

describe("provider error mapping", () => {
  it("reads retry-after in seconds, milliseconds, as a date, or from Gemini's RetryInfo", () => {
    expect(retryAfterMs({ "retry-after": "20" }, null)).toBe(20_000);
    expect(retryAfterMs({ "retry-after-ms": "1500", "retry-after": "20" }, null)).toBe(1500);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs({ "retry-after": "Thu, 01 Jan 2026 00:00:30 GMT" }, null, now)).toBe(30_000);
    const gemini = { error: { code: 429, status: "RESOURCE_EXHAUSTED", details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "12.5s" }] } };
    expect(retryAfterMs({}, gemini)).toBe(12_500);
    expect(retryAfterMs({}, { error: { message: "x" } })).toBeNull();
  });

  it.each([
    [429, "engine_rate_limited", true],
    [500, "engine_unavailable", true],
    [503, "engine_unavailable", true],
    [529, "engine_unavailable", true],
    [408, "engine_timeout", true],
    [401, "engine_auth_failed", false],
    [403, "engine_auth_failed", false],
    [400, "engine_bad_request", false],
    [404, "engine_bad_request", false],
  ])("HTTP %i is %s (retryable %s)", (status, code, retryable) => {
    expect(failureFromStatus("claude", status, {}, { type: "error", error: { type: "x", message: "provider says no" } }).error).toEqual({
      code,
      message: expect.stringContaining("provider says no"),
      engine: "claude",
      retryable,
    });
  });

  it("treats Gemini's 400 for an invalid key as an auth failure", () => {
    const body = { error: { code: 400, message: "API key not valid.", status: "INVALID_ARGUMENT", details: [{ reason: "API_KEY_INVALID" }] } };
    expect(failureFromStatus("gemini", 400, {}, body).error.code).toBe("engine_auth_failed");
    expect(failureFromStatus("chatgpt", 400, {}, body).error.code).toBe("engine_bad_request");
  });

  it("passes the provider's retry-after on to the caller", () => {
    expect(failureFromStatus("chatgpt", 429, { "retry-after": "3" }, {}).retry_after_ms).toBe(3000);
  });
});
