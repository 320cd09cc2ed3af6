// Cohen's kappa for two raters' yes/no calls on the same items (decisions.md "Judged visibility":
// how far the judge engine and the matching rules agree on "mentioned").

/** Counts of the 2x2 table: both yes, only the first yes, only the second yes, both no. */
export type Agreement2x2 = { both: number; firstOnly: number; secondOnly: number; neither: number };

/** (po - pe) / (1 - pe); null when undefined (no items, or pe = 1: both raters said the same thing of every item). */
export function cohensKappa({ both, firstOnly, secondOnly, neither }: Agreement2x2): number | null {
  const n = both + firstOnly + secondOnly + neither;
  if (n === 0) return null;
  const po = (both + neither) / n;
  const firstYes = (both + firstOnly) / n;
  const secondYes = (both + secondOnly) / n;
  const pe = firstYes * secondYes + (1 - firstYes) * (1 - secondYes);
  if (pe === 1) return null;
  return (po - pe) / (1 - pe);
}
