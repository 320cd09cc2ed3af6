"use client";
// The project page's brands and competitors: each with its other names (aliases, which a
// visibility analysis counts as the same entity) and, for a competitor, its domains (a cited page
// on them counts as citing it). A row per entity and two empty ones to add; clearing a row's name
// and other fields removes it. What was shown travels with the form (`was.…`), so saving an
// unchanged form changes nothing and the rest of the context is always kept.
import { useState } from "react";
import { useFormAction } from "../../../_components/form-action";
import { buttonClass, inputClass, Notice } from "../../../_components/ui";
import { saveEntitiesAction, type EntitiesState } from "../../actions";

export type EntityRowValue = { name: string; role: "brand" | "competitor"; aliases: string[]; domains: string[] };

const BLANK_ROWS = 2;

function Row({ index, value }: { index: number; value: EntityRowValue | null }) {
  const [role, setRole] = useState<EntityRowValue["role"]>(value?.role ?? "competitor");
  const id = (field: string) => `entity-${field}-${index}`;
  return (
    <fieldset className="grid gap-2 border-t border-slate-100 py-3 first:border-t-0 sm:grid-cols-[minmax(8rem,1.2fr)_8rem_minmax(8rem,2fr)_minmax(8rem,2fr)]" data-testid="entity-row">
      <legend className="sr-only">Row {index + 1}</legend>
      <label className="flex min-w-0 flex-col text-sm" htmlFor={id("name")}>
        <span>
          Name <span className="text-slate-500">(row {index + 1})</span>
        </span>
        <input id={id("name")} name={`name.${index}`} defaultValue={value?.name ?? ""} maxLength={100} placeholder={value ? "" : "Acme CRM"} className={inputClass} />
      </label>
      <label className="flex min-w-0 flex-col text-sm" htmlFor={id("role")}>
        Role
        <select id={id("role")} name={`role.${index}`} value={role} onChange={(e) => setRole(e.target.value as EntityRowValue["role"])} className={inputClass}>
          <option value="brand">Your brand</option>
          <option value="competitor">Competitor</option>
        </select>
      </label>
      <label className="flex min-w-0 flex-col text-sm" htmlFor={id("aliases")}>
        <span>
          Other names <span className="text-slate-500">(comma separated)</span>
        </span>
        <input id={id("aliases")} name={`aliases.${index}`} defaultValue={value?.aliases.join(", ") ?? ""} placeholder={value ? "" : "Acme, Acme Inc"} className={inputClass} />
      </label>
      <label className="flex min-w-0 flex-col text-sm" htmlFor={id("domains")}>
        <span>
          Domains <span className="text-slate-500">{role === "brand" ? "(the project's)" : "(comma separated)"}</span>
        </span>
        <input
          id={id("domains")}
          name={`domains.${index}`}
          defaultValue={value?.domains.join(", ") ?? ""}
          placeholder={role === "brand" ? "Primary and other domains" : value ? "" : "globex.com"}
          disabled={role === "brand"}
          className={`${inputClass} disabled:bg-slate-50`}
        />
      </label>
    </fieldset>
  );
}

/** The rows as they were shown, for the action to tell what changed. */
function Shown({ rows }: { rows: EntityRowValue[] }) {
  return (
    <>
      <input type="hidden" name="was.rows" value={rows.length} />
      {rows.map((r, i) => (
        <span key={i} hidden>
          <input type="hidden" name={`was.name.${i}`} value={r.name} />
          <input type="hidden" name={`was.role.${i}`} value={r.role} />
          <input type="hidden" name={`was.aliases.${i}`} value={r.aliases.join(", ")} />
          <input type="hidden" name={`was.domains.${i}`} value={r.domains.join(", ")} />
        </span>
      ))}
    </>
  );
}

export function EntitiesForm({ projectId, rows }: { projectId: string; rows: EntityRowValue[] }) {
  const { state, pending, form } = useFormAction(saveEntitiesAction, { ok: true } as EntitiesState);
  const count = rows.length + BLANK_ROWS;
  return (
    <form {...form} data-testid="entities-form">
      <input type="hidden" name="project_id" value={projectId} />
      <input type="hidden" name="rows" value={count} />
      <Shown rows={rows} />
      <div>
        {Array.from({ length: count }, (_, i) => (
          <Row key={i} index={i} value={rows[i] ?? null} />
        ))}
      </div>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <button type="submit" className={buttonClass} disabled={pending} data-testid="save-entities">
          {pending ? "Saving…" : "Save brands and competitors"}
        </button>
        <span className="text-xs text-slate-500">Clear a row to remove it. Your brands are cited through the project&apos;s domains.</span>
      </div>
      {state.message ? (
        <div className="mt-3" data-testid="entities-outcome">
          <Notice tone={state.ok ? "success" : "error"}>{state.message}</Notice>
        </div>
      ) : null}
    </form>
  );
}
