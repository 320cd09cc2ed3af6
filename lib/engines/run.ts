// Running one prompt on one engine: the SDK call (the engine table's adapter) with every exchange
// recorded, provider failures mapped to RunError, grounding redirects resolved, then normalisation.
import { ContinuationLimitError } from "./claude";
import { capturingFetch } from "./capture";
import type { EngineConfig } from "./config";
import { classifyThrown, engineFailure } from "./errors";
import { geminiChunkUris } from "./gemini";
import { MalformedEnvelopeError, isGroundingRedirect, normalizeEnvelope } from "./normalize";
import { isAllowedRedirectHost, resolveRedirects } from "./redirects";
import { ENGINE_TABLE } from "./table";
import {
  NORMALIZER_VERSION,
  type CapturedExchange,
  type EngineEnvelope,
  type EngineFailure,
  type EngineId,
  type NormalizedRun,
  type RedirectOutcome,
  type RunPromptInput,
  type RunPromptOutcome,
} from "./types";

export interface RunPromptDeps {
  config: EngineConfig;
  /** The transport under the SDKs; global fetch by default. */
  fetch?: typeof globalThis.fetch;
  /** Replaces redirect resolution (tests); the SSRF-safe resolver by default. */
  resolveRedirects?: (urls: string[]) => Promise<Record<string, RedirectOutcome>>;
  now?: () => number;
}

function modelFor(engine: EngineId, input: RunPromptInput, config: EngineConfig): string {
  return input.model ?? ENGINE_TABLE[engine].model(config);
}

function bodiesOf(exchanges: CapturedExchange[]): unknown[] {
  return exchanges.filter((x) => x.response && x.response.status < 300).map((x) => x.response!.body);
}

/** An envelope with nothing exchanged yet: the capturing fetch appends to its `exchanges`. */
export function newEnvelope(engine: EngineId, modelRequested: string): EngineEnvelope {
  return { engine, normalizer_version: NORMALIZER_VERSION, model_requested: modelRequested, exchanges: [], redirects: {} };
}

export async function runPrompt(engine: EngineId, input: RunPromptInput, deps: RunPromptDeps): Promise<RunPromptOutcome> {
  const { config } = deps;
  const now = deps.now ?? Date.now;
  const started = now();
  const envelope = newEnvelope(engine, modelFor(engine, input, config));
  const { exchanges } = envelope;
  const failed = (failure: EngineFailure): RunPromptOutcome => ({ ok: false, engine, envelope, duration_ms: now() - started, ...failure });
  const succeeded = (run: NormalizedRun): RunPromptOutcome => ({ ok: true, engine, envelope, duration_ms: now() - started, ...run });

  if (!config.enabled.includes(engine)) {
    return failed(engineFailure(engine, "engine_bad_request", `engine ${engine} is not enabled; enabled: ${config.enabled.join(", ") || "none"}`, false));
  }

  try {
    await ENGINE_TABLE[engine].call(input, config, capturingFetch(exchanges, deps.fetch ?? globalThis.fetch));
  } catch (error) {
    if (error instanceof ContinuationLimitError) return failed(engineFailure(engine, "engine_incomplete", error.message, true));
    return failed(classifyThrown(engine, error, exchanges[exchanges.length - 1], input.signal));
  }

  const bodies = bodiesOf(exchanges);
  const last = bodies[bodies.length - 1];
  const bodyFailure = ENGINE_TABLE[engine].bodyFailure(bodies);
  if (bodyFailure) return failed(bodyFailure);

  if (engine === "gemini") {
    const redirects = geminiChunkUris(last).filter((uri) => isGroundingRedirect(uri) || isAllowedRedirectHost(uri, config.redirects.hosts));
    if (redirects.length > 0) {
      const resolve =
        deps.resolveRedirects ??
        ((urls: string[]) =>
          resolveRedirects(urls, {
            hosts: config.redirects.hosts,
            timeoutMs: config.redirects.timeoutMs,
            concurrency: config.redirects.concurrency,
            allowLoopback: config.redirects.allowLoopback,
          }));
      try {
        envelope.redirects = await resolve(redirects);
      } catch (error) {
        // Resolution never fails a run: the sources stay unresolved.
        const reason = error instanceof Error ? error.message : String(error);
        envelope.redirects = Object.fromEntries(redirects.map((u) => [u, { location: null, status: null, error: reason }]));
      }
    }
  }

  try {
    return succeeded(normalizeEnvelope(envelope));
  } catch (error) {
    if (error instanceof MalformedEnvelopeError) {
      return failed(engineFailure(engine, "engine_malformed_response", `the ${engine} response is not in the documented shape: ${error.message}`, true));
    }
    throw error;
  }
}
