// The searcher's market (decisions.md "Locale"): a location and a language, written once for
// prompts, fanouts, estimates and monitors. Countries and time zones come from the
// countries-and-timezones package (ISO 3166-1 and the IANA time zone database, aliases
// included); language tags are checked and canonicalised by the runtime's Intl (CLDR). zod and
// data only: no server code may be imported here.
import ct from "countries-and-timezones";
import { z } from "zod";
import { chars } from "./common";

/** Every ISO 3166-1 alpha-2 code the data knows, with its English name. */
export function countryName(code: string): string | null {
  return ct.getCountry(code as Parameters<typeof ct.getCountry>[0])?.name ?? null;
}

/** Countries as [code, name], sorted by name: what a picker offers. */
export function countryList(): [string, string][] {
  return Object.values(ct.getAllCountries())
    .map((c) => [c.id, c.name] as [string, string])
    .sort((a, b) => a[1].localeCompare(b[1], "en"));
}

let zonesByFoldedName: Map<string, string> | null = null;

/**
 * An IANA time zone name as the database writes it today, or null when unknown: matched without
 * regard to case, a link (an old or alternative name: `Asia/Calcutta`, `US/Eastern`, `UTC`)
 * replaced by the zone it points to (`Asia/Kolkata`, `America/New_York`, `Etc/UTC`).
 */
export function canonicalTimeZone(name: string): string | null {
  if (!zonesByFoldedName) {
    zonesByFoldedName = new Map();
    for (const zone of Object.values(ct.getAllTimezones({ deprecated: true }))) {
      zonesByFoldedName.set(zone.name.toLowerCase(), zone.aliasOf ?? zone.name);
    }
  }
  return zonesByFoldedName.get(name.trim().toLowerCase()) ?? null;
}

const languageNames = () => new Intl.DisplayNames(["en"], { type: "language", fallback: "none" });
const regionNames = () => new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
const scriptNames = () => new Intl.DisplayNames(["en"], { type: "script", fallback: "none" });

/**
 * A BCP 47 language tag in its canonical form (`pt-br` -> `pt-BR`, `EN` -> `en`), or null when
 * it is not well formed or names a language, script or region CLDR does not know (`xx`, `en-XX`).
 */
export function canonicalLanguage(tag: string): string | null {
  let canonical: string;
  try {
    [canonical = ""] = Intl.getCanonicalLocales(tag.trim());
  } catch {
    return null;
  }
  const locale = new Intl.Locale(canonical);
  if (!languageNames().of(locale.language)) return null;
  if (locale.script && !scriptNames().of(locale.script)) return null;
  // CLDR names the private-use and unknown codes too ("ZZ": "Unknown Region"); ISO's list decides.
  if (locale.region && !(/^\d{3}$/.test(locale.region) ? regionNames().of(locale.region) : countryName(locale.region))) return null;
  return canonical;
}

/** The English name of a language tag ("pt-BR": "Brazilian Portuguese"), for pages and the CLI. */
export function languageName(tag: string): string {
  return new Intl.DisplayNames(["en"], { type: "language" }).of(tag) ?? tag;
}

export const CountryCode = z
  .string()
  .overwrite((code) => code.trim().toUpperCase())
  .refine((code) => countryName(code) !== null, {
    error: (issue) => `unknown country ${JSON.stringify(issue.input)}: give an ISO 3166-1 alpha-2 code such as US, DE or BR`,
  })
  .meta({
    id: "CountryCode",
    description: "An ISO 3166-1 alpha-2 country code, any case; stored and echoed upper-cased (`de` -> `DE`).",
    examples: ["DE"],
  });

export const TimeZone = z
  .string()
  .overwrite((name) => canonicalTimeZone(name) ?? name)
  .refine((name) => canonicalTimeZone(name) !== null, {
    error: (issue) => `unknown time zone ${JSON.stringify(issue.input)}: give an IANA name such as Europe/Berlin`,
  })
  .meta({
    id: "TimeZone",
    description:
      "An IANA time zone name, any case; an old or alternative name is replaced by the zone it points to (`Asia/Calcutta` -> `Asia/Kolkata`, `UTC` -> `Etc/UTC`).",
    examples: ["Europe/Berlin"],
  });

export const Language = z
  .string()
  .overwrite((tag) => canonicalLanguage(tag) ?? tag)
  .refine((tag) => canonicalLanguage(tag) !== null, {
    error: (issue) => `unknown language tag ${JSON.stringify(issue.input)}: give a BCP 47 tag such as de, pt-BR or en-GB`,
  })
  .meta({
    id: "Language",
    description: "The searcher's language, a BCP 47 tag, any case; stored and echoed canonicalised (`pt-br` -> `pt-BR`).",
    examples: ["de"],
  });

export const Location = z
  .strictObject({
    country: CountryCode,
    region: chars(1, 100).optional().describe("Free text, 1 to 100 characters: a state, province or region (`Bavaria`)."),
    city: chars(1, 100).optional().describe("Free text, 1 to 100 characters (`Munich`)."),
    timezone: TimeZone.optional(),
  })
  .meta({
    id: "Location",
    description:
      "Where the searcher is. Sent to each engine in its provider's own parameter (OpenAI and Anthropic web search: `user_location`; Gemini: `toolConfig.retrievalConfig.latLng`, the city's coordinates when known, else the country's); never added to the prompt text. What reached each provider is the run's `result.locale_applied`.",
    examples: [{ country: "DE", region: "Bavaria", city: "Munich", timezone: "Europe/Berlin" }],
  });

/** The two optional request fields, spread into every body that starts prompt runs. */
export const marketFields = {
  location: Location.optional(),
  language: Language.optional().describe(
    "The searcher's language, a BCP 47 tag (`de`, `pt-BR`). Sent where the provider takes one (Gemini's `languageCode`); OpenAI's and Anthropic's web search take none, and nothing is added to the prompt text.",
  ),
};

export type Location = z.output<typeof Location>;
