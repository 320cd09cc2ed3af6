// The engine table, server side (docs/architecture.md "Engines grow by vendor"): each engine id's
// vendor adapter, the model or endpoint it asks, and how a 200 can still carry a failure. Its price
// is the rate card's `prompt` row whose `engine` is the id (config/rate-card.json). What a reader knows of each (name, surface, vendor, what a market
// reaches) is lib/schemas/engines.ts. Adding an engine is a row here and there; a new vendor
// also brings its adapter, its normaliser and its simulator side.
import type { z } from "zod";
import { ENGINE_FACTS, engineLabel, type Engine } from "../schemas/engines";
import type { AdapterCall } from "./adapter";
import { callChatgpt, chatgptBodyFailure } from "./chatgpt";
import { callClaude, claudeBodyFailure } from "./claude";
import type { EngineConfig } from "./config";
import { DATAFORSEO_ENDPOINTS, dataforseoBodyFailure, dataforseoCall } from "./dataforseo";
import { callGemini, geminiBodyFailure } from "./gemini";
import { callPerplexity } from "./perplexity";
import { ENGINE_IDS, type EngineFailure, type EngineId } from "./types";

export interface EngineRow {
  call: AdapterCall;
  /** The model a run asks for, or the capture vendor's endpoint. */
  model(config: EngineConfig): string;
  /** A 2xx response (or the run's 2xx responses, in order) that still says the call failed. */
  bodyFailure(bodies: unknown[]): EngineFailure | null;
}

const last = (bodies: unknown[]) => bodies[bodies.length - 1];

const app = (engine: keyof typeof DATAFORSEO_ENDPOINTS): EngineRow => ({
  call: dataforseoCall(engine),
  model: () => DATAFORSEO_ENDPOINTS[engine],
  bodyFailure: (bodies) => dataforseoBodyFailure(engine, last(bodies)),
});

export const ENGINE_TABLE: Record<EngineId, EngineRow> = {
  chatgpt: { call: callChatgpt, model: (c) => c.chatgpt.model, bodyFailure: (b) => chatgptBodyFailure(last(b)) },
  claude: { call: callClaude, model: (c) => c.claude.model, bodyFailure: claudeBodyFailure },
  gemini: { call: callGemini, model: (c) => c.gemini.model, bodyFailure: (b) => geminiBodyFailure(last(b)) },
  // Perplexity reports an HTTP status for every failure: a 200 is an answer.
  perplexity: { call: callPerplexity, model: (c) => c.perplexity.model, bodyFailure: () => null },
  chatgpt_app: app("chatgpt_app"),
  gemini_app: app("gemini_app"),
  google_ai_overview: app("google_ai_overview"),
  google_ai_mode: app("google_ai_mode"),
};

/**
 * Whether the engine tells its searches' queries. Perplexity shows them only in Pro Search's
 * reasoning steps (`sonar-pro`); otherwise it gives a count alone (result.search_count).
 */
function reportsQueries(engine: EngineId, config: EngineConfig): boolean {
  if (engine === "perplexity") return config.perplexity.model.startsWith("sonar-pro");
  return ENGINE_FACTS[engine].reports_queries;
}

/** GET /engines: every engine, in the one order, with what this server's configuration makes of it. */
export function presentEngines(config: EngineConfig): z.input<typeof Engine>[] {
  return ENGINE_IDS.map((id) => {
    const facts = ENGINE_FACTS[id];
    return {
      id,
      name: facts.name,
      label: engineLabel(id),
      surface: facts.surface,
      vendor: facts.vendor,
      enabled: config.enabled.includes(id),
      model: ENGINE_TABLE[id].model(config),
      locale: facts.locale,
      reports_queries: reportsQueries(id, config),
    };
  });
}
