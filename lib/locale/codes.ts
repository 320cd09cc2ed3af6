// Country codes, time zone names and language tags, checked and canonicalised: countries and time
// zones from the countries-and-timezones package (ISO 3166-1 and the IANA time zone database,
// links included), language tags by the runtime's Intl (CLDR). Data only, no server code: the
// request schemas, the CLI and the browser's market picker use it alike.
import ct from "countries-and-timezones";

/** Every ISO 3166-1 alpha-2 code the data knows, with its English name. */
export function countryName(code: string): string | null {
  return ct.getCountry(code as Parameters<typeof ct.getCountry>[0])?.name ?? null;
}

/** Lower case without accents or runs of punctuation: "São Paulo" and "sao  paulo" are one name. */
export function foldPlaceName(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Countries as [code, name], sorted by name: what a picker offers. */
export function countryList(): [string, string][] {
  return Object.values(ct.getAllCountries())
    .map((c) => [c.id, c.name] as [string, string])
    // Without accents, by code unit: the same order in every runtime (a server and a browser
    // may collate differently, and a page must render alike on both).
    .sort((a, b) => (foldPlaceName(a[1]) < foldPlaceName(b[1]) ? -1 : foldPlaceName(a[1]) > foldPlaceName(b[1]) ? 1 : 0));
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

const anyCase = (text: string) => [...text].map((c) => (/[a-z]/i.test(c) ? `[${c.toUpperCase()}${c.toLowerCase()}]` : c)).join("");

/**
 * A pattern matching exactly the country codes the data knows, in any case, with surrounding
 * whitespace (what the CountryCode schema accepts; `words` adds others, such as `none`): for
 * OpenAPI, where an enum would say upper case only. Grouped by first letter to stay short.
 */
export function countryCodePattern(words: readonly string[] = []): string {
  const byFirst = new Map<string, string[]>();
  for (const [code] of countryList()) byFirst.set(code[0]!, [...(byFirst.get(code[0]!) ?? []), code[1]!]);
  const groups = [...byFirst.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([first, seconds]) => `${anyCase(first)}[${seconds.sort().map((c) => `${c}${c.toLowerCase()}`).join("")}]`);
  return `^\\s*(?:${[...groups, ...words.map(anyCase)].join("|")})\\s*$`;
}

/** Every IANA time zone name the data knows, old and alternative names (links) included, sorted. */
export function timeZoneNames(): string[] {
  return Object.keys(ct.getAllTimezones({ deprecated: true })).sort();
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

/** What a market picker offers: every language as [tag, name], and each country's likely language. */
export type MarketChoices = {
  /** Base languages ("pt": "Portuguese") and regional ones ("pt-BR": "Portuguese (Brazil)"), sorted by name. */
  languages: [string, string][];
  /** By country code, the tag of the language most people there speak ("BR": "pt-BR"), by CLDR's likely subtags. */
  likely: Record<string, string>;
};

let choices: MarketChoices | null = null;

/**
 * The languages a picker offers, named by this runtime's Intl (a browser's may know fewer names:
 * Chromium names neither "sg" nor "tpi", so pages take these from the server). Regional tags are
 * those CLDR has a locale for (en-GB, pt-BR, de-AT, fr-CA…) and each country's likely language;
 * a tag CLDR cannot name is left out. Made once, on first use.
 */
export function marketChoices(): MarketChoices {
  if (choices) return choices;
  const names = new Intl.DisplayNames(["en"], { type: "language", languageDisplay: "standard", fallback: "none" });
  const countries = countryList().map(([code]) => code);
  const likely: Record<string, string> = {};
  const bases = new Set<string>(["en"]);
  for (const country of countries) {
    const { language } = new Intl.Locale(`und-${country}`).maximize();
    if (language === "und" || !names.of(language)) continue;
    likely[country] = `${language}-${country}`;
    bases.add(language);
  }
  const tags = new Set<string>([...bases, ...Object.values(likely)]);
  // A locale CLDR has data for resolves to itself; any other falls back to its language.
  for (const language of bases) {
    for (const country of countries) {
      const tag = `${language}-${country}`;
      if (new Intl.ListFormat(tag).resolvedOptions().locale === tag) tags.add(tag);
    }
  }
  const named = [...tags].flatMap((tag) => {
    const name = names.of(tag);
    return name ? [[tag, name] as [string, string]] : [];
  });
  const key = ([tag, name]: [string, string]) => `${foldPlaceName(name)}\u0000${tag}`;
  named.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  choices = { languages: named, likely: Object.fromEntries(Object.entries(likely).filter(([, tag]) => tags.has(tag) && names.of(tag))) };
  return choices;
}
