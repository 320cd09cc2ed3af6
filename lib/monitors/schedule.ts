// A monitor's schedule: slots every day, or every week on an ISO weekday, at a minute of the day,
// all in UTC (no daylight saving to skip or repeat a slot). Pure: the clock is always given.

export type Every = "day" | "week";

/** As stored: the minute of the day (0 to 1439) and, for weeks, the ISO weekday (1 = Monday). */
export type StoredSchedule = { every: Every; minute: number; weekday: number | null };

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** The schedule as the API shows it: `{every, at: "HH:MM", weekday}`. */
export function scheduleOf(s: StoredSchedule): { every: Every; at: string; weekday: number | null } {
  const hh = String(Math.floor(s.minute / 60)).padStart(2, "0");
  const mm = String(s.minute % 60).padStart(2, "0");
  return { every: s.every, at: `${hh}:${mm}`, weekday: s.every === "week" ? (s.weekday ?? 1) : null };
}

/** A request's schedule as stored: a weekly one without a weekday is on Mondays. */
export function storedSchedule(input: { every: Every; at: string; weekday?: number }): StoredSchedule {
  const [hh, mm] = input.at.split(":").map(Number) as [number, number];
  return { every: input.every, minute: hh * 60 + mm, weekday: input.every === "week" ? (input.weekday ?? 1) : null };
}

const periodOf = (s: StoredSchedule) => (s.every === "week" ? 7 * DAY : DAY);

/** The latest slot at or before `now`. */
export function latestSlot(s: StoredSchedule, now: Date): Date {
  const t = now.getTime();
  const midnight = t - (((t % DAY) + DAY) % DAY);
  let slot = midnight + s.minute * MINUTE;
  if (s.every === "week") {
    const isoWeekday = ((now.getUTCDay() + 6) % 7) + 1;
    slot -= (((isoWeekday - (s.weekday ?? 1)) % 7) + 7) % 7 * DAY;
  }
  if (slot > t) slot -= periodOf(s);
  return new Date(slot);
}

/** The first slot strictly after `now`. */
export function nextSlot(s: StoredSchedule, now: Date): Date {
  return new Date(latestSlot(s, now).getTime() + periodOf(s));
}

/** The first instant of `now`'s UTC month: the budget counts spend from here. */
export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}
