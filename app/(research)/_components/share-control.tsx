"use client";
// Share, copy, rotate and revoke the public read-only link of a finished run or analysis
// (decisions.md "Sharing"): the same service as POST/DELETE …/share, as the signed-in person.
import { useActionState, useState } from "react";
import { buttonClass, dangerButtonClass, Notice, subtleButtonClass } from "../../_components/ui";
import { revokeShareAction, rotateShareAction, shareAction, type ShareActionState } from "../actions";

export function ShareControl({
  kind,
  id,
  finished,
  initial,
}: {
  kind: "run" | "analysis";
  id: string;
  finished: boolean;
  initial: { shared: boolean; url: string | null };
}) {
  const [shared, shareNow, sharing] = useActionState(shareAction, { ok: true });
  const [rotated, rotateNow, rotating] = useActionState(rotateShareAction, { ok: true });
  const [revoked, revokeNow, revoking] = useActionState(revokeShareAction, { ok: true });
  const [copied, setCopied] = useState(false);
  // The latest outcome wins; until one exists, what the page was rendered with.
  const outcomes = [shared, rotated, revoked].filter((s): s is ShareActionState & { at: number } => "at" in s);
  const latest = outcomes.sort((a, b) => b.at - a.at)[0];
  const state = latest && latest.ok ? { shared: latest.shared ?? false, url: latest.url ?? null } : initial;
  const error = latest && !latest.ok ? latest.message : null;
  const pending = sharing || rotating || revoking;
  const hidden = (
    <>
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="id" value={id} />
    </>
  );
  return (
    <section aria-labelledby="share-title" className="mb-8 rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="share-control">
      <h2 id="share-title" className="text-sm font-semibold">
        Share
      </h2>
      {!finished ? (
        <p className="mt-1 text-sm text-slate-500">It can be shared once it has finished.</p>
      ) : state.shared && state.url ? (
        <>
          <p className="mt-1 text-sm text-slate-600">Anyone with this link can read a copy; search engines are asked not to index it.</p>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <input readOnly value={state.url} aria-label="Share link" data-testid="share-url" className="min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-2 py-1.5 font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
            <button
              type="button"
              className={buttonClass}
              onClick={async () => {
                await navigator.clipboard?.writeText(state.url!).catch(() => {});
                setCopied(true);
                setTimeout(() => setCopied(false), 2000);
              }}
            >
              {copied ? "Copied" : "Copy link"}
            </button>
            <form action={rotateNow}>
              {hidden}
              <button type="submit" className={subtleButtonClass} disabled={pending}>
                New link
              </button>
            </form>
            <form action={revokeNow}>
              {hidden}
              <button type="submit" className={dangerButtonClass} disabled={pending}>
                Stop sharing
              </button>
            </form>
          </div>
        </>
      ) : (
        <form action={shareNow} className="mt-2 flex flex-wrap items-center gap-3">
          {hidden}
          <button type="submit" className={buttonClass} disabled={pending}>
            Create share link
          </button>
          <span className="text-sm text-slate-500">A public read-only page; you can revoke it at any time.</span>
        </form>
      )}
      {error ? (
        <div className="mt-2">
          <Notice tone="error">{error}</Notice>
        </div>
      ) : null}
    </section>
  );
}
