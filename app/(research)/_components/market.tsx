// How a page shows the market work ran in: "Germany · Munich · German (de-DE)", and for a run what of
// it reached the engine (result.locale_applied).
import { countryName, languageName } from "@/lib/locale/codes";

type Located = { country: string; region?: string; city?: string; timezone?: string } | null | undefined;

/** The market in words, or null when the work ran without one. */
export function marketText(location: Located, language: string | null | undefined): string | null {
  const parts = [
    location ? `${countryName(location.country) ?? location.country}${location.city ? ` · ${location.city}` : ""}${location.region ? ` (${location.region})` : ""}` : null,
    language ? `${languageName(language.split("-")[0]!)} (${language})` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(" · ") : null;
}

/** The market of an input ({location, language}) as a line, or nothing. */
export function MarketLine({ input, className = "" }: { input: { location?: unknown; language?: unknown }; className?: string }) {
  const text = marketText(input.location as Located, typeof input.language === "string" ? input.language : null);
  if (!text) return null;
  return (
    <p className={`text-sm text-slate-600 ${className}`} data-testid="market">
      <span className="font-medium text-slate-700">Market:</span> {text}
    </p>
  );
}

/**
 * What of the market reached the engine, for a run made in one, and what did not: "ChatGPT was
 * sent the location, not the language" (OpenAI's and Anthropic's web search take no language).
 */
export function LocaleApplied({
  applied,
  asked,
  engine,
}: {
  applied: { location: boolean; language: boolean; city?: string | null } | undefined;
  asked: { location: boolean; language: boolean; city?: string };
  engine: string;
}) {
  if (!applied) return null;
  const fields = ["location", "language"] as const;
  const sent = fields.filter((f) => applied[f]);
  const withheld = fields.filter((f) => asked[f] && !applied[f]);
  const text = sent.length
    ? `${engine} was sent the ${sent.join(" and ")}${withheld.length ? `, not the ${withheld.join(" or ")}` : ""}`
    : `${engine} was sent neither the location nor the language`;
  // The place data did not know the city asked for: the provider was given another city's point.
  const city =
    applied.location && applied.city && asked.city && applied.city.toLowerCase() !== asked.city.trim().toLowerCase()
      ? ` (at ${applied.city}: the place data has no ${asked.city.trim()})`
      : "";
  return <span data-testid="locale-applied">{text}{city}</span>;
}
