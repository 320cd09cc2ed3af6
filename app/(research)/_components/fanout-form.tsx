"use client";
// Starting a fanout from the browser: prompts one per line, engines, repeats, and the estimate
// (executions, price per engine, total, available credit) kept current while typing, before the
// start button. Prompts sent from a questions analysis carry their question as a hidden `source`
// field per line; a line edited away from the question's text no longer carries it.
import { startTransition, useActionState, useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { MarketChoices } from "@/lib/locale/codes";
import { useFormAction } from "../../_components/form-action";
import { buttonClass, inputClass, Notice } from "../../_components/ui";
import { estimateFanoutAction, startFanoutAction, type EstimateState } from "../actions";
import { MarketPicker } from "./market-picker";
import { CreditLine, EngineChoice, Refusal } from "./start-forms";
import { engineLabel } from "@/lib/schemas/engines";

const ESTIMATE_DELAY_MS = 400;
const RUNS = { min: 1, max: 20, fallback: 3 };
/** The action reads one `source` per prompt line, in order; a line without a question sends "". */
const NO_SOURCE = "";

export type FanoutPrefill = { prompts: { text: string; source?: string }[] };

/** The prompts as the action reads them: each non-blank line, trimmed. */
export function promptLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}

/**
 * The source of each line: a prefilled question's, when the line is still that question's text
 * (each question used once, in order, so moving lines keeps their sources); otherwise none.
 */
export function sourcesFor(lines: readonly string[], prefill: FanoutPrefill["prompts"]): (string | null)[] {
  const unused = prefill.filter((p) => p.source).map((p) => ({ text: p.text.trim(), source: p.source!, used: false }));
  return lines.map((line) => {
    const match = unused.find((p) => !p.used && p.text === line);
    if (!match) return null;
    match.used = true;
    return match.source;
  });
}

function Estimate({ state, pending, empty, countries }: { state: EstimateState; pending: boolean; empty: boolean; countries: number }) {
  const e = state.estimate;
  return (
    <div
      className={`rounded-md border border-slate-200 bg-slate-50 p-3 text-sm transition-opacity ${pending ? "opacity-60" : ""}`}
      data-testid="fanout-estimate"
      data-state={pending ? "pending" : e ? "ready" : state.ok ? "empty" : "error"}
      aria-busy={pending}
      aria-live="polite"
    >
      <h3 className="font-medium text-slate-800">Estimate</h3>
      {empty ? (
        <p className="mt-1 text-slate-600">Paste prompts, one per line, to see what the fanout would run and cost.</p>
      ) : !state.ok ? (
        <p className="mt-1 text-rose-700" role="alert" data-testid="estimate-error">
          {state.message}
        </p>
      ) : !e ? (
        <p className="mt-1 text-slate-600">Estimating…</p>
      ) : (
        <>
          <p className="mt-1 text-slate-700" data-testid="estimate-executions" data-executions={e.executions}>
            {e.prompts} {e.prompts === 1 ? "prompt" : "prompts"}
            {countries > 1 && e.prompts % countries === 0 ? ` (${e.prompts / countries} × ${countries} countries)` : ""} × {e.engines.length} {e.engines.length === 1 ? "engine" : "engines"} × {e.runs}{" "}
            {e.runs === 1 ? "run" : "runs"} = <strong className="tabular-nums">{e.executions}</strong> {e.executions === 1 ? "execution" : "executions"}
            {e.identical_prompts > 0 ? (
              <span className="text-slate-500">
                {" "}
                ({e.identical_prompts} {e.identical_prompts === 1 ? "prompt repeats" : "prompts repeat"} an earlier one and run all the same)
              </span>
            ) : null}
          </p>
          {e.executions > e.max_executions ? (
            <p className="mt-2 font-medium text-rose-700" data-testid="estimate-over-limit">
              Over this server&apos;s limit of {e.max_executions} executions per fanout: use fewer prompts, engines or runs.
            </p>
          ) : null}
          {e.lines.length ? (
            <ul className="mt-2 space-y-0.5 text-slate-600" data-testid="estimate-lines">
              {e.lines.map((l) => (
                <li key={l.engine} className="flex flex-wrap justify-between gap-x-3 tabular-nums">
                  <span>
                    {engineLabel(l.engine)}: {l.executions} × ${l.unit_price_usd}
                  </span>
                  <span>${l.amount_usd}</span>
                </li>
              ))}
            </ul>
          ) : null}
          <p className="mt-2 flex flex-wrap justify-between gap-x-3 border-t border-slate-200 pt-2 font-medium">
            <span>Total at current prices</span>
            <span className="tabular-nums" data-testid="estimate-total">
              ${e.total_usd}
            </span>
          </p>
          <CreditLine billing={e.billing_enabled} available={e.available_usd} sufficient={e.sufficient} testId="estimate-credit" />
          {e.margin ? (
            <p className="mt-2 text-slate-700" data-testid="estimate-margin" title="Half the width of each engine's 95% interval of a visibility rate over the runs planned">
              {e.margin.summary.join(" ")}
            </p>
          ) : null}
          <p className="mt-1 text-xs text-slate-500">Not a quote: a run that fails is not charged. Prices {e.pricing_version}.</p>
        </>
      )}
    </div>
  );
}

export function FanoutForm({ project, engines, markets, prefill }: { project: string; engines: string[]; markets: MarketChoices; prefill?: FanoutPrefill }) {
  const initialText = useMemo(() => (prefill?.prompts ?? []).map((p) => p.text).join("\n"), [prefill]);
  const [text, setText] = useState(initialText);
  const [estimate, requestEstimate, estimating] = useActionState(estimateFanoutAction, { ok: true });
  const { state: started, pending: starting, form: startForm } = useFormAction(startFanoutAction, { ok: true });
  const form = startForm.ref;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const lines = promptLines(text);
  const sources = sourcesFor(lines, prefill?.prompts ?? []);
  const carried = sources.filter(Boolean).length;
  const empty = lines.length === 0;

  const [countries, setCountries] = useState(0);
  const estimateSoon = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      const el = form.current;
      if (!el || promptLines(String(new FormData(el).get("prompts") ?? "")).length === 0) return;
      const data = new FormData(el);
      startTransition(() => requestEstimate(data));
    }, ESTIMATE_DELAY_MS);
  };

  // Adding or removing a country changes no field's value: the estimate is asked for again here.
  const countriesChanged = useCallback((count: number) => {
    setCountries(count);
    estimateSoon();
  }, []);

  // A prefilled form shows its estimate without waiting for an edit.
  useEffect(() => {
    if (initialText) estimateSoon();
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
  }, []);

  return (
    <form {...startForm} onChange={estimateSoon} className="space-y-3" data-testid="fanout-form">
      <input type="hidden" name="project" value={project} />
      {sources.map((s, i) => (
        <input key={i} type="hidden" name="source" value={s ?? NO_SOURCE} />
      ))}
      <label className="block text-sm font-medium">
        Prompts, one per line
        <textarea
          name="prompts"
          required
          rows={Math.min(12, Math.max(4, lines.length + 1))}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={"best crm for a small team\nhubspot vs pipedrive\ncrm with email tracking"}
          aria-describedby="fanout-prompts-help"
          className={`${inputClass} mt-1 block w-full font-normal`}
          data-testid="fanout-prompts"
        />
      </label>
      <p id="fanout-prompts-help" className="text-xs text-slate-500">
        {lines.length} {lines.length === 1 ? "prompt" : "prompts"}
        {countries > 1 ? `, each run in ${countries} countries` : ""}; blank lines are skipped.
        {carried ? ` ${carried} linked to ${carried === 1 ? "its question" : "their questions"}.` : ""}
      </p>
      <EngineChoice engines={engines} />
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col text-sm font-medium">
          Runs of each prompt on each engine
          <input
            name="runs"
            type="number"
            inputMode="numeric"
            min={RUNS.min}
            max={RUNS.max}
            defaultValue={RUNS.fallback}
            required
            className={`${inputClass} mt-1 w-24 font-normal`}
            data-testid="fanout-runs"
          />
        </label>
        <label className="flex w-full min-w-0 flex-col text-sm font-medium sm:w-auto sm:flex-1">
          <span>
            Name <span className="font-normal text-slate-500">(optional)</span>
          </span>
          <input name="name" maxLength={200} placeholder="The first prompt" className={`${inputClass} mt-1 font-normal`} />
        </label>
      </div>
      <MarketPicker idPrefix="fanout-market" choices={markets} several onCountries={countriesChanged} />
      <Estimate state={estimate} pending={estimating} empty={empty} countries={countries} />
      <button type="submit" className={buttonClass} disabled={starting || empty} data-testid="start-fanout">
        {starting ? "Starting…" : "Start fanout"}
      </button>
      <Refusal state={started} />
      {engines.length === 0 ? <Notice tone="warn">No engine is enabled on this server.</Notice> : null}
    </form>
  );
}
