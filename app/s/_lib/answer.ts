// An answer's text cut into paragraphs and pieces to render without HTML: plain text, **bold**,
// and the citation marks the engine wrote inline (ChatGPT's ` ([site](url))`) tied to the cited
// source they name. The result keeps no character offsets of marks, so a mark is only what the
// text itself shows; marks the engine kept out of the text (Claude, Gemini) are not placed.
import { normalizeUrl } from "@/lib/engines/url";
import type { SourceObservation } from "@/lib/schemas/results";

export type AnswerPiece =
  | { kind: "text"; text: string; bold: boolean }
  | { kind: "cite"; label: string; source: SourceObservation }
  | { kind: "link"; label: string; url: string };

// `[label](url)`, optionally wrapped in parentheses; the url may hold one level of balanced
// parentheses (Wikipedia's `Foo_(bar)`).
const MARKDOWN_LINK = /(\()?\[([^[\]\n]{1,300})\]\((https?:\/\/(?:[^\s()]|\([^\s()]*\))+)\)(\))?/g;
const BOLD = /\*\*([^*\n]+?)\*\*/g;

/** Cited sources by every spelling a mark may use: as the engine gave it, and normalised. */
export function citedByUrl(sources: readonly SourceObservation[]): Map<string, SourceObservation> {
  const byUrl = new Map<string, SourceObservation>();
  for (const source of sources) {
    if (source.cited !== true) continue;
    for (const url of [source.url, source.raw_url, normalizeUrl(source.raw_url)]) {
      if (url && !byUrl.has(url)) byUrl.set(url, source);
    }
  }
  return byUrl;
}

function citedSource(url: string, byUrl: Map<string, SourceObservation>): SourceObservation | undefined {
  return byUrl.get(url) ?? byUrl.get(normalizeUrl(url) ?? "");
}

function textPieces(text: string): AnswerPiece[] {
  const pieces: AnswerPiece[] = [];
  let at = 0;
  for (const match of text.matchAll(BOLD)) {
    if (match.index > at) pieces.push({ kind: "text", text: text.slice(at, match.index), bold: false });
    pieces.push({ kind: "text", text: match[1]!, bold: true });
    at = match.index + match[0].length;
  }
  if (at < text.length) pieces.push({ kind: "text", text: text.slice(at), bold: false });
  return pieces;
}

/** One paragraph's pieces: text, and links where the text carries them. */
function paragraphPieces(paragraph: string, byUrl: Map<string, SourceObservation>): AnswerPiece[] {
  const pieces: AnswerPiece[] = [];
  let at = 0;
  for (const match of paragraph.matchAll(MARKDOWN_LINK)) {
    const [whole, open, label, url, close] = match;
    pieces.push(...textPieces(paragraph.slice(at, match.index) + (open && !close ? "(" : "")));
    const source = citedSource(url!, byUrl);
    pieces.push(source ? { kind: "cite", label: label!, source } : { kind: "link", label: label!, url: url! });
    if (close && !open) pieces.push({ kind: "text", text: ")", bold: false });
    at = match.index + whole.length;
  }
  pieces.push(...textPieces(paragraph.slice(at)));
  return pieces;
}

/** The answer as paragraphs (blank lines between), each a list of pieces; single line breaks stay in the text. */
export function answerParagraphs(answer: string, sources: readonly SourceObservation[]): AnswerPiece[][] {
  const byUrl = citedByUrl(sources);
  return answer
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n+/)
    .map((p) => p.replace(/^\n+|\s+$/g, ""))
    .filter((p) => p.trim() !== "")
    .map((p) => paragraphPieces(p, byUrl));
}

/** The answer as plain text for a link preview: marks and markup removed, whitespace folded. */
export function plainAnswer(answer: string): string {
  return answer
    .replace(MARKDOWN_LINK, (_whole, open: string | undefined, label: string, _url, close: string | undefined) =>
      open && close ? "" : `${open && !close ? "(" : ""}${label}${close && !open ? ")" : ""}`,
    )
    .replace(BOLD, "$1")
    .replace(/^\s*(?:[-*+]|#{1,6})\s+/gm, "")
    .replace(/\s+/g, " ")
    .replace(/ ([.,;:!?])/g, "$1")
    .trim();
}

/** At most `max` characters, cut at a word where one is near, with an ellipsis when cut. */
export function excerpt(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const chars = Array.from(flat);
  if (chars.length <= max) return flat;
  const cut = chars.slice(0, max - 1).join("");
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.–—-]+$/, "")}…`;
}
