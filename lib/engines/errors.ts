// Provider failures -> RunError with stable codes. Classified from what came over the wire
// (status, body, headers), so the SDKs' different error classes do not matter.
import { APIConnectionTimeoutError as AnthropicTimeout } from "@anthropic-ai/sdk";
import { APIConnectionTimeoutError as OpenAITimeout } from "openai";
import type { CapturedExchange, EngineFailure, EngineId } from "./types";
import { isObject } from "./normalize/common";

export const ENGINE_ERROR_CODES = [
  "engine_rate_limited",
  "engine_unavailable",
  "engine_timeout",
  "engine_auth_failed",
  "engine_bad_request",
  "engine_malformed_response",
  "engine_refused",
  "engine_incomplete",
  "engine_cancelled",
  "engine_error",
] as const;
export type EngineErrorCode = (typeof ENGINE_ERROR_CODES)[number];

const PROVIDER: Record<EngineId, string> = {
  chatgpt: "OpenAI",
  claude: "Anthropic",
  gemini: "Gemini",
  perplexity: "Perplexity",
  chatgpt_app: "DataForSEO",
  gemini_app: "DataForSEO",
  google_ai_overview: "DataForSEO",
  google_ai_mode: "DataForSEO",
};

export function engineFailure(engine: EngineId, code: EngineErrorCode, message: string, retryable: boolean, retryAfterMs: number | null = null): EngineFailure {
  return { error: { code, message: message.slice(0, 1000), engine, retryable }, retry_after_ms: retryAfterMs };
}

/** The provider's own words about the error, from any of the error body shapes (DataForSEO's `status_message` too). */
function providerMessage(body: unknown): string | null {
  const root = Array.isArray(body) ? body[0] : body;
  if (!isObject(root)) return typeof root === "string" && root.length < 300 ? root : null;
  const error = isObject(root.error) ? root.error : null;
  if (error && typeof error.message === "string") return error.message;
  return typeof root.status_message === "string" ? root.status_message : null;
}

/** Retry-after in milliseconds from headers (retry-after-ms, retry-after) or Gemini's RetryInfo. */
export function retryAfterMs(headers: Record<string, string>, body: unknown, now = Date.now()): number | null {
  const ms = Number(headers["retry-after-ms"]);
  if (headers["retry-after-ms"] !== undefined && Number.isFinite(ms) && ms >= 0) return Math.ceil(ms);
  const after = headers["retry-after"];
  if (after !== undefined) {
    const seconds = Number(after);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
    const date = Date.parse(after);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  const root = Array.isArray(body) ? body[0] : body;
  const details = isObject(root) && isObject(root.error) && Array.isArray(root.error.details) ? root.error.details : [];
  for (const detail of details) {
    if (isObject(detail) && typeof detail.retryDelay === "string") {
      const match = /^(\d+(?:\.\d+)?)s$/.exec(detail.retryDelay);
      if (match) return Math.ceil(Number(match[1]) * 1000);
    }
  }
  return null;
}

function isGeminiKeyError(body: unknown): boolean {
  const root = Array.isArray(body) ? body[0] : body;
  const details = isObject(root) && isObject(root.error) && Array.isArray(root.error.details) ? root.error.details : [];
  return details.some((d) => isObject(d) && d.reason === "API_KEY_INVALID");
}

/** An HTTP error answer from a provider. */
export function failureFromStatus(engine: EngineId, status: number, headers: Record<string, string>, body: unknown): EngineFailure {
  const said = providerMessage(body);
  const tail = said ? `: ${said}` : "";
  const name = PROVIDER[engine];
  const wait = retryAfterMs(headers, body);
  if (status === 429) return engineFailure(engine, "engine_rate_limited", `${name} rate limit (HTTP 429)${tail}`, true, wait);
  if (status === 408) return engineFailure(engine, "engine_timeout", `${name} timed out (HTTP 408)${tail}`, true, wait);
  if (status >= 500) return engineFailure(engine, "engine_unavailable", `${name} is unavailable (HTTP ${status})${tail}`, true, wait);
  // Gemini answers a bad key with 400 and the reason in the details.
  if (status === 401 || status === 403 || (engine === "gemini" && status === 400 && isGeminiKeyError(body))) {
    return engineFailure(engine, "engine_auth_failed", `${name} refused the API key (HTTP ${status})${tail}`, false);
  }
  // DataForSEO's account without credit.
  if (status === 402) return engineFailure(engine, "engine_bad_request", `${name} needs payment: the account cannot pay for the request (HTTP 402)${tail}`, false);
  if (status >= 400) return engineFailure(engine, "engine_bad_request", `${name} rejected the request (HTTP ${status})${tail}`, false);
  return engineFailure(engine, "engine_error", `${name} answered HTTP ${status}${tail}`, false);
}

/** Whatever an SDK threw, in terms of what happened on the wire. */
export function classifyThrown(engine: EngineId, error: unknown, last: CapturedExchange | undefined, signal?: AbortSignal): EngineFailure {
  const name = PROVIDER[engine];
  const detail = error instanceof Error ? error.message : String(error);
  if (last?.response) {
    const { status, headers, body } = last.response;
    if (status >= 400) return failureFromStatus(engine, status, headers, body);
    // A 2xx the SDK could not read.
    return engineFailure(engine, "engine_malformed_response", `${name} sent a response that could not be read: ${detail}`, true);
  }
  if (signal?.aborted) return engineFailure(engine, "engine_cancelled", `the call to ${name} was cancelled`, true);
  const timedOut =
    error instanceof OpenAITimeout ||
    error instanceof AnthropicTimeout ||
    (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError" || /timed? ?out|aborted/i.test(error.message)));
  if (timedOut) return engineFailure(engine, "engine_timeout", `${name} did not answer in time`, true);
  return engineFailure(engine, "engine_unavailable", `could not reach ${name}: ${detail}`, true);
}
