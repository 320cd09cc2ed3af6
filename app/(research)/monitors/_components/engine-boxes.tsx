// A monitor's engines as a form's checkboxes (`engines`, once per engine ticked): the new
// monitor's form and "What it measures" share them. An engine the server no longer enables (a
// monitor's, kept) is said so beside its name.
import { engineLabel } from "@/lib/schemas/engines";

export function EngineBoxes({ choices, ticked, enabled }: { choices: readonly string[]; ticked: readonly string[]; enabled: readonly string[] }) {
  return (
    <fieldset className="flex flex-wrap items-center gap-x-4 gap-y-1">
      <legend className="mb-1 text-sm font-medium">Engines</legend>
      {choices.map((e) => (
        <label key={e} className="flex items-center gap-1.5 text-sm">
          <input type="checkbox" name="engines" value={e} defaultChecked={ticked.includes(e)} className="h-4 w-4 accent-indigo-600" />
          {engineLabel(e)}
          {enabled.includes(e) ? null : <span className="text-xs text-amber-700">(not enabled on this server)</span>}
        </label>
      ))}
    </fieldset>
  );
}
