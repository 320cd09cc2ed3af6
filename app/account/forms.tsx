"use client";
// Forms of the account page. A secret (API key, invitation link) comes back from its action
// once and is shown here with a copy button; reloading the page does not show it again.
import { useActionState, useState, type ReactNode } from "react";
import { buttonClass, dangerButtonClass, Notice } from "../_components/ui";
import type { ActionState } from "./actions";

type Action = (prev: ActionState, form: FormData) => Promise<ActionState>;

function SecretOnce({ label, secret }: { label: string; secret: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="mt-3 rounded-md border border-emerald-300 bg-emerald-50 p-3">
      <p className="text-sm font-medium text-emerald-900">{label}</p>
      <div className="mt-2 flex items-center gap-2">
        <code data-testid="secret-once" className="flex-1 break-all rounded bg-white px-2 py-1 text-sm">
          {secret}
        </code>
        <button
          type="button"
          className={buttonClass}
          onClick={async () => {
            await navigator.clipboard?.writeText(secret).catch(() => {});
            setCopied(true);
          }}
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
    </div>
  );
}

export function ActionForm({
  action,
  children,
  submit,
  danger = false,
  className = "flex flex-wrap items-end gap-2",
}: {
  action: Action;
  children?: ReactNode;
  submit: string;
  danger?: boolean;
  className?: string;
}) {
  const [state, formAction, pending] = useActionState(action, { ok: true });
  return (
    <div>
      <form action={formAction} className={className}>
        {children}
        <button type="submit" className={danger ? dangerButtonClass : buttonClass} disabled={pending}>
          {submit}
        </button>
      </form>
      {state.message && !state.secret ? (
        <div className="mt-2">
          <Notice tone={state.ok ? "success" : "error"}>{state.message}</Notice>
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
