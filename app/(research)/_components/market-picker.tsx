"use client";
// The market a prompt or fanout runs in, for the start forms: a country, an optional city and an
// optional language, posted as `country`, `city` and `language` (read by the actions' marketOf).
// Self-contained: the countries come from the same data the API checks them with, the languages
// from the browser's Intl (the likely one of the chosen country first). Language names are made
// after hydration: the server's Intl and the browser's need not name or sort them alike, and a
// mismatch would make React render the form again, dropping what was typed. The selects are not
// controlled, so a choice made before the page is hydrated stays (and is read once it is);
// `data-ready` says the picker is interactive.
import { useEffect, useMemo, useRef, useState } from "react";
import { countryList, languageName } from "@/lib/locale/codes";
import { inputClass } from "../../_components/ui";

/** The language most people in a country speak, as a tag (DE: "de", BR: "pt-BR"), by CLDR's likely subtags. */
function likelyTag(country: string): string | null {
  try {
    const { language } = new Intl.Locale(`und-${country}`).maximize();
    return language === "und" ? null : `${language}-${country}`;
  } catch {
    return null;
  }
}

export function MarketPicker({ idPrefix }: { idPrefix: string }) {
  const countries = useMemo(() => countryList(), []);
  const [languages, setLanguages] = useState<Array<readonly [string, string]>>([]);
  useEffect(() => {
    const tags = new Set<string>(["en"]);
    for (const [code] of countries) {
      const tag = likelyTag(code);
      if (tag) tags.add(tag.split("-")[0]!);
    }
    setLanguages([...tags].map((tag) => [tag, languageName(tag)] as const).sort((a, b) => a[1].localeCompare(b[1], "en")));
  }, [countries]);
  const [country, setCountry] = useState("");
  const [ready, setReady] = useState(false);
  const countrySelect = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    setCountry(countrySelect.current?.value ?? "");
    setReady(true);
  }, []);
  const local = country ? likelyTag(country) : null;

  return (
    <fieldset className="min-w-0 rounded-md border border-slate-200 p-3" data-testid="market-picker" data-ready={ready}>
      <legend className="px-1 text-sm font-medium">
        Market <span className="font-normal text-slate-500">(optional: search as someone there)</span>
      </legend>
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex w-full min-w-0 flex-col text-sm font-medium sm:w-auto" htmlFor={`${idPrefix}-country`}>
          Country
          <select
            id={`${idPrefix}-country`}
            name="country"
            ref={countrySelect}
            defaultValue=""
            onChange={(e) => setCountry(e.target.value)}
            className={`${inputClass} mt-1 w-full font-normal sm:w-56`}
            data-testid="market-country"
          >
            <option value="">Anywhere (no location)</option>
            {countries.map(([code, name]) => (
              <option key={code} value={code}>
                {name} ({code})
              </option>
            ))}
          </select>
        </label>
        <label className="flex w-full min-w-0 flex-col text-sm font-medium sm:w-auto sm:flex-1" htmlFor={`${idPrefix}-city`}>
          <span>
            City <span className="font-normal text-slate-500">(optional)</span>
          </span>
          <input
            id={`${idPrefix}-city`}
            name="city"
            maxLength={100}
            disabled={!country}
            placeholder={country ? "Any city" : "Choose a country first"}
            className={`${inputClass} mt-1 w-full font-normal disabled:bg-slate-50`}
            data-testid="market-city"
          />
        </label>
        <label className="flex w-full min-w-0 flex-col text-sm font-medium sm:w-auto" htmlFor={`${idPrefix}-language`}>
          <span>
            Language <span className="font-normal text-slate-500">(optional)</span>
          </span>
          <select id={`${idPrefix}-language`} name="language" defaultValue="" className={`${inputClass} mt-1 w-full font-normal sm:w-60`} data-testid="market-language">
            <option value="">Not set</option>
            {local ? <option value={local}>{languageName(local)} ({local})</option> : null}
            {languages.map(([tag, name]) => (
              <option key={tag} value={tag}>
                {name} ({tag})
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="mt-2 text-xs text-slate-500">
        Sent in each engine&apos;s own location setting (Gemini also takes the language); the prompt text is not changed.
      </p>
    </fieldset>
  );
}
