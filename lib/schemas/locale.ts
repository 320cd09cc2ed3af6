// The searcher's market (decisions.md "Locale"): a location and a language, written once for
// prompts, fanouts, estimates and monitors, checked and canonicalised by lib/locale/codes.ts.
// zod and data only: no server code may be imported here.
import { z } from "zod";
import { canonicalLanguage, canonicalTimeZone, countryCodePattern, countryName, timeZoneNames } from "../locale/codes";
import { chars } from "./common";

export const CountryCode = z
  .string()
  .overwrite((code) => code.trim().toUpperCase())
  .refine((code) => countryName(code) !== null, {
    error: (issue) => `unknown country ${JSON.stringify(issue.input)}: give an ISO 3166-1 alpha-2 code such as US, DE or BR`,
  })
  .meta({
    id: "CountryCode",
    description:
      "An ISO 3166-1 alpha-2 country code (the pattern lists every code the server knows), any case, surrounding spaces ignored; stored and echoed upper-cased (`de` -> `DE`). Any other code (`UK`, `XX`) is refused with 400 naming the field.",
    // Exactly the codes the server knows (countries-and-timezones' ISO 3166-1 list), in any case.
    pattern: countryCodePattern(),
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
      "An IANA time zone name, one of the enum (the server takes it in any case too); an old or alternative name is replaced by the zone it points to (`Asia/Calcutta` -> `Asia/Kolkata`, `UTC` -> `Etc/UTC`). Any other name is refused with 400 naming the field.",
    enum: timeZoneNames(),
    examples: ["Europe/Berlin"],
  });

/** BCP 47 language["-"script]["-"region], as the Language schema's OpenAPI pattern states it. */
export const LANGUAGE_TAG_PATTERN = "^[A-Za-z]{2,3}(?:-[A-Za-z]{4})?(?:-(?:[A-Za-z]{2}|[0-9]{3}))?$";

export const Language = z
  .string()
  .overwrite((tag) => canonicalLanguage(tag) ?? tag)
  .refine((tag) => canonicalLanguage(tag) !== null, {
    error: (issue) => `unknown language tag ${JSON.stringify(issue.input)}: give a BCP 47 tag such as de, pt-BR or en-GB`,
  })
  .meta({
    id: "Language",
    description:
      "The searcher's language, a BCP 47 tag: a language, then optionally a script and a region (`de`, `pt-BR`, `zh-Hant-TW`), any case; stored and echoed canonicalised (`pt-br` -> `pt-BR`). A tag of that shape whose language, script or region CLDR does not know (`xx`, `en-XX`) is refused with 400 `unknown language tag`.",
    // BCP 47's language["-"script]["-"region] (RFC 5646 2.1), the part the server uses; a tag
    // with variants or extensions is accepted too but not generated.
    pattern: LANGUAGE_TAG_PATTERN,
    examples: ["de", "pt-BR", "en-GB"],
  });

/** Where a city named alone belongs when the place data says it is not in the country (lib/locale/places.ts cityElsewhere). */
type CityCheck = (country: string, city: string) => string[];
let cityElsewhere: CityCheck = () => [];

/**
 * Installs the place data's check of a location's city. lib/http/input.ts does, for every request
 * the server parses (API routes and the browser's actions): the schemas stay free of the place
 * data, which the CLI (it bundles lib/schemas) and the browser must not carry.
 */
export function useCityCheck(check: CityCheck): void {
  cityElsewhere = check;
}

export const Location = z
  .strictObject({
    country: CountryCode,
    region: chars(1, 100).optional().describe("Free text, 1 to 100 characters: a state, province or region (`Bavaria`)."),
    city: chars(1, 100).optional().describe("Free text, 1 to 100 characters (`Munich`)."),
    timezone: TimeZone.optional(),
  })
  .superRefine((location, ctx) => {
    // decisions.md "The contract and operating it": a city the place data knows only elsewhere.
    if (location.city === undefined || location.region !== undefined || countryName(location.country) === null) return;
    const elsewhere = cityElsewhere(location.country, location.city);
    if (elsewhere.length === 0) return;
    const named = (code: string) => `${countryName(code)} (${code})`;
    ctx.addIssue({
      code: "custom",
      path: ["city"],
      message: `${JSON.stringify(location.city.trim())} is not a city of ${named(location.country)} in the place data: it is in ${elsewhere.slice(0, 3).map(named).join(", ")}${elsewhere.length > 3 ? " and others" : ""}. Give a city of ${countryName(location.country)}, or name its region too for a smaller place of that name`,
    });
  })
  .meta({
    id: "Location",
    description:
      "Where the searcher is. A `city` given without a `region` that the place data (Natural Earth's populated places) knows only in other countries than `country` is refused: `{\"country\":\"DE\",\"city\":\"Tokyo\"}` is refused with 400 naming both the city and the country (with a `region`, a smaller place of a big foreign city's name is taken). A name the data does not know at all is accepted, and the run's `result.locale_applied.city` says which city reached each provider. Sent to each engine in its provider's own parameter (OpenAI and Anthropic web search: `user_location`; Gemini: `toolConfig.retrievalConfig.latLng`, the city's coordinates when known, else the country's); never added to the prompt text. What reached each provider is the run's `result.locale_applied`.",
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
