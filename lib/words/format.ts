// How every figure reads, wherever a person reads it: pages, the CLI's tables, CSV files, the
// summaries' sentences and the alerts (decisions.md "Plain words beside every figure"). Rates are
// whole percents, one decimal under 10%; positions have one decimal; an interval is rounded
// outward (its low end down, its high end up), so the shown range always holds the computed one.
// Pure: the CLI imports it, so no server code.
import { engineLabel } from "../schemas/engines";

/** Absorbs the binary error of x * 100 (0.44 * 100 = 44.00000000000001) before rounding. */
const EPS = 1e-9;

const floorTo = (x: number, step: number) => Math.floor(x / step + EPS) * step;
const ceilTo = (x: number, step: number) => Math.ceil(x / step - EPS) * step;
/** Half away from zero, as people round. */
const roundTo = (x: number, step: number) => Math.sign(x) * Math.round(Math.abs(x) / step + EPS) * step;

/** A number of percent (or points) with one decimal under 10, whole from 10 up. */
function percentDigits(p: number): string {
  const a = Math.abs(p);
  return a < 10 - EPS ? a.toFixed(1).replace(/^10\.0$/, "10") : a.toFixed(0);
}

/**
 * A rate from 0 to 1 as a percent: "92%", "4.5%" under 10%, "0%" and "100%" only when exactly so:
 * a rate above 0 that rounds to nothing reads "<0.1%", one below 1 that rounds to 100 reads ">99%".
 */
export function percent(rate: number): string {
  if (rate <= 0) return "0%";
  if (rate >= 1) return "100%";
  const p = rate * 100;
  if (p < 10) {
    const tenth = roundTo(p, 0.1);
    if (tenth === 0) return "<0.1%";
    return tenth >= 10 - EPS ? "10%" : `${tenth.toFixed(1)}%`;
  }
  const whole = roundTo(p, 1);
  return whole >= 100 ? ">99%" : `${whole.toFixed(0)}%`;
}

/** An interval's low end of a rate, in percent without the sign, rounded down at its precision. */
function lowPercent(x: number): string {
  const p = Math.max(0, x * 100);
  if (p < 10 - EPS) {
    const t = floorTo(p, 0.1);
    return t <= EPS ? "0" : t.toFixed(1);
  }
  return Math.min(100, floorTo(p, 1)).toFixed(0);
}

/** An interval's high end of a rate, in percent without the sign, rounded up at its precision. */
function highPercent(x: number): string {
  const p = Math.min(100, x * 100);
  if (p <= EPS) return "0";
  if (p < 10 - EPS) {
    const t = ceilTo(p, 0.1);
    return t >= 10 - EPS ? "10" : t.toFixed(1);
  }
  return ceilTo(p, 1).toFixed(0);
}

/** A rate's interval: "78–97%", "0–4.5%", rounded outward. */
export function percentRange(interval: readonly [number, number]): string {
  return `${lowPercent(interval[0])}–${highPercent(interval[1])}%`;
}

/** A rate's interval's ends as two percents ("78%", "97%"), rounded outward: CSV cells. */
export function percentEnds(interval: readonly [number, number]): [string, string] {
  return [`${lowPercent(interval[0])}%`, `${highPercent(interval[1])}%`];
}

/**
 * Whether a mean's interval has no width: Student's t from values that are all alike (two prompts
 * both 0%), which says nothing of how far the mean could be off. Said as "the same on each prompt", not "0–0%".
 */
export function isFlat(interval: readonly [number, number]): boolean {
  return interval[1] - interval[0] <= EPS;
}

/** What is said instead of such an interval, wherever a person reads it. */
export const FLAT_INTERVAL = "the same on each prompt, so no interval";

/** Whether a rate's interval is wider than 20 points: its figure is then said with "about". */
export function isWide(interval: readonly [number, number]): boolean {
  return interval[1] - interval[0] > 0.2 + EPS;
}

/** A place among the tracked entities (1 = named first), with one decimal: "1.4". */
export function place(x: number): string {
  return roundTo(x, 0.1).toFixed(1);
}

/** A place's interval with one decimal, rounded outward: "1.2–1.9". */
export function placeRange(interval: readonly [number, number]): string {
  return `${floorTo(interval[0], 0.1).toFixed(1)}–${ceilTo(interval[1], 0.1).toFixed(1)}`;
}

/** A place's interval's ends, rounded outward: CSV cells. */
export function placeEnds(interval: readonly [number, number]): [string, string] {
  return [floorTo(interval[0], 0.1).toFixed(1), ceilTo(interval[1], 0.1).toFixed(1)];
}

const MINUS = "−";

/** A difference of two rates in percentage points, signed: "+12 points", "−4.5 points", "±0 points". */
export function points(diff: number): string {
  return `${signedPoints(diff)} points`;
}

/** A difference in points, signed, without the word: "+12", "−4.5". */
export function signedPoints(diff: number): string {
  const p = diff * 100;
  const r = roundTo(p, Math.abs(p) < 10 - EPS ? 0.1 : 1);
  if (r === 0) return "±0";
  return `${r > 0 ? "+" : MINUS}${percentDigits(r)}`;
}

/** One end of a difference's interval in points, rounded outward (`down` for the low end). */
function pointsEnd(diff: number, down: boolean): string {
  const p = diff * 100;
  const step = Math.abs(p) < 10 - EPS ? 0.1 : 1;
  const r = down ? floorTo(p, step) : ceilTo(p, step);
  // After rounding outward a value may cross into the other precision band: say it at its own.
  const digits = Math.abs(r) < 10 - EPS ? Math.abs(r).toFixed(1) : Math.abs(r).toFixed(0);
  if (Math.abs(r) <= EPS) return "0";
  return `${r > 0 ? "+" : MINUS}${digits}`;
}

/** A difference's interval in points, rounded outward: "−3.2 to +26 points". */
export function pointsRange(interval: readonly [number, number]): string {
  return `${pointsEnd(interval[0], true)} to ${pointsEnd(interval[1], false)} points`;
}

/** A difference of rates as a CSV cell: a signed percent with an ASCII minus ("-4.5%"), which spreadsheets read as a number. */
export function percentDiffCell(diff: number): string {
  return `${signedPoints(diff).replace(MINUS, "-").replace(/^[+±]/, "")}%`;
}

/** A difference's interval's ends as CSV cells, rounded outward ("-3.2%", "26%"). */
export function percentDiffEnds(interval: readonly [number, number]): [string, string] {
  const cell = (s: string) => `${s.replace(MINUS, "-").replace("+", "")}%`;
  return [cell(pointsEnd(interval[0], true)), cell(pointsEnd(interval[1], false))];
}

/** A difference of two places, signed, one decimal: "+0.5", "−1.2" (positive: named later). */
export function placeDiff(diff: number): string {
  const r = roundTo(diff, 0.1);
  if (r === 0) return "±0.0";
  return `${r > 0 ? "+" : MINUS}${Math.abs(r).toFixed(1)}`;
}

/** A place difference's interval, one decimal, rounded outward. */
export function placeDiffRange(interval: readonly [number, number]): string {
  const end = (x: number, down: boolean) => {
    const r = down ? floorTo(x, 0.1) : ceilTo(x, 0.1);
    return Math.abs(r) <= EPS ? "0.0" : `${r > 0 ? "+" : MINUS}${Math.abs(r).toFixed(1)}`;
  };
  return `${end(interval[0], true)} to ${end(interval[1], false)}`;
}

/** "33 of 36". */
export function count(k: number, n: number): string {
  return `${k} of ${n}`;
}

/** k of n of a noun, the noun agreeing with n: "1 of 1 prompt", "0 of 2 answers". */
export function countOf(k: number, n: number, one: string, many = `${one}s`): string {
  return `${k} of ${counted(n, one, many)}`;
}

/** A count of a noun: "1 answer", "36 answers"; `many` for a plural that is not the word and an s. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A list in prose: "A", "A and B", "A, B and C". */
export function listed(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** Cohen's kappa with two decimals and its words (Landis and Koch's bands): "0.95, almost perfect". */
export function kappa(k: number | null): string {
  if (k === null) return "undefined (nothing to compare, or every answer read alike)";
  const words = k < 0 ? "worse than chance" : k <= 0.2 ? "slight" : k <= 0.4 ? "fair" : k <= 0.6 ? "moderate" : k <= 0.8 ? "substantial" : "almost perfect";
  return `${roundTo(k, 0.01).toFixed(2)}, ${words}`;
}

/**
 * An engine as a reader must know it: its name and whether a model's API or a consumer app
 * answered ("ChatGPT (API)", "ChatGPT (app)"); an id the engine table does not know, as it is.
 */
export function engineName(engine: string | null | undefined): string {
  if (!engine) return "An answer engine";
  return engineLabel(engine);
}
