"use client";
// A secret shown once (an API key, an invitation link, a monitor's webhook secret), as its action
// answered it, with a copy button: reloading the page does not show it again.
import { useState, type ReactNode } from "react";
import { buttonClass } from "./ui";

export function SecretOnce({ label, secret, children, testId = "secret-once" }: { label: string; secret: string; children?: ReactNode; testId?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="mt-3 rounded-md border border-emerald-300 bg-emerald-50 p-3">
      <p className="text-sm font-medium text-emerald-900">{label}</p>
      <div className="mt-2 flex items-center gap-2">
        <code data-testid={testId} className="min-w-0 flex-1 break-all rounded bg-white px-2 py-1 text-sm">
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
      {children ? <div className="mt-2 text-sm text-emerald-900">{children}</div> : null}
    </div>
  );
}
