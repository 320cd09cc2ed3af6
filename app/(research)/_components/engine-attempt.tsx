"use client";
// Where a running prompt run's engine call is, instead of a bare "Asking the engine…": between
// attempts, which failed and when the next starts; during one, since when, when it gives up, and
// by when the run has failed if the engine never answers (lib/research/attempts.ts). The switch
// from waiting to asking happens on the clock, without the server.
import { useEffect, useState } from "react";
import type { AttemptView } from "@/lib/research/attempts";

/** "17:56:54 UTC", as the pages write times (UTC). */
function clock(iso: string, seconds = true): string {
  return `${iso.slice(11, seconds ? 19 : 16)} UTC`;
}

export function EngineAttempt({ view, engine, renderedAt }: { view: AttemptView; engine: string; renderedAt: string }) {
  // The server's clock decides the first paint (so it matches the page sent), this one afterwards.
  const [now, setNow] = useState(() => Date.parse(renderedAt));
  const starts = Date.parse(view.startsAt);
  useEffect(() => {
    setNow(Date.now());
    const wait = starts - Date.now();
    if (wait <= 0) return;
    const timer = setTimeout(() => setNow(Date.now()), wait + 50);
    return () => clearTimeout(timer);
  }, [starts]);
  const waiting = now < starts;
  return (
    <p className="text-sm text-slate-600" data-testid="run-attempt" data-state={waiting ? "waiting" : "asking"}>
      {waiting ? (
        <>
          Attempt {view.attempt - 1} of {view.of} failed. Attempt {view.attempt} of {view.of} at {clock(view.startsAt)}.
        </>
      ) : (
        <>
          Attempt {view.attempt} of {view.of}, asking since {clock(view.startsAt)}; this attempt gives up at {clock(view.givesUpAt)}.
        </>
      )}{" "}
      <span className="text-slate-500">
        If {engine} does not answer, the run fails by about {clock(view.failsBy, false)}; nothing is charged for a failed run.
      </span>
    </p>
  );
}
