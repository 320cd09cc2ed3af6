"use client";
// Share, copy, rotate and revoke the public read-only link of a finished run, analysis, fanout or
// prompt batch (decisions.md "Sharing"): the same service as POST/DELETE …/share, as the signed-in person.
// A new link or stopping, which break the link people already have, is confirmed first.
import { useActionState, useState } from "react";
import type { ShareKind } from "@/lib/schemas/shares";
import { buttonClass, dangerButtonClass, Notice, subtleButtonClass } from "../../_components/ui";
import { revokeShareAction, rotateShareAction, shareAction, type ShareActionState } from "../actions";

export function ShareControl({
  kind,
  id,
  finished,
  initial,
}: {
  kind: ShareKind;
  id: string;
  finished: boolean;
  initial: { shared: boolean; url: string | null };
}) {
  const [shared, shareNow, sharing] = useActionState(shareAction, { ok: true });
  const [rotated, rotateNow, rotating] = useActionState(rotateShareAction, { ok: true });
  const [revoked, revokeNow, revoking] = useActionState(revokeShareAction, { ok: true });
  // The link copied last: a new link has not been copied, whatever the button said before.
  const [copied, setCopied] = useState<string | null>(null);
  // A step that breaks the link people have (a new link, or none) is asked about first.
  const [confirming, setConfirming] = useState<"rotate" | "revoke" | null>(null);
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
            <input readOnly value={state.url} aria-label="Share link" data-testid="share-url" className="min-w-0 flex-1 basis-full rounded-md sm:basis-0 border border-slate-300 bg-slate-50 px-2 py-1.5 font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
            <button
              type="button"
              className={buttonClass}
              data-testid="copy-share-link"
              onClick={async () => {
                const url = state.url!;
                await navigator.clipboard?.writeText(url).catch(() => {});
                setCopied(url);
                setTimeout(() => setCopied((now) => (now === url ? null : now)), 2000);
              }}
            >
              {copied === state.url ? "Copied" : "Copy link"}
            </button>
            <button type="button" className={subtleButtonClass} disabled={pending} onClick={() => setConfirming("rotate")}>
              New link
            </button>
            <button type="button" className={dangerButtonClass} disabled={pending} onClick={() => setConfirming("revoke")}>
              Stop sharing
            </button>
          </div>
          {confirming ? (
            <div className="mt-3 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900" role="group" aria-label="Confirm" data-testid="share-confirm">
              <p>
                {confirming === "rotate"
                  ? "Make a new link? The current link stops working for everyone who has it; only the new one opens this page."
                  : "Stop sharing? The link stops working for everyone who has it; you can share again later, with a new link."}
              </p>
              <form action={confirming === "rotate" ? rotateNow : revokeNow} onSubmit={() => setConfirming(null)} className="mt-2 flex flex-wrap gap-2">
                {hidden}
                <button type="submit" className={confirming === "rotate" ? buttonClass : dangerButtonClass} disabled={pending}>
                  {confirming === "rotate" ? "Make a new link" : "Stop sharing"}
                </button>
                <button type="button" className={subtleButtonClass} onClick={() => setConfirming(null)}>
                  Cancel
                </button>
              </form>
            </div>
          ) : null}
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
