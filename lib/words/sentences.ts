// The sentences of a `summary` (decisions.md "Plain words beside every figure"): fixed templates
// filled from the figures, no model. Each sentence names its n, says "about" before a rate whose
// 95% interval is wider than 20 points, and calls a difference a change only when its test says
// so. Every kind of object with a summary (visibility analyses, monitor ticks, and later
// comparisons and opportunity lists) composes its own from these; lib/words/<kind>.ts does.
import { count, counted, engineName, isWide, listed, percent, percentRange, points } from "./format";

/** The most sentences a summary has. */
export const SUMMARY_SENTENCES = 5;

/** Sentences a marketer reads first, each a whole sentence ending with a full stop. */
export type Summary = string[];

/** A rate as counted: `k` of `n`, with its 95% interval as the API gives it. */
export type Tally = { k: number; n: number; interval: readonly [number, number] };

/** A difference's test (lib/stats changeTest): only `significant` makes it a change. */
export type Test = { diff: number; interval: readonly [number, number]; significant: boolean };

/** What the counted things are called: answers, judged answers, runs. */
export type Noun = { one: string; many: string };
export const ANSWERS: Noun = { one: "answer", many: "answers" };

const noun = (n: number, what: Noun) => (n === 1 ? what.one : what.many);

/** The summary: the sentences given, in order of importance, empty ones dropped, at most SUMMARY_SENTENCES. */
export function summaryOf(...sentences: Array<string | null | undefined | false>): Summary {
  return sentences.filter((s): s is string => typeof s === "string" && s !== "").slice(0, SUMMARY_SENTENCES);
}

/** Whether a difference is to be called a change: its test says so, and nothing else does. */
export const isChange = (test: Test | null | undefined): test is Test => test?.significant === true;

/**
 * A rate's figure, for brackets: "92%, 95% interval 78–97%", or "50%, 34–66%" after the first
 * (`full` false); "about" before a rate whose interval is wider than 20 points.
 */
export function rateFigure(t: Tally, full = true): string {
  const rate = t.n === 0 ? 0 : t.k / t.n;
  return `${isWide(t.interval) ? "about " : ""}${percent(rate)}, ${full ? "95% interval " : ""}${percentRange(t.interval)}`;
}

/** A rate said as a figure only, with "about" when its interval is wide: "about 58%". */
export function rateWords(t: Tally): string {
  return `${isWide(t.interval) ? "about " : ""}${percent(t.n === 0 ? 0 : t.k / t.n)}`;
}

export type Named = Tally & { name: string };

/**
 * How often each is named: "HubSpot is named in 33 of 36 answers (92%, 95% interval 78–97%);
 * Pipedrive in 18 (about 50%, 34–66%)." The n is said again where it differs from the one
 * before. `rest`, named less often, are said together: "; 3 others in 0 to 2 each". Null when
 * there is nobody to name.
 */
export function namedIn(items: readonly Named[], rest: readonly Named[] = [], what: Noun = ANSWERS): string | null {
  const [lead, ...others] = items;
  if (!lead) return null;
  const parts = [`${lead.name} is named in ${count(lead.k, lead.n)} ${noun(lead.n, what)} (${rateFigure(lead)})`];
  let n = lead.n;
  for (const item of others) {
    parts.push(`${item.name} in ${item.n === n ? item.k : count(item.k, item.n)} (${rateFigure(item, false)})`);
    n = item.n;
  }
  if (rest.length) {
    const ks = rest.map((r) => r.k);
    const low = Math.min(...ks);
    const high = Math.max(...ks);
    const sameN = rest.every((r) => r.n === n);
    const span = low === high ? `${low}` : `${low} to ${high}`;
    parts.push(`${counted(rest.length, "other")} in ${span}${sameN ? "" : ` of ${rest[0]!.n}`} each`);
  }
  return `${parts.join("; ")}.`;
}

/** Each engine's count of one entity, over that engine's answers. */
export type EngineTally = { engine: string; k: number; n: number };

function engineCounts(groups: readonly EngineTally[]): string {
  const same = groups.length > 1 && groups.every((g) => g.k === groups[0]!.k && g.n === groups[0]!.n);
  return same ? `${count(groups[0]!.k, groups[0]!.n)} each` : groups.map((g) => count(g.k, g.n)).join(", ");
}

/**
 * Which engines name an entity least and most: "Across engines, Claude names Pipedrive least
 * (2 of 12) and ChatGPT most (10 of 12)." Only engines with answers count; null with fewer than
 * two. When every engine names it equally often: "ChatGPT, Claude and Gemini name Pipedrive
 * equally often (4 of 12 each)."; when none names it: "Neither ChatGPT nor Claude names Pipedrive
 * (0 of 12 each)." ("None of A, B and C names …" for three or more); when every answer of every
 * engine names it: "ChatGPT and Claude name Pipedrive in every answer (12 of 12 each)."
 */
export function engineSpread(name: string, groups: readonly EngineTally[]): string | null {
  const answered = groups.filter((g) => g.n > 0);
  if (answered.length < 2) return null;
  const rate = (g: EngineTally) => g.k / g.n;
  // Compared on integers: 2/12 and 4/24 are the same rate.
  const cmp = (a: EngineTally, b: EngineTally) => a.k * b.n - b.k * a.n;
  const least = answered.filter((g) => answered.every((o) => cmp(g, o) <= 0));
  const most = answered.filter((g) => answered.every((o) => cmp(g, o) >= 0));
  const names = (gs: readonly EngineTally[]) => listed(gs.map((g) => engineName(g.engine)));
  const verb = (gs: readonly EngineTally[]) => (gs.length === 1 ? "names" : "name");
  if (rate(least[0]!) === rate(most[0]!)) {
    const counts = engineCounts(answered);
    if (least[0]!.k === 0) {
      const engines = answered.map((g) => engineName(g.engine));
      return answered.length === 2 ? `Neither ${engines[0]} nor ${engines[1]} names ${name} (${counts}).` : `None of ${listed(engines)} names ${name} (${counts}).`;
    }
    if (least[0]!.k === least[0]!.n) return `${names(answered)} name ${name} in every answer (${counts}).`;
    return `${names(answered)} name ${name} equally often (${counts}).`;
  }
  return `Across engines, ${names(least)} ${verb(least)} ${name} least (${engineCounts(least)}) and ${names(most)} most (${engineCounts(most)}).`;
}

/** How often an entity is named before every other tracked one: "HubSpot is named first in 20 of 36 answers (56%, 95% interval 39–72%)." */
export function namedFirst(name: string, t: Tally, what: Noun = ANSWERS): string {
  return `${name} is named first, before the other tracked names, in ${count(t.k, t.n)} ${noun(t.n, what)} (${rateFigure(t)}).`;
}

export type Tone = { positive: number; neutral: number; negative: number };

/**
 * The judge's reading of how answers speak of an entity, as counts over the judged answers
 * naming it, never as a score of the few that take a side: "Judged for tone, 2 of 18 answers
 * naming HubSpot are positive and none negative (16 neutral)." Null when none was judged.
 */
export function tone(name: string, t: Tone): string | null {
  const n = t.positive + t.neutral + t.negative;
  if (n === 0) return null;
  const positive = t.positive === 0 ? `none of ${n}` : count(t.positive, n);
  const verb = t.positive === 1 ? "is" : "are";
  const negative = t.negative === 0 ? "none" : String(t.negative);
  const neutral = t.neutral === 0 ? "" : ` (${t.neutral} neutral)`;
  return `Judged for tone, ${positive} ${noun(n, ANSWERS)} naming ${name} ${verb} positive and ${negative} negative${neutral}.`;
}

/**
 * Other brands the answers name: "The judged answers also name brands not tracked here: Zoho CRM
 * in 12 of 36, monday.com in 8 and Close in 3." Up to three named, then how many more.
 */
export function alsoNamed(found: readonly { name: string; k: number }[], n: number): string {
  if (found.length === 0) return `The ${counted(n, "judged answer")} ${n === 1 ? "names" : "name"} no brand beyond the tracked ones.`;
  const shown = found.slice(0, 3).map((d, i) => (i === 0 ? `${d.name} in ${count(d.k, n)}` : `${d.name} in ${d.k}`));
  const more = found.length > 3 ? ` (and ${found.length - 3} more)` : "";
  return `The judged answers also name brands not tracked here: ${listed(shown)}${more}.`;
}

export type Change = {
  /** What changed, as the sentence's subject: "HubSpot's visibility", "HubSpot's visibility on Claude". */
  subject: string;
  before: Tally;
  after: Tally;
  test: Test | null;
};

/**
 * A change, said only when its test calls it one: "Since the previous tick, HubSpot's visibility
 * rose 25 points, from about 58% (18 of 31 answers) to 83% (25 of 30), more than chance explains."
 * Null otherwise: a difference the test does not call a change is not one.
 */
export function change(c: Change, since = "Since the previous tick", what: Noun = ANSWERS): string | null {
  if (!isChange(c.test)) return null;
  const size = points(Math.abs(c.test.diff)).replace(/^\+/, "");
  return (
    `${since}, ${c.subject} ${c.test.diff > 0 ? "rose" : "fell"} ${size}, from ${rateWords(c.before)} (${count(c.before.k, c.before.n)} ${noun(c.before.n, what)}) ` +
    `to ${rateWords(c.after)} (${count(c.after.k, c.after.n)}), more than chance explains.`
  );
}

/** That nothing changed beyond chance: "No visibility changed beyond chance since the previous tick (31 answers then, 30 now)." */
export function noChange(what: string, before: number, after: number, since = "since the previous tick"): string {
  return `No ${what} changed beyond chance ${since} (${counted(before, ANSWERS.one, ANSWERS.many)} then, ${after} now).`;
}
