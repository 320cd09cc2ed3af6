// Raw envelope -> PromptResult for any engine: pure, so stored envelopes can be normalised
// again whenever the normaliser improves.
import type { EngineEnvelope, NormalizedRun } from "../types";
import { normalizeChatgpt } from "./chatgpt";
import { normalizeClaude } from "./claude";
import { normalizeDataforseo } from "./dataforseo";
import { normalizeGemini } from "./gemini";
import { localeAppliedOf } from "./locale";
import { normalizePerplexity } from "./perplexity";

export { MalformedEnvelopeError } from "./common";
export { byteToCharOffset, isGroundingRedirect } from "./gemini";
export { normalizeChatgpt, normalizeClaude, normalizeDataforseo, normalizeGemini, normalizePerplexity };

function normalizeBody(envelope: EngineEnvelope): NormalizedRun {
  switch (envelope.engine) {
    case "chatgpt":
      return normalizeChatgpt(envelope);
    case "claude":
      return normalizeClaude(envelope);
    case "gemini":
      return normalizeGemini(envelope);
    case "perplexity":
      return normalizePerplexity(envelope);
    case "chatgpt_app":
    case "gemini_app":
    case "google_ai_overview":
    case "google_ai_mode":
      return normalizeDataforseo(envelope);
  }
}

/**
 * The run's result, with what of the searcher's market its first request carried, whether the
 * engine showed an answer at all (only Google's can show none), what the vendor says it cost and
 * the search count it reports, each null where the engine reports none.
 */
export function normalizeEnvelope(envelope: EngineEnvelope): NormalizedRun {
  const run = normalizeBody(envelope);
  const locale_applied = localeAppliedOf(envelope.engine, envelope.exchanges[0]?.request.body);
  const { shown = true, provider_cost_usd = null, search_count = null, ...rest } = run.result;
  return { ...run, result: { ...rest, locale_applied, shown, provider_cost_usd, search_count } };
}
