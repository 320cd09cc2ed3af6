"use client";
// Keeps a page current while what it shows is unfinished: follows /live (server-sent events,
// woken by the same notifications as the API's `wait`) and re-renders the page from the server
// when progress moved, at most once a second. Without JavaScript the page says to reload.
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { useHydrated } from "../../_components/hydrated";

const MIN_REFRESH_GAP_MS = 1000;

export function LiveRefresh({ ids, since }: { ids: string[]; since: string }) {
  const router = useRouter();
  const hydrated = useHydrated();
  const [state, setState] = useState<"connecting" | "live" | "lost">("connecting");
  const lastRefresh = useRef(0);
  const key = ids.join(",");
  useEffect(() => {
    if (!key) return;
    const source = new EventSource(`/live?ids=${encodeURIComponent(key)}&since=${encodeURIComponent(since)}`);
    let pending: ReturnType<typeof setTimeout> | null = null;
    const refresh = () => {
      const wait = lastRefresh.current + MIN_REFRESH_GAP_MS - Date.now();
      if (pending) return;
      pending = setTimeout(
        () => {
          pending = null;
          lastRefresh.current = Date.now();
          router.refresh();
        },
        Math.max(0, wait),
      );
    };
    source.onopen = () => setState("live");
    source.addEventListener("changed", refresh);
    source.addEventListener("done", () => {
      source.close();
      refresh();
    });
    source.onerror = () => setState(source.readyState === EventSource.CLOSED ? "lost" : "connecting");
    return () => {
      source.close();
      if (pending) clearTimeout(pending);
    };
  }, [key, since, router]);
  // The line keeps its height from the first paint, so nothing moves when it fills in.
  return (
    <p className="flex min-h-5 items-center gap-2 text-sm text-slate-500" role="status" data-testid="live-status" data-state={state}>
      <span className={`inline-block h-2 w-2 rounded-full ${state === "live" ? "animate-pulse bg-emerald-500" : state === "lost" ? "bg-rose-500" : "bg-amber-400"}`} aria-hidden="true" />
      {!hydrated ? (
        <noscript>Not finished yet: reload the page to see the latest.</noscript>
      ) : state === "lost" ? (
        "Live updates stopped: reload the page to see the latest."
      ) : (
        "Not finished yet: this page updates as runs finish."
      )}
    </p>
  );
}
