"use client";
// The project page's forms that start work: a prompt on chosen engines, a questions analysis, a
// page audit, and a citation analysis of the ticked runs and batches (the fanout form is
// ./fanout-form.tsx). Each posts to a server action that calls the API's service and, on
// success, goes to the page of what it started; a refusal is shown in place, in the form's
// words, with what was typed kept, and a 402 with the way to add credit.
import type { ReactNode } from "react";
import type { MarketChoices } from "@/lib/locale/codes";
import { useFormAction } from "../../_components/form-action";
import { buttonClass, inputClass, Notice, subtleButtonClass } from "../../_components/ui";
import { startAuditAction, startCitationAnalysisAction, startPromptAction, startQuestionsAction, type StartState } from "../actions";
import { MarketPicker } from "./market-picker";
import { engineLabel } from "@/lib/schemas/engines";

const STARTED: StartState = { ok: true };

export function Refusal({ state }: { state: StartState }) {
  if (state.ok || !state.message) return null;
  return (
    <div className="mt-3" data-testid="start-refusal">
      <Notice tone="error">
        {state.message}
        {state.needsCredit ? (
          <>
            {" "}
            <a href="/account#billing" className="font-medium underline">
              Go to billing
            </a>
          </>
        ) : null}
      </Notice>
    </div>
  );
}

/** Under an estimate: the credit available and whether it covers the total (a link to add some), or that billing is off. */
export function CreditLine({ billing, available, sufficient, testId }: { billing: boolean; available: string | null; sufficient: boolean | null; testId?: string }) {
  if (!billing) {
    return (
      <p className="mt-1 text-slate-500" data-testid={testId} data-sufficient="null">
        Billing is off on this server: nothing is charged.
      </p>
    );
  }
  return (
    <p className="mt-1 flex flex-wrap justify-between gap-x-3" data-testid={testId} data-sufficient={String(sufficient)}>
      <span className="text-slate-600">
        Available credit: <span className="tabular-nums">${available}</span>
      </span>
      {sufficient ? (
        <span className="text-emerald-700">Enough to start</span>
      ) : (
        <span className="text-rose-700">
          Not enough:{" "}
          <a href="/account#billing" className="font-medium underline">
            add credit
          </a>
        </span>
      )}
    </p>
  );
}

export function EngineChoice({ engines, legend = "Engines" }: { engines: string[]; legend?: string }) {
  return (
    <fieldset className="flex flex-wrap items-center gap-x-4 gap-y-1">
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      {engines.map((e) => (
        <label key={e} className="flex items-center gap-1.5 text-sm">
          <input type="checkbox" name="engines" value={e} defaultChecked className="h-4 w-4 accent-indigo-600" />
          {engineLabel(e)}
        </label>
      ))}
    </fieldset>
  );
}

function Submit({ pending, children, testId, name, value, className = buttonClass }: { pending: boolean; children: ReactNode; testId?: string; name?: string; value?: string; className?: string }) {
  return (
    <button type="submit" className={className} disabled={pending} data-testid={testId} name={name} value={value}>
      {pending ? "Starting…" : children}
    </button>
  );
}

export function PromptForm({ project, engines, markets }: { project: string; engines: string[]; markets: MarketChoices }) {
  const { state, pending, form } = useFormAction(startPromptAction, STARTED);
  return (
    <form {...form} className="space-y-3" data-testid="prompt-form">
      <input type="hidden" name="project" value={project} />
      <label className="block text-sm font-medium">
        Prompt
        <textarea name="prompt" required maxLength={4000} rows={3} placeholder="What is the best CRM for a small team?" className={`${inputClass} mt-1 block w-full font-normal`} />
      </label>
      <EngineChoice engines={engines} />
      <MarketPicker idPrefix="prompt-market" choices={markets} />
      <Submit pending={pending} testId="start-prompt">
        Run prompt
      </Submit>
      <Refusal state={state} />
    </form>
  );
}

export function QuestionsForm({ project, engine }: { project: string; engine: string | null }) {
  const { state, pending, form } = useFormAction(startQuestionsAction, STARTED);
  return (
    <form {...form} className="space-y-3" data-testid="questions-form">
      <input type="hidden" name="project" value={project} />
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex min-w-0 flex-1 flex-col text-sm font-medium">
          Topic
          <input name="topic" required maxLength={500} placeholder="CRM for small teams" className={`${inputClass} mt-1 font-normal`} />
        </label>
        <label className="flex flex-col text-sm font-medium">
          Questions
          <input name="count" type="number" min={1} max={100} defaultValue={25} className={`${inputClass} mt-1 w-24 font-normal`} />
        </label>
      </div>
      <p className="text-xs text-slate-500">
        {engine ? `Asked of ${engineLabel(engine)}; ` : ""}paid only for the questions that come back.
      </p>
      <Submit pending={pending} testId="start-questions">
        Generate questions
      </Submit>
      <Refusal state={state} />
    </form>
  );
}

export function AuditForm({ project }: { project: string }) {
  const { state, pending, form } = useFormAction(startAuditAction, STARTED);
  return (
    <form {...form} className="space-y-3" data-testid="audit-form">
      <input type="hidden" name="project" value={project} />
      <label className="block text-sm font-medium">
        Page URL
        <input name="url" type="url" required maxLength={2048} placeholder="https://www.example.com/pricing" className={`${inputClass} mt-1 block w-full font-normal`} />
      </label>
      <Submit pending={pending} testId="start-audit">
        Audit page
      </Submit>
      <Refusal state={state} />
    </form>
  );
}

/**
 * Wraps a list whose checkboxes (`name="ids"`) choose the runs and batches to analyse (or hidden
 * inputs naming them, with `label` and `note` saying which): a citation analysis, or with the
 * second button a visibility analysis tracking the project's brands and competitors.
 */
export function CitationSelection({
  project,
  children,
  disabled,
  label = "Analyse citations of the ticked",
  visibilityLabel = "Analyse visibility",
  note = "Tick prompts (all their runs) or single runs; free, from stored answers.",
  divided = true,
}: {
  project: string;
  children: ReactNode;
  disabled: boolean;
  label?: string;
  visibilityLabel?: string;
  note?: string;
  /** A rule between the list and the button (off when the ids are hidden inputs). */
  divided?: boolean;
}) {
  const { state, pending, form } = useFormAction(startCitationAnalysisAction, STARTED);
  return (
    <form {...form} data-testid="citation-selection">
      <input type="hidden" name="project" value={project} />
      {children}
      {disabled ? null : (
        <div className={`flex flex-wrap items-center gap-3 ${divided ? "mt-4 border-t border-slate-100 pt-3" : ""}`}>
          <Submit pending={pending} testId="start-citations">
            {label}
          </Submit>
          <Submit pending={pending} testId="start-visibility" name="analysis" value="visibility" className={subtleButtonClass}>
            {visibilityLabel}
          </Submit>
          <span className="text-xs text-slate-500">{note}</span>
        </div>
      )}
      <Refusal state={state} />
    </form>
  );
}
