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

/**
 * Perplexity's `web_search_options.user_location {country, region, city, latitude, longitude}`
 * (@perplexity-ai/perplexity_ai 0.38.5 UserLocation): the fields given, and the city's (else the
 * country's) coordinates. Perplexity takes no language.
 */
export function perplexityLocationOf(location: Location): { country: string; region?: string; city?: string; latitude?: number; longitude?: number } {
  const point = coordinatesOf(location);
  return {
    country: location.country,
    ...(location.region !== undefined ? { region: location.region } : {}),
    ...(location.city !== undefined ? { city: location.city } : {}),
    ...(point ? { latitude: point.latitude, longitude: point.longitude } : {}),
  };
}

/** DataForSEO's four endpoints, which write `location_coordinate` each its own way. */
export type DataforseoEndpoint = "chatgpt" | "gemini" | "organic" | "ai_mode";

/** DataForSEO's default market when a run has none: it requires one (United States, English). */
export const DATAFORSEO_DEFAULT_LOCATION_CODE = 2840;

const degrees = (n: number) => String(Number(n.toFixed(7)));

/** The country's most likely language by CLDR's likely subtags (DE: de, BR: pt, CH: de), else English. */
export function likelyLanguage(country: string | null): string {
  if (!country) return "en";
  try {
    return new Intl.Locale(`und-${country}`).maximize().language;
  } catch {
    return "en";
  }
}

/** A country's English name as DataForSEO's location list writes it ("United States", "Germany"). */
function regionName(country: string): string {
  try {
    return new Intl.DisplayNames(["en"], { type: "region" }).of(country) ?? country;
  } catch {
    return country;
  }
}

/** The language's English name, as DataForSEO's `language_name` takes it ("German"), or English. */
function languageName(language: string): string {
  try {
    return new Intl.DisplayNames(["en"], { type: "language", languageDisplay: "standard" }).of(language) ?? "English";
  } catch {
    return "English";
  }
}

/**
 * A DataForSEO task's market (dataforseo-client 2.1.7 request infos): `location_coordinate` from
 * the city's (else the country's) coordinates, the same data as Gemini's latLng, in the endpoint's
 * format (a radius for the Gemini scraper and organic SERP, a zoom for AI Mode); the ChatGPT
 * scraper takes no coordinates, so it gets the country's `location_name`. `language_code` from the
 * tag's language. The vendor requires a location and a language, so a run without them gets
 * `location_code` 2840 (United States) and a `language_name` (the country's likely language, else
 * English): neither counts in `locale_applied`, which reads only `location_coordinate`,
 * `location_name` and `language_code`.
 */
export function dataforseoMarketOf(
  endpoint: DataforseoEndpoint,
  location: Location | null,
  language: string | null,
): { location_coordinate?: string; location_name?: string; location_code?: number; language_code?: string; language_name?: string } {
  const point = location ? coordinatesOf(location) : null;
  let where: { location_coordinate?: string; location_name?: string; location_code?: number } = { location_code: DATAFORSEO_DEFAULT_LOCATION_CODE };
  if (location && endpoint === "chatgpt") {
    // The ChatGPT scraper takes no coordinates (dataforseo-client 2.1.7): the country, by name.
    where = { location_name: regionName(location.country) };
  } else if (point) {
    const city = point.precision === "city";
    const latLng = `${degrees(point.latitude)},${degrees(point.longitude)}`;
    const coordinate =
      endpoint === "chatgpt" ? latLng : endpoint === "ai_mode" ? `${latLng},${city ? 11 : 5}z` : `${latLng},${city ? 20000 : 199999}`;
    where = { location_coordinate: coordinate };
  }
  const tongue = language
    ? { language_code: language.split("-")[0]!.toLowerCase() }
    : { language_name: languageName(location ? likelyLanguage(location.country) : "en") };
  return { ...where, ...tongue };
}
