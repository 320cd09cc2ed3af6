"use client";
// A monitor's controls: pause or resume, run a tick now, and delete (asked twice: its ticks go,
// the fanouts they made stay). Each answers in a line under the buttons.
import { useState } from "react";
import { useFormAction } from "../../../_components/form-action";
import { useHydrated } from "../../../_components/hydrated";
import { buttonClass, dangerButtonClass, subtleButtonClass } from "../../../_components/ui";
import { ActionOutcome } from "./action-outcome";
import { deleteMonitorAction, runMonitorAction, setMonitorStatusAction, type MonitorActionState } from "../actions";

const IDLE: MonitorActionState = { ok: true };

export function MonitorActions({ id, status }: { id: string; status: "active" | "paused" }) {
  const toggle = useFormAction(setMonitorStatusAction, IDLE);
  const run = useFormAction(runMonitorAction, IDLE);
  const remove = useFormAction(deleteMonitorAction, IDLE);
  const [confirming, setConfirming] = useState(false);
  // "Delete…" only opens the confirmation: a click before hydration would do nothing.
  const hydrated = useHydrated();
  return (
    <div className="mt-4" data-testid="monitor-actions">
      <div className="flex flex-wrap items-center gap-2">
        <form {...run.form}>
          <input type="hidden" name="id" value={id} />
          <button type="submit" className={buttonClass} disabled={run.pending} data-testid="run-now">
            {run.pending ? "Starting…" : "Run now"}
          </button>
        </form>
        <form {...toggle.form}>
          <input type="hidden" name="id" value={id} />
          <input type="hidden" name="status" value={status === "active" ? "paused" : "active"} />
          <button type="submit" className={subtleButtonClass} disabled={toggle.pending} data-testid={status === "active" ? "pause" : "resume"}>
            {status === "active" ? "Pause" : "Resume"}
          </button>
        </form>
        {confirming ? null : (
          <button type="button" className={dangerButtonClass} onClick={() => setConfirming(true)} disabled={!hydrated} data-testid="delete">
            Delete…
          </button>
        )}
      </div>
      {confirming ? (
        <form {...remove.form} className="mt-3 rounded-md border border-rose-200 bg-rose-50 p-3 text-sm" data-testid="delete-confirm">
          <input type="hidden" name="id" value={id} />
          <p className="text-rose-900">Delete this monitor and its ticks? The fanouts its ticks made stay in the project. This cannot be undone.</p>
          <div className="mt-2 flex flex-wrap gap-2">
            <button type="submit" className={dangerButtonClass} disabled={remove.pending} data-testid="delete-confirmed">
              {remove.pending ? "Deleting…" : "Delete monitor"}
            </button>
            <button type="button" className={subtleButtonClass} onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </div>
        </form>
      ) : null}
      <ActionOutcome states={[toggle.state, run.state, remove.state]} testId="monitor-action-outcome" />
    </div>
  );
}
