// Claude: Anthropic Messages API with the server web search tool, continuing pause_turn
// answers until the turn is complete.
import Anthropic from "@anthropic-ai/sdk";
import type { EngineConfig } from "./config";
import { engineFailure } from "./errors";
import { isObject } from "./normalize/common";
import type { EngineFailure } from "./types";
import type { AdapterCall } from "./adapter";
import { userLocationOf } from "./locale";

export class ContinuationLimitError extends Error {
  override name = "ContinuationLimitError";
}

/** The Anthropic client every Claude call uses: no SDK retries, every exchange through `fetch`. */
export function anthropicClient(config: EngineConfig, fetch: typeof globalThis.fetch): Anthropic {
  return new Anthropic({
    apiKey: config.claude.apiKey,
    baseURL: config.claude.baseUrl,
    timeout: config.timeoutMs,
    // The run's driver decides about retries, with the provider's retry-after.
    maxRetries: 0,
    fetch,
  });
}

export const callClaude: AdapterCall = async ({ prompt, model, signal, location }, config: EngineConfig, fetch) => {
  const client = anthropicClient(config, fetch);
  // The server web search tool's approximate user location; the Messages API takes no language.
  const userLocation: Pick<Anthropic.Messages.WebSearchTool20250305, "user_location"> = location ? { user_location: userLocationOf(location) } : {};
  const tool = {
    type: config.claude.webSearchTool,
    name: "web_search",
    max_uses: config.claude.maxSearches,
    ...userLocation,
  } as unknown as Anthropic.Messages.WebSearchTool20250305;
  const assistant: Anthropic.Messages.ContentBlockParam[] = [];
  for (let turn = 0; ; turn++) {
    const messages: Anthropic.Messages.MessageParam[] = [{ role: "user", content: prompt }];
    // A paused turn is continued by sending it back as the assistant's unfinished turn.
    if (assistant.length > 0) messages.push({ role: "assistant", content: assistant });
    const message = await client.messages.create(
      { model: model ?? config.claude.model, max_tokens: config.maxOutputTokens, messages, tools: [tool] },
      { signal },
    );
    if (message.stop_reason !== "pause_turn") return;
    if (turn >= config.claude.maxContinuations) {
      throw new ContinuationLimitError(`Claude paused its turn ${turn + 1} times; the limit is ${config.claude.maxContinuations} continuations`);
    }
    assistant.push(...(message.content as unknown as Anthropic.Messages.ContentBlockParam[]));
  }
};

/** The last response still paused: the answer is incomplete. */
export function claudeBodyFailure(bodies: unknown[]): EngineFailure | null {
  const last = bodies[bodies.length - 1];
  if (isObject(last) && last.stop_reason === "pause_turn") {
    return engineFailure("claude", "engine_incomplete", "Claude did not finish its answer within the allowed continuations", true);
  }
  return null;
}
