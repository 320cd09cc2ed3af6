// The market picker's fields (`country`, once per country chosen, `city`, `language`) as the
// request's locations and `language`: left out when not chosen, given as typed otherwise (the
// request schema checks them and names a bad one). A city goes with one country only.
import { ApiError } from "@/lib/http/errors";

type Location = { country: string; city?: string };

export function marketsOf(form: FormData): { locations: Location[]; language?: string } {
  const text = (v: FormDataEntryValue | null) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);
  const countries = [...new Set(form.getAll("country").map(text).filter((c): c is string => c !== undefined))];
  const city = text(form.get("city"));
  const language = text(form.get("language"));
  if (city !== undefined && countries.length > 1) throw new ApiError("invalid_request", "City: a city goes with one country; leave it empty to run in several.");
  return {
    locations: countries.map((country) => ({ country, ...(city !== undefined && countries.length === 1 ? { city } : {}) })),
    ...(language !== undefined ? { language } : {}),
  };
}

/** One market: the request's `location` (the first country chosen) and `language`. */
export function marketOf(form: FormData): { location?: Location; language?: string } {
  const { locations, language } = marketsOf(form);
  if (locations.length > 1) throw new ApiError("invalid_request", "Country: one country here.");
  return { ...(locations[0] ? { location: locations[0] } : {}), ...(language !== undefined ? { language } : {}) };
}
