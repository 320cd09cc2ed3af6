// Perplexity: one Sonar chat completion (Perplexity searches on every request), with the
// searcher's location in its web search options.
import Perplexity from "@perplexity-ai/perplexity_ai";
import type { EngineConfig } from "./config";
import type { AdapterCall } from "./adapter";
import { perplexityLocationOf } from "./locale";

/** The Perplexity client every Perplexity call uses: no SDK retries, every exchange through `fetch`. */
export function perplexityClient(config: EngineConfig, fetch: typeof globalThis.fetch): Perplexity {
  return new Perplexity({
    apiKey: config.perplexity.apiKey,
    // Explicit, so PERPLEXITY_BASE_URL read by the SDK itself cannot point it elsewhere.
    baseURL: config.perplexity.baseUrl,
    timeout: config.timeoutMs,
    // The run's driver decides about retries, with the provider's retry-after.
    maxRetries: 0,
    fetch,
  });
}

export const callPerplexity: AdapterCall = async ({ prompt, model, signal, location }, config: EngineConfig, fetch) => {
  // Sonar takes the searcher's location (with coordinates) and no language parameter.
  const webSearch = location ? { web_search_options: { user_location: perplexityLocationOf(location) } } : {};
  await perplexityClient(config, fetch).chat.completions.create(
    {
      model: model ?? config.perplexity.model,
      messages: [{ role: "user", content: prompt }],
      max_tokens: config.maxOutputTokens,
      stream: false,
      ...webSearch,
    },
    { signal },
  );
};
