// The market's codes and places: countries, time zones and language tags checked and written
// back canonically, and where a location is on the map for Gemini (and back, for the simulator).
import { describe, expect, it } from "vitest";
import { canonicalLanguage, canonicalTimeZone, countryList, countryName, foldPlaceName, marketChoices } from "@/lib/locale/codes";
import { coordinatesOf, countryAt } from "@/lib/locale/places";
import { Language, Location } from "@/lib/schemas/locale";

describe("codes", () => {
  it("knows ISO 3166-1 alpha-2 countries and no other code", () => {
    expect(countryName("DE")).toBe("Germany");
    expect(countryName("GB")).toBe("United Kingdom");
    for (const code of ["UK", "EU", "ZZ", "XX", "de", "DEU"]) expect(countryName(code)).toBeNull();
    const list = countryList();
    expect(list.length).toBeGreaterThan(240);
    expect(list.find(([code]) => code === "AX")).toEqual(["AX", "Åland Islands"]);
  });

  it("matches time zones without case and replaces IANA links by their zone", () => {
    expect(canonicalTimeZone("europe/berlin")).toBe("Europe/Berlin");
    expect(canonicalTimeZone("Asia/Calcutta")).toBe("Asia/Kolkata");
    expect(canonicalTimeZone("Europe/Kiev")).toBe("Europe/Kyiv");
    expect(canonicalTimeZone("US/Eastern")).toBe("America/New_York");
    expect(canonicalTimeZone("UTC")).toBe("Etc/UTC");
    for (const name of ["Mars/Olympus", "+01:00", "GMT+1", ""]) expect(canonicalTimeZone(name)).toBeNull();
  });

  it("canonicalises BCP 47 tags and refuses what CLDR does not know", () => {
    expect(canonicalLanguage("pt-br")).toBe("pt-BR");
    expect(canonicalLanguage("EN")).toBe("en");
    expect(canonicalLanguage("zh-hant-tw")).toBe("zh-Hant-TW");
    expect(canonicalLanguage("es-419")).toBe("es-419");
    for (const tag of ["xx", "en-XX", "en-ZZ", "not a tag", "", "i-klingon", "en-Qaaa"]) expect(canonicalLanguage(tag)).toBeNull();
  });

  it("a market picker's languages: base and regional, each named in English and taken by the API, sorted by name", () => {
    const { languages, likely } = marketChoices();
    const named = new Map(languages);
    expect(named.get("pt-BR")).toBe("Portuguese (Brazil)");
    expect(named.get("en-GB")).toBe("English (United Kingdom)");
    expect(named.get("de-AT")).toBe("German (Austria)");
    expect(named.get("fr-CA")).toBe("French (Canada)");
    // Languages Chromium's Intl leaves unnamed ("sg (sg)" in its picker) have their names.
    expect(named.get("sg")).toBe("Sango");
    expect(named.get("tpi")).toBe("Tok Pisin");
    for (const [tag, name] of languages) {
      expect(canonicalLanguage(tag), tag).toBe(tag);
      expect(name, tag).not.toBe(tag);
    }
    const order = languages.map(([tag, name]) => `${foldPlaceName(name)}\u0000${tag}`);
    expect(order).toEqual([...order].sort());
    expect(languages.findIndex(([tag]) => tag === "de")).toBe(languages.findIndex(([tag]) => tag === "de-AT") - 1);
    expect(likely).toMatchObject({ BR: "pt-BR", DE: "de-DE", AT: "de-AT", CF: "sg-CF" });
    for (const tag of Object.values(likely)) expect(named.has(tag), tag).toBe(true);
  });

  it("the schemas write back the canonical forms and name what they refuse", () => {
    expect(Location.parse({ country: " de ", city: "München", timezone: "europe/berlin" })).toEqual({ country: "DE", city: "München", timezone: "Europe/Berlin" });
    expect(Language.parse("pt-br")).toBe("pt-BR");
    const refused = Location.safeParse({ country: "XX", timezone: "Nowhere/Land", extra: 1 });
    expect(refused.success).toBe(false);
    expect(refused.error!.issues.map((i) => [i.path.join("."), i.message.split(":")[0]])).toEqual(
      expect.arrayContaining([["country", 'unknown country "XX"'], ["timezone", 'unknown time zone "Nowhere/Land"']]),
    );
  });
});

describe("places", () => {
  it("finds a city by name without accents or case, in its country, the named region deciding between namesakes", () => {
    expect(foldPlaceName("São  Paulo")).toBe("sao paulo");
    expect(coordinatesOf({ country: "BR", city: "sao paulo" })).toMatchObject({ precision: "city", latitude: expect.closeTo(-23.56, 1), longitude: expect.closeTo(-46.63, 1) });
    const oregon = coordinatesOf({ country: "US", region: "Oregon", city: "Portland" })!;
    const maine = coordinatesOf({ country: "US", region: "Maine", city: "Portland" })!;
    expect(oregon.longitude).toBeLessThan(-120);
    expect(maine.longitude).toBeGreaterThan(-71);
    // Without a region: the most populous of the name (Portland, Oregon).
    expect(coordinatesOf({ country: "US", city: "Portland" })).toEqual(oregon);
    // A Portland exists in Australia too, but not where the searcher is said to be.
    expect(coordinatesOf({ country: "AU", city: "Portland" })!.latitude).toBeLessThan(0);
  });

  it("gives the country's most populous city when the city is unknown, and nothing for a territory without one", () => {
    expect(coordinatesOf({ country: "DE", city: "Atlantis" })).toEqual({ ...coordinatesOf({ country: "DE" })!, precision: "country" });
    expect(coordinatesOf({ country: "PN" })).toBeNull();
  });

  it("reads a country back from coordinates, as the simulator does with Gemini's", () => {
    for (const location of [{ country: "DE", city: "Munich" }, { country: "BR" }, { country: "JP", city: "Osaka" }, { country: "NZ" }]) {
      const point = coordinatesOf(location)!;
      expect(countryAt(point)).toBe(location.country);
    }
    expect(countryAt({ latitude: 0, longitude: -140 })).toBeNull();
  });
});
