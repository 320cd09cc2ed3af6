// Matching reads answers in Unicode NFC, but a mention's offsets must point into the answer as
// stored (which may be decomposed, NFD): the NFC text with a map from its offsets back.

export type NfcText = {
  /** The text in NFC. */
  text: string;
  /** The offset in the original text of a cluster boundary `offset` of the NFC text. */
  toOriginal: (offset: number) => number;
};

const identity = (offset: number) => offset;

/**
 * A character outside these ranges may change under NFC. Every character inside is unchanged by
 * NFC, is no combining mark and ends no canonical decomposition (so it composes with nothing
 * before it): a text of them alone is already NFC, and most answers (Latin text, curly quotes,
 * dashes, CJK, emoji) are, without running the normaliser (tests/unit/visibility.test.ts checks
 * the ranges against the Unicode data Node has).
 */
export const NFC_STABLE =
  "\u0000-\u02FF\u2002-\u20CF\u2100-\u2125\u2127-\u2129\u212C-\u2328\u232B-\u2ADB\u2ADD-\u2CEE\u2CF2-\u2D7E\u2D80-\u2DDF\u2E00-\u2E7F\u3000-\u3029\u3030-\u3098\u309B-\u30FF\u4E00-\u9FFF\uAC00-\uD7A3\u{1F000}-\u{1FFFF}";
const MAY_CHANGE = new RegExp(`[^${NFC_STABLE}]`, "u");

/**
 * The text in NFC and the way back. Normalised cluster by cluster (a starter with the combining
 * marks and conjoining jamo after it), which composes exactly as the whole text does; a boundary
 * of a match is never inside a cluster, since a name may not touch a combining mark.
 */
export function toNfc(original: string): NfcText {
  if (!MAY_CHANGE.test(original)) return { text: original, toOriginal: identity };
  const nfc = original.normalize("NFC");
  if (nfc === original) return { text: nfc, toOriginal: identity };
  const nfcStarts: number[] = [0];
  const originalStarts: number[] = [0];
  let built = "";
  for (const m of original.matchAll(/(?:[\u1100-\u11ff\uac00-\ud7a3]+|[^\p{M}])\p{M}*|\p{M}+/gu)) {
    built += m[0].normalize("NFC");
    nfcStarts.push(built.length);
    originalStarts.push(m.index + m[0].length);
  }
  if (built !== nfc) {
    // Composition across clusters (rare scripts): fall back to the start of the text for offsets
    // inside a changed stretch, exact everywhere else.
    return { text: nfc, toOriginal: proportional(original, nfc) };
  }
  return {
    text: nfc,
    toOriginal: (offset) => {
      let lo = 0;
      let hi = nfcStarts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (nfcStarts[mid]! <= offset) lo = mid;
        else hi = mid - 1;
      }
      return originalStarts[lo]! + (offset - nfcStarts[lo]!);
    },
  };
}

/** A map that is exact outside the stretch where the two texts differ and clamps inside it. */
function proportional(original: string, nfc: string): (offset: number) => number {
  let head = 0;
  while (head < original.length && head < nfc.length && original.charCodeAt(head) === nfc.charCodeAt(head)) head++;
  let tail = 0;
  while (tail < original.length - head && tail < nfc.length - head && original.charCodeAt(original.length - 1 - tail) === nfc.charCodeAt(nfc.length - 1 - tail)) tail++;
  return (offset) => {
    if (offset <= head) return offset;
    if (offset >= nfc.length - tail) return original.length - (nfc.length - offset);
    return head;
  };
}
