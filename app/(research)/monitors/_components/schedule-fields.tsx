"use client";
// A monitor's schedule as a form's fields (`every`, `weekday` for a weekly one, `at` in UTC): the
// new monitor's form and a monitor's settings share them. The three controls are one height (a time
// input is drawn taller than a select), so their labels sit on one line.
import { useState } from "react";
import { inputClass } from "../../../_components/ui";

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/** `prefix` names each field's test id: `${prefix}-every`, `${prefix}-weekday`, `${prefix}-at`. */
export function ScheduleFields({ every: initial = "day", weekday = 1, at = "06:00", prefix }: { every?: "day" | "week"; weekday?: number; at?: string; prefix: string }) {
  const [every, setEvery] = useState<string>(initial);
  return (
    <fieldset className="flex flex-wrap items-end gap-3">
      <legend className="mb-1 text-sm font-medium">Schedule</legend>
      <label className="text-sm">
        <span className="block text-slate-600">Every</span>
        <select name="every" value={every} onChange={(e) => setEvery(e.target.value)} className={`${inputClass} mt-1 h-9`} data-testid={`${prefix}-every`}>
          <option value="day">day</option>
          <option value="week">week</option>
        </select>
      </label>
      {every === "week" ? (
        <label className="text-sm">
          <span className="block text-slate-600">On</span>
          <select name="weekday" defaultValue={String(weekday)} className={`${inputClass} mt-1 h-9`} data-testid={`${prefix}-weekday`}>
            {WEEKDAYS.map((d, i) => (
              <option key={d} value={i + 1}>
                {d}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <label className="text-sm">
        <span className="block text-slate-600">At (UTC)</span>
        <input type="time" name="at" defaultValue={at} required className={`${inputClass} mt-1 h-9`} data-testid={`${prefix}-at`} />
      </label>
    </fieldset>
  );
}
