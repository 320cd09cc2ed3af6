// ChatGPT: one OpenAI Responses API call with the web_search tool and its sources included.
import OpenAI from "openai";
import type { EngineConfig } from "./config";
import { engineFailure } from "./errors";
import { isObject } from "./normalize/common";
import type { EngineFailure } from "./types";
import type { AdapterCall } from "./adapter";
import { userLocationOf } from "./locale";

/** The OpenAI client every ChatGPT call uses: no SDK retries, every exchange through `fetch`. */
export function openaiClient(config: EngineConfig, fetch: typeof globalThis.fetch): OpenAI {
  return new OpenAI({
    apiKey: config.chatgpt.apiKey,
    baseURL: config.chatgpt.baseUrl,
    // Explicit nulls keep the SDK from reading OPENAI_ORG_ID and friends from the environment.
    organization: null,
    project: null,
    webhookSecret: null,
    timeout: config.timeoutMs,
    // The run's driver decides about retries, with the provider's retry-after.
    maxRetries: 0,
    fetch,
  });
}

export const callChatgpt: AdapterCall = async ({ prompt, model, signal, location }, config: EngineConfig, fetch) => {
  // The web search tool's approximate user location; the Responses API takes no language.
  const userLocation = location ? { user_location: userLocationOf(location) } : {};
  await openaiClient(config, fetch).responses.create(
    {
      model: model ?? config.chatgpt.model,
      input: prompt,
      tools: [{ type: "web_search", ...userLocation }],
      include: ["web_search_call.action.sources"],
      max_output_tokens: config.maxOutputTokens,
      ...(config.chatgpt.maxToolCalls !== null ? { max_tool_calls: config.chatgpt.maxToolCalls } : {}),
      store: false,
    },
    { signal },
  );
};

/** A 200 can still carry a failed response. */
export function chatgptBodyFailure(body: unknown): EngineFailure | null {
  if (!isObject(body) || body.status !== "failed") return null;
  const error = isObject(body.error) ? body.error : {};
  const code = typeof error.code === "string" ? error.code : "unknown";
  const message = `OpenAI could not complete the response (${code})${typeof error.message === "string" ? `: ${error.message}` : ""}`;
  if (code === "rate_limit_exceeded") return engineFailure("chatgpt", "engine_rate_limited", message, true);
  if (code === "server_error" || code === "vector_store_timeout") return engineFailure("chatgpt", "engine_unavailable", message, true);
  return engineFailure("chatgpt", "engine_bad_request", message, false);
}
