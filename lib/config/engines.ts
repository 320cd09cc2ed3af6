// The answer engines' configuration, derived once from the central configuration.
import { engineConfigFromEnv, type EngineConfig } from "../engines/config";
import { config } from "./env";

const globalForEngines = globalThis as unknown as { __geoscopeEngines?: { source: object; value: EngineConfig } };

export function engineConfig(): EngineConfig {
  const source = config();
  if (globalForEngines.__geoscopeEngines?.source !== source) {
    globalForEngines.__geoscopeEngines = { source, value: engineConfigFromEnv(source) };
  }
  return globalForEngines.__geoscopeEngines.value;
}

/** True when prompts are answered by the built-in simulator rather than the real providers. */
export function enginesSimulated(): boolean {
  return engineConfig().mode === "simulated";
}
