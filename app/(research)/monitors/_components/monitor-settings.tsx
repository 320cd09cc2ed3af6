"use client";
// A monitor's settings that keep its version (its series goes on): the name, the schedule, the
// monthly budget and the sentiment judge, as PATCH /monitors/{id} takes them. What changes its
// measure (prompts, engines, runs, market, entities) starts a new version: the MeasureForm beside it.
// The form sends each field's value as drawn beside it, so only what was changed is sent.
import { useFormAction } from "../../../_components/form-action";
import { inputClass, subtleButtonClass } from "../../../_components/ui";
import { updateSettingsAction } from "../[monitor_id]/actions";
import type { MonitorActionState } from "../_lib/acting";
import { ActionOutcome } from "./action-outcome";
import { ScheduleFields } from "./schedule-fields";
import { engineLabel } from "@/lib/schemas/engines";
import { STRUCTURED_ENGINE_IDS } from "@/lib/schemas/common";

const IDLE: MonitorActionState = { ok: true };

type Settings = {
  id: string;
  name: string;
  schedule: { every: "day" | "week"; at: string; weekday: number | null };
  budget: string | null;
  judge: string | null;
  /** The engines enabled on this server: a judge is one of them (or the monitor's judge as it is). */
  engines: readonly string[];
};

export function MonitorSettings({ id, name, schedule, budget, judge, engines }: Settings) {
  const save = useFormAction(updateSettingsAction, IDLE);
  const weekday = String(schedule.weekday ?? 1);
  const judges = STRUCTURED_ENGINE_IDS.filter((e) => engines.includes(e) || e === judge);
  return (
    <details className="mt-3 text-sm" data-testid="monitor-settings">
      <summary className="cursor-pointer text-slate-600">Settings: name, schedule, budget, judge</summary>
      <form {...save.form} className="mt-2 grid gap-3 sm:max-w-xl">
        <input type="hidden" name="id" value={id} />
        <input type="hidden" name="was_name" value={name} />
        <input type="hidden" name="was_every" value={schedule.every} />
        <input type="hidden" name="was_at" value={schedule.at} />
        <input type="hidden" name="was_weekday" value={weekday} />
        <input type="hidden" name="was_budget" value={budget ?? ""} />
        <input type="hidden" name="was_judge" value={judge ?? ""} />
        <label className="grid gap-1">
          <span className="font-medium text-slate-700">Name</span>
          <input name="name" defaultValue={name} maxLength={100} className={inputClass} data-testid="settings-name" />
        </label>
        <ScheduleFields prefix="settings" every={schedule.every} weekday={schedule.weekday ?? 1} at={schedule.at} />
        <p className="text-xs text-slate-500">A new schedule takes effect from its next slot after now.</p>
        <div className="flex flex-wrap gap-4">
          <label className="grid gap-1">
            <span className="font-medium text-slate-700">Monthly budget (USD)</span>
            <input name="budget" inputMode="decimal" defaultValue={budget ?? ""} placeholder="none" className={`${inputClass} w-32`} data-testid="settings-budget" />
            <span className="text-xs text-slate-500">Empty: no budget.</span>
          </label>
          {/* The label names only the field (wrapped around the select it would take in every option's engine label). */}
          <div className="grid content-start gap-1">
            <label htmlFor={`settings-judge-${id}`} className="font-medium text-slate-700">
              Sentiment judge
            </label>
            <select id={`settings-judge-${id}`} name="judge" defaultValue={judge ?? ""} className={inputClass} data-testid="settings-judge">
              <option value="">No judge</option>
              {judges.map((e) => (
                <option key={e} value={e}>
                  {engineLabel(e)}
                </option>
              ))}
            </select>
            <span className="text-xs text-slate-500">From the next tick; charged per answer judged.</span>
          </div>
        </div>
        <p className="text-xs text-slate-500">
          These keep the monitor&apos;s series. Its prompts, engines, runs, market and brands start a new version: change them under &ldquo;What it
          measures&rdquo; below, with{" "}
          <code className="break-words">
            geoscope monitor update {id} <span className="whitespace-nowrap">--prompt …</span> <span className="whitespace-nowrap">--engines …</span>
          </code>{" "}
          or the API (PATCH /monitors/{"{id}"}).
        </p>
        <div>
          <button type="submit" className={subtleButtonClass} disabled={save.pending} data-testid="save-settings">
            {save.pending ? "Saving…" : "Save settings"}
          </button>
        </div>
      </form>
      <ActionOutcome states={[save.state]} testId="settings-outcome" />
    </details>
  );
}
