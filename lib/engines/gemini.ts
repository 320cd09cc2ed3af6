// Gemini: generateContent grounded with Google Search.
import { GoogleGenAI } from "@google/genai";
import type { EngineConfig } from "./config";
import { engineFailure } from "./errors";
import { isObject } from "./normalize/common";
import type { EngineFailure } from "./types";
import type { AdapterCall } from "./adapter";
import { retrievalConfigOf } from "./locale";

/** The Gemini client every Gemini call uses, every exchange through `fetch`. */
export function geminiClient(config: EngineConfig, fetch: typeof globalThis.fetch): GoogleGenAI {
  return new GoogleGenAI({
    apiKey: config.gemini.apiKey,
    // Explicit, so GOOGLE_GENAI_USE_VERTEXAI in the environment cannot switch the backend.
    vertexai: false,
    httpOptions: { baseUrl: config.gemini.baseUrl, timeout: config.timeoutMs, fetch },
  });
}

export const callGemini: AdapterCall = async ({ prompt, model, signal, location, language }, config: EngineConfig, fetch) => {
  // The searcher's coordinates and language, in the tool config every tool of the request shares.
  const retrievalConfig = retrievalConfigOf(location ?? null, language ?? null);
  await geminiClient(config, fetch).models.generateContent({
    model: model ?? config.gemini.model,
    contents: prompt,
    config: {
      tools: [{ googleSearch: {} }],
      ...(retrievalConfig ? { toolConfig: { retrievalConfig } } : {}),
      maxOutputTokens: config.maxOutputTokens,
      abortSignal: signal,
    },
  });
};

/** A prompt Gemini blocked comes back as a 200 without candidates. */
export function geminiBodyFailure(body: unknown): EngineFailure | null {
  if (!isObject(body)) return null;
  const candidates = Array.isArray(body.candidates) ? body.candidates : [];
  const feedback = isObject(body.promptFeedback) ? body.promptFeedback : null;
  if (candidates.length === 0 && feedback && typeof feedback.blockReason === "string") {
    return engineFailure("gemini", "engine_refused", `Gemini blocked the prompt (${feedback.blockReason})`, false);
  }
  return null;
}

/** The grounding chunk URIs of a response, which may be redirects to resolve. */
export function geminiChunkUris(body: unknown): string[] {
  if (!isObject(body) || !Array.isArray(body.candidates)) return [];
  const candidate = body.candidates[0];
  const grounding = isObject(candidate) && isObject(candidate.groundingMetadata) ? candidate.groundingMetadata : null;
  const chunks = grounding && Array.isArray(grounding.groundingChunks) ? grounding.groundingChunks : [];
  return chunks.flatMap((c) => (isObject(c) && isObject(c.web) && typeof c.web.uri === "string" ? [c.web.uri] : []));
}
