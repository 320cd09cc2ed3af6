"use client";
// Forms of the account page. A secret (API key, invitation link) comes back from its action
// once and is shown here with a copy button; reloading the page does not show it again.
import { useState, type ReactNode } from "react";
import { useFormAction } from "../_components/form-action";
import { SecretOnce } from "../_components/secret-once";
import { buttonClass, dangerButtonClass, Notice } from "../_components/ui";
import type { ActionState } from "./actions";

type Action = (prev: ActionState, form: FormData) => Promise<ActionState>;

/** An inline form's outcome, floating at the bottom of the window so the row it came from keeps its shape. */
function Toast({ state, onDismiss }: { state: ActionState; onDismiss: () => void }) {
  return (
    <div className="fixed inset-x-4 bottom-4 z-20 mx-auto max-w-md shadow-lg">
      <Notice tone={state.ok ? "success" : "error"}>
        <div className="flex items-start gap-3">
          <span className="flex-1">{state.message}</span>
          <button type="button" aria-label="Dismiss" className="-my-1 px-1 text-lg leading-none opacity-70 hover:opacity-100" onClick={onDismiss}>
            ×
          </button>
        </div>
      </Notice>
    </div>
  );
}

/**
 * A form posting to a server action, its outcome shown under it (or, `inline`, as a toast, for
 * buttons inside table rows). What was typed stays when the action refuses it; a form that
 * creates something is cleared once it has, unless `keepValues` (an edit form, whose fields show
 * what was saved).
 */
export function ActionForm({
  action,
  children,
  submit,
  danger = false,
  inline = false,
  keepValues = false,
  className = "flex flex-wrap items-end gap-2",
  testId,
}: {
  action: Action;
  children?: ReactNode;
  submit: string;
  danger?: boolean;
  inline?: boolean;
  keepValues?: boolean;
  className?: string;
  testId?: string;
}) {
  const { state, pending, form } = useFormAction(action, { ok: true } as ActionState, { resetOnSuccess: !keepValues });
  const [dismissed, setDismissed] = useState<ActionState | null>(null);
  const message = state.message && !state.secret && dismissed !== state ? state.message : null;
  return (
    <div className={inline ? "inline-block" : undefined} data-testid={testId}>
      <form {...form} className={className}>
        {children}
        <button type="submit" className={danger ? dangerButtonClass : buttonClass} disabled={pending}>
          {submit}
        </button>
      </form>
      {message && inline ? <Toast state={state} onDismiss={() => setDismissed(state)} /> : null}
      {message && !inline ? (
        <div className="mt-2">
          <Notice tone={state.ok ? "success" : "error"}>{message}</Notice>
        </div>
      ) : null}
      {state.secret ? (
        <>
          <SecretOnce label={state.secretLabel ?? "Secret"} secret={state.secret} />
          {state.message ? <p className="mt-1 text-sm text-slate-600">{state.message}</p> : null}
        </>
      ) : null}
    </div>
  );
}
