// A monitor's sentiment in plain words (decisions.md "Sentiment over time on monitors"): one
// sentence per entity from its latest judged tick and the change from the judged tick before,
// called a change only when the series' test says so. Pure: pages and the CLI share it.
import { percent, percentRange, isWide, points } from "./format";

type Point = {
  value: number | null;
  interval: readonly [number, number] | null;
  n?: number;
  change: { diff: number; significant: boolean } | null;
};
type Counts = { runs_judged: number; positive: number; neutral: number; negative: number };

/**
 * "Answers speak well of Acme CRM in 8 of 10 judged mentions that take a side (80%, 95% interval
 * 49–94%); 3 more were neutral. Up 20 points from the tick before, more than chance explains."
 */
export function sentimentSentence(entity: string, point: Point | undefined, counts: Counts | undefined, previous?: Point): string {
  if (!point || !counts) return `${entity}: no judged tick yet.`;
  const sided = counts.positive + counts.negative;
  const neutral = counts.neutral ? ` ${counts.neutral === 1 ? "1 more was" : `${counts.neutral} more were`} neutral.` : "";
  if (point.value === null || !point.interval || sided === 0) {
    const neutrals = counts.neutral ? `, ${counts.neutral} of them neutral about it` : "";
    return `No judged answer of the latest tick spoke of ${entity} positively or negatively (${counts.runs_judged} judged${neutrals}).`;
  }
  const about = isWide(point.interval) ? "about " : "";
  let sentence =
    `Answers speak well of ${entity} in ${counts.positive} of ${sided} judged mention${sided === 1 ? "" : "s"} that take a side ` +
    `(${about}${percent(point.value)}, 95% interval ${percentRange(point.interval)}).${neutral}`;
  if (point.change && previous) {
    sentence += point.change.significant
      ? ` A change of ${points(point.change.diff)} since the judged tick before, more than chance explains.`
      : " No change from the judged tick before beyond chance.";
  }
  return sentence;
}
