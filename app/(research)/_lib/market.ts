// The market picker's fields (country, city, language) as the request's `location` and
// `language`: left out when not chosen, given as typed otherwise (the request schema checks them
// and names a bad one).
export function marketOf(form: FormData): { location?: { country: string; city?: string }; language?: string } {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
  };
  const country = text("country");
  const city = text("city");
  const language = text("language");
  return {
    ...(country !== undefined ? { location: { country, ...(city !== undefined ? { city } : {}) } } : {}),
    ...(language !== undefined ? { language } : {}),
  };
}
