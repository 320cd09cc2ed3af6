// The searcher's market in each provider's own parameter (normalize/locale.ts reads back what
// reached the provider). Nothing of it goes into the prompt text.
import { coordinatesOf, type Coordinates } from "../locale/places";
import type { Location } from "../schemas/locale";

/**
 * OpenAI's web_search and Anthropic's web_search tool both take `user_location {type:
 * "approximate", city, country, region, timezone}` (openai 6.30.1 WebSearchTool.UserLocation,
 * @anthropic-ai/sdk 1.12.0 UserLocation): the fields given, no others.
 */
export function userLocationOf(location: Location): { type: "approximate"; country: string; region?: string; city?: string; timezone?: string } {
  return {
    type: "approximate",
    country: location.country,
    ...(location.region !== undefined ? { region: location.region } : {}),
    ...(location.city !== undefined ? { city: location.city } : {}),
    ...(location.timezone !== undefined ? { timezone: location.timezone } : {}),
  };
}

/**
 * Gemini's `toolConfig.retrievalConfig {latLng, languageCode}` (@google/genai 2.32.0
 * RetrievalConfig): the city's coordinates when known, else the country's; the language tag.
 * Null when there is neither.
 */
export function retrievalConfigOf(location: Location | null, language: string | null): { latLng?: Coordinates; languageCode?: string } | null {
  const point = location ? coordinatesOf(location) : null;
  const config = {
    ...(point ? { latLng: { latitude: point.latitude, longitude: point.longitude } } : {}),
    ...(language ? { languageCode: language } : {}),
  };
  return Object.keys(config).length > 0 ? config : null;
}
