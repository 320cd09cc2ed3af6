"use client";
// "Judge these answers" on a visibility analysis's page: which engine judges (its price per answer
// and for all of them, from the rate card, shown before anything starts), what it is asked
// (sentiment, other brands named), the credit available, and the button that starts a judged
// analysis of the same answers. A refusal (a 402 too) is said in place, in words.
import { useState } from "react";
import { useFormAction } from "../../../_components/form-action";
import { buttonClass } from "../../../_components/ui";
import { judgeVisibilityAction, type StartState } from "../../actions";
import { CreditLine, Refusal } from "../../_components/start-forms";
import type { JudgeQuote } from "@/lib/visibility/judge-again";

const IDLE: StartState = { ok: true };

/** The quote with each engine's name as pages write it (the page names them: the names live with server code). */
export type NamedJudgeQuote = Omit<JudgeQuote, "engines"> & { engines: (JudgeQuote["engines"][number] & { name: string })[] };

export function JudgeForm({ analysis, project, quote }: { analysis: string; project: string; quote: NamedJudgeQuote }) {
  const { state, pending, form } = useFormAction(judgeVisibilityAction, IDLE);
  const [engine, setEngine] = useState(quote.engines[0]?.engine ?? "");
  const chosen = quote.engines.find((e) => e.engine === engine) ?? quote.engines[0];
  const answers = `${quote.runs} counted ${quote.runs === 1 ? "answer" : "answers"}`;
  return (
    <form {...form} className="space-y-3 text-sm" data-testid="judge-form">
      <input type="hidden" name="analysis_id" value={analysis} />
      <input type="hidden" name="project" value={project} />
      <p className="text-slate-700">
        An answer engine reads each of the {answers} once and says how it speaks of each brand and competitor named (positive, neutral or negative, with a
        quote checked word for word in the answer) and, if you ask, which other brands it names. The figures above stay as they are; the judged analysis is a new
        one.
      </p>
      <fieldset>
        <legend className="mb-1 font-medium">Judge engine</legend>
        <div className="grid gap-1">
          {quote.engines.map((e) => (
            <label key={e.engine} className="flex flex-wrap items-baseline gap-x-2">
              <input type="radio" name="engine" value={e.engine} checked={engine === e.engine} onChange={() => setEngine(e.engine)} className="translate-y-0.5 accent-indigo-600" />
              <span className="font-medium">{e.name}</span>
              <span className="tabular-nums text-slate-600" data-testid="judge-price" data-engine={e.engine}>
                ${e.unit_price_usd} an answer × {quote.runs} = ${e.amount_usd}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="flex flex-wrap gap-x-5 gap-y-1">
        <legend className="mb-1 font-medium">Ask for</legend>
        <label className="flex items-center gap-1.5">
          <input type="checkbox" name="sentiment" defaultChecked className="h-4 w-4 accent-indigo-600" />
          Sentiment, with quotes
        </label>
        <label className="flex items-center gap-1.5">
          <input type="checkbox" name="discover" className="h-4 w-4 accent-indigo-600" />
          Other brands named
        </label>
      </fieldset>
      {chosen ? (
        <div className="rounded-md border border-slate-200 bg-slate-50 p-3" data-testid="judge-estimate" data-engine={chosen.engine} data-sufficient={String(chosen.sufficient)}>
          <p className="flex flex-wrap justify-between gap-x-3 font-medium">
            <span>
              {answers} × ${chosen.unit_price_usd} ({chosen.name})
            </span>
            <span className="tabular-nums" data-testid="judge-total">
              ${chosen.amount_usd}
            </span>
          </p>
          <CreditLine billing={quote.billing_enabled} available={quote.available_usd} sufficient={chosen.sufficient} />
          <p className="mt-1 text-xs text-slate-500">
            Held when it starts, charged for the answers judged; an answer the engine fails to judge is not charged. Prices {quote.pricing_version}.
          </p>
        </div>
      ) : null}
      <button type="submit" className={buttonClass} disabled={pending || !chosen} data-testid="start-judge">
        {pending ? "Starting…" : `Judge ${answers}${chosen ? ` for $${chosen.amount_usd}` : ""}`}
      </button>
      <Refusal state={state} />
    </form>
  );
}
