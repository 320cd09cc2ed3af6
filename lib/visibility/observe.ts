// One run read for every tracked entity: its mentions (counted or not, with the reason), and per
// entity whether it was mentioned, its position, list rank, prominence and whether the run cited
// it. The per-entity values go into typed arrays (runs x entities) that the figures read.
import { coveredBy, hostOf } from "../analyses/citations";
import { mayStateAbsence, statesAbsence } from "./absence";
import { isPromptEcho, quotable, type Quotable } from "./echo";
import type { Mention, NotCountedReason } from "../schemas/visibility";
import type { Entity } from "./entities";
import { labelIsProse, NO_LINKS, placeOf, readLinks, renderLinks, type LinkReading } from "./links";
import { longestFirst, type Match, type Matcher } from "./matcher";
import { toNfc, type NfcText } from "./nfc";
import { analyseTextInto, SentenceBuffer, sentenceAt } from "./text";
import { decodeStructure, encodeStructure } from "./text-structure";

export type { NotCountedReason };

/** A run as the analysis reads it: plain values the service gathers from the stored run. */
export type VisibilityRunInput = {
  run_id: string;
  engine: string | null;
  /** The country the run asked from (its input location), null when none was given. */
  country: string | null;
  prompt: string;
  status: "queued" | "running" | "completed" | "failed";
  kind: "prompt" | "audit" | "questions";
  /** The normalised answer text; null without a result. */
  answer: string | null;
  /** The queries of the run's searches, as the provider showed them. */
  search_queries: readonly string[];
  /** URLs of the sources the answer cited. */
  cited_urls: readonly string[];
  /** The answer's structure as kept (./text-structure.ts), when it is: its sentences and links are then not read again. */
  structure?: Uint8Array | null;
};

/** One mention (the API's Mention): where an entity's name or alias occurs in one run's answer, and whether it counts. */
export type MentionRow = Mention;

/** Per run and entity, in arrays indexed run * entities + entity. */
export class Observations {
  readonly mentioned: Uint8Array;
  /** 1 = named first among the tracked entities; 0 = not mentioned. */
  readonly position: Uint8Array;
  /** 1-based list item of the first counted mention; 0 = not in a list (or not mentioned). */
  readonly listRank: Int32Array;
  readonly prominence: Float64Array;
  readonly cited: Uint8Array;
  readonly counted: Uint32Array;
  readonly promptEcho: Uint32Array;
  readonly absence: Uint32Array;
  readonly link: Uint32Array;

  /** Consecutive ranges of runs' observations (of the same entities) as one. */
  static join(parts: readonly Observations[]): Observations {
    const entities = parts[0]!.entities;
    const out = new Observations(parts.reduce((n, p) => n + p.runs, 0), entities);
    let at = 0;
    for (const p of parts) {
      for (const key of OBSERVATION_ARRAYS) (out[key] as { set(a: ArrayLike<number>, o: number): void }).set(p[key], at);
      at += p.runs * entities;
    }
    return out;
  }

  /** Observations from their arrays (as a worker thread hands them back). */
  static of(runs: number, entities: number, arrays: Pick<Observations, (typeof OBSERVATION_ARRAYS)[number]>): Observations {
    return Object.assign(new Observations(0, entities), { runs, ...arrays });
  }

  constructor(
    readonly runs: number,
    readonly entities: number,
  ) {
    const size = runs * entities;
    this.mentioned = new Uint8Array(size);
    this.position = new Uint8Array(size);
    this.listRank = new Int32Array(size);
    this.prominence = new Float64Array(size);
    this.cited = new Uint8Array(size);
    this.counted = new Uint32Array(size);
    this.promptEcho = new Uint32Array(size);
    this.absence = new Uint32Array(size);
    this.link = new Uint32Array(size);
  }
}

/** The arrays of Observations, run by run: what joining and handing them between threads copies. */
export const OBSERVATION_ARRAYS = ["mentioned", "position", "listRank", "prominence", "cited", "counted", "promptEcho", "absence", "link"] as const;

/** What stays the same across the runs of one analysis. */
export type ObserveContext = {
  entities: readonly Entity[];
  matcher: Matcher;
  /** Quotable prompt and query texts, computed once per distinct text. */
  promptQuotables: Map<string, Quotable | null>;
  queryQuotables: Map<string, Quotable | null>;
  /** Sentences of the answer being read (reused from run to run). */
  sentences: SentenceBuffer;
  /** Every entity's domains, the most specific first: whose a bare domain of the prose is. */
  domainOwners: { domain: string; entity: number; index: number }[];
  /** citedEntities's answers so far, by URL. */
  citedBy: Map<string, readonly number[]>;
  /** The sentence whose entities prominence is gathering, and them (reused from run to run). */
  names: { sentence: number; entities: Int32Array };
  /** The answer being read's quotables and its kept mentions with their sentences and whether each counts (emptied, not made, for each run). */
  scratch: { quotables: Quotable[]; kept: Match[]; sentenceOf: number[]; counts: number[] };
  /** Given the structure of each answer read without a kept one (./text-structure.ts), to keep it; null: not kept. */
  keepStructure: KeepStructure | null;
};

/** Where a reader hands the structure of each answer it read without a kept one (./text-structure.ts). */
export type KeepStructure = (runId: string, structure: Buffer) => void;

/** The entities one of whose domains covers the host of a cited `url` (remembered per URL: runs cite the same pages). */
function citedEntities(url: string, ctx: ObserveContext): readonly number[] {
  let found = ctx.citedBy.get(url);
  if (found === undefined) {
    const host = hostOf(url);
    const covering: number[] = [];
    ctx.entities.forEach((entity, e) => {
      if (entity.domains.some((d) => coveredBy(host, d))) covering.push(e);
    });
    found = covering;
    if (ctx.citedBy.size > 50_000) ctx.citedBy.clear();
    ctx.citedBy.set(url, found);
  }
  return found;
}

/** A fresh context for one analysis. */
export function observeContext(entities: readonly Entity[], matcher: Matcher, keepStructure: KeepStructure | null = null): ObserveContext {
  const domainOwners = entities
    .flatMap((e, entity) => e.domains.map((domain, index) => ({ domain, entity, index })))
    .sort((a, b) => b.domain.length - a.domain.length || a.entity - b.entity);
  return { entities, matcher, promptQuotables: new Map(), queryQuotables: new Map(), sentences: new SentenceBuffer(), domainOwners, citedBy: new Map(), names: { sentence: -1, entities: new Int32Array(entities.length) }, scratch: { quotables: [], kept: [], sentenceOf: [], counts: [] }, keepStructure };
}

const SENTENCE_LIMIT = 300;

/** [a, b): at most 300 characters of [from, to) of `text` around [start, end), never splitting a surrogate pair. */
function excerptBounds(text: string, from: number, to: number, start: number, end: number): [number, number] {
  if (to - from <= SENTENCE_LIMIT) return [from, to];
  const room = Math.max(0, SENTENCE_LIMIT - (end - start));
  let a = Math.max(from, start - Math.floor(room / 2));
  let b = Math.min(to, a + Math.max(SENTENCE_LIMIT, end - start));
  a = Math.max(from, b - Math.max(SENTENCE_LIMIT, end - start));
  const low = (i: number) => i > 0 && i < text.length && (text.charCodeAt(i) & 0xfc00) === 0xdc00;
  if (low(a)) a++;
  if (low(b)) b--;
  return [a, b];
}

/** Why a mention is not counted, as stored: 0 counted. */
export const REASON_CODES = [null, "prompt_echo", "absence", "link"] as const;
const REASON_CODE: Record<NotCountedReason, number> = { prompt_echo: 1, absence: 2, link: 3 };

/** Integers per mention in a MentionStore. */
export const MENTION_WIDTH = 8;

/**
 * Every mention of an analysis, 8 integers each, by run then offset: the entity's index, which of
 * its names matched (0 its name, k its aliases[k - 1], -k its domains[k - 1] for a bare domain of
 * the prose), start and end (UTF-16 offsets into the answer as stored), the sentence quoted (its
 * bounds in the answer's NFC text: the excerpt itself for visibility-v1, the whole sentence for
 * v2), the list rank (0: none) and the reason it is not counted (REASON_CODES: 0 counted). What the service stores per
 * run and reads back to page the evidence; `mentionRows` turns them into the API's Mention.
 */
export class MentionStore {
  data = new Int32Array(8 * 1024);
  /** Mentions so far. */
  length = 0;
  /** Run r's mentions are runStart[r] .. runStart[r + 1] - 1. */
  runStart: Int32Array;

  constructor(runs: number) {
    this.runStart = new Int32Array(runs + 1);
  }

  push(entity: number, aliasIndex: number, start: number, end: number, sentenceFrom: number, sentenceTo: number, listRank: number, reason: number): void {
    if ((this.length + 1) * MENTION_WIDTH > this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const at = this.length * MENTION_WIDTH;
    const d = this.data;
    d[at] = entity;
    d[at + 1] = aliasIndex;
    d[at + 2] = start;
    d[at + 3] = end;
    d[at + 4] = sentenceFrom;
    d[at + 5] = sentenceTo;
    d[at + 6] = listRank;
    d[at + 7] = reason;
    this.length++;
  }

  /** Consecutive ranges of runs' mentions as one. */
  static join(parts: readonly MentionStore[]): MentionStore {
    const out = new MentionStore(parts.reduce((n, p) => n + p.runStart.length - 1, 0));
    out.data = new Int32Array(Math.max(1, parts.reduce((n, p) => n + p.length, 0)) * MENTION_WIDTH);
    let run = 0;
    for (const p of parts) {
      out.data.set(p.data.subarray(0, p.length * MENTION_WIDTH), out.length * MENTION_WIDTH);
      const runs = p.runStart.length - 1;
      for (let r = 0; r <= runs; r++) out.runStart[run + r] = out.length + p.runStart[r]!;
      out.length += p.length;
      run += runs;
    }
    return out;
  }

  /** A store from its parts (as a worker thread hands them back). */
  static of(data: Int32Array, length: number, runStart: Int32Array): MentionStore {
    const out = new MentionStore(0);
    return Object.assign(out, { data, length, runStart });
  }

  /** Run r's mentions as stored: 8 integers each. */
  ofRun(r: number): Int32Array {
    return this.data.subarray(this.runStart[r]! * MENTION_WIDTH, this.runStart[r + 1]! * MENTION_WIDTH);
  }
}

/** How an analysis matched: v1 stored each mention's excerpt; v2 stores its whole sentence and shows links as their labels. */
export type MatchingMethod = "visibility-v1" | "visibility-v2";

/**
 * The API's mentions of one run from its stored integers (MentionStore.ofRun, or a stored row's),
 * the run's answer as stored and the analysis's entities as used: the one way every mention is
 * made, when computed and when read back. For `visibility-v2` the sentence is shown as a reader sees
 * it (each link span as its label) and cut to 300 characters around the mention; `visibility-v1`
 * stored the excerpt's bounds themselves.
 */
export function mentionRows(
  ints: ArrayLike<number>,
  run: { run_id: string; engine: string | null; prompt: string; answer: string },
  entities: readonly Entity[],
  method: MatchingMethod,
  from = 0,
): MentionRow[] {
  const out: MentionRow[] = [];
  let nfc: NfcText | null = null;
  for (let at = from * MENTION_WIDTH; at < ints.length; at += MENTION_WIDTH) {
    const entity = entities[ints[at]!]!;
    nfc ??= toNfc(run.answer);
    const reason = REASON_CODES[ints[at + 7]!] ?? null;
    const aliasIndex = ints[at + 1]!;
    const start = ints[at + 2]!;
    const end = ints[at + 3]!;
    out.push({
      run_id: run.run_id,
      engine: run.engine,
      prompt: run.prompt,
      entity: entity.name,
      alias: aliasIndex === 0 ? entity.name : aliasIndex > 0 ? entity.aliases[aliasIndex - 1]! : entity.domains[-aliasIndex - 1]!,
      start,
      end,
      sentence: method === "visibility-v1" ? nfc.text.slice(ints[at + 4]!, ints[at + 5]!) : shownSentence(nfc, ints[at + 4]!, ints[at + 5]!, start, end),
      list_rank: ints[at + 6] === 0 ? null : ints[at + 6]!,
      counted: reason === null,
      reason,
    });
  }
  return out;
}

/** The sentence [from, to) of the NFC text as a reader sees it, at most 300 characters around the mention [start, end) (offsets as stored). */
function shownSentence(nfc: NfcText, from: number, to: number, start: number, end: number): string {
  const raw = nfc.text.slice(from, to);
  const shown = renderLinks(raw, 0, raw.length, readLinks(raw).spans);
  const a = shown.at(Math.max(0, nfcOffsetOf(nfc, start) - from));
  const b = Math.max(a, shown.at(Math.min(raw.length, nfcOffsetOf(nfc, end) - from)));
  const [x, y] = excerptBounds(shown.text, 0, shown.text.length, a, b);
  return shown.text.slice(x, y);
}

/** The NFC offset of an offset of the answer as stored (the inverse of toOriginal, which is monotonic). */
function nfcOffsetOf(nfc: NfcText, original: number): number {
  let lo = 0;
  let hi = nfc.text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (nfc.toOriginal(mid) <= original) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Reads run `r` (a completed prompt run with an answer) into `out` and its mentions into `store` (runs in order). */
export function observeRun(run: VisibilityRunInput, r: number, ctx: ObserveContext, out: Observations, store: MentionStore): void {
  const base = r * ctx.entities.length;
  store.runStart[r] = store.length;
  try {
    observeInto(run, base, ctx, out, store);
  } finally {
    store.runStart[r + 1] = store.length;
  }
}

function observeInto(run: VisibilityRunInput, base: number, ctx: ObserveContext, out: Observations, store: MentionStore): void {
  // cited: a cited page on one of the entity's domains or their subdomains.
  for (const url of run.cited_urls) {
    for (const e of citedEntities(url, ctx)) out.cited[base + e] = 1;
  }

  const nfc = toNfc(run.answer ?? "");
  const text = nfc.text;
  const named = ctx.matcher.find(text);
  const looked = named.length > 0 || ctx.domainOwners.length > 0;
  // The answer's structure as kept, when it is and a link or a sentence will be looked at.
  const known = looked && run.structure ? keptStructure(run.structure, text, ctx) : null;
  // Link spans and the prose's bare domains: where a name is a link, and where a domain names its owner.
  const links = known !== null ? known.links : looked ? readLinks(text) : NO_LINKS;
  const matches = withDomainMentions(named, links, ctx);
  if (matches.length === 0) return;

  const spans = links.spans;
  const structure = known !== null ? known.structure : analyseTextInto(text, ctx.sentences, spans);
  if (known === null && ctx.keepStructure !== null) {
    const bytes = encodeStructure(structure, links);
    if (bytes !== null) ctx.keepStructure(run.run_id, bytes);
  }
  let promptQuotable = ctx.promptQuotables.get(run.prompt);
  if (promptQuotable === undefined) {
    promptQuotable = quotable(run.prompt, true);
    ctx.promptQuotables.set(run.prompt, promptQuotable);
  }
  const { quotables, kept, sentenceOf, counts } = ctx.scratch;
  quotables.length = 0;
  kept.length = 0;
  sentenceOf.length = 0;
  counts.length = 0;
  if (promptQuotable !== null) quotables.push(promptQuotable);
  for (const q of run.search_queries) {
    let qq = ctx.queryQuotables.get(q);
    if (qq === undefined) {
      qq = quotable(q, false);
      ctx.queryQuotables.set(q, qq);
    }
    if (qq !== null) quotables.push(qq);
  }

  // Each mention: dropped inside a URL; else its sentence, whether it counts, its row.
  let cueSentence = -1;
  let cue: { text: string; at: (offset: number) => number } | null = null;
  for (const m of matches) {
    let reason: NotCountedReason | null = null;
    if (spans.count > 0) {
      const where = placeOf(spans, m.start, m.end);
      if (where.place === "url") continue;
      if (where.place === "label" && !labelIsProse(text, spans, where.span, m.start, m.end)) reason = "link";
    }
    const s = sentenceAt(structure, m.start);
    if (reason === null && quotables.length > 0 && isPromptEcho(text, m.start, m.end, quotables)) reason = "prompt_echo";
    if (reason === null && s >= 0) {
      if (s !== cueSentence) {
        cueSentence = s;
        const raw = text.slice(structure.starts[s]!, structure.ends[s]!);
        // The absence patterns read the sentence as a reader sees it: links shown as their labels.
        cue = mayStateAbsence(raw) ? renderLinks(text, structure.starts[s]!, structure.ends[s]!, spans) : null;
      }
      if (cue !== null && statesAbsence(cue.text, cue.at(m.start), cue.at(m.end))) reason = "absence";
    }
    const cell = base + m.entity;
    if (reason === null) out.counted[cell]!++;
    else if (reason === "prompt_echo") out.promptEcho[cell]!++;
    else if (reason === "absence") out.absence[cell]!++;
    else out.link[cell]!++;
    kept.push(m);
    sentenceOf.push(s);
    counts.push(reason === null ? 1 : 0);
    const from = s >= 0 ? structure.starts[s]! : 0;
    const to = s >= 0 ? Math.max(structure.ends[s]!, m.end) : text.length;
    const rank = s >= 0 ? structure.listRanks[s]! : 0;
    store.push(m.entity, m.aliasIndex, nfc.toOriginal(m.start), nfc.toOriginal(m.end), from, to, rank, reason === null ? 0 : REASON_CODE[reason]);
  }

  // Position and list rank: by each entity's first counted mention.
  let firsts = 0;
  for (let i = 0; i < kept.length; i++) {
    if (counts[i] === 0) continue;
    const e = kept[i]!.entity;
    if (out.mentioned[base + e] === 1) continue;
    out.mentioned[base + e] = 1;
    const s = sentenceOf[i]!;
    out.listRank[base + e] = s >= 0 ? structure.listRanks[s]! : 0;
    out.position[base + e] = ++firsts;
  }
  if (firsts === 0 || structure.totalWords === 0) return;

  // Prominence: sum over sentences naming it of |s| exp(-i_s / N) / k_s, over the words of all N
  // sentences. The mentions are by offset, so a sentence's are consecutive: each sentence's
  // distinct entities (k_s of them) are gathered, then each given its share, sentence by sentence.
  const N = structure.count;
  const names = ctx.names;
  let k = 0;
  for (let i = 0; i <= kept.length; i++) {
    const s = i < kept.length && counts[i] !== 0 ? sentenceOf[i]! : -1;
    if (k > 0 && (i === kept.length || (s >= 0 && s !== names.sentence))) {
      const share = (structure.words[names.sentence]! * Math.exp(-names.sentence / N)) / k / structure.totalWords;
      for (let j = 0; j < k; j++) out.prominence[base + names.entities[j]!]! += share;
      k = 0;
    }
    if (s < 0) continue;
    const e = kept[i]!.entity;
    if (k === 0) names.sentence = s;
    let known = false;
    for (let j = 0; j < k; j++) if (names.entities[j] === e) known = true;
    if (!known) names.entities[k++] = e;
  }
}

/** A kept structure of the answer `text`, or null when it is not one (the answer is then read as if none were kept, and its structure kept again). */
function keptStructure(bytes: Uint8Array, text: string, ctx: ObserveContext): ReturnType<typeof decodeStructure> | null {
  try {
    return decodeStructure(bytes, text, ctx.sentences);
  } catch {
    return null;
  }
}

/**
 * The name matches with the prose's bare domains added as mentions of the entities whose domains
 * cover them ("hubspot.com is …" names HubSpot), overlaps going to the longest as for names (a
 * domain over the name inside it); a domain match's aliasIndex is -(k + 1) for the entity's domains[k].
 */
function withDomainMentions(named: Match[], links: LinkReading, ctx: ObserveContext): Match[] {
  const domains = links.domains;
  if (domains.count === 0 || ctx.domainOwners.length === 0) return named;
  const found: Match[] = [];
  for (let d = 0; d < domains.count; d++) {
    const host = domains.host[d]!;
    const owner = ctx.domainOwners.find((o) => coveredBy(host, o.domain));
    if (owner !== undefined) {
      found.push({ entity: owner.entity, alias: ctx.entities[owner.entity]!.domains[owner.index]!, aliasIndex: -(owner.index + 1), start: domains.start[d]!, end: domains.end[d]! });
    }
  }
  if (found.length === 0) return named;
  return longestFirst([...named, ...found]);
}
