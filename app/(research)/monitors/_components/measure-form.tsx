"use client";
// What a monitor measures, changed from its page: its prompts (one per line, or one box each when a
// prompt spans several lines: ./prompt-boxes.tsx), engines, runs, market
// and brands and competitors (the project's as they are now). A change starts a new version, a new
// series from the next tick; the earlier version's series stays readable. "What it would cost"
// prices a tick of the fields as typed and changes nothing. The form sends each field's value as
// drawn beside it, so only what was changed is sent.
import { useFormAction } from "../../../_components/form-action";
import { buttonClass, inputClass, subtleButtonClass } from "../../../_components/ui";
import { MarketPicker } from "../../_components/market-picker";
import { updateMeasureAction, type MeasureActionState } from "../[monitor_id]/actions";
import type { EntityChanges } from "../_lib/measure";
import { ActionOutcome } from "./action-outcome";
import { EngineBoxes } from "./engine-boxes";
import { PromptBoxes } from "./prompt-boxes";
import { EstimateLines } from "./monitor-form";
import type { MarketChoices } from "@/lib/locale/codes";
import { MONITOR_LIMITS } from "@/lib/schemas/monitors";

const IDLE: MeasureActionState = { ok: true };

type Props = {
  id: string;
  projectId: string;
  version: number;
  prompts: readonly string[];
  /** Each prompt's own market in words (null: the monitor's), by the prompts' order. */
  promptMarkets: readonly (string | null)[];
  engines: readonly string[];
  /** The engines enabled on this server (a monitor's engine no longer enabled is shown too, ticked). */
  enabled: readonly string[];
  runs: number;
  market: { country: string | null; city: string | null; language: string | null };
  markets: MarketChoices;
  /** How the project's brands and competitors differ from the monitor's now; null: the same. */
  entityChanges: EntityChanges | null;
};

function ChangeList({ label, names }: { label: string; names: string[] }) {
  return names.length ? (
    <span className="block">
      {label}: {names.join(", ")}
    </span>
  ) : null;
}

export function MeasureForm({ id, projectId, version, prompts, promptMarkets, engines, enabled, runs, market, markets, entityChanges }: Props) {
  const save = useFormAction(updateMeasureAction, IDLE);
  const choices = [...enabled, ...engines.filter((e) => !enabled.includes(e))];
  // A prompt holding a line break cannot be one line of the box: then each prompt has a box of its own.
  const oneLineEach = prompts.every((p) => !/[\r\n]/.test(p));
  const text = prompts.join("\n");
  return (
    <details className="mt-3 text-sm" data-testid="monitor-measure">
      <summary className="cursor-pointer text-slate-600">What it measures: prompts, engines, runs, market, brands (a new version)</summary>
      <form {...save.form} className="mt-2 grid gap-3 sm:max-w-2xl">
        <input type="hidden" name="id" value={id} />
        <input type="hidden" name="was_prompts" value={text} />
        <input type="hidden" name="was_engines" value={engines.join(",")} />
        <input type="hidden" name="was_runs" value={String(runs)} />
        <input type="hidden" name="was_country" value={market.country ?? ""} />
        <input type="hidden" name="was_city" value={market.city ?? ""} />
        <input type="hidden" name="was_language" value={market.language ?? ""} />
        <p className="text-xs text-slate-500">
          A change here starts version {version + 1}: a new series from the next tick, so figures measured differently are never drawn as one line.
          Version {version}&apos;s series stays readable on this page.
        </p>
        {oneLineEach ? (
          <label className="grid gap-1">
            <span className="font-medium text-slate-700">Prompts, one per line</span>
            <textarea
              name="prompts"
              defaultValue={text}
              rows={Math.min(12, Math.max(3, prompts.length + 1))}
              className={`${inputClass} w-full`}
              data-testid="measure-prompts"
            />
            <span className="text-xs text-slate-500">
              Up to {MONITOR_LIMITS.prompts}; blank lines are skipped. A line kept as it was keeps its question and market.
            </span>
            {promptMarkets.some(Boolean) ? (
              <span className="text-xs text-slate-500" data-testid="measure-prompt-markets">
                Lines with a market of their own:{" "}
                {promptMarkets.flatMap((m, i) => (m ? [`${i + 1}. ${m}`] : [])).join("; ")}. The same text on two lines keeps each line&apos;s market in
                this order.
              </span>
            ) : null}
          </label>
        ) : (
          <PromptBoxes prompts={prompts} markets={promptMarkets} limit={MONITOR_LIMITS.prompts} />
        )}
        <EngineBoxes choices={choices} ticked={engines} enabled={enabled} />
        <label className="grid gap-1">
          <span className="font-medium text-slate-700">Runs of each prompt on each engine</span>
          <input
            type="number"
            name="runs"
            min={MONITOR_LIMITS.runs.min}
            max={MONITOR_LIMITS.runs.max}
            defaultValue={runs}
            className={`${inputClass} w-24`}
            data-testid="measure-runs"
          />
        </label>
        <div className="grid gap-1">
          {promptMarkets.some(Boolean) ? <p className="text-xs text-slate-500">The market below is the monitor&apos;s: for the prompts without one of their own.</p> : null}
          <MarketPicker idPrefix={`measure-${id}`} choices={markets} initial={market} />
        </div>
        <div className="grid gap-1" data-testid="measure-entities">
          <span className="font-medium text-slate-700">Brands and competitors</span>
          {entityChanges ? (
            <label className="flex items-start gap-2">
              <input type="checkbox" name="entities" value="project" className="mt-0.5 h-4 w-4 accent-indigo-600" data-testid="measure-take-project-entities" />
              <span>
                Measure the project&apos;s brands and competitors as they are now
                <span className="mt-0.5 block text-xs text-slate-600" data-testid="measure-entity-changes">
                  <ChangeList label="Added" names={entityChanges.added} />
                  <ChangeList label="Removed" names={entityChanges.removed} />
                  <ChangeList label="Other names, domains or role changed" names={entityChanges.changed} />
                </span>
              </span>
            </label>
          ) : (
            <span className="text-xs text-slate-600">
              The same as the project&apos;s.{" "}
              <a href={`/projects/${projectId}#entities`} className="text-indigo-700 hover:underline">
                Change them on the project&apos;s page
              </a>
              , then take them here.
            </span>
          )}
        </div>
        {save.state.ok && save.state.estimate ? (
          <div data-testid="measure-estimate">
            <p className="mb-1 text-xs text-slate-500">A tick of the fields as typed (nothing is changed until you save):</p>
            <EstimateLines e={save.state.estimate} />
          </div>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <button type="submit" className={buttonClass} disabled={save.pending} data-testid="save-measure">
            {save.pending ? "Saving…" : `Save as version ${version + 1}`}
          </button>
          <button type="submit" name="intent" value="estimate" className={subtleButtonClass} disabled={save.pending} data-testid="estimate-measure">
            What it would cost
          </button>
        </div>
      </form>
      <ActionOutcome states={[save.state]} testId="measure-outcome" />
    </details>
  );
}
