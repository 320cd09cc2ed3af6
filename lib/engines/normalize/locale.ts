// What of the searcher's market reached the provider (a run's result.locale_applied), read from
// the request as it went over the wire: only what the request carried counts.
import { cityAt } from "../../locale/places";
import type { EngineId } from "../types";
import { isObject } from "./common";

export type LocaleApplied = { location: boolean; language: boolean; city: string | null };

/** The city a point names, from "lat,lng[,radius|zoom]" or {latitude, longitude}. */
function cityOfPoint(point: unknown): string | null {
  if (typeof point === "string") {
    const [lat, lng] = point.split(",").map(Number);
    return lat !== undefined && lng !== undefined && Number.isFinite(lat) && Number.isFinite(lng) ? cityAt(lat, lng) : null;
  }
  if (isObject(point) && typeof point.latitude === "number" && typeof point.longitude === "number") return cityAt(point.latitude, point.longitude);
  return null;
}

/** Whether the first request of a run carried a location and a language, in its provider's parameters. */
export function localeAppliedOf(engine: EngineId, body: unknown): LocaleApplied {
  // DataForSEO's body is a list of one task; its defaults (location_code 2840, language_name) are not the run's market.
  if (Array.isArray(body)) {
    const task = isObject(body[0]) ? body[0] : {};
    return {
      location: typeof task.location_coordinate === "string" || typeof task.location_name === "string",
      language: typeof task.language_code === "string",
      city: cityOfPoint(task.location_coordinate),
    };
  }
  if (!isObject(body)) return { location: false, language: false, city: null };
  if (engine === "gemini") {
    const tool = isObject(body.toolConfig) ? body.toolConfig : null;
    const retrieval = tool && isObject(tool.retrievalConfig) ? tool.retrievalConfig : null;
    return {
      location: retrieval !== null && isObject(retrieval.latLng),
      language: retrieval !== null && typeof retrieval.languageCode === "string" && retrieval.languageCode !== "",
      city: retrieval !== null ? cityOfPoint(retrieval.latLng) : null,
    };
  }
  if (engine === "perplexity") {
    const options = isObject(body.web_search_options) ? body.web_search_options : null;
    const where = options && isObject(options.user_location) ? options.user_location : null;
    const city = where && typeof where.city === "string" ? where.city : where ? cityOfPoint(where) : null;
    return { location: where !== null && typeof where.country === "string", language: false, city };
  }
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const located = tools.find((t) => isObject(t) && isObject(t.user_location) && typeof t.user_location.country === "string");
  const where = isObject(located) && isObject(located.user_location) ? located.user_location : null;
  return { location: located !== undefined, language: false, city: where && typeof where.city === "string" ? where.city : null };
}
