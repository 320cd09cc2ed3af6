// A fanout's figures in words (decisions.md "Engines, wave 4"): how often an engine that may show
// nothing (Google's AI Overview and AI Mode) showed an answer. Pure: the CLI imports it.
import { mayShowNothing } from "../schemas/engines";
import { count, engineName } from "./format";
import { rateFigure } from "./sentences";

/** An engine's shown rate as the API gives it (lib/schemas/fanouts.ts ShownRate). */
export type Shown = { engine: string; completed_runs: number; runs_shown: number; interval: readonly [number, number] | null };

/**
 * "Google AI Overview (app) showed an answer in 12 of 20 completed runs (about 60%, 95% interval
 * 39–78%)." for each engine that may show nothing, or did; none for the others, or before a run completed.
 */
export function shownSentences(shown: readonly Shown[]): string[] {
  return shown
    .filter((s) => s.interval !== null && s.completed_runs > 0 && (mayShowNothing(s.engine) || s.runs_shown < s.completed_runs))
    .map((s) => {
      const tally = { k: s.runs_shown, n: s.completed_runs, interval: s.interval! };
      return `${engineName(s.engine)} showed an answer in ${count(s.runs_shown, s.completed_runs)} completed ${s.completed_runs === 1 ? "run" : "runs"} (${rateFigure(tally)}).`;
    });
}

/** The same for one prompt's engine, short: "shown in 3 of 5 runs". */
export function shownShort(s: Omit<Shown, "engine">): string {
  return `shown in ${count(s.runs_shown, s.completed_runs)} ${s.completed_runs === 1 ? "run" : "runs"}`;
}
