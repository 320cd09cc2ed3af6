// A planned margin in words (decisions.md "Statistics users can plan with"): "About ±17 points per
// engine (30 runs each); to reach ±5, 385 runs per engine." Pure: the CLI and the forms import it.
import { counted, percent } from "./format";
import { summaryOf, type Summary } from "./sentences";

export type Margin = {
  runs_per_engine: number;
  at_half: number;
  at_last_rate: number | null;
  last_rate: { entity: string; visibility: number } | null;
  runs_for_5_points: number;
};

/** ±points of a half-width, whole ("±17"), one decimal under 1 ("±0.8"). */
export function plusMinusPoints(halfWidth: number): string {
  const p = halfWidth * 100;
  return `±${p < 1 ? p.toFixed(1) : Math.round(p).toFixed(0)}`;
}

export function marginSummary(m: Margin): Summary {
  const reach = m.runs_per_engine < m.runs_for_5_points ? `; to reach ±5, ${m.runs_for_5_points} runs per engine` : "";
  return summaryOf(
    `About ${plusMinusPoints(m.at_half)} points per engine (${counted(m.runs_per_engine, "run")} each)${reach}.`,
    m.last_rate && m.at_last_rate !== null
      ? `At ${m.last_rate.entity}'s last visibility (${percent(m.last_rate.visibility)}), about ${plusMinusPoints(m.at_last_rate)} points.`
      : null,
  );
}

export type Detectable = {
  min_change: number;
  at_half: number | null;
  at_last_rate: number | null;
  last_rate: { entity: string; visibility: number } | null;
};

/** Whole points of a rate difference, rounded up: a change "at least" this large. */
const pointsUp = (delta: number) => Math.ceil(delta * 100 - 1e-9);

/**
 * "A change between two ticks is alerted 8 times in 10 when it is at least 26 points (from 50%);
 * from Acme's last visibility (25%), at least 23 points."
 */
export function detectableSummary(d: Detectable): Summary {
  const half =
    d.at_half === null
      ? "With so few runs per tick, not even a 50-point change between two ticks (from 50%) is alerted 8 times in 10; add prompts or runs."
      : `A change between two ticks is alerted 8 times in 10 when it is at least ${pointsUp(d.at_half)} points (from 50%${pointsUp(d.at_half) === d.min_change ? `, the alerts' ${d.min_change}-point minimum` : ""}).`;
  const last =
    d.last_rate && d.at_last_rate !== null
      ? `From ${d.last_rate.entity}'s last visibility (${percent(d.last_rate.visibility)}), at least ${pointsUp(d.at_last_rate)} points.`
      : null;
  return summaryOf(half, d.at_half === null ? null : last);
}
