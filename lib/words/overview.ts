// A project's monitor overview in plain words (docs/decisions.md "Project monitor overview"): each
// monitor's brand at its latest tick, then only the changes since last week or last month that
// the series' test calls significant, else that nothing changed beyond chance. Every sentence
// with its n. Pure: the CLI may import it.
import { counted } from "./format";
import { change, rateFigure, summaryOf, type Summary, type Tally, type Test } from "./sentences";

/** An entity's change from an earlier point, with that point's tally and the series' test. */
export type OverviewShift = { before: Tally; test: Test };

export type OverviewFacts = {
  monitors: ReadonlyArray<{
    name: string;
    /** The current version: after a change, its figures start again (the earlier versions' are not mixed in). */
    version: number;
    entities: ReadonlyArray<{ name: string; role: "brand" | "competitor"; latest: Tally | null; week: OverviewShift | null; month: OverviewShift | null }>;
  }>;
};

/** Monitors whose brand is said one by one. */
const MONITORS_SAID = 2;
/** Changes said one by one; the others are counted. */
const CHANGES_SAID = 2;

const SINCE = { week: "since last week", month: "since last month" } as const;

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "30 answers", "30 to 36 answers": the n of some tallies. */
function answersOf(ns: readonly number[]): string {
  const low = Math.min(...ns);
  const high = Math.max(...ns);
  return low === high ? counted(low, "answer") : `${low} to ${high} answers`;
}

export function overviewSummary(facts: OverviewFacts): Summary {
  if (facts.monitors.length === 0) return summaryOf("This project has no monitor yet, so there is nothing to follow over time.");
  const measured = facts.monitors.filter((m) => m.entities.some((e) => e.latest));
  if (measured.length === 0) {
    return summaryOf(
      facts.monitors.length === 1
        ? `The monitor "${facts.monitors[0]!.name}" has no completed tick ${facts.monitors[0]!.version > 1 ? `since what it measures last changed (version ${facts.monitors[0]!.version})` : "yet"}, so there is no figure to show.`
        : `None of the ${facts.monitors.length} monitors has a completed tick yet, so there is no figure to show.`,
    );
  }
  // The brand first (the first of role brand), else the monitor's first entity.
  const latest = measured.slice(0, MONITORS_SAID).map((m) => {
    const focus = m.entities.find((e) => e.role === "brand" && e.latest) ?? m.entities.find((e) => e.latest)!;
    const t = focus.latest!;
    return `On the monitor "${m.name}", ${focus.name} is named in ${t.k} of ${counted(t.n, "answer")} at the latest tick (${rateFigure(t)}).`;
  });
  const unmeasured = facts.monitors.length - measured.length;
  type Said = { monitor: string; entity: string; since: keyof typeof SINCE; after: Tally; shift: OverviewShift };
  const compared: Said[] = [];
  for (const m of facts.monitors)
    for (const e of m.entities)
      for (const since of ["week", "month"] as const) {
        const shift = e[since];
        if (shift && e.latest) compared.push({ monitor: m.name, entity: e.name, since, after: e.latest, shift });
      }
  // Since last week first, then the largest.
  const changes = compared.filter((c) => c.shift.test.significant).sort((a, b) => (a.since === b.since ? 0 : a.since === "week" ? -1 : 1) || Math.abs(b.shift.test.diff) - Math.abs(a.shift.test.diff));
  const said = changes
    .slice(0, CHANGES_SAID)
    .map((c) => change({ subject: `${c.entity}'s visibility on the monitor "${c.monitor}"`, before: c.shift.before, after: c.after, test: c.shift.test }, capital(SINCE[c.since])));
  const unsaid = changes.length - said.length;
  const kinds = (["week", "month"] as const).filter((k) => compared.some((c) => c.since === k));
  const latestNs = measured.flatMap((m) => m.entities.flatMap((e) => (e.latest ? [e.latest.n] : [])));
  let rest: string | null = null;
  if (unsaid > 0) rest = `There ${unsaid === 1 ? "is 1 more change" : `are ${unsaid} more changes`} beyond chance since last week or last month.`;
  else if (changes.length === 0 && kinds.length > 0) {
    const entities = new Set(compared.map((c) => `${c.monitor}\u0000${c.entity}`)).size;
    rest = `No visibility changed beyond chance ${kinds.map((k) => SINCE[k]).join(" or ")} (${counted(entities, "entity", "entities")} compared, over ${answersOf(compared.map((c) => c.after.n))} at the latest tick).`;
  } else if (kinds.length === 0) {
    rest = `No change is measured yet: no monitor has a tick a week before its latest (${answersOf(latestNs)} at the latest tick).`;
  }
  return summaryOf(...latest, ...said, rest, unmeasured > 0 && said.length + latest.length < 4 ? `${counted(unmeasured, "monitor")} ${unmeasured === 1 ? "has" : "have"} no completed tick yet.` : null);
}
