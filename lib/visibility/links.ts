// An answer read as Markdown-ish text (decisions.md "Mentions and links", method visibility-v2):
// its link spans (inline links and images, reference links and their definitions, autolinks, bare
// URLs, e-mail addresses) and the bare domains of its prose. A name inside a URL is no mention; a
// name inside a link's label is the engine citing a page, not naming a brand (unless the label is
// prose); a bare domain in prose names the entity whose domain it is. One pass over the text.
import { parse as parseHost } from "tldts";

/**
 * Link spans of a text, by start, never overlapping: span i is [start, end); its label (what a
 * reader sees: `[label](url)`) is [labelStart, labelEnd), empty (labelStart = labelEnd = end) for a
 * span that is all URL (a bare URL, an autolink, an e-mail address, a reference definition).
 */
export type LinkSpans = {
  count: number;
  start: Int32Array;
  end: Int32Array;
  labelStart: Int32Array;
  labelEnd: Int32Array;
};

/** Bare domains of the prose (outside link spans), by start: domain i is [start, end) and lower-cased `host`. */
export type ProseDomains = { count: number; start: Int32Array; end: Int32Array; host: string[] };

export type LinkReading = { spans: LinkSpans; domains: ProseDomains };

const NO_SPANS: LinkSpans = { count: 0, start: new Int32Array(0), end: new Int32Array(0), labelStart: new Int32Array(0), labelEnd: new Int32Array(0) };
const NO_DOMAINS: ProseDomains = { count: 0, start: new Int32Array(0), end: new Int32Array(0), host: [] };
export const NO_LINKS: LinkReading = { spans: NO_SPANS, domains: NO_DOMAINS };

/** Growable parallel arrays of spans. */
class SpanList {
  start: number[] = [];
  end: number[] = [];
  labelStart: number[] = [];
  labelEnd: number[] = [];
  push(start: number, end: number, labelStart: number, labelEnd: number) {
    this.start.push(start);
    this.end.push(end);
    this.labelStart.push(labelStart);
    this.labelEnd.push(labelEnd);
  }
  get last(): number {
    return this.end.length === 0 ? 0 : this.end[this.end.length - 1]!;
  }
  done(): LinkSpans {
    if (this.start.length === 0) return NO_SPANS;
    return { count: this.start.length, start: Int32Array.from(this.start), end: Int32Array.from(this.end), labelStart: Int32Array.from(this.labelStart), labelEnd: Int32Array.from(this.labelEnd) };
  }
}

const isAsciiWord = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
/** A character that may continue a word of any script: a name or domain may not touch one. */
const WORDISH = /[\p{L}\p{N}\p{M}_]/u;
const isWordAt = (text: string, i: number) => {
  if (i < 0 || i >= text.length) return false;
  const c = text.charCodeAt(i);
  if (c < 128) return isAsciiWord(c);
  return WORDISH.test(String.fromCodePoint(text.codePointAt(i)!));
};
/** A host's characters: letters, digits, hyphen and dot (ASCII; internationalised names are written as words). */
const isHostChar = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2d || c === 0x2e;
const isSpaceOrEnd = (text: string, i: number) => i >= text.length || /\s/u.test(text[i]!);
/** Characters a URL never holds (and ends before). */
const endsUrl = (c: number) => c <= 0x20 || c === 0x3c || c === 0x3e || c === 0x22 || c === 0x60 || c === 0x7f || (c >= 0x2000 && c <= 0x200b) || c === 0x3000 || c === 0xa0;

const hostCache = new Map<string, boolean>();

/** Whether `host` (lower-cased) is a registrable host under an ICANN public suffix (hubspot.com, not Node.js or e.g). */
export function isRegistrableHost(host: string): boolean {
  let known = hostCache.get(host);
  if (known === undefined) {
    const parsed = parseHost(host, { allowPrivateDomains: false });
    known = parsed.isIcann === true && parsed.domain !== null && parsed.isIp !== true && !host.startsWith("-") && !host.includes("..");
    if (hostCache.size > 50_000) hostCache.clear();
    hostCache.set(host, known);
  }
  return known;
}

/**
 * Where a bare URL starting at `from` ends: it runs to a space or `<`, less trailing punctuation
 * and any closing parenthesis it did not open (GitHub's extended autolink rule), so the `)` of
 * "(see https://acme.com/a)" and the full stop after a URL stay prose.
 */
function bareUrlEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length && !endsUrl(text.charCodeAt(end))) end++;
  for (;;) {
    const c = text.charCodeAt(end - 1);
    if (c === 0x3f || c === 0x21 || c === 0x2e || c === 0x2c || c === 0x3a || c === 0x2a || c === 0x5f || c === 0x7e || c === 0x27 || c === 0x3b) {
      end--;
      continue;
    }
    if (c === 0x29) {
      let open = 0;
      let close = 0;
      for (let i = from; i < end; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x28) open++;
        else if (d === 0x29) close++;
      }
      if (close > open) {
        end--;
        continue;
      }
    }
    if (c === 0x5d) {
      // A bare URL inside a bracketed label ("[https://acme.com]") leaves the bracket to the label.
      let open = 0;
      let close = 0;
      for (let i = from; i < end; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5b) open++;
        else if (d === 0x5d) close++;
      }
      if (close > open) {
        end--;
        continue;
      }
    }
    break;
  }
  return end;
}

/** The end of an inline link's destination and title, `(…)` opening at `open`; -1 when it is not one. */
function inlineDestinationEnd(text: string, open: number): number {
  let i = open + 1;
  const n = text.length;
  while (i < n && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i++;
  if (text.charCodeAt(i) === 0x3c) {
    const close = text.indexOf(">", i);
    if (close === -1 || text.slice(i, close).includes("\n")) return -1;
    i = close + 1;
  } else {
    let depth = 0;
    const from = i;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x5c && i + 1 < n) {
        i += 2;
        continue;
      }
      if (c <= 0x20) break;
      if (c === 0x28) depth++;
      else if (c === 0x29) {
        if (depth === 0) break;
        depth--;
      }
      i++;
    }
    if (i === from && text.charCodeAt(i) !== 0x29) return -1;
  }
  while (i < n && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i++;
  const q = text.charCodeAt(i);
  if (q === 0x22 || q === 0x27 || q === 0x28) {
    const closer = q === 0x28 ? ")" : text[i]!;
    const close = text.indexOf(closer, i + 1);
    if (close === -1 || text.slice(i, close).includes("\n")) return -1;
    i = close + 1;
    while (i < n && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i++;
  }
  return text.charCodeAt(i) === 0x29 ? i + 1 : -1;
}

/** The `]` closing the label opened at `open` (nested brackets balanced, one line, escapes skipped); -1 if none. */
function labelClose(text: string, open: number): number {
  let depth = 0;
  const limit = Math.min(text.length, open + 2000);
  for (let i = open + 1; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) return -1;
    if (c === 0x5c) {
      i++;
      continue;
    }
    if (c === 0x5b) depth++;
    else if (c === 0x5d) {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

/** Whether `[` at `at` starts its line (after at most 3 spaces): where a reference definition may be. */
function atLineStart(text: string, at: number): boolean {
  let i = at - 1;
  let spaces = 0;
  while (i >= 0 && text.charCodeAt(i) === 0x20 && spaces < 4) {
    i--;
    spaces++;
  }
  return spaces <= 3 && (i < 0 || text.charCodeAt(i) === 0x0a);
}

/** An e-mail address around the `@` at `at`: [start, end), or null. */
function emailAround(text: string, at: number): [number, number] | null {
  let s = at;
  while (s > 0) {
    const c = text.charCodeAt(s - 1);
    if (isAsciiWord(c) || c === 0x2e || c === 0x2b || c === 0x2d || c === 0x25) s--;
    else break;
  }
  if (s === at || text.charCodeAt(s) === 0x2e) return null;
  let e = at + 1;
  while (e < text.length && isHostChar(text.charCodeAt(e))) e++;
  while (e > at + 1 && (text.charCodeAt(e - 1) === 0x2e || text.charCodeAt(e - 1) === 0x2d)) e--;
  const host = text.slice(at + 1, e).toLowerCase();
  if (!host.includes(".") || !isRegistrableHost(host)) return null;
  return [s, e];
}

const AUTOLINK = /<(?:[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*|[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)>/y;
const SCHEME = /https?:\/\/(?=[^\s<>])/iy;

/**
 * Where readLinks's pass may do something, but for a URL's scheme (nextScheme): `[`, `<`, `@`, a
 * dot before an ASCII word character. Every position it skips is one the pass would step over;
 * each match is one character long, so lastIndex - 1 is where it starts.
 */
const CANDIDATE = /[[<@]|\.(?=[A-Za-z0-9_])/g;

/**
 * The first offset at or after `from` where SCHEME matches ("http://", "https://", any case), or
 * `n` if none: found from the "://" after it, far rarer in prose than the letter h (a look at every
 * h was a tenth of the reading's time).
 */
function nextScheme(text: string, from: number, n: number): number {
  let p = text.indexOf("://", from + 4);
  while (p !== -1) {
    for (const s of [p - 5, p - 4]) {
      if (s < from) continue;
      SCHEME.lastIndex = s;
      if (SCHEME.test(text)) return s;
    }
    p = text.indexOf("://", p + 1);
  }
  return n;
}

/** A quick look for anything a link span or a domain needs: most answers without one skip the pass. */
const MAY_LINK = /[[<@.]|https?:/i;

/**
 * The link spans and the prose domains of `text` (NFC), left to right. A bare domain followed by a
 * path ("acme.com/pricing") is a URL; a host alone ("acme.com", "www.acme.com") is a domain of the
 * prose when its suffix is a public one (so "Node.js" and "e.g." are not).
 */
export function readLinks(text: string): LinkReading {
  if (!MAY_LINK.test(text)) return NO_LINKS;
  const spans = new SpanList();
  const dStart: number[] = [];
  const dEnd: number[] = [];
  const dHost: string[] = [];
  const n = text.length;
  let i = 0;
  // The next URL's scheme at or after i (n: none), found again once i has passed it.
  let scheme = -1;
  while (i < n) {
    // Straight to the next character where a span or a domain may start (every other one is passed by).
    CANDIDATE.lastIndex = i;
    const next = CANDIDATE.test(text) ? CANDIDATE.lastIndex - 1 : n;
    if (scheme < i) scheme = nextScheme(text, i, n);
    i = Math.min(next, scheme);
    if (i >= n) break;
    const c = text.charCodeAt(i);
    if (c === 0x5b) {
      // [label](url), ![alt](url), [label][ref], [ref]: url
      const close = labelClose(text, i);
      if (close !== -1) {
        const start = i > 0 && text.charCodeAt(i - 1) === 0x21 && spans.last <= i - 1 ? i - 1 : i;
        const next = text.charCodeAt(close + 1);
        if (next === 0x28) {
          const end = inlineDestinationEnd(text, close + 1);
          if (end !== -1) {
            spans.push(start, end, i + 1, close);
            i = end;
            continue;
          }
        } else if (next === 0x5b) {
          const refClose = labelClose(text, close + 1);
          if (refClose !== -1) {
            spans.push(start, refClose + 1, i + 1, close);
            i = refClose + 1;
            continue;
          }
        } else if (next === 0x3a && atLineStart(text, i)) {
          let end = text.indexOf("\n", close);
          if (end === -1) end = n;
          while (end > close && /\s/u.test(text[end - 1]!)) end--;
          spans.push(i, end, end, end);
          i = end;
          continue;
        }
      }
      i++;
      continue;
    }
    if (c === 0x3c) {
      AUTOLINK.lastIndex = i;
      const m = AUTOLINK.exec(text);
      if (m !== null) {
        const end = i + m[0].length;
        spans.push(i, end, end, end);
        i = end;
        continue;
      }
      i++;
      continue;
    }
    if ((c === 0x68 || c === 0x48) && !isWordAt(text, i - 1)) {
      SCHEME.lastIndex = i;
      if (SCHEME.test(text)) {
        const end = bareUrlEnd(text, i);
        spans.push(i, end, end, end);
        i = end;
        continue;
      }
    }
    if (c === 0x40) {
      const email = emailAround(text, i);
      if (email !== null && email[0] >= spans.last) {
        // The local part may have been read as a domain of the prose ("sales.team@acme.com").
        while (dEnd.length > 0 && dEnd[dEnd.length - 1]! > email[0]) {
          dStart.pop();
          dEnd.pop();
          dHost.pop();
        }
        spans.push(email[0], email[1], email[1], email[1]);
        i = email[1];
        continue;
      }
      i++;
      continue;
    }
    if (c === 0x2e && i > 0 && i + 1 < n && isHostChar(text.charCodeAt(i - 1)) && isAsciiWord(text.charCodeAt(i + 1))) {
      // A dot inside a host: the token around it.
      let s = i;
      while (s > 0 && isHostChar(text.charCodeAt(s - 1))) s--;
      let e = i + 1;
      while (e < n && isHostChar(text.charCodeAt(e))) e++;
      while (e > i + 1 && (text.charCodeAt(e - 1) === 0x2e || text.charCodeAt(e - 1) === 0x2d)) e--;
      while (s < i && (text.charCodeAt(s) === 0x2e || text.charCodeAt(s) === 0x2d)) s++;
      const before = s > 0 ? text.charCodeAt(s - 1) : 0x20;
      const touches = isWordAt(text, s - 1) || isWordAt(text, e) || before === 0x40 || before === 0x2f || (e < n && text.charCodeAt(e) === 0x40);
      if (!touches && s >= spans.last && isRegistrableHost(text.slice(s, e).toLowerCase())) {
        if (e < n && text.charCodeAt(e) === 0x2f && e + 1 < n && !isSpaceOrEnd(text, e + 1)) {
          const end = bareUrlEnd(text, s);
          spans.push(s, end, end, end);
          i = end;
          continue;
        }
        dStart.push(s);
        dEnd.push(e);
        dHost.push(text.slice(s, e).toLowerCase());
      }
      i = Math.max(e, i + 1);
      continue;
    }
    i++;
  }
  const linkSpans = spans.done();
  if (dStart.length === 0) return { spans: linkSpans, domains: NO_DOMAINS };
  // Domains inside a label ("[hubspot.com](…)") belong to the link, not to the prose.
  const keep: number[] = [];
  let k = 0;
  for (let d = 0; d < dStart.length; d++) {
    while (k < linkSpans.count && linkSpans.end[k]! <= dStart[d]!) k++;
    if (k < linkSpans.count && linkSpans.start[k]! <= dStart[d]! && dEnd[d]! <= linkSpans.end[k]!) continue;
    keep.push(d);
  }
  return {
    spans: linkSpans,
    domains: { count: keep.length, start: Int32Array.from(keep, (d) => dStart[d]!), end: Int32Array.from(keep, (d) => dEnd[d]!), host: keep.map((d) => dHost[d]!) },
  };
}

/** Index of the span holding [start, end) wholly or partly, or -1: spans are sorted and disjoint. */
export function spanAt(spans: LinkSpans, start: number, end: number): number {
  let lo = 0;
  let hi = spans.count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (spans.end[mid]! <= start) lo = mid + 1;
    else if (spans.start[mid]! >= end) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** Where [start, end) lies: in prose, in a span's label, or in its URL part (a partial overlap with a URL counts as URL). */
export function placeOf(spans: LinkSpans, start: number, end: number): { place: "prose" } | { place: "label" | "url"; span: number } {
  const s = spanAt(spans, start, end);
  if (s === -1) return { place: "prose" };
  if (start >= spans.labelStart[s]! && end <= spans.labelEnd[s]!) return { place: "label", span: s };
  return { place: "url", span: s };
}

/** Words of [from, to): runs of letters, digits, marks or underscores, an apostrophe or hyphen inside one keeping it one. */
export function wordCount(text: string, from: number, to: number): number {
  const m = text.slice(from, to).match(/[\p{L}\p{N}\p{M}_]+(?:['’-][\p{L}\p{N}\p{M}_]+)*/gu);
  return m === null ? 0 : m.length;
}

/**
 * Whether a mention at [start, end) inside span `s`'s label counts all the same: the label is prose
 * of at least three words and the name stands outside any domain-like token of it ("[HubSpot's
 * free CRM](…)" counts; "[hubspot.com](…)", "[blog.hubspot.com](…)" and "[HubSpot](…)" do not).
 */
export function labelIsProse(text: string, spans: LinkSpans, s: number, start: number, end: number): boolean {
  const from = spans.labelStart[s]!;
  const to = spans.labelEnd[s]!;
  if (wordCount(text, from, to) < 3) return false;
  // The host-like token around the mention: a domain when its suffix is public.
  let a = start;
  while (a > from && isHostChar(text.charCodeAt(a - 1))) a--;
  let b = end;
  while (b < to && isHostChar(text.charCodeAt(b))) b++;
  while (b > end && (text.charCodeAt(b - 1) === 0x2e || text.charCodeAt(b - 1) === 0x2d)) b--;
  const token = text.slice(a, b).toLowerCase();
  return !(token.includes(".") && isRegistrableHost(token));
}

/**
 * The text of [from, to) as a reader sees it: each link span shown as its label (an all-URL span
 * as itself), with a map from offsets of the original slice to offsets of the rendering. Spans
 * never cross a sentence's bounds, so a sentence renders on its own.
 */
export function renderLinks(text: string, from: number, to: number, spans: LinkSpans): { text: string; at: (offset: number) => number } {
  let k = spans.count === 0 ? 0 : firstSpanFrom(spans, from);
  if (k >= spans.count || spans.start[k]! >= to) return { text: text.slice(from, to), at: (offset) => offset - from };
  // Pieces of the original kept, and where each starts in the rendering.
  const origStarts: number[] = [];
  const origEnds: number[] = [];
  const outStarts: number[] = [];
  let out = "";
  let at = from;
  const keep = (a: number, b: number) => {
    if (b <= a) return;
    origStarts.push(a);
    origEnds.push(b);
    outStarts.push(out.length);
    out += text.slice(a, b);
  };
  for (; k < spans.count && spans.start[k]! < to; k++) {
    const s = spans.start[k]!;
    const e = Math.min(spans.end[k]!, to);
    keep(at, s);
    const ls = spans.labelStart[k]!;
    const le = spans.labelEnd[k]!;
    if (ls < le) keep(ls, Math.min(le, to));
    else keep(s, e);
    at = e;
  }
  keep(at, to);
  return {
    text: out,
    at: (offset) => {
      // The piece holding the offset, else the rendering's place just after the last piece before it.
      let lo = 0;
      let hi = origStarts.length - 1;
      let found = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        if (origStarts[mid]! <= offset) {
          found = mid;
          lo = mid + 1;
        } else hi = mid - 1;
      }
      if (found === -1) return 0;
      return outStarts[found]! + Math.min(offset, origEnds[found]!) - origStarts[found]!;
    },
  };
}

/** The first span ending after `from`. */
export function firstSpanFrom(spans: LinkSpans, from: number): number {
  let lo = 0;
  let hi = spans.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (spans.end[mid]! <= from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
