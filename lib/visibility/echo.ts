// The prompt-echo guard: a mention inside a quotation of the prompt (less its [[sim:…]]
// directives) or of a search query the run issued names nobody; the answer is repeating the
// question. What counts as a quotation is in docs/decisions.md "Visibility analyses".
import { isWordCodePoint } from "./text";

/** A prompt or query as compared: NFC, directives and final punctuation removed, spaces collapsed. */
export type Quotable = { text: string; folded: string; words: number };

const DIRECTIVE = /\[\[sim:[^\]]*\]\]/g;
const FINAL_PUNCTUATION = /[\s?!.？！。…:;,]+$/u;

/** What an answer could quote of a text; null when nothing is left (a prompt of directives only). */
export function quotable(text: string, isPrompt: boolean): Quotable | null {
  const core = (isPrompt ? text.replace(DIRECTIVE, " ") : text).normalize("NFC").replace(/\s+/gu, " ").trim().replace(FINAL_PUNCTUATION, "");
  if (!/[\p{L}\p{N}]/u.test(core)) return null;
  return { text: core, folded: core.toLowerCase(), words: core.split(" ").length };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const patternCache = new Map<string, RegExp>();

/** A verbatim occurrence of the quotable text, any case, any spaces, as whole words. */
function occurrencePattern(q: Quotable): RegExp {
  let re = patternCache.get(q.text);
  if (re === undefined) {
    const body = q.text.split(" ").map(escapeRegExp).join("\\s+");
    re = new RegExp(`(?<![\\p{L}\\p{N}\\p{M}_])${body}(?![\\p{L}\\p{N}\\p{M}_])`, "giu");
    if (patternCache.size > 10_000) patternCache.clear();
    patternCache.set(q.text, re);
  }
  return re;
}

/** Quotation marks: an opening mark and the marks that close it. */
const PAIRS: Record<string, string> = { '"': '"', "“": "”", "„": "“”", "‘": "’", "«": "»", "‹": "›", "「": "」", "『": "』", "`": "`", "'": "'" };

/** Any opening mark of PAIRS. */
const OPENER = /["“„‘«‹「『`']/g;

/** The quotation (between quotation marks, on one line) holding [start, end), as [contentStart, contentEnd], or null. */
function enclosingQuote(text: string, start: number, end: number): [number, number] | null {
  let lineStart = text.lastIndexOf("\n", start - 1) + 1;
  let lineEnd = text.indexOf("\n", end);
  if (lineEnd === -1) lineEnd = text.length;
  // Long lines: look no further than 500 characters either way.
  lineStart = Math.max(lineStart, start - 500);
  lineEnd = Math.min(lineEnd, end + 500);
  // No opening mark before the mention: nothing can hold it (the walk below would find none either).
  OPENER.lastIndex = lineStart;
  const first = OPENER.exec(text);
  if (first === null || first.index >= start) return null;
  let open = -1;
  let closers = "";
  for (let i = lineStart; i < lineEnd; i++) {
    const ch = text[i]!;
    if (open >= 0) {
      if (closers.includes(ch) && !(ch === "'" && isWordAt(text, i + 1))) {
        if (open < start && i >= end) return [open + 1, i];
        open = -1;
        if (i >= end) return null;
      }
      continue;
    }
    const c = PAIRS[ch];
    // A straight single quote opens only where it cannot be an apostrophe (not after a letter).
    if (c !== undefined && !(ch === "'" && isWordAt(text, i - 1))) {
      if (i >= start) return null;
      open = i;
      closers = c;
    }
  }
  return null;
}

const isWordAt = (text: string, i: number) => i >= 0 && i < text.length && isWordCodePoint(text.codePointAt(i)!);

/** Whether `part` (folded) occurs in `whole` (folded) as whole words. */
function containsWords(whole: string, part: string): boolean {
  let from = 0;
  for (;;) {
    const at = whole.indexOf(part, from);
    if (at === -1) return false;
    if (!isWordAt(whole, at - 1) && !isWordAt(whole, at + part.length)) return true;
    from = at + 1;
  }
}

/**
 * Whether the mention [start, end) of `text` (NFC) lies inside a quotation of one of `quotables`:
 * (a) a verbatim occurrence of the whole prompt or query, quoted or not, when it has two words or
 * more; or (b) a quotation (between quotation marks) whose content is the whole prompt or query or
 * a run of at least two of its words.
 */
export function isPromptEcho(text: string, start: number, end: number, quotables: readonly Quotable[]): boolean {
  const mention = text.slice(start, end).replace(/\s+/gu, " ").toLowerCase();
  const candidates = quotables.filter((q) => q.folded.includes(mention));
  if (candidates.length === 0) return false;

  for (const q of candidates) {
    if (q.words < 2) continue;
    const re = occurrencePattern(q);
    re.lastIndex = Math.max(0, start - q.text.length * 2 - 16);
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null && m.index <= start) {
      if (m.index + m[0].length >= end) return true;
      re.lastIndex = m.index + 1;
    }
  }

  const quote = enclosingQuote(text, start, end);
  if (quote === null) return false;
  const content = quotable(text.slice(quote[0], quote[1]), false);
  if (content === null) return false;
  return candidates.some((q) => content.folded === q.folded || (content.words >= 2 && containsWords(q.folded, content.folded)));
}
