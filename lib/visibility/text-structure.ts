// A run's answer's structure as kept (run_text_structures, lib/visibility/run-observations.ts):
// its sentences (./text.ts) and its link spans and prose domains (./links.ts), which depend on the
// answer alone, not on the entities an analysis tracks. Kept once per run, they spare every later
// analysis, whatever its entities, the walk over each answer's characters (two thirds of the
// reading's time besides the matching). Unsigned LEB128 integers, each offset from the one before:
// about 170 bytes for a 2 KB answer.
import type { LinkReading, LinkSpans } from "./links";
import { SentenceBuffer, type TextStructure } from "./text";

/** What encodeStructure writes first: the layout's version (a reading rules' change bumps READING_RULES instead). */
const LAYOUT = 1;

class Writer {
  private bytes = new Uint8Array(256);
  length = 0;
  /** False once a value could not be written (negative): the structure is then not kept. */
  ok = true;

  put(value: number): void {
    if (!(value >= 0 && value <= 0x7fffffff)) {
      this.ok = false;
      return;
    }
    if (this.length + 5 > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    let v = value;
    while (v >= 0x80) {
      this.bytes[this.length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.bytes[this.length++] = v;
  }

  done(): Buffer {
    return Buffer.from(this.bytes.subarray(0, this.length));
  }
}

/**
 * The structure and link reading of an answer (its NFC text), as kept; null when a value cannot be
 * written so (never for what ./text.ts and ./links.ts find: offsets only grow within a text).
 */
export function encodeStructure(structure: TextStructure, links: LinkReading): Buffer | null {
  const w = new Writer();
  w.put(LAYOUT);
  w.put(structure.count);
  let at = 0;
  for (let s = 0; s < structure.count; s++) {
    w.put(structure.starts[s]! - at);
    w.put(structure.ends[s]! - structure.starts[s]!);
    w.put(structure.words[s]!);
    w.put(structure.listRanks[s]!);
    at = structure.starts[s]!;
  }
  const spans = links.spans;
  w.put(spans.count);
  at = 0;
  for (let k = 0; k < spans.count; k++) {
    const start = spans.start[k]!;
    w.put(start - at);
    w.put(spans.end[k]! - start);
    w.put(spans.labelStart[k]! - start);
    w.put(spans.labelEnd[k]! - start);
    at = start;
  }
  const domains = links.domains;
  w.put(domains.count);
  at = 0;
  for (let d = 0; d < domains.count; d++) {
    w.put(domains.start[d]! - at);
    w.put(domains.end[d]! - domains.start[d]!);
    at = domains.start[d]!;
  }
  return w.ok ? w.done() : null;
}

/** Reads what encodeStructure wrote; throws on anything else (the caller then reads the answer itself). */
class Reader {
  at = 0;
  constructor(private readonly bytes: Uint8Array) {}

  get(): number {
    let value = 0;
    let shift = 0;
    for (;;) {
      if (this.at >= this.bytes.length) throw new Error("a kept text structure ends early");
      const b = this.bytes[this.at++]!;
      value += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return value;
      shift += 7;
      if (shift > 28) throw new Error("a kept text structure has a value too large");
    }
  }
}

/**
 * A kept structure of `text` (the answer's NFC text) into `sentences` (reused from answer to
 * answer, as analyseTextInto fills it) and a link reading of its own: what analyseTextInto and
 * readLinks answer for the text, checked to lie within it. Throws when the bytes are not a kept
 * structure of a text this long.
 */
export function decodeStructure(bytes: Uint8Array, text: string, sentences: SentenceBuffer): { structure: TextStructure; links: LinkReading } {
  const r = new Reader(bytes);
  if (r.get() !== LAYOUT) throw new Error("a kept text structure of another layout");
  const n = text.length;
  const within = (start: number, end: number) => {
    if (end > n || start > end) throw new Error("a kept text structure reaches past its answer");
  };
  // A count is checked against the bytes left (each item takes at least `width` of them) before
  // anything is made for it: a corrupt count would otherwise ask for gigabytes.
  const countOf = (width: number) => {
    const count = r.get();
    if (count * width > bytes.length - r.at) throw new Error("a kept text structure counts more than it holds");
    return count;
  };
  sentences.count = 0;
  sentences.totalWords = 0;
  const count = countOf(4);
  let at = 0;
  for (let s = 0; s < count; s++) {
    const start = at + r.get();
    const end = start + r.get();
    within(start, end);
    sentences.push(start, end, r.get(), r.get());
    at = start;
  }
  const spanCount = countOf(4);
  const spans: LinkSpans = { count: spanCount, start: new Int32Array(spanCount), end: new Int32Array(spanCount), labelStart: new Int32Array(spanCount), labelEnd: new Int32Array(spanCount) };
  at = 0;
  for (let k = 0; k < spanCount; k++) {
    const start = at + r.get();
    spans.start[k] = start;
    spans.end[k] = start + r.get();
    spans.labelStart[k] = start + r.get();
    spans.labelEnd[k] = start + r.get();
    within(start, spans.end[k]!);
    at = start;
  }
  const domainCount = countOf(2);
  const domains = { count: domainCount, start: new Int32Array(domainCount), end: new Int32Array(domainCount), host: [] as string[] };
  at = 0;
  for (let d = 0; d < domainCount; d++) {
    const start = at + r.get();
    const end = start + r.get();
    within(start, end);
    domains.start[d] = start;
    domains.end[d] = end;
    // As readLinks names it: the domain's text, lower-cased.
    domains.host.push(text.slice(start, end).toLowerCase());
    at = start;
  }
  if (r.at !== bytes.length) throw new Error("a kept text structure has bytes after its end");
  return { structure: sentences, links: { spans, domains } };
}
