// The matcher (lib/visibility/matcher.ts: every name and alias of an analysis in one pattern per
// case rule, each spelling's term remembered, word starts checked without a regex for ASCII)
// against the straightforward matcher it replaces: one pattern per name or alias, tried at every
// position of the text. Both follow the same rule (decisions.md "Visibility analyses"): the
// leftmost place a name starts, the longest name there (the first entity's on a tie), any names
// starting inside it joining it and the longest of those winning, the two case rules' finds then
// merged longest first. Generated entities share words, differ only in case, hold one another
// ("Acme" in "Acme Cloud"), and generated answers glue them to letters, digits, underscores,
// combining marks, other scripts, the long s and the Kelvin sign, so a difference in any of that
// shows here as a different list of mentions.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildMatcher, normalizeEntity, type Entity, type Match } from "@/lib/visibility";

type Term = { entity: number; alias: string; aliasIndex: number; sticky: RegExp };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const WORD = /[\p{L}\p{N}\p{M}_]/u;

/** One sticky pattern for one name: whole words, spaces inside it any run of spaces on one line. */
function patternOf(alias: string, caseSensitive: boolean): RegExp {
  const body = alias.split(/\s+/u).map(escapeRegExp).join("[^\\S\\r\\n\\u2028\\u2029]+");
  return new RegExp(`(?<![\\p{L}\\p{N}\\p{M}_])(?:${body})(?![\\p{L}\\p{N}\\p{M}_])`, caseSensitive ? "uy" : "iuy");
}

/** The longest first (then the earliest, then the first entity), keeping those that overlap nothing kept. */
function resolve(matches: Match[]): Match[] {
  const kept: Match[] = [];
  for (const m of [...matches].sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start || a.entity - b.entity)) {
    if (kept.every((k) => m.end <= k.start || m.start >= k.end)) kept.push(m);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/** The names of one case rule, each tried on its own at each position. */
function oneRule(text: string, terms: Term[]): Match[] {
  // The longest name first; among names of one length, the order the entities give them.
  const ordered = [...terms].sort((a, b) => b.alias.length - a.alias.length);
  const at = (s: number): Match | null => {
    for (const t of ordered) {
      t.sticky.lastIndex = s;
      const m = t.sticky.exec(text);
      if (m !== null) return { entity: t.entity, alias: t.alias, aliasIndex: t.aliasIndex, start: s, end: s + m[0].length };
    }
    return null;
  };
  const startsWord = (i: number) => {
    const prev = text.codePointAt(i - 1)!;
    const cp = prev >= 0xdc00 && prev <= 0xdfff && i >= 2 ? text.codePointAt(i - 2)! : prev;
    return !WORD.test(String.fromCodePoint(cp));
  };
  const out: Match[] = [];
  let from = 0;
  for (;;) {
    let first: Match | null = null;
    for (let s = from; s < text.length && first === null; s++) first = at(s);
    if (first === null) return out;
    const group = [first];
    let end = first.end;
    for (let i = first.start + 1; i < end; i++) {
      if (!startsWord(i)) continue;
      const other = at(i);
      if (other !== null) {
        group.push(other);
        end = Math.max(end, other.end);
      }
    }
    out.push(...resolve(group));
    from = end;
  }
}

/** The straightforward matcher: a pattern per name or alias, tried at every position. */
function perNameMatches(entities: readonly Entity[], text: string): Match[] {
  const folded: Term[] = [];
  const exact: Term[] = [];
  entities.forEach((e, entity) => {
    [e.name, ...e.aliases].forEach((alias, aliasIndex) => {
      if (!/[\p{L}\p{N}]/u.test(alias)) return;
      (e.case_sensitive ? exact : folded).push({ entity, alias, aliasIndex, sticky: patternOf(alias, e.case_sensitive) });
    });
  });
  const rules = [folded, exact].filter((terms) => terms.length > 0).map((terms) => oneRule(text, terms));
  return rules.length === 1 ? rules[0]! : resolve(rules.flat());
}

// Names built from a few words, so they share words, nest and collide in case; most of one word.
const word = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom("Acme", "acme", "ACME", "Cloud", "cloud", "One") },
  { weight: 1, arbitrary: fc.constantFrom("Café", "Cafe\u0301", "CRM", "Straße", "Kelvin", "日本", "X1", "x_1", "e.g") },
);
const nameArb = fc.oneof(
  { weight: 3, arbitrary: word },
  { weight: 2, arbitrary: fc.tuple(fc.array(word, { minLength: 2, maxLength: 3 }), fc.constantFrom(" ", "  ", "\t")).map(([words, space]) => words.join(space)) },
);
const entityArb = fc.record({
  name: nameArb,
  aliases: fc.array(nameArb, { maxLength: 3 }),
  case_sensitive: fc.boolean(),
});
const entitiesArb = fc.array(entityArb, { minLength: 1, maxLength: 5 }).map((list) =>
  list.map((e): Entity => normalizeEntity({ name: e.name, role: "competitor", aliases: e.aliases, domains: [], case_sensitive: e.case_sensitive })),
);

// Answers: the entities' own names in any case, the same words, the names' neighbours and separators of every kind.
const textArb = (entities: readonly Entity[]) => {
  const names = entities.flatMap((e) => [e.name, ...e.aliases]);
  const piece = fc.oneof(
    { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...names), fc.constantFrom("as is", "upper", "lower")).map(([n, c]) => (c === "upper" ? n.toUpperCase() : c === "lower" ? n.toLowerCase() : n)) },
    { weight: 3, arbitrary: word },
    { weight: 1, arbitrary: fc.constantFrom("ſtraße", "\u212Aelvin", "KELVIN", "acmeCloud", "Acme_", "_Acme", "Acme2", "2Acme", "Acme\u0301", "Ωacme", "acmeΩ", "日本では", "🚀", "Ａｃｍｅ") },
    { weight: 5, arbitrary: fc.constantFrom(" ", "  ", "\t", "\n", ", ", ". ", "-", "'", "’s ", "(", ")", "[", "](https://acme.com) ", "/", ".", "「", "」", "\u00a0") },
  );
  return fc.array(piece, { maxLength: 30 }).map((parts) => parts.join("").normalize("NFC"));
};
const caseArb = entitiesArb.chain((entities) => fc.tuple(fc.constant(entities), fc.array(textArb(entities), { minLength: 1, maxLength: 4 })));

const view = (matches: Match[]) => matches.map((m) => [m.entity, m.aliasIndex, m.alias, m.start, m.end]);

describe("the matcher against the per-name matcher", () => {
  it("finds the same mentions, with the same names and offsets, in generated answers", () => {
    fc.assert(
      fc.property(caseArb, ([entities, texts]) => {
        // One matcher over several answers, as an analysis uses it (what it remembers carries over).
        const matcher = buildMatcher(entities);
        for (const text of texts) expect(view(matcher.find(text))).toEqual(view(perNameMatches(entities, text)));
      }),
      { numRuns: 250 },
    );
  }, 60_000);

  it("agrees on hand-picked overlaps, and the comparison can tell matchers apart", () => {
    const entities = [
      { name: "Acme", role: "brand", aliases: ["Acme Cloud"], domains: [], case_sensitive: false },
      { name: "Cloud One", role: "competitor", aliases: [], domains: [], case_sensitive: false },
      { name: "ACME", role: "competitor", aliases: [], domains: [], case_sensitive: true },
      { name: "Zeta", role: "competitor", aliases: [], domains: [], case_sensitive: true },
    ].map((e) => normalizeEntity(e as Entity));
    const text = "Acme Cloud One, ACME and acme cloud; Acme  Cloud\nOne. zeta, Zeta";
    const found = view(buildMatcher(entities).find(text));
    expect(found).toEqual(view(perNameMatches(entities, text)));
    expect(found).toEqual([
      [0, 1, "Acme Cloud", 0, 10],
      [0, 0, "Acme", 16, 20],
      [0, 1, "Acme Cloud", 25, 35],
      [0, 1, "Acme Cloud", 37, 48],
      [3, 0, "Zeta", 60, 64],
    ]);
    // A matcher that ignored case rules would differ from the oracle here (it would find "zeta").
    const caseBlind = entities.map((e) => ({ ...e, case_sensitive: false }));
    expect(view(perNameMatches(caseBlind, text))).not.toEqual(found);
  });
});
