"use client";
// The market a prompt or fanout runs in, for the start forms: a country (a fanout: several, each
// prompt run once in each), an optional city and an optional language, posted as `country` (once
// per country), `city` and `language` (read by the actions' marketsOf). The countries come from
// the same data the API checks them with; the languages, base and regional (pt-BR, en-GB, de-AT),
// with their names from the server (lib/locale/codes.ts marketChoices: a browser's Intl may not
// name them all, and the server and the browser must render the form alike). The selects are not
// controlled, so a choice made before the page is hydrated stays (and is read once it is);
// `data-ready` says the picker is interactive.
import { useEffect, useMemo, useRef, useState } from "react";
import { countryList, type MarketChoices } from "@/lib/locale/codes";
import { inputClass, subtleButtonClass } from "../../_components/ui";

/** At most this many countries in one fanout (each multiplies its prompts). */
const MAX_COUNTRIES = 20;

type Row = { key: number; country: string };

/** "Portuguese (Brazil) · pt-BR": a language's name, then its tag. */
const languageLabel = (tag: string, name: string) => `${name} · ${tag}`;

export function MarketPicker({
  idPrefix,
  choices,
  several = false,
  onCountries,
  initial,
}: {
  idPrefix: string;
  choices: MarketChoices;
  /** A fanout's picker: more countries may be added, each prompt running once in each. */
  several?: boolean;
  /** Told the number of countries chosen whenever it changes (after the form's fields are in place). */
  onCountries?: (count: number) => void;
  /** What is chosen now (a monitor's market, to be changed): drawn selected. */
  initial?: { country?: string | null; city?: string | null; language?: string | null };
}) {
  const countries = useMemo(() => countryList(), []);
  const names = useMemo(() => new Map(choices.languages), [choices]);
  const [rows, setRows] = useState<Row[]>([{ key: 0, country: initial?.country ?? "" }]);
  const [ready, setReady] = useState(false);
  const nextKey = useRef(1);
  const first = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    // A country chosen before hydration is in the select, not yet in the state.
    const chosen = first.current?.value ?? "";
    if (chosen) setRows((r) => [{ ...r[0]!, country: chosen }, ...r.slice(1)]);
    setReady(true);
  }, []);
  const chosen = rows.map((r) => r.country).filter(Boolean);
  const reported = useRef(chosen.length);
  useEffect(() => {
    if (reported.current === chosen.length) return;
    reported.current = chosen.length;
    onCountries?.(chosen.length);
  }, [chosen.length, onCountries]);
  const setCountry = (key: number, country: string) => setRows((r) => r.map((row) => (row.key === key ? { ...row, country } : row)));
  const add = () => setRows((r) => [...r, { key: nextKey.current++, country: "" }]);
  const remove = (key: number) => setRows((r) => r.filter((row) => row.key !== key));
  const oneCountry = chosen.length === 1 ? chosen[0]! : null;
  const suggested = [...new Set(chosen.map((c) => choices.likely[c]).filter((t): t is string => t !== undefined && names.has(t)))];

  return (
    <fieldset className="min-w-0 rounded-md border border-slate-200 p-3" data-testid="market-picker" data-ready={ready}>
      <legend className="px-1 text-sm font-medium">
        Market <span className="font-normal text-slate-500">(optional: search as someone there)</span>
      </legend>
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex w-full min-w-0 flex-col gap-2 sm:w-auto">
          {rows.map((row, i) => {
            const id = i === 0 ? `${idPrefix}-country` : `${idPrefix}-country-${row.key}`;
            return (
              <div key={row.key} className="flex min-w-0 flex-col text-sm font-medium">
                <label htmlFor={id} className={i === 0 ? undefined : "sr-only"}>
                  {i === 0 ? "Country" : `Country ${i + 1}`}
                </label>
                <span className={`flex items-center gap-2 ${i === 0 ? "mt-1" : ""}`}>
                  <select
                    id={id}
                    name="country"
                    ref={i === 0 ? first : undefined}
                    defaultValue={row.country}
                    onChange={(e) => setCountry(row.key, e.target.value)}
                    className={`${inputClass} min-w-0 flex-1 font-normal sm:w-56 sm:flex-none`}
                    data-testid="market-country"
                  >
                    <option value="">{i === 0 ? "Anywhere (no location)" : "Choose a country"}</option>
                    {countries.map(([code, name]) => (
                      <option key={code} value={code}>
                        {name} ({code})
                      </option>
                    ))}
                  </select>
                  {i > 0 ? (
                    <button type="button" onClick={() => remove(row.key)} className="shrink-0 px-1 text-lg leading-none text-slate-500 hover:text-slate-900" aria-label={`Remove country ${i + 1}`} data-testid="remove-country">
                      ×
                    </button>
                  ) : null}
                </span>
              </div>
            );
          })}
          {several && chosen.length >= 1 && rows.length < MAX_COUNTRIES ? (
            <button type="button" onClick={add} className={`${subtleButtonClass} self-start`} data-testid="add-country">
              Add another country
            </button>
          ) : null}
        </div>
        <label className="flex w-full min-w-0 flex-col text-sm font-medium sm:w-auto sm:flex-1" htmlFor={`${idPrefix}-city`}>
          <span>
            City <span className="font-normal text-slate-500">(optional)</span>
          </span>
          <input
            id={`${idPrefix}-city`}
            name="city"
            maxLength={100}
            defaultValue={initial?.city ?? ""}
            disabled={!oneCountry}
            placeholder={oneCountry ? "Any city" : chosen.length > 1 ? "With one country only" : "Choose a country first"}
            className={`${inputClass} mt-1 w-full font-normal disabled:bg-slate-50`}
            data-testid="market-city"
          />
        </label>
        {/* The label holds its words only: around the select it would hold every option's name too ("Italian (Vatican City)"). */}
        <div className="flex w-full min-w-0 flex-col text-sm font-medium sm:w-auto">
          <label htmlFor={`${idPrefix}-language`}>
            Language <span className="font-normal text-slate-500">(optional)</span>
          </label>
          <select id={`${idPrefix}-language`} name="language" defaultValue={initial?.language ?? ""} className={`${inputClass} mt-1 w-full font-normal sm:w-72`} data-testid="market-language">
            <option value="">Not set</option>
            {suggested.length ? (
              <optgroup label={`Spoken in ${chosen.length === 1 ? "this country" : "these countries"}`}>
                {suggested.map((tag) => (
                  <option key={tag} value={tag}>
                    {languageLabel(tag, names.get(tag)!)}
                  </option>
                ))}
              </optgroup>
            ) : null}
            <optgroup label="Every language">
              {/* A language chosen earlier that the list does not name stays chosen (not silently "Not set"). */}
              {initial?.language && !names.has(initial.language) ? <option value={initial.language}>{initial.language}</option> : null}
              {choices.languages.map(([tag, name]) => (
                <option key={tag} value={tag}>
                  {languageLabel(tag, name)}
                </option>
              ))}
            </optgroup>
          </select>
        </div>
      </div>
      <p className="mt-2 text-xs text-slate-500">
        {chosen.length > 1 ? `Each prompt runs once in each of the ${chosen.length} countries. ` : ""}
        Sent in each engine&apos;s own location setting (Gemini and the apps also take the language); the prompt text is not changed.
      </p>
    </fieldset>
  );
}
