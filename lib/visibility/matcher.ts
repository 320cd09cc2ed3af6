// Matching `visibility-v1`: every name and alias of every tracked entity in one pattern per case
// rule (at most two scans of an answer), whole words only, longest first where matches overlap.
import type { Entity } from "./entities";

export type Match = {
  /** Index of the entity in the analysis's list. */
  entity: number;
  /** The name or alias that matched, as the entity gives it. */
  alias: string;
  /** Which: 0 the name, k the entity's aliases[k - 1]. */
  aliasIndex: number;
  /** UTF-16 offsets into the (NFC) text. */
  start: number;
  end: number;
};

type Term = { entity: number; alias: string; aliasIndex: number };

const WORD = "[\\p{L}\\p{N}\\p{M}_]";
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** Spaces inside a name match any run of spaces, not a line break. */
const termPattern = (term: string) => term.split(/\s+/u).map(escapeRegExp).join("[^\\S\\r\\n\\u2028\\u2029]+");
const collapse = (text: string) => text.replace(/\s+/gu, " ");

/** One scan's pattern: all its terms, longest first so the longest wins at a shared start. */
class TermScan {
  private readonly global: RegExp;
  private readonly sticky: RegExp;
  private readonly byKey = new Map<string, Term>();
  private readonly terms: Term[];

  constructor(
    terms: Term[],
    private readonly caseSensitive: boolean,
  ) {
    this.terms = [...terms].sort((a, b) => b.alias.length - a.alias.length);
    for (const t of this.terms) {
      const key = this.key(t.alias);
      if (!this.byKey.has(key)) this.byKey.set(key, t);
    }
    const alternatives = [...new Set(this.terms.map((t) => termPattern(t.alias)))].join("|");
    const body = `(?<!${WORD})(?:${alternatives})(?!${WORD})`;
    const flags = caseSensitive ? "u" : "iu";
    this.global = new RegExp(body, `g${flags}`);
    this.sticky = new RegExp(body, `y${flags}`);
  }

  private key(text: string) {
    return this.caseSensitive ? collapse(text) : collapse(text).toLowerCase();
  }

  /** Matched texts seen, and their terms (an analysis matches the same few spellings thousands of times). */
  private readonly seen = new Map<string, Term>();

  private termOf(matched: string): Term {
    let term = this.seen.get(matched);
    if (term === undefined) {
      term = this.lookUp(matched);
      if (this.seen.size < 10_000) this.seen.set(matched, term);
    }
    return term;
  }

  private lookUp(matched: string): Term {
    const hit = this.byKey.get(this.key(matched));
    if (hit !== undefined) return hit;
    // Case folding the regex knows but toLowerCase does not (the long s, the Kelvin sign).
    const flags = this.caseSensitive ? "u" : "iu";
    return this.terms.find((t) => new RegExp(`^(?:${termPattern(t.alias)})$`, flags).test(matched)) ?? this.terms[0]!;
  }

  /** The longest term starting exactly at `at`, if any. */
  private at(text: string, at: number): Match | null {
    this.sticky.lastIndex = at;
    const m = this.sticky.exec(text);
    if (m === null) return null;
    const t = this.termOf(m[0]);
    return { entity: t.entity, alias: t.alias, aliasIndex: t.aliasIndex, start: at, end: at + m[0].length };
  }

  /** Matches without overlaps, by start. */
  find(text: string): Match[] {
    const out: Match[] = [];
    const re = this.global;
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      const t = this.termOf(m[0]);
      const first: Match = { entity: t.entity, alias: t.alias, aliasIndex: t.aliasIndex, start: m.index, end: m.index + m[0].length };
      // Other terms starting inside it ("Zoho CRM" in "Acme Zoho CRM Suite") join its group.
      let group: Match[] | null = null;
      let end = first.end;
      for (let i = first.start + 1; i < end; i++) {
        if (!startsWord(text, i)) continue;
        const other = this.at(text, i);
        if (other !== null) {
          (group ??= [first]).push(other);
          if (other.end > end) end = other.end;
        }
      }
      if (group === null) out.push(first);
      else out.push(...longestFirst(group));
      re.lastIndex = end;
    }
    return out;
  }
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}_]/u;
/** ASCII letters, digits and underscore: the word characters a name's neighbours mostly are. */
const isAsciiWord = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;

/** Whether a term could start at `i`: not after a word character. */
function startsWord(text: string, i: number): boolean {
  const unit = text.charCodeAt(i - 1);
  if (unit < 0x80) return !isAsciiWord(unit);
  const before = text.codePointAt(i - 1) ?? 0;
  const prev = before >= 0xdc00 && before <= 0xdfff && i >= 2 ? (text.codePointAt(i - 2) ?? 0) : before;
  return !WORD_CHAR.test(String.fromCodePoint(prev));
}

/** Overlapping matches resolved: the longest first (then the earliest), keeping those that do not overlap a kept one. */
export function longestFirst(matches: Match[]): Match[] {
  const kept: Match[] = [];
  for (const m of [...matches].sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start || a.entity - b.entity)) {
    if (kept.every((k) => m.end <= k.start || m.start >= k.end)) kept.push(m);
  }
  return kept.sort((a, b) => a.start - b.start);
}

export type Matcher = { find: (nfcText: string) => Match[] };

/**
 * One matcher for the analysis's entities (already normalised): a name or alias matches as a whole
 * word (not touching a letter, digit, combining mark or underscore), ignoring case unless the
 * entity is case_sensitive; where matches overlap, the longest wins ("HubSpot CRM" over "HubSpot");
 * a term two entities share belongs to the first.
 */
export function buildMatcher(entities: readonly Entity[]): Matcher {
  const folded: Term[] = [];
  const exact: Term[] = [];
  entities.forEach((e, entity) => {
    [e.name, ...e.aliases].forEach((alias, aliasIndex) => {
      if (!/[\p{L}\p{N}]/u.test(alias)) return;
      (e.case_sensitive ? exact : folded).push({ entity, alias, aliasIndex });
    });
  });
  const scans = [folded.length ? new TermScan(folded, false) : null, exact.length ? new TermScan(exact, true) : null].filter((s) => s !== null);
  // No name or alias with a letter or digit ("🭏"): nothing to find by name; the entities' domains still count.
  if (scans.length === 0) return { find: () => [] };
  if (scans.length === 1) return { find: (text) => scans[0]!.find(text) };
  const [first, second] = scans as [TermScan, TermScan];
  return { find: (text) => mergeScans(first.find(text), second.find(text)) };
}

/**
 * Two scans' matches (each by start, without overlaps) as longestFirst would keep them: merged by
 * start when no match of one overlaps a match of the other (the usual case: nothing to choose),
 * else longestFirst over both.
 */
function mergeScans(a: Match[], b: Match[]): Match[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out: Match[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i]!.start < b[j]!.start) ? a[i++]! : b[j++]!;
    // Sorted by start, any overlap shows between neighbours.
    if (out.length > 0 && next.start < out[out.length - 1]!.end) return longestFirst([...a, ...b]);
    out.push(next);
  }
  return out;
}
