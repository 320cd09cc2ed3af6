// Shapes shared by the adapters, the normalisers and the simulator: engine ids, the raw
// envelope a run stores, and what running a prompt returns.
import { ENGINE_IDS, STRUCTURED_ENGINE_IDS } from "@/lib/schemas/common";
import type { Location } from "@/lib/schemas/locale";
import type { PromptResult, RunError, Usage } from "@/lib/schemas/results";

export { ENGINE_IDS, STRUCTURED_ENGINE_IDS };
export type EngineId = (typeof ENGINE_IDS)[number];
export type StructuredEngineId = (typeof STRUCTURED_ENGINE_IDS)[number];

export function isEngineId(value: unknown): value is EngineId {
  return typeof value === "string" && (ENGINE_IDS as readonly string[]).includes(value);
}

export function isStructuredEngineId(value: unknown): value is StructuredEngineId {
  return typeof value === "string" && (STRUCTURED_ENGINE_IDS as readonly string[]).includes(value);
}

/**
 * Bumped whenever normalising the same envelope would give a different PromptResult, so
 * stored runs can be found and normalised again.
 */
export const NORMALIZER_VERSION = "4";

/** One HTTP exchange with a provider, as it went over the wire, with every secret removed. */
export interface CapturedExchange {
  request: { method: string; url: string; body: unknown };
  /** null when no response arrived (timeout, connection refused). */
  response: { status: number; headers: Record<string, string>; body: unknown } | null;
}

/** What asking a redirect host gave for one redirect URL. */
export interface RedirectOutcome {
  /** The absolute Location the host answered with, or null if it gave none. */
  location: string | null;
  status: number | null;
  /** Why the redirect could not be followed (not allow-listed, private address, timeout...). */
  error: string | null;
}

/**
 * Everything needed to normalise a run again without the network: the requests sent, the
 * provider's full responses (continuation turns included) and what each redirect gave.
 */
export interface EngineEnvelope {
  engine: EngineId;
  normalizer_version: string;
  model_requested: string;
  exchanges: CapturedExchange[];
  redirects: Record<string, RedirectOutcome>;
}

/** An Anthropic web_search_tool_result_error (or the like) inside a successful response. */
export interface SearchToolError {
  provider_search_id: string | null;
  error_code: string;
}

export interface NormalizedRun {
  result: PromptResult;
  usage: Usage;
  /** The model the provider reported, or null if it reported none. */
  model: string | null;
  search_errors: SearchToolError[];
}

export interface EngineFailure {
  error: RunError;
  /** The provider's retry-after, when it gave one; the caller's driver decides what to do. */
  retry_after_ms: number | null;
}

export type RunPromptOutcome =
  | ({ ok: true; engine: EngineId; envelope: EngineEnvelope; duration_ms: number } & NormalizedRun)
  | ({ ok: false; engine: EngineId; envelope: EngineEnvelope; duration_ms: number } & EngineFailure);

export interface RunPromptInput {
  prompt: string;
  /** Overrides the configured model for this run. */
  model?: string;
  /** Where the searcher is: sent in each provider's own location parameter, never in the prompt. */
  location?: Location | null;
  /** The searcher's language (a canonical BCP 47 tag): sent where the provider takes one. */
  language?: string | null;
  signal?: AbortSignal;
}
