// Raw envelope -> PromptResult for any engine: pure, so stored envelopes can be normalised
// again whenever the normaliser improves.
import type { EngineEnvelope, NormalizedRun } from "../types";
import { normalizeChatgpt } from "./chatgpt";
import { normalizeClaude } from "./claude";
import { normalizeGemini } from "./gemini";
import { localeAppliedOf } from "./locale";

export { MalformedEnvelopeError } from "./common";
export { byteToCharOffset, isGroundingRedirect } from "./gemini";
export { normalizeChatgpt, normalizeClaude, normalizeGemini };

function normalizeBody(envelope: EngineEnvelope): NormalizedRun {
  switch (envelope.engine) {
    case "chatgpt":
      return normalizeChatgpt(envelope);
    case "claude":
      return normalizeClaude(envelope);
    case "gemini":
      return normalizeGemini(envelope);
  }
}

/** The run's result, with what of the searcher's market its first request carried. */
export function normalizeEnvelope(envelope: EngineEnvelope): NormalizedRun {
  const run = normalizeBody(envelope);
  const locale_applied = localeAppliedOf(envelope.engine, envelope.exchanges[0]?.request.body);
  return { ...run, result: { ...run.result, locale_applied } };
}
