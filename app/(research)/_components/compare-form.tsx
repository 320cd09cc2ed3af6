"use client";
// "Compare engines" on a fanout's and a monitor's page: two of the engines the runs were made on
// (an API and its app first, where both are there), the runs as hidden ids, and a button that
// makes the comparison (POST /comparison-analyses through compareEnginesAction) and opens it. A
// refusal is said in place, in the form's words.
import { useFormAction } from "../../_components/form-action";
import { buttonClass, inputClass } from "../../_components/ui";
import { defaultPair } from "@/lib/comparison/pairs";
import { engineLabel } from "@/lib/schemas/engines";
import { compareEnginesAction, type StartState } from "../actions";
import { Refusal } from "./start-forms";

const STARTED: StartState = { ok: true };


export function CompareEnginesForm({ project, ids, engines, note }: { project: string; ids: readonly string[]; engines: readonly string[]; note: string }) {
  const { state, pending, form } = useFormAction(compareEnginesAction, STARTED);
  const [a, b] = defaultPair(engines);
  const select = (name: "a" | "b", value: string, label: string) => (
    <label className="flex flex-col text-sm">
      <span className="text-slate-600">{label}</span>
      <select name={name} defaultValue={value} className={`${inputClass} mt-1`} data-testid={`compare-${name}`}>
        {engines.map((e) => (
          <option key={e} value={e}>
            {engineLabel(e)}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <form {...form} data-testid="compare-engines">
      <input type="hidden" name="project" value={project} />
      {ids.map((id) => (
        <input key={id} type="hidden" name="ids" value={id} />
      ))}
      <div className="flex flex-wrap items-end gap-3">
        {select("a", a, "Engine")}
        <span className="pb-2 text-sm text-slate-500">against</span>
        {select("b", b, "Engine")}
        <button type="submit" disabled={pending} className={buttonClass} data-testid="start-compare">
          {pending ? "Comparing…" : "Compare engines"}
        </button>
      </div>
      <p className="mt-2 text-xs text-slate-500">{note}</p>
      <Refusal state={state} />
    </form>
  );
}
