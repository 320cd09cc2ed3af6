"use client";
// "Track these prompts": the new monitor's name, schedule, repeats, engines and budget, for the
// prompts the page lists (read again by the action from where they came from), or for prompts
// typed here one per line with the monitor's market ("New monitor" of a project). What was typed
// stays when the action refuses it. Once made, the form gives way to the monitor's webhook secret,
// shown this once with a copy button (as the CLI prints it), and the way to the monitor's page.
import { useFormAction } from "../../../_components/form-action";
import { SecretOnce } from "../../../_components/secret-once";
import { buttonClass, inputClass, Notice, subtleButtonClass } from "../../../_components/ui";
import { createMonitorAction, type MonitorFormState } from "../actions";
import { EngineBoxes } from "./engine-boxes";
import { ScheduleFields } from "./schedule-fields";
import { MarketPicker } from "../../_components/market-picker";
import type { MarketChoices } from "@/lib/locale/codes";
import { MONITOR_LIMITS } from "@/lib/schemas/monitors";
import { engineLabel } from "@/lib/schemas/engines";
import { STRUCTURED_ENGINE_IDS } from "@/lib/schemas/common";

const INITIAL: MonitorFormState = { ok: true };

export function MonitorForm({
  from,
  cluster,
  name,
  engines,
  chosen,
  runs,
  disabled,
  typed,
}: {
  from: string;
  cluster?: string;
  name: string;
  engines: string[];
  chosen: string[];
  runs: number;
  disabled: boolean;
  /** The prompts are typed in this form, with the monitor's market chosen from these. */
  typed?: MarketChoices;
}) {
  const { state, pending, form } = useFormAction(createMonitorAction, INITIAL);
  if (state.created) return <MonitorCreated {...state.created} />;
  return (
    <form {...form} className="space-y-4" data-testid="monitor-form">
      <input type="hidden" name="from" value={from} />
      {cluster ? <input type="hidden" name="cluster" value={cluster} /> : null}
      {typed ? (
        <>
          <label className="block text-sm font-medium">
            Prompts, one per line
            <textarea
              name="prompts"
              rows={5}
              placeholder={"best crm for a small agency\npipedrive vs hubspot\ncrm with email tracking"}
              className={`${inputClass} mt-1 block w-full font-normal`}
              data-testid="monitor-prompts"
            />
            <span className="mt-1 block text-xs font-normal text-slate-500">Up to {MONITOR_LIMITS.prompts}; blank lines are skipped.</span>
          </label>
          <MarketPicker idPrefix="monitor-market" choices={typed} />
        </>
      ) : null}
      <label className="block text-sm font-medium">
        Name{typed ? <span className="font-normal text-slate-500"> (optional: the first prompt)</span> : null}
        <input name="name" defaultValue={name} maxLength={100} className={`${inputClass} mt-1 block w-full font-normal`} />
      </label>
      <ScheduleFields prefix="monitor" />
      <EngineBoxes choices={engines} ticked={chosen} enabled={engines} />
      <div className="flex flex-wrap gap-4">
        <label className="text-sm font-medium">
          Runs of each prompt on each engine
          <input type="number" name="runs" min={1} max={10} defaultValue={runs} className={`${inputClass} mt-1 block w-24 font-normal`} />
        </label>
        <label className="text-sm font-medium">
          Monthly budget (USD, optional)
          <input name="budget" inputMode="decimal" placeholder="25.00" className={`${inputClass} mt-1 block w-32 font-normal`} />
        </label>
        {/* The label names only the field: wrapped around the select, its text would take in every
            option's engine label, and "Gemini (API)" would name the judge as well as the engine. */}
        <div className="text-sm font-medium">
          <label htmlFor="monitor-judge">Sentiment judge (optional)</label>
          <select id="monitor-judge" name="judge" defaultValue="" className={`${inputClass} mt-1 block font-normal`} data-testid="monitor-judge">
            <option value="">No judge</option>
            {STRUCTURED_ENGINE_IDS.filter((e) => engines.includes(e)).map((e) => (
              <option key={e} value={e}>
                {engineLabel(e)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p className="text-sm text-slate-600">
        A judge reads each tick&apos;s answers and says how they speak of each brand and competitor (positive, neutral or negative, with a quote): a
        sentiment chart per entity on the monitor&apos;s page. It is charged per answer judged and counts in the budget.
      </p>
      <p className="text-sm text-slate-600">
        Nothing runs now. Each tick is a fanout of these prompts, charged like one; a tick your credit or the monthly budget cannot pay is skipped and
        starts nothing.
      </p>
      {!state.ok && state.message ? (
        <div data-testid="monitor-refusal">
          <Notice tone="error">{state.message}</Notice>
        </div>
      ) : null}
      {state.ok && state.estimate ? <EstimateLines e={state.estimate} /> : null}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={buttonClass} disabled={pending || disabled} data-testid="create-monitor">
          {pending ? "Working…" : "Create monitor"}
        </button>
        <button type="submit" name="intent" value="estimate" className={subtleButtonClass} disabled={pending} data-testid="estimate-monitor">
          What it costs and can see
        </button>
      </div>
    </form>
  );
}

/** The estimate of the fields as they are: a tick's and a month's price, and how precise its figures will be, in words. */
export function EstimateLines({ e }: { e: NonNullable<MonitorFormState["estimate"]> }) {
  return (
    <div className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700" data-testid="monitor-estimate">
      <p>
        {e.executions_per_tick} runs per tick: ${e.per_tick_usd} a tick, at most ${e.per_month_usd} a month ({e.ticks_per_month} ticks)
        {e.monthly_budget_usd !== null ? `; the $${e.monthly_budget_usd} budget pays for ${e.ticks_within_budget} of them` : ""}
        {e.billing_enabled ? "." : " (billing is off: nothing is charged)."}
      </p>
      {e.judge ? (
        <p className="mt-1" data-testid="monitor-estimate-judge">
          {`Of each tick's price, the ${engineLabel(e.judge.engine)} judge: at most $${e.judge.amount_usd} (${e.judge.runs} answers at $${e.judge.unit_price_usd}), paid per answer judged.`}
        </p>
      ) : null}
      <p className="mt-1" data-testid="monitor-estimate-precision">
        {[...e.margin.summary, ...e.detectable_change.summary].join(" ")}
      </p>
    </div>
  );
}

/** The new monitor: its webhook secret, shown this once, and the way to its page. */
function MonitorCreated({ id, name, secret }: { id: string; name: string; secret: string }) {
  return (
    <div data-testid="monitor-created">
      <Notice tone="success">
        Monitor “{name}” created. Nothing has run yet: its first tick is at its first slot, or run one now from its page.
      </Notice>
      <SecretOnce label="Its webhook secret, shown this once" secret={secret} testId="webhook-secret">
        Every alert POSTed to its webhook is signed with it (the Geoscope-Signature header): store it now to check them. You can make a new one on the
        monitor&apos;s page; this one is not shown again.
      </SecretOnce>
      <a href={`/monitors/${id}`} className={`${buttonClass} mt-4 inline-block`} data-testid="open-monitor">
        Open the monitor
      </a>
    </div>
  );
}
