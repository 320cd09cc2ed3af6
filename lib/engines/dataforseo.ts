// The consumer apps through one capture vendor, DataForSEO, and its official client: a live task
// per run on the LLM scraper (ChatGPT, Gemini), Google's organic SERP with its AI Overview loaded,
// or Google AI Mode. DataForSEO answers HTTP 200 for almost everything: a failure is a status
// code in the body (the request's, or the task's), which becomes a RunError here, never a 500.
import { createRequire } from "node:module";
import path from "node:path";
import type * as DataForSeo from "dataforseo-client";
import type { EngineConfig } from "./config";
import type { AdapterCall } from "./adapter";
import { engineFailure } from "./errors";
import { dataforseoMarketOf, type DataforseoEndpoint } from "./locale";
import { isObject } from "./normalize/common";
import type { EngineFailure, EngineId } from "./types";

/** The app engines and the endpoint each asks (GET /engines shows it as the engine's model). */
export const DATAFORSEO_ENDPOINTS = {
  chatgpt_app: "ai_optimization/chat_gpt/llm_scraper/live/advanced",
  gemini_app: "ai_optimization/gemini/llm_scraper/live/advanced",
  google_ai_overview: "serp/google/organic/live/advanced",
  google_ai_mode: "serp/google/ai_mode/live/advanced",
} as const;

export type DataforseoEngine = keyof typeof DATAFORSEO_ENDPOINTS;

export function isDataforseoEngine(engine: EngineId): engine is DataforseoEngine {
  return engine in DATAFORSEO_ENDPOINTS;
}

const MARKET_FORMAT: Record<DataforseoEngine, DataforseoEndpoint> = {
  chatgpt_app: "chatgpt",
  gemini_app: "gemini",
  google_ai_overview: "organic",
  google_ai_mode: "ai_mode",
};

/**
 * The client's transport: HTTP Basic with the account's login (the client has no auth of its
 * own), the run's cancellation and the engine timeout (it has no timeout either), and every
 * exchange through `fetch`, which records it without the header.
 */
function vendorFetch(config: EngineConfig, fetch: typeof globalThis.fetch, signal?: AbortSignal): { fetch(url: RequestInfo, init?: RequestInit): Promise<Response> } {
  const token = Buffer.from(`${config.dataforseo.login}:${config.dataforseo.password}`, "utf8").toString("base64");
  return {
    fetch: (url, init) => {
      const timeout = AbortSignal.timeout(config.timeoutMs);
      const headers = new Headers(init?.headers);
      headers.set("Authorization", `Basic ${token}`);
      return fetch(url, { ...init, headers, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    },
  };
}

/**
 * One module of the client's CommonJS build, by its file. The client's index loads all of its
 * ~2,600 modules (17 s of blocked event loop on a loaded machine, 3.6 s idle); the two APIs the
 * app engines use load a few hundred, once, when the first app run needs them. Resolved from the
 * package's own entry, so the exports map (which names only the index) is honoured for the
 * package and the files are the installed version's; left to Node at run time, not bundled.
 */
function clientFile<T>(file: string): T {
  const load = createRequire(path.join(/* turbopackIgnore: true */ process.cwd(), "package.json"));
  const root = path.dirname(load.resolve("dataforseo-client"));
  return load(/* turbopackIgnore: true */ path.join(root, file)) as T;
}

type Client = Pick<
  typeof DataForSeo,
  | "AiOptimizationApi"
  | "SerpApi"
  | "AiOptimizationChatGptLlmScraperLiveAdvancedRequestInfo"
  | "AiOptimizationGeminiLlmScraperLiveAdvancedRequestInfo"
  | "SerpGoogleOrganicLiveAdvancedRequestInfo"
  | "SerpGoogleAiModeLiveAdvancedRequestInfo"
>;

let loaded: Client | null = null;

function clientOf(): Client {
  loaded ??= {
    ...clientFile<Pick<Client, "AiOptimizationApi">>("api/AiOptimizationApi.js"),
    ...clientFile<Pick<Client, "SerpApi">>("api/SerpApi.js"),
    ...clientFile<Pick<Client, "AiOptimizationChatGptLlmScraperLiveAdvancedRequestInfo">>("models/AiOptimizationChatGptLlmScraperLiveAdvancedRequestInfo.js"),
    ...clientFile<Pick<Client, "AiOptimizationGeminiLlmScraperLiveAdvancedRequestInfo">>("models/AiOptimizationGeminiLlmScraperLiveAdvancedRequestInfo.js"),
    ...clientFile<Pick<Client, "SerpGoogleOrganicLiveAdvancedRequestInfo">>("models/SerpGoogleOrganicLiveAdvancedRequestInfo.js"),
    ...clientFile<Pick<Client, "SerpGoogleAiModeLiveAdvancedRequestInfo">>("models/SerpGoogleAiModeLiveAdvancedRequestInfo.js"),
  };
  return loaded;
}

/** One live task on the engine's endpoint: the prompt as the keyword, the run's market in the vendor's parameters. */
export function dataforseoCall(engine: DataforseoEngine): AdapterCall {
  return async ({ prompt, signal, location, language }, config, fetch) => {
    const client = clientOf();
    const http = vendorFetch(config, fetch, signal);
    const base = config.dataforseo.baseUrl;
    const market = dataforseoMarketOf(MARKET_FORMAT[engine], location ?? null, language ?? null);
    switch (engine) {
      case "chatgpt_app":
        await new client.AiOptimizationApi(base, http).chatGptLlmScraperLiveAdvanced([
          new client.AiOptimizationChatGptLlmScraperLiveAdvancedRequestInfo({ keyword: prompt, ...market }),
        ]);
        return;
      case "gemini_app":
        await new client.AiOptimizationApi(base, http).geminiLlmScraperLiveAdvanced([
          new client.AiOptimizationGeminiLlmScraperLiveAdvancedRequestInfo({ keyword: prompt, ...market }),
        ]);
        return;
      case "google_ai_overview":
        // The AI Overview loads after the page for many queries: without load_async_ai_overview the
        // SERP holds only cached ones (the extra charge is refunded when none is shown).
        await new client.SerpApi(base, http).googleOrganicLiveAdvanced([
          new client.SerpGoogleOrganicLiveAdvancedRequestInfo({ keyword: prompt, ...market, device: "desktop", depth: 10, load_async_ai_overview: true }),
        ]);
        return;
      case "google_ai_mode":
        await new client.SerpApi(base, http).googleAiModeLiveAdvanced([
          new client.SerpGoogleAiModeLiveAdvancedRequestInfo({ keyword: prompt, ...market, device: "desktop" }),
        ]);
        return;
    }
  };
}

const NAME = "DataForSEO";

/**
 * A DataForSEO status code (docs.dataforseo.com/v3/appendix/errors) as a RunError. The codes
 * come in families: 401xx credentials; 402xx the account's limits, of which rate, duplicate and
 * simultaneous-request limits pass (retryable) and payment or funds do not; 400xx, 404xx and
 * 405xx a task the vendor will not run as sent (not retryable); 5xxxx the vendor's own failure
 * (retryable).
 */
export function dataforseoStatusFailure(engine: EngineId, code: number, message: string): EngineFailure {
  const said = `${NAME} answered status ${code}${message ? `: ${message}` : ""}`;
  if (code >= 50000) return engineFailure(engine, "engine_unavailable", said, true);
  if (code >= 40100 && code < 40200) return engineFailure(engine, "engine_auth_failed", said, false);
  if (code >= 40200 && code < 40300) {
    const limit = code === 40202 || code === 40205 || code === 40209 || /rate|limit|too many|simultaneous|queue/i.test(message);
    const money = /payment|fund|balance|credit/i.test(message) || code === 40200 || code === 40210;
    if (limit && !money) return engineFailure(engine, "engine_rate_limited", said, true);
    return engineFailure(engine, "engine_bad_request", `${said} (the ${NAME} account cannot pay for the task)`, false);
  }
  return engineFailure(engine, "engine_bad_request", said, false);
}

const OK = new Set([20000, 20100]);

/** A 200 whose body says the request or its task failed. */
export function dataforseoBodyFailure(engine: EngineId, body: unknown): EngineFailure | null {
  if (!isObject(body)) return null;
  const message = (value: unknown) => (typeof value === "string" ? value : "");
  if (typeof body.status_code === "number" && !OK.has(body.status_code)) {
    return dataforseoStatusFailure(engine, body.status_code, message(body.status_message));
  }
  const task = Array.isArray(body.tasks) ? body.tasks[0] : undefined;
  if (isObject(task) && typeof task.status_code === "number" && !OK.has(task.status_code)) {
    return dataforseoStatusFailure(engine, task.status_code, message(task.status_message));
  }
  return null;
}
