// A visibility analysis's summary (decisions.md "Plain words beside every figure"), from the
// figures it states: how often each entity is named, which engines name the brand least and most,
// how the judge read its tone (or that the judge is still at work), how often it is named first,
// and the other brands the answers name. Computed when the analysis is presented, so a stored
// analysis has one too and GET answers what POST did.
//
// It reads the analysis's own fields (lib/schemas/visibility.ts), declared here by what it reads:
// the schema's examples are worded by it, so it cannot take its types from the schema.
import { counted } from "./format";
import { alsoNamed, engineSpread, namedFirst, namedIn, summaryOf, tone, type Named, type Summary, type Tone } from "./sentences";

type Figures = { runs: number; runs_mentioning: number; visibility_interval: readonly [number, number]; runs_top1: number; top1_rate_interval: readonly [number, number] };

/** What the summary reads of a visibility analysis (VisibilityAnalysis's fields of these names). */
export type VisibilityFacts = {
  status: string;
  run_count: number;
  totals: { runs: number };
  rows: ReadonlyArray<Figures & { name: string; role: string; by_engine: ReadonlyArray<Figures & { engine: string }>; sentiment?: Tone | null }>;
  judge: { runs: number; runs_done: number; runs_judged: number; sentiment: boolean; discover: boolean } | null;
  discovered: ReadonlyArray<{ name: string; runs_mentioning: number }> | null;
};

/** Entities named in the first sentence one by one; the rest are said together. */
const NAMED_ONE_BY_ONE = 4;

export function visibilitySummary(a: VisibilityFacts): Summary {
  if (a.totals.runs === 0) {
    return summaryOf(`No answer could be counted: ${a.run_count === 1 ? "the run named was" : `all ${counted(a.run_count, "run")} named were`} left out (unfinished, failed or empty).`);
  }
  // The brands in their order, then the competitors named most first.
  const order = [...a.rows].sort((x, y) => (x.role === y.role ? (x.role === "brand" ? 0 : y.runs_mentioning - x.runs_mentioning) : x.role === "brand" ? -1 : 1));
  const named: Named[] = order.map((r) => ({ name: r.name, k: r.runs_mentioning, n: r.runs, interval: r.visibility_interval }));
  const focus = a.rows.find((r) => r.role === "brand") ?? a.rows[0];
  const judge = a.judge;
  const pending = judge && (a.status === "queued" || a.status === "running");
  return summaryOf(
    namedIn(named.slice(0, NAMED_ONE_BY_ONE), named.slice(NAMED_ONE_BY_ONE)),
    focus && engineSpread(focus.name, focus.by_engine.map((g) => ({ engine: g.engine, k: g.runs_mentioning, n: g.runs }))),
    pending
      ? `The judge is still reading the answers (${judge.runs_done} of ${judge.runs} done): ${judge.discover && !judge.sentiment ? "other brands named follow" : "tone follows"} when it has finished.`
      : judge && a.status === "failed"
        ? "The judge could not finish: the figures here are the matching rules' alone."
        : focus?.sentiment && tone(focus.name, focus.sentiment),
    focus && a.rows.length > 1 && focus.runs_mentioning > 0 && namedFirst(focus.name, { k: focus.runs_top1, n: focus.runs, interval: focus.top1_rate_interval }),
    judge && a.discovered && alsoNamed(a.discovered.map((d) => ({ name: d.name, k: d.runs_mentioning })), judge.runs_judged),
  );
}
