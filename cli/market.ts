// The searcher's market from the command line: --country, --city and --language, or --location
// with the whole location as JSON. The API checks and canonicalises every code (a bad one is its
// 400 naming the field); here only how the options combine is checked.
import type { z } from "zod";
import type { Location } from "../lib/schemas/locale";
import { UsageError, str, type Ctx, type OptionSpec } from "./command";

export const marketOptions = {
  country: { type: "string", arg: "CC", help: "run as a searcher in this country (ISO 3166-1 alpha-2: US, DE, BR…)" },
  city: { type: "string", arg: "CITY", help: "… in this city (with --country)" },
  language: { type: "string", arg: "TAG", help: "… speaking this language (a BCP 47 tag: de, pt-BR, en-GB)" },
  location: {
    type: "string",
    arg: "JSON",
    help: 'the whole location as JSON instead of --country/--city: \'{"country":"DE","region":"Bavaria","city":"Munich","timezone":"Europe/Berlin"}\'',
  },
} as const satisfies Record<string, OptionSpec>;

/** Fanouts take a list of countries: each prompt runs once per country. */
export const fanoutMarketOptions = {
  ...marketOptions,
  country: { type: "string", arg: "CC[,CC…]", help: "run as a searcher in this country; several (DE,US): every prompt once per country" },
} as const satisfies Record<string, OptionSpec>;

type LocationInput = z.input<typeof Location>;

/** --location's JSON, or a usage error saying what is wrong with it. */
function locationJson(text: string): LocationInput {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError('--location takes a JSON object, such as \'{"country":"DE","city":"Munich"}\'');
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new UsageError('--location takes a JSON object, such as \'{"country":"DE","city":"Munich"}\'');
  }
  return value as LocationInput;
}

/**
 * The locations the options name: none, one, or (`several`: a fanout's --country list) one per
 * country; and the language. --location excludes --country and --city; --city needs one country.
 */
export function marketsOf(ctx: Ctx, several = false): { locations: LocationInput[]; language?: string } {
  const json = str(ctx, "location");
  const countries = (str(ctx, "country") ?? "").split(",").map((c) => c.trim()).filter(Boolean);
  const city = str(ctx, "city");
  const language = str(ctx, "language");
  if (json !== undefined && (countries.length > 0 || city !== undefined)) throw new UsageError("give --location, or --country and --city, not both");
  if (city !== undefined && countries.length === 0) throw new UsageError("--city needs --country (or give --location)");
  if (countries.length > 1 && !several) throw new UsageError("--country takes one country here");
  if (countries.length > 1 && city !== undefined) throw new UsageError("--city goes with one --country");
  const locations = json !== undefined ? [locationJson(json)] : countries.map((country) => ({ country, ...(city !== undefined ? { city } : {}) }));
  return { locations, ...(language !== undefined ? { language } : {}) };
}

/** The request fields of a prompt: `location` and `language`, left out when not given. */
export function marketOf(ctx: Ctx): { location?: LocationInput; language?: string } {
  const { locations, language } = marketsOf(ctx);
  return { ...(locations[0] ? { location: locations[0] } : {}), ...(language !== undefined ? { language } : {}) };
}

/** "DE · Munich · de", or "" without a market: how the CLI shows one. */
export function marketLabel(location: { country: string; city?: string; region?: string } | null | undefined, language: string | null | undefined): string {
  return [location?.country, location?.city, language].filter(Boolean).join(" · ");
}
