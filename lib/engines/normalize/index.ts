// Raw envelope -> PromptResult for any engine: pure, so stored envelopes can be normalised
// again whenever the normaliser improves.
import type { EngineEnvelope, NormalizedRun } from "../types";
import { normalizeChatgpt } from "./chatgpt";
import { normalizeClaude } from "./claude";
import { normalizeGemini } from "./gemini";

export { MalformedEnvelopeError } from "./common";
export { byteToCharOffset, isGroundingRedirect } from "./gemini";
export { normalizeChatgpt, normalizeClaude, normalizeGemini };

export function normalizeEnvelope(envelope: EngineEnvelope): NormalizedRun {
  switch (envelope.engine) {
    case "chatgpt":
      return normalizeChatgpt(envelope);
    case "claude":
      return normalizeClaude(envelope);
    case "gemini":
      return normalizeGemini(envelope);
  }
}
