// Rank-biased overlap (Webber, Moffat and Zobel 2010, "A similarity measure for indefinite
// rankings", ACM TOIS 28(4)): how alike two orderings are, the top weighted most. The
// extrapolated form, RBO_ext (their eq. 32, for lists of different lengths; eq. 30 when they are
// as long), assumes that the agreement seen at the depth of the shorter list goes on below it:
// 1 for identical lists (and for a list that is the other's prefix), 0 for disjoint ones.

/**
 * RBO_ext of two rankings (items compared with ===, each list without repeats) at persistence
 * `p` (0 < p < 1; default 0.9, where the first 10 places carry about 86% of the weight). Null
 * when either list is empty (an empty ranking says nothing of an order). Not rounded.
 */
export function rankBiasedOverlap<T>(first: readonly T[], second: readonly T[], p = 0.9): number | null {
  if (!(p > 0 && p < 1)) throw new RangeError(`rankBiasedOverlap: p must lie between 0 and 1 (got ${p})`);
  if (first.length === 0 || second.length === 0) return null;
  // S the shorter list (s items), L the longer (l items).
  const [S, L] = first.length <= second.length ? [first, second] : [second, first];
  const s = S.length;
  const l = L.length;
  const inS = new Set<T>();
  const inL = new Set<T>();
  // X_d: the overlap of S's first min(d, s) items and L's first d.
  let x = 0;
  let xs = 0;
  let sum = 0;
  let pd = 1;
  for (let d = 1; d <= l; d++) {
    pd *= p;
    const fromL = L[d - 1]!;
    if (d <= s) {
      const fromS = S[d - 1]!;
      if (fromS === fromL) x += 1;
      else {
        if (inL.has(fromS)) x += 1;
        if (inS.has(fromL)) x += 1;
      }
      inS.add(fromS);
      inL.add(fromL);
      if (d === s) xs = x;
    } else if (inS.has(fromL)) x += 1;
    sum += (x / d) * pd;
    // Eq. 32's second sum: the items S would have had below its depth, agreeing as above it.
    if (d > s) sum += ((xs * (d - s)) / (s * d)) * pd;
  }
  // pd is p^l, x is X_l.
  return ((1 - p) / p) * sum + ((x - xs) / l + xs / s) * pd;
}
