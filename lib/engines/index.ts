// The answer engines, for the rest of the server: ids, which are enabled, running a prompt, and
// asking for structured output.
import { withSimulator, type EngineConfig } from "./config";
import { startSimulator, type RunningSimulator } from "./simulator/server";
import type { EngineId } from "./types";

export { ENGINE_IDS, NORMALIZER_VERSION, STRUCTURED_ENGINE_IDS, isEngineId, isStructuredEngineId } from "./types";
export type {
  CapturedExchange,
  EngineEnvelope,
  EngineFailure,
  EngineId,
  NormalizedRun,
  StructuredEngineId,
  RedirectOutcome,
  RunPromptInput,
  RunPromptOutcome,
  SearchToolError,
} from "./types";
export {
  DEFAULT_REDIRECT_HOSTS,
  EngineConfigError,
  SIMULATED_API_KEY,
  engineConfigFromEnv,
  engineEnvSchema,
  withSimulator,
  type EngineConfig,
  type EngineEnv,
} from "./config";
export { ENGINE_ERROR_CODES, type EngineErrorCode } from "./errors";
export { MalformedEnvelopeError, normalizeEnvelope } from "./normalize";
export { runPrompt, type RunPromptDeps } from "./run";
export { ENGINE_TABLE, presentEngines } from "./table";
export {
  StructuredSchemaError,
  runStructured,
  toGeminiSchema,
  type StructuredInput,
  type StructuredOutcome,
  type StructuredSchema,
} from "./structured";
export { startSimulator, type FailureRule, type RunningSimulator, type SimulatorOptions } from "./simulator/server";

/** Engines a request may name, in the canonical order. */
export function enabledEngines(config: EngineConfig): EngineId[] {
  return [...config.enabled];
}

export function isSimulated(config: EngineConfig): boolean {
  return config.mode === "simulated";
}

const globalForSimulator = globalThis as unknown as { __geoscopeSimulator?: Promise<RunningSimulator> };

/**
 * The configuration runs should use. In simulated mode without GEOSCOPE_SIMULATOR_URL, one
 * simulator is started inside this process (kept on globalThis so dev reloads reuse it) and
 * every engine is pointed at it. Live mode is returned unchanged.
 */
export async function prepareEngineConfig(config: EngineConfig): Promise<EngineConfig> {
  if (config.mode !== "simulated" || config.simulator.url !== null) return config;
  globalForSimulator.__geoscopeSimulator ??= startSimulator({ seed: config.simulator.seed, latencyMs: config.simulator.latencyMs, unref: true });
  const simulator = await globalForSimulator.__geoscopeSimulator;
  return withSimulator(config, simulator.url);
}
