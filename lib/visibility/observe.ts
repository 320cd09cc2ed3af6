// One run read for every tracked entity: its mentions (counted or not, with the reason), and per
// entity whether it was mentioned, its position, list rank, prominence and whether the run cited
// it. The per-entity values go into typed arrays (runs x entities) that the figures read.
import { coveredBy, hostOf } from "../analyses/citations";
import { mayStateAbsence, statesAbsence } from "./absence";
import { isPromptEcho, quotable, type Quotable } from "./echo";
import type { Mention, NotCountedReason } from "../schemas/visibility";
import type { Entity } from "./entities";
import type { Matcher } from "./matcher";
import { toNfc } from "./nfc";
import { analyseTextInto, SentenceBuffer, sentenceAt } from "./text";

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
  }
}

/** The arrays of Observations, run by run: what joining and handing them between threads copies. */
export const OBSERVATION_ARRAYS = ["mentioned", "position", "listRank", "prominence", "cited", "counted", "promptEcho", "absence"] as const;

/** What stays the same across the runs of one analysis. */
export type ObserveContext = {
  entities: readonly Entity[];
  matcher: Matcher;
  /** Quotable prompt and query texts, computed once per distinct text. */
  promptQuotables: Map<string, Quotable | null>;
  queryQuotables: Map<string, Quotable | null>;
  /** Sentences of the answer being read (reused from run to run). */
  sentences: SentenceBuffer;
};

/** A fresh context for one analysis. */
export function observeContext(entities: readonly Entity[], matcher: Matcher): ObserveContext {
  return { entities, matcher, promptQuotables: new Map(), queryQuotables: new Map(), sentences: new SentenceBuffer() };
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
export const REASON_CODES = [null, "prompt_echo", "absence"] as const;
const REASON_CODE: Record<NotCountedReason, number> = { prompt_echo: 1, absence: 2 };

/** Integers per mention in a MentionStore. */
export const MENTION_WIDTH = 8;

/**
 * Every mention of an analysis, 8 integers each, by run then offset: the entity's index, which of
 * its names matched (0 its name, k its aliases[k - 1]), start and end (UTF-16 offsets into the
 * answer as stored), the sentence quoted (its bounds in the answer's NFC text), the list rank (0:
 * none) and the reason it is not counted (REASON_CODES: 0 counted). What the service stores per
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

/**
 * The API's mentions of one run from its stored integers (MentionStore.ofRun, or a stored row's),
 * the run's answer as stored and the analysis's entities as used: the one way every mention is
 * made, when computed and when read back.
 */
export function mentionRows(
  ints: ArrayLike<number>,
  run: { run_id: string; engine: string | null; prompt: string; answer: string },
  entities: readonly Entity[],
  from = 0,
): MentionRow[] {
  const out: MentionRow[] = [];
  let nfc: string | null = null;
  for (let at = from * MENTION_WIDTH; at < ints.length; at += MENTION_WIDTH) {
    const entity = entities[ints[at]!]!;
    nfc ??= toNfc(run.answer).text;
    const reason = REASON_CODES[ints[at + 7]!] ?? null;
    out.push({
      run_id: run.run_id,
      engine: run.engine,
      prompt: run.prompt,
      entity: entity.name,
      alias: ints[at + 1] === 0 ? entity.name : entity.aliases[ints[at + 1]! - 1]!,
      start: ints[at + 2]!,
      end: ints[at + 3]!,
      sentence: nfc.slice(ints[at + 4]!, ints[at + 5]!),
      list_rank: ints[at + 6] === 0 ? null : ints[at + 6]!,
      counted: reason === null,
      reason,
    });
  }
  return out;
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
  if (run.cited_urls.length > 0) {
    const hosts = run.cited_urls.map(hostOf);
    ctx.entities.forEach((entity, e) => {
      if (entity.domains.some((d) => hosts.some((h) => coveredBy(h, d)))) out.cited[base + e] = 1;
    });
  }

  const nfc = toNfc(run.answer ?? "");
  const text = nfc.text;
  const matches = ctx.matcher.find(text);
  if (matches.length === 0) return;

  const structure = analyseTextInto(text, ctx.sentences);
  let promptQuotable = ctx.promptQuotables.get(run.prompt);
  if (promptQuotable === undefined) {
    promptQuotable = quotable(run.prompt, true);
    ctx.promptQuotables.set(run.prompt, promptQuotable);
  }
  const quotables: Quotable[] = [];
  if (promptQuotable !== null) quotables.push(promptQuotable);
  for (const q of run.search_queries) {
    let qq = ctx.queryQuotables.get(q);
    if (qq === undefined) {
      qq = quotable(q, false);
      ctx.queryQuotables.set(q, qq);
    }
    if (qq !== null) quotables.push(qq);
  }

  // Each mention: its sentence, whether it counts, its row.
  const sentenceOf = new Int32Array(matches.length);
  let cueSentence = -1;
  let cueText = "";
  let cueMay = false;
  const counts = new Uint8Array(matches.length);
  for (let i = 0; i < matches.length; i++) {
    const m = matches[i]!;
    const s = sentenceAt(structure, m.start);
    sentenceOf[i] = s;
    let reason: NotCountedReason | null = null;
    if (quotables.length > 0 && isPromptEcho(text, m.start, m.end, quotables)) reason = "prompt_echo";
    else if (s >= 0) {
      if (s !== cueSentence) {
        cueSentence = s;
        cueText = text.slice(structure.starts[s]!, structure.ends[s]!);
        cueMay = mayStateAbsence(cueText);
      }
      if (cueMay && statesAbsence(cueText, m.start - structure.starts[s]!, m.end - structure.starts[s]!)) reason = "absence";
    }
    const cell = base + m.entity;
    if (reason === null) {
      counts[i] = 1;
      out.counted[cell]!++;
    } else if (reason === "prompt_echo") out.promptEcho[cell]!++;
    else out.absence[cell]!++;
    const from = s >= 0 ? structure.starts[s]! : 0;
    const to = s >= 0 ? Math.max(structure.ends[s]!, m.end) : text.length;
    const [a, b] = excerptBounds(text, from, to, m.start, m.end);
    const rank = s >= 0 ? structure.listRanks[s]! : 0;
    store.push(m.entity, m.aliasIndex, nfc.toOriginal(m.start), nfc.toOriginal(m.end), a, b, rank, reason === null ? 0 : REASON_CODE[reason]);
  }

  // Position and list rank: by each entity's first counted mention.
  const firsts: number[] = [];
  for (let i = 0; i < matches.length; i++) {
    if (counts[i] === 0) continue;
    const e = matches[i]!.entity;
    if (out.mentioned[base + e] === 1) continue;
    out.mentioned[base + e] = 1;
    const s = sentenceOf[i]!;
    out.listRank[base + e] = s >= 0 ? structure.listRanks[s]! : 0;
    firsts.push(e);
  }
  firsts.forEach((e, k) => (out.position[base + e] = k + 1));
  if (firsts.length === 0 || structure.totalWords === 0) return;

  // Prominence: sum over sentences naming it of |s| exp(-i_s / N) / k_s, over the words of all N sentences.
  const namedIn = new Map<number, Set<number>>();
  for (let i = 0; i < matches.length; i++) {
    if (counts[i] === 0 || sentenceOf[i]! < 0) continue;
    const s = sentenceOf[i]!;
    let set = namedIn.get(s);
    if (set === undefined) namedIn.set(s, (set = new Set()));
    set.add(matches[i]!.entity);
  }
  const N = structure.count;
  for (const [s, named] of namedIn) {
    const share = (structure.words[s]! * Math.exp(-s / N)) / named.size / structure.totalWords;
    for (const e of named) out.prominence[base + e]! += share;
  }
}
