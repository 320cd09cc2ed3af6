// Where a location is on the map, for the engines that take coordinates (Gemini's
// retrievalConfig.latLng) and for the simulator, which reads a country back from them. The places
// are the city-timezones package's (Natural Earth's populated places: some 7,300 cities in 227
// countries, each with its province, coordinates and population); nothing here is hand-typed.
import cityTimezones from "city-timezones";
import { foldPlaceName } from "./codes";

export type Coordinates = { latitude: number; longitude: number };

type Place = { city: string; folded: string[]; province: string[]; iso2: string; lat: number; lng: number; pop: number };

let byCountry: Map<string, Place[]> | null = null;

/** The places by country, most populous first. */
function places(): Map<string, Place[]> {
  if (byCountry) return byCountry;
  byCountry = new Map();
  for (const c of cityTimezones.cityMapping) {
    // The data has a few rows without a country code.
    if (typeof c.iso2 !== "string" || !/^[A-Z]{2}$/.test(c.iso2)) continue;
    const place: Place = {
      city: c.city,
      folded: [...new Set([c.city, c.city_ascii].filter((n): n is string => typeof n === "string").map(foldPlaceName))],
      province: [c.province, c.state_ansi].filter((n): n is string => typeof n === "string" && n !== "").map(foldPlaceName),
      iso2: c.iso2,
      lat: c.lat,
      lng: c.lng,
      pop: Number(c.pop) || 0,
    };
    const list = byCountry.get(place.iso2) ?? [];
    list.push(place);
    byCountry.set(place.iso2, list);
  }
  for (const list of byCountry.values()) list.sort((a, b) => b.pop - a.pop);
  return byCountry;
}

const round = (x: number) => Math.round(x * 1e5) / 1e5;
const at = (p: Place): Coordinates => ({ latitude: round(p.lat), longitude: round(p.lng) });

/**
 * The coordinates a searcher at this location is given: the city's when the data has a city of
 * that name in that country (the one in the named region when several share the name, else the
 * most populous), otherwise the country's most populous city (a point where its searchers are,
 * always inside the country, unlike a geographic centroid). Null for the few territories the
 * data has no city in.
 */
export function coordinatesOf(location: { country: string; region?: string; city?: string }): (Coordinates & { precision: "city" | "country" }) | null {
  const list = places().get(location.country.toUpperCase());
  if (!list || list.length === 0) return null;
  if (location.city) {
    const city = foldPlaceName(location.city);
    const named = list.filter((p) => p.folded.includes(city));
    const region = location.region ? foldPlaceName(location.region) : null;
    const inRegion = region ? named.filter((p) => p.province.includes(region)) : [];
    const found = inRegion[0] ?? named[0];
    if (found) return { ...at(found), precision: "city" };
  }
  return { ...at(list[0]!), precision: "country" };
}

/** The country (ISO 3166-1 alpha-2) of the place nearest these coordinates, or null when none is within 1,000 km. */
export function countryAt(point: Coordinates): string | null {
  const toRad = Math.PI / 180;
  let best: { iso2: string; km: number } | null = null;
  for (const list of places().values()) {
    for (const p of list) {
      // Haversine distance: the data's cities are points on a sphere of 6,371 km.
      const dLat = (p.lat - point.latitude) * toRad;
      const dLng = (p.lng - point.longitude) * toRad;
      const a = Math.sin(dLat / 2) ** 2 + Math.cos(point.latitude * toRad) * Math.cos(p.lat * toRad) * Math.sin(dLng / 2) ** 2;
      const km = 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(a)));
      if (!best || km < best.km) best = { iso2: p.iso2, km };
    }
  }
  return best && best.km <= 1000 ? best.iso2 : null;
}

/** The most populous cities of a country in the data, for a picker's suggestions. */
export function citiesOf(country: string, limit: number): string[] {
  return (places().get(country.toUpperCase()) ?? []).slice(0, limit).map((p) => p.city);
}

/**
 * Where a city named alone (no region) belongs, when the place data says it is not in the country
 * given: the countries (ISO alpha-2) that have a city of that name while this country has none.
 * Empty when the country has a city of that name, when the data knows no city of that name
 * anywhere (a small place it lacks: accepted, and the run's `locale_applied.city` says what was
 * used), or when the country has no cities in the data.
 */
export function cityElsewhere(country: string, city: string): string[] {
  const all = places();
  const here = all.get(country.toUpperCase());
  if (!here || here.length === 0) return [];
  const folded = foldPlaceName(city);
  if (here.some((p) => p.folded.includes(folded))) return [];
  const found: string[] = [];
  for (const [iso2, list] of all) if (list.some((p) => p.folded.includes(folded))) found.push(iso2);
  return found.sort();
}

let byPoint: Map<string, string> | null = null;
const pointKey = (latitude: number, longitude: number) => `${round(latitude)},${round(longitude)}`;

/**
 * The city of the place data at exactly these coordinates (as coordinatesOf gives them, to five
 * decimals), or null: which city's point a provider was given (Gemini's latLng, DataForSEO's
 * location_coordinate), named for the run's `locale_applied.city`.
 */
export function cityAt(latitude: number, longitude: number): string | null {
  if (!byPoint) {
    byPoint = new Map();
    // Most populous first within each country: a shared point names the larger place.
    for (const list of places().values()) for (const p of list) if (!byPoint.has(pointKey(p.lat, p.lng))) byPoint.set(pointKey(p.lat, p.lng), p.city);
  }
  return byPoint.get(pointKey(latitude, longitude)) ?? null;
}
