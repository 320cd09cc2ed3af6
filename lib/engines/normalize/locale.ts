// What of the searcher's market reached the provider (a run's result.locale_applied), read from
// the request as it went over the wire: only what the request carried counts.
import type { EngineId } from "../types";
import { isObject } from "./common";

export type LocaleApplied = { location: boolean; language: boolean };

/** Whether the first request of a run carried a location and a language, in its provider's parameters. */
export function localeAppliedOf(engine: EngineId, body: unknown): LocaleApplied {
  // DataForSEO's body is a list of one task; its defaults (location_code 2840, language_name) are not the run's market.
  if (Array.isArray(body)) {
    const task = isObject(body[0]) ? body[0] : {};
    return { location: typeof task.location_coordinate === "string" || typeof task.location_name === "string", language: typeof task.language_code === "string" };
  }
  if (!isObject(body)) return { location: false, language: false };
  if (engine === "gemini") {
    const tool = isObject(body.toolConfig) ? body.toolConfig : null;
    const retrieval = tool && isObject(tool.retrievalConfig) ? tool.retrievalConfig : null;
    return {
      location: retrieval !== null && isObject(retrieval.latLng),
      language: retrieval !== null && typeof retrieval.languageCode === "string" && retrieval.languageCode !== "",
    };
  }
  if (engine === "perplexity") {
    const options = isObject(body.web_search_options) ? body.web_search_options : null;
    const where = options && isObject(options.user_location) ? options.user_location : null;
    return { location: where !== null && typeof where.country === "string", language: false };
  }
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const located = tools.some((t) => isObject(t) && isObject(t.user_location) && typeof t.user_location.country === "string");
  return { location: located, language: false };
}
