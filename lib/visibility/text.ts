// An answer's structure in one pass over its characters: its sentences (with their word counts)
// and, for each sentence, the item number of the list item it belongs to. Prominence weighs
// sentences by their words and place; list_rank reads the item number. A link span (./links.ts)
// is one piece of its sentence: no sentence ends inside it, and only its label's words count. The
// rules are in docs/decisions.md "Visibility analyses" and "Mentions and links".
import { NO_LINKS, wordCount, type LinkSpans } from "./links";

export type TextStructure = {
  /** Sentence i (i < count: the arrays may be longer) spans [starts[i], ends[i]) in UTF-16 units of the text analysed. */
  starts: Int32Array;
  ends: Int32Array;
  /** Words of sentence i (|s| of the prominence formula); every sentence has at least one. */
  words: Int32Array;
  /** 1-based item number of the list item sentence i belongs to; 0 when it is in no list. */
  listRanks: Int32Array;
  count: number;
  /** Words of all sentences. */
  totalWords: number;
};

// Character classes: 1 a word character (letter, digit, combining mark, underscore), 2 a character
// that is a word by itself (Han, kana: scripts written without spaces), 0 anything else.
const OTHER = 0;
const WORD = 1;
const SOLO = 2;
const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  ASCII_CLASS[c] = /[A-Za-z0-9_]/.test(ch) ? WORD : OTHER;
}
const WORD_CHAR = /^[\p{L}\p{N}\p{M}_]$/u;
const SOLO_CHAR = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]$/u;
const classCache = new Map<number, number>();

function classOf(codePoint: number): number {
  if (codePoint < 128) return ASCII_CLASS[codePoint]!;
  let k = classCache.get(codePoint);
  if (k === undefined) {
    const ch = String.fromCodePoint(codePoint);
    k = SOLO_CHAR.test(ch) ? SOLO : WORD_CHAR.test(ch) ? WORD : OTHER;
    classCache.set(codePoint, k);
  }
  return k;
}

/** Whether a character is a letter, digit, combining mark or underscore (what a name may not touch). */
export function isWordCodePoint(codePoint: number): boolean {
  return classOf(codePoint) !== OTHER;
}

/** Words after which a full stop does not end a sentence ("e.g. HubSpot", "Acme Inc. offers"). */
const ABBREVIATIONS = new Set([
  "e.g", "i.e", "etc", "vs", "v", "inc", "ltd", "co", "corp", "llc", "plc", "gmbh", "dr", "mr", "mrs", "ms", "prof", "st", "no",
  "approx", "est", "jr", "sr", "u.s", "u.k", "e.u", "a.m", "p.m", "fig", "cf", "al", "ca",
]);

const MAX_ABBREVIATION = Math.max(...[...ABBREVIATIONS].map((a) => a.length));
/** The abbreviations (all ASCII) as inWordBefore reads a token: its characters' codes in base 128. */
const ABBREVIATION_CODES = new Set([...ABBREVIATIONS].map((a) => [...a].reduce((code, ch) => code * 128 + ch.charCodeAt(0), 0)));

/** A list item's marker at the start of a line: "1." "2)" or a bullet, then a space. */
const LIST_MARKER = /[ \t]*(?:\d{1,3}[.)]|[-*+•·▪◦‣–])[ \t]+/y;

const isTerminator = (c: number) => c === 0x2e || c === 0x21 || c === 0x3f || c === 0x2026; // . ! ? …
const isWideTerminator = (c: number) => c === 0x3002 || c === 0xff01 || c === 0xff1f; // 。！？
/** Closing marks a sentence may end with after its terminator: quotes, brackets, emphasis. */
const isCloser = (c: number) =>
  c === 0x22 || c === 0x27 || c === 0x29 || c === 0x5d || c === 0x2a || c === 0x5f || c === 0x2019 || c === 0x201d || c === 0xbb || c === 0x300d || c === 0x300f;
/** Past any offset of a text (a small integer, unlike Infinity, keeps the comparisons on integers). */
const NO_SPAN = 0x3fffffff;
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0xa0 || c === 0x0d;

/**
 * Sentences and list items of `text`. A line break always ends a sentence; within a line a
 * sentence ends at . ! ? … (after any closing quotes or brackets) followed by a space or the end
 * of the line, except after an abbreviation or a single letter, and at 。！？ always. A line
 * starting with "1." "2)" or a bullet (- * + •) is a list item, numbered by its place in the list;
 * indented lines under an item (continuations, sub-items) belong to it; a blank line keeps the
 * list open, any other unindented line closes it. A sentence without a word is not a sentence.
 */
export function analyseText(text: string, spans: LinkSpans = NO_LINKS.spans): TextStructure {
  const s = analyseTextInto(text, new SentenceBuffer(), spans);
  return { starts: s.starts.slice(0, s.count), ends: s.ends.slice(0, s.count), words: s.words.slice(0, s.count), listRanks: s.listRanks.slice(0, s.count), count: s.count, totalWords: s.totalWords };
}

/** Growable arrays of sentences, reused from answer to answer (analyseTextInto's result lives until its next call). */
export class SentenceBuffer {
  starts = new Int32Array(64);
  ends = new Int32Array(64);
  words = new Int32Array(64);
  listRanks = new Int32Array(64);
  count = 0;
  totalWords = 0;

  push(start: number, end: number, words: number, rank: number) {
    if (this.count === this.starts.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.starts = grow(this.starts);
      this.ends = grow(this.ends);
      this.words = grow(this.words);
      this.listRanks = grow(this.listRanks);
    }
    this.starts[this.count] = start;
    this.ends[this.count] = end;
    this.words[this.count] = words;
    this.listRanks[this.count] = rank;
    this.count++;
    this.totalWords += words;
  }
}

/** analyseText into `buffer`, answered as the structure: valid until the buffer is used again, its arrays longer than its count. */
export function analyseTextInto(text: string, buffer: SentenceBuffer, spans: LinkSpans = NO_LINKS.spans): TextStructure {
  const len = text.length;
  buffer.count = 0;
  buffer.totalWords = 0;
  // The next link span not yet passed (spans lie within one line).
  let span = 0;
  let spanStart = spans.count > 0 ? spans.start[0]! : NO_SPAN;

  // The open list: its kind, its items' indentation, its items so far.
  let listKind = 0; // 0 none, 1 numbered, 2 bulleted
  let listIndent = 0;
  let listCount = 0;

  let lineStart = 0;
  while (lineStart <= len) {
    let lineEnd = text.indexOf("\n", lineStart);
    if (lineEnd === -1) lineEnd = len;

    // The line's indentation and whether it is blank.
    let p = lineStart;
    while (p < lineEnd && (text.charCodeAt(p) === 0x20 || text.charCodeAt(p) === 0x09)) p++;
    const indent = p - lineStart;
    const blank = p >= lineEnd || (p === lineEnd - 1 && text.charCodeAt(p) === 0x0d);

    let rank = 0;
    let contentStart = lineStart;
    if (!blank) {
      LIST_MARKER.lastIndex = lineStart;
      // test, not exec: no match array for every line; a marker's kind is its first character's (p).
      if (LIST_MARKER.test(text) && LIST_MARKER.lastIndex <= lineEnd) {
        const first = text.charCodeAt(p);
        const kind = first >= 0x30 && first <= 0x39 ? 1 : 2;
        contentStart = LIST_MARKER.lastIndex;
        if (listKind !== 0 && indent > listIndent) {
          rank = listCount; // a sub-item belongs to its parent item
        } else if (listKind === kind && indent === listIndent) {
          rank = ++listCount;
        } else {
          listKind = kind;
          listIndent = indent;
          listCount = 1;
          rank = 1;
        }
      } else if (listKind !== 0 && indent > listIndent) {
        rank = listCount; // a continuation line of the current item
      } else {
        listKind = 0;
        listCount = 0;
      }
    }

    if (!blank) {
      // Sentences of the line: count words and find ends in one walk over its characters.
      let sentenceStart = -1;
      let sentenceWords = 0;
      let inWord = false;
      let wordStart = 0;
      let i = contentStart;
      while (i < lineEnd) {
        if (i >= spanStart) {
          // A link span: one piece of the sentence, its label's words its words (a bare URL is one).
          const end = spans.end[span]!;
          if (i < end) {
            if (sentenceStart < 0) sentenceStart = i;
            const ls = spans.labelStart[span]!;
            const le = spans.labelEnd[span]!;
            sentenceWords += ls < le ? wordCount(text, Math.max(i, ls), le) : 1;
            inWord = false;
            i = end;
          }
          span++;
          spanStart = span < spans.count ? spans.start[span]! : NO_SPAN;
          continue;
        }
        // The common case first, in one tight loop: ASCII words (letters, digits, _) and the
        // single spaces between them, each word counted at its first character.
        const stop = lineEnd < spanStart ? lineEnd : spanStart;
        let c = 0;
        while (i < stop) {
          c = text.charCodeAt(i);
          if (c === 0x20) {
            inWord = false;
            i++;
            continue;
          }
          if (c >= 128 || ASCII_CLASS[c] !== WORD) break;
          if (!inWord) {
            if (sentenceStart < 0) sentenceStart = i;
            sentenceWords++;
            inWord = true;
            wordStart = i;
          }
          i++;
        }
        if (i >= stop) continue;
        let width = 1;
        if (c >= 0xd800 && c <= 0xdbff && i + 1 < lineEnd) {
          const lo = text.charCodeAt(i + 1);
          if (lo >= 0xdc00 && lo <= 0xdfff) {
            c = ((c - 0xd800) << 10) + (lo - 0xdc00) + 0x10000;
            width = 2;
          }
        }
        if (sentenceStart < 0 && !isSpace(c)) sentenceStart = i;
        const k = classOf(c);
        if (k === SOLO) {
          sentenceWords++;
          inWord = false;
        } else if (k === WORD) {
          if (!inWord) {
            sentenceWords++;
            inWord = true;
            wordStart = i;
          }
        } else if ((c === 0x27 || c === 0x2019 || c === 0x2d) && inWord && i + 1 < lineEnd && classOf(text.charCodeAt(i + 1)) === WORD) {
          // An apostrophe or hyphen inside a word keeps it one word (HubSpot's, e-mail).
        } else {
          if (isWideTerminator(c)) {
            if (sentenceStart >= 0 && sentenceWords > 0) buffer.push(sentenceStart, i + 1, sentenceWords, rank);
            sentenceStart = -1;
            sentenceWords = 0;
          } else if (isTerminator(c)) {
            let j = i + 1;
            while (j < lineEnd && (isTerminator(text.charCodeAt(j)) || isCloser(text.charCodeAt(j)))) j++;
            if (j >= lineEnd || isSpace(text.charCodeAt(j))) {
              if (!(c === 0x2e && inWordBefore(text, i, wordStart, inWord))) {
                if (sentenceStart >= 0 && sentenceWords > 0) buffer.push(sentenceStart, j, sentenceWords, rank);
                sentenceStart = -1;
                sentenceWords = 0;
                inWord = false;
                i = j;
                continue;
              }
            }
          }
          inWord = false;
        }
        i += width;
      }
      // The line's last sentence ends at its last non-space character.
      let end = lineEnd;
      while (end > lineStart && isSpace(text.charCodeAt(end - 1))) end--;
      if (sentenceStart >= 0 && sentenceWords > 0) buffer.push(sentenceStart, end, sentenceWords, rank);
    }
    lineStart = lineEnd + 1;
  }

  // The buffer itself (its arrays are longer than `count`): no views made for every answer.
  return buffer;
}

/** Whether the full stop at `dot` follows an abbreviation or a single letter, so it ends no sentence. */
function inWordBefore(text: string, dot: number, wordStart: number, inWord: boolean): boolean {
  if (!inWord) return false;
  // The token before the dot, dots inside it included ("e.g", "u.s").
  let s = wordStart;
  while (s >= 2 && text.charCodeAt(s - 1) === 0x2e && classOf(text.charCodeAt(s - 2)) === WORD) {
    s -= 2;
    while (s > 0 && classOf(text.charCodeAt(s - 1)) === WORD) s--;
  }
  // No abbreviation is longer than six characters: a longer word ends its sentence without a look.
  if (dot - s > MAX_ABBREVIATION) return false;
  // An ASCII token as a number (its lower-cased characters in base 128), without making its string.
  let code = 0;
  for (let k = s; k < dot; k++) {
    let c = text.charCodeAt(k);
    if (c >= 128) {
      code = -1;
      break;
    }
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    code = code * 128 + c;
  }
  if (code >= 0) return dot - s === 1 ? (code >= 0x61 && code <= 0x7a) : ABBREVIATION_CODES.has(code);
  const token = text.slice(s, dot).toLowerCase();
  if (token.length === 1 && /\p{L}/u.test(token)) return true;
  return ABBREVIATIONS.has(token);
}

/** Index of the sentence holding `offset`, or the last sentence starting before it; -1 if none. */
export function sentenceAt(structure: TextStructure, offset: number): number {
  let lo = 0;
  let hi = structure.count - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (structure.starts[mid]! <= offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
