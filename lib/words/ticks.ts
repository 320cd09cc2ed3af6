// A monitor tick's summary (decisions.md "Plain words beside every figure"), from the figures its
// analysis stored and the series' change test against the previous completed tick of its version:
// how often each entity is named, what changed (only what the test calls a change), and which
// engines name the brand least and most. A tick without figures says where it stands.
import { engineName } from "./format";
import { change, engineSpread, namedIn, noChange, summaryOf, type Named, type Summary, type Tally, type Test } from "./sentences";

/** One entity × engine cell of the tick ("all": every engine together), as counted. */
export type TickCell = Tally & { entity: string; engine: string };

/** A cell's visibility at the previous tick and now, with the series' test of the difference. */
export type TickChange = { entity: string; engine: string; before: Tally; after: Tally; test: Test | null };

export type TickFacts = {
  status: "queued" | "running" | "completed" | "partial" | "failed" | "skipped";
  /** Null until the tick's analysis has stored its figures (and for ticks that never will). */
  figures: null | {
    /** Every cell, entities in the monitor's order. */
    cells: readonly TickCell[];
    /** The entity said first and the engines sentence is about: the first brand, else the first entity. */
    focus: string;
    /** Each cell's change from the previous completed tick of the version; empty for the first tick. */
    changes: readonly TickChange[];
  };
};

/** Changes said one by one; the others are counted. */
const CHANGES_SAID = 2;

const WITHOUT_FIGURES: Record<TickFacts["status"], string> = {
  queued: "Queued: no answers yet.",
  running: "Running: the figures come once its answers are in.",
  completed: "Its answers are in, but no figures were made from them.",
  partial: "Some of its answers are in, but no figures were made from them.",
  failed: "Failed: no answers came back, so there are no figures.",
  skipped: "Skipped: nothing ran and nothing was charged.",
};

export function tickSummary(t: TickFacts): Summary {
  const f = t.figures;
  if (!f) return summaryOf(WITHOUT_FIGURES[t.status]);
  const all = f.cells.filter((c) => c.engine === "all");
  if (all.length === 0 || all[0]!.n === 0) return summaryOf("No answer could be counted in this tick.");
  // The brand first, then the others named most first (as a visibility analysis's summary says them).
  const named: Named[] = [...all]
    .sort((a, b) => (a.entity === f.focus ? -1 : b.entity === f.focus ? 1 : b.k - a.k))
    .map((c) => ({ name: c.entity, k: c.k, n: c.n, interval: c.interval }));
  // With one engine its cells are the "all" cells again: said once.
  const engines = new Set(f.cells.filter((c) => c.engine !== "all").map((c) => c.engine));
  // Every engine together first, then the largest changes.
  const changes = f.changes
    .filter((c) => c.test?.significant && (c.engine === "all" || engines.size > 1))
    .sort((a, b) => (a.engine === "all" ? 0 : 1) - (b.engine === "all" ? 0 : 1) || Math.abs(b.test!.diff) - Math.abs(a.test!.diff));
  const said = changes.slice(0, CHANGES_SAID).map((c) =>
    change({ subject: `${c.entity}'s visibility${c.engine === "all" ? "" : ` on ${engineName(c.engine)}`}`, before: c.before, after: c.after, test: c.test }),
  );
  const unsaid = changes.length - said.length;
  const previous = f.changes.find((c) => c.engine === "all");
  return summaryOf(
    namedIn(named.slice(0, 4), named.slice(4)),
    ...said,
    unsaid > 0 ? `There ${unsaid === 1 ? "is 1 more change" : `are ${unsaid} more changes`} beyond chance${changes.slice(CHANGES_SAID).every((c) => c.engine !== "all") ? " on single engines" : ""}.` : null,
    changes.length === 0 && previous ? noChange("visibility", previous.before.n, previous.after.n) : null,
    engineSpread(
      f.focus,
      f.cells.filter((c) => c.entity === f.focus && c.engine !== "all").map((c) => ({ engine: c.engine, k: c.k, n: c.n })),
    ),
  );
}
