// The answer engines' environment variables (merged into lib/config/env.ts) and the engine
// configuration derived from them. Nothing else under lib/engines reads the environment.
import { z } from "zod";
import { nonNegativeInt, positiveInt } from "../config/fields";
import { ENGINE_IDS, STRUCTURED_ENGINE_IDS, type EngineId, type StructuredEngineId } from "./types";

const baseUrl = (fallback: string) =>
  z.url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" }).default(fallback);

const model = (fallback: string) => z.string().trim().min(1).max(200).default(fallback);

const hostList = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? "")
      .split(",")
      .map((h) => h.trim().toLowerCase())
      .filter((h) => h !== ""),
  );

export const DEFAULT_REDIRECT_HOSTS = ["vertexaisearch.cloud.google.com"];

/**
 * Every variable the engines read. Values arrive as strings (empty strings already removed
 * by the central parser), so numbers are coerced.
 */
export const engineEnvSchema = z.object({
  // `simulated` talks to the built-in engine simulator; the default only when no key is set.
  GEOSCOPE_ENGINES: z.enum(["simulated", "live"], { error: "must be simulated or live" }).optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  ANTHROPIC_API_KEY: z.string().min(1).optional(),
  GEMINI_API_KEY: z.string().min(1).optional(),
  PERPLEXITY_API_KEY: z.string().min(1).optional(),
  // The capture vendor of the consumer apps (chatgpt_app, gemini_app, google_ai_overview,
  // google_ai_mode): HTTP Basic credentials of its API access, both or neither.
  DATAFORSEO_LOGIN: z.string().min(1).optional(),
  DATAFORSEO_PASSWORD: z.string().min(1).optional(),
  OPENAI_BASE_URL: baseUrl("https://api.openai.com/v1"),
  ANTHROPIC_BASE_URL: baseUrl("https://api.anthropic.com"),
  GEMINI_BASE_URL: baseUrl("https://generativelanguage.googleapis.com"),
  PERPLEXITY_BASE_URL: baseUrl("https://api.perplexity.ai"),
  DATAFORSEO_BASE_URL: baseUrl("https://api.dataforseo.com"),
  OPENAI_MODEL: model("gpt-5.4"),
  ANTHROPIC_MODEL: model("claude-sonnet-4-6"),
  GEMINI_MODEL: model("gemini-3.5-flash"),
  PERPLEXITY_MODEL: model("sonar"),
  // One provider request; a run that times out fails with engine_timeout (retryable).
  ENGINE_TIMEOUT_MS: positiveInt(120_000, 3_600_000),
  ENGINE_MAX_OUTPUT_TOKENS: positiveInt(4096, 1_000_000),
  // Anthropic's web search `max_uses`.
  ANTHROPIC_MAX_SEARCHES: positiveInt(5, 100),
  ANTHROPIC_WEB_SEARCH_TOOL: z
    .string()
    .regex(/^web_search_\d{8}$/, { error: "must be a web search tool version such as web_search_20250305" })
    .default("web_search_20250305"),
  // pause_turn continuations before the run gives up with engine_incomplete.
  ANTHROPIC_MAX_CONTINUATIONS: nonNegativeInt(5, 50),
  // OpenAI's `max_tool_calls` (searches and page opens together); unset means no limit.
  OPENAI_MAX_TOOL_CALLS: z.coerce
    .number({ error: "must be a whole number" })
    .int({ error: "must be a whole number" })
    .min(1, { error: "must be at least 1" })
    .max(1000, { error: "must be at most 1000" })
    .optional(),
  REDIRECT_HOSTS: hostList,
  REDIRECT_TIMEOUT_MS: positiveInt(5000, 60_000),
  REDIRECT_CONCURRENCY: positiveInt(4, 64),
  // An already running simulator (e.g. `npx tsx lib/engines/simulator/main.ts`); without it
  // simulated mode starts one inside the server process.
  GEOSCOPE_SIMULATOR_URL: z.url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" }).optional(),
  GEOSCOPE_SIMULATOR_LATENCY_MS: nonNegativeInt(0, 600_000),
  GEOSCOPE_SIMULATOR_SEED: z.string().max(200).default("geoscope"),
  // The engine questions analyses ask; unset: the first enabled of chatgpt, claude, gemini.
  QUESTIONS_ENGINE: z.enum(STRUCTURED_ENGINE_IDS, { error: `must be one of ${STRUCTURED_ENGINE_IDS.join(", ")}` }).optional(),
});

export type EngineEnv = z.infer<typeof engineEnvSchema>;

export interface ProviderConfig {
  apiKey: string;
  baseUrl: string;
  model: string;
}

export interface EngineConfig {
  mode: "simulated" | "live";
  /** Engines a request may name; every one of them when `engines` is omitted. */
  enabled: EngineId[];
  timeoutMs: number;
  maxOutputTokens: number;
  chatgpt: ProviderConfig & { maxToolCalls: number | null };
  claude: ProviderConfig & { maxSearches: number; webSearchTool: string; maxContinuations: number };
  gemini: ProviderConfig;
  perplexity: ProviderConfig;
  /** The capture vendor of the app engines: one account for all four. */
  dataforseo: { login: string; password: string; baseUrl: string };
  redirects: {
    hosts: string[];
    timeoutMs: number;
    concurrency: number;
    /** Only for the simulator's redirect endpoint on loopback; never in live mode. */
    allowLoopback: boolean;
  };
  simulator: { url: string | null; latencyMs: number; seed: string };
  /** The engine questions analyses ask for structured output; null when no engine is enabled. */
  questionsEngine: StructuredEngineId | null;
}

export class EngineConfigError extends Error {
  override name = "EngineConfigError";
}

/** Key placeholder sent to the simulator, which only checks that one is present. */
export const SIMULATED_API_KEY = "sk-geoscope-simulated";
/** The DataForSEO login sent to the simulator (with SIMULATED_API_KEY as its password). */
export const SIMULATED_LOGIN = "geoscope-simulated";

/** What enables each engine: the vendor's key (or, for the apps, the capture vendor's login). */
const KEY_VARS: Record<EngineId, string> = {
  chatgpt: "OPENAI_API_KEY",
  claude: "ANTHROPIC_API_KEY",
  gemini: "GEMINI_API_KEY",
  perplexity: "PERPLEXITY_API_KEY",
  chatgpt_app: "DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD",
  gemini_app: "DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD",
  google_ai_overview: "DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD",
  google_ai_mode: "DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD",
};

/** The variable (or pair) that enables an engine, for messages that say what to set. */
export function keyVariableOf(engine: EngineId): string {
  return KEY_VARS[engine];
}

/**
 * Engine configuration from parsed variables. Simulated mode is the default when no key
 * is set and is refused once any key is set, so a keyed server is never silently simulated.
 */
export function engineConfigFromEnv(env: EngineEnv): EngineConfig {
  if ((env.DATAFORSEO_LOGIN === undefined) !== (env.DATAFORSEO_PASSWORD === undefined)) {
    throw new EngineConfigError("DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD are set together or not at all: the app engines need both");
  }
  const dataforseo = env.DATAFORSEO_LOGIN !== undefined ? "set" : undefined;
  const keys: Record<EngineId, string | undefined> = {
    chatgpt: env.OPENAI_API_KEY,
    claude: env.ANTHROPIC_API_KEY,
    gemini: env.GEMINI_API_KEY,
    perplexity: env.PERPLEXITY_API_KEY,
    chatgpt_app: dataforseo,
    gemini_app: dataforseo,
    google_ai_overview: dataforseo,
    google_ai_mode: dataforseo,
  };
  const keyed = ENGINE_IDS.filter((id) => keys[id] !== undefined);
  const mode = env.GEOSCOPE_ENGINES ?? (keyed.length === 0 ? "simulated" : "live");
  if (mode === "simulated" && keyed.length > 0) {
    const set = [...new Set(keyed.map((id) => KEY_VARS[id]))];
    throw new EngineConfigError(`GEOSCOPE_ENGINES=simulated cannot be used while ${set.join(", ")} is set: unset the key(s) or use GEOSCOPE_ENGINES=live`);
  }
  const simulated = mode === "simulated";
  const enabled = simulated ? [...ENGINE_IDS] : keyed;
  const provider = (id: EngineId, url: string, model: string): ProviderConfig => ({
    apiKey: simulated ? SIMULATED_API_KEY : (keys[id] ?? ""),
    baseUrl: url,
    model,
  });
  const config: EngineConfig = {
    mode,
    enabled,
    timeoutMs: env.ENGINE_TIMEOUT_MS,
    maxOutputTokens: env.ENGINE_MAX_OUTPUT_TOKENS,
    chatgpt: { ...provider("chatgpt", env.OPENAI_BASE_URL, env.OPENAI_MODEL), maxToolCalls: env.OPENAI_MAX_TOOL_CALLS ?? null },
    claude: {
      ...provider("claude", env.ANTHROPIC_BASE_URL, env.ANTHROPIC_MODEL),
      maxSearches: env.ANTHROPIC_MAX_SEARCHES,
      webSearchTool: env.ANTHROPIC_WEB_SEARCH_TOOL,
      maxContinuations: env.ANTHROPIC_MAX_CONTINUATIONS,
    },
    gemini: provider("gemini", env.GEMINI_BASE_URL, env.GEMINI_MODEL),
    perplexity: provider("perplexity", env.PERPLEXITY_BASE_URL, env.PERPLEXITY_MODEL),
    dataforseo: simulated
      ? { login: SIMULATED_LOGIN, password: SIMULATED_API_KEY, baseUrl: env.DATAFORSEO_BASE_URL }
      : { login: env.DATAFORSEO_LOGIN ?? "", password: env.DATAFORSEO_PASSWORD ?? "", baseUrl: env.DATAFORSEO_BASE_URL },
    redirects: {
      hosts: [...new Set([...DEFAULT_REDIRECT_HOSTS, ...env.REDIRECT_HOSTS])],
      timeoutMs: env.REDIRECT_TIMEOUT_MS,
      concurrency: env.REDIRECT_CONCURRENCY,
      allowLoopback: false,
    },
    simulator: { url: null, latencyMs: env.GEOSCOPE_SIMULATOR_LATENCY_MS, seed: env.GEOSCOPE_SIMULATOR_SEED },
    questionsEngine: questionsEngineOf(env.QUESTIONS_ENGINE, enabled),
  };
  return simulated && env.GEOSCOPE_SIMULATOR_URL ? withSimulator(config, env.GEOSCOPE_SIMULATOR_URL) : config;
}

/** QUESTIONS_ENGINE when set (it must be enabled), else the first enabled engine that answers in a schema. */
function questionsEngineOf(chosen: StructuredEngineId | undefined, enabled: EngineId[]): StructuredEngineId | null {
  if (chosen === undefined) return STRUCTURED_ENGINE_IDS.find((id) => enabled.includes(id)) ?? null;
  if (!enabled.includes(chosen)) {
    throw new EngineConfigError(
      `QUESTIONS_ENGINE=${chosen} is not an enabled engine (enabled: ${enabled.join(", ") || "none"}): set ${KEY_VARS[chosen]} or choose an enabled engine`,
    );
  }
  return chosen;
}

/**
 * Points every engine at a simulator: the SDKs' base URLs, and the simulator's own host as
 * an allowed redirect host on loopback. Only valid in simulated mode.
 */
export function withSimulator(config: EngineConfig, simulatorUrl: string): EngineConfig {
  if (config.mode !== "simulated") throw new EngineConfigError("the simulator is only used in simulated mode");
  const url = new URL(simulatorUrl);
  const origin = url.origin;
  return {
    ...config,
    chatgpt: { ...config.chatgpt, baseUrl: `${origin}/v1` },
    claude: { ...config.claude, baseUrl: origin },
    gemini: { ...config.gemini, baseUrl: origin },
    perplexity: { ...config.perplexity, baseUrl: origin },
    dataforseo: { ...config.dataforseo, baseUrl: origin },
    redirects: { ...config.redirects, hosts: [...new Set([...config.redirects.hosts, url.host])], allowLoopback: true },
    simulator: { ...config.simulator, url: origin },
  };
}
