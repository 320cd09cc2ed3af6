// An alert in words: the one sentence the API (`summary`), the webhook's data, the email and the
// monitor page all say, so that every channel tells the same thing.
import { engineName, percent, points, pointsRange } from "../words/format";

/** A significant change of one cell, as the series decided it (lib/stats changeTest at 1 - 0.05/m). */
export type SignificantChange = {
  /** The entity's name, as the monitor's entities write it. */
  entity: string;
  /** An engine id, or "all" for the tick's engines together. */
  engine: string;
  metric: "visibility";
  /** Rates from 0 to 1: the previous completed tick of the same version's, and this tick's. */
  before: number;
  after: number;
  /** after - before, rounded to 4 places. */
  diff: number;
  /** Newcombe's interval of diff at `confidence`, rounded to 4 places. */
  interval: [number, number];
  /** The runs each rate is counted over. */
  before_runs: number;
  after_runs: number;
  /** 1 - 0.05/m over the m cells compared at this tick. */
  confidence: number;
};

/** An alert's figures as the API and the webhook's data write them: a significant change's, or all null. */
export function changeFields(c: SignificantChange | null) {
  return {
    entity: c?.entity ?? null,
    engine: c?.engine ?? null,
    metric: c?.metric ?? null,
    before: c?.before ?? null,
    after: c?.after ?? null,
    diff: c?.diff ?? null,
    interval: c?.interval ?? null,
    before_runs: c?.before_runs ?? null,
    after_runs: c?.after_runs ?? null,
    confidence: c?.confidence ?? null,
  };
}

/** A confidence as a percentage with no trailing zeros: 0.9964 -> "99.64%" (not a rate: its decimals are the point). */
const confidenceText = (c: number) => `${Number((c * 100).toFixed(2))}%`;

/** Figures as every page says them (lib/words/format.ts): whole percents, the interval rounded outward. */
export function changeSummary(c: SignificantChange): string {
  const where = c.engine === "all" ? "all engines" : engineName(c.engine);
  const direction = c.diff >= 0 ? "rose" : "fell";
  return (
    `${c.entity}'s ${c.metric} on ${where} ${direction} from ${percent(c.before)} (n=${c.before_runs}) to ${percent(c.after)} (n=${c.after_runs}): ` +
    `${points(c.diff)} (${confidenceText(c.confidence)} interval ${pointsRange(c.interval)}).`
  );
}

const SKIPPED: Record<string, string> = {
  insufficient_credit: "the workspace's credit did not cover it, so nothing was started",
  budget_exhausted: "it would have taken the monitor past its monthly budget, so nothing was started",
};

export function skippedSummary(reason: string): string {
  return `A tick was skipped: ${SKIPPED[reason] ?? reason}. Until a tick completes, this is said once.`;
}

/** `runs_failed`: the tick's fanout ran and every run failed; otherwise the tick's error. */
export const RUNS_FAILED = "runs_failed";

export function failedSummary(reason: string, message: string | null): string {
  const why = reason === RUNS_FAILED ? "every run of its fanout failed" : (message ?? reason);
  return `A tick failed: ${why.replace(/\.$/, "")}. Until a tick completes, this is said once.`;
}

export const PING_SUMMARY = "A test event from geoscope: this webhook URL receives the monitor's alerts.";
