// Judged visibility (decisions.md "Judged visibility"), the pure part: the judge prompt and its
// structured-output schema, the check of one reply against the answer it judges (quotes must occur
// verbatim, discovered names must occur in the text), and the figures made of the verified
// verdicts (sentiment per entity with its Wilson interval, discovered entities, agreement with the
// rules by Cohen's kappa). No database, no clock: the job (./judging.ts) feeds it.
import { createHash } from "node:crypto";
import type { StructuredSchema } from "../engines/structured";
import { cohensKappa, rateOf, round4 } from "../stats";
import type { DiscoveredEntity, EntitySentiment, JudgeAgreement } from "../schemas/visibility";
import { isPromptEcho, quotable } from "./echo";
import type { Entity } from "./entities";
import { firstSpanFrom, isRegistrableHost, labelIsProse, readLinks, renderLinks, spanAt, wordCount, type LinkSpans } from "./links";
import { buildMatcher } from "./matcher";
import { analyseText, sentenceAt } from "./text";
import { parse as parseHost } from "tldts";

export const JUDGE_PROMPT_VERSION = "1";

export const SENTIMENTS = ["positive", "neutral", "negative"] as const;
export type SentimentValue = (typeof SENTIMENTS)[number];

/** The first line of every judge prompt: how the engine simulator knows a judge request. */
export const JUDGE_TASK_LINE = "Task: judge one AI answer for a brand team (geoscope visibility judge).";

/** The template; `{{…}}` are filled per run. Its SHA-256 is the analysis's `prompt_sha`. */
export const JUDGE_PROMPT_TEMPLATE = `${JUDGE_TASK_LINE}
You read one answer that an AI answer engine gave to a question.

For every tracked entity listed below, say whether the answer mentions it (by its name or one of its aliases). For an entity it mentions:
- sentiment: how the answer speaks of it: "positive" (recommends or praises it), "negative" (warns against or criticises it) or "neutral" (names it without judging it);
- quote: the shortest passage of the answer, copied exactly character for character, that shows that sentiment.
For an entity it does not mention: mentioned false, sentiment "neutral", quote "".
{{discover}}

Question: {{question}}

Tracked entities:
{{entities}}

Answer:
<<<ANSWER
{{answer}}
ANSWER>>>`;

const DISCOVER_ON = "Also list in `discovered` every other brand or product the answer names that is not a tracked entity, each written exactly as in the answer.";
const DISCOVER_OFF = "Leave `discovered` empty.";

export const JUDGE_PROMPT_SHA = createHash("sha256").update(JUDGE_PROMPT_TEMPLATE, "utf8").digest("hex");

export const JUDGE_SCHEMA: StructuredSchema = {
  name: "visibility_judgement",
  description: "For each tracked entity: mentioned, sentiment and a verbatim quote; and other brands or products named.",
  json: {
    type: "object",
    additionalProperties: false,
    required: ["entities", "discovered"],
    properties: {
      entities: {
        type: "array",
        items: {
          type: "object",
          additionalProperties: false,
          required: ["name", "mentioned", "sentiment", "quote"],
          properties: {
            name: { type: "string", description: "The tracked entity's name, as listed." },
            mentioned: { type: "boolean" },
            sentiment: { type: "string", enum: [...SENTIMENTS] },
            quote: { type: "string", description: "Copied exactly from the answer; empty when not mentioned." },
          },
        },
      },
      discovered: { type: "array", items: { type: "string" } },
    },
  },
};

/** The prompt for one run. */
export function judgePrompt(input: { question: string; answer: string; entities: readonly Entity[]; discover: boolean }): string {
  const entities = input.entities
    .map((e) => `- ${e.name}${e.aliases.length ? ` (also written: ${e.aliases.join(", ")})` : ""}`)
    .join("\n");
  const fill: Record<string, string> = { discover: input.discover ? DISCOVER_ON : DISCOVER_OFF, question: input.question, entities, answer: input.answer };
  return JUDGE_PROMPT_TEMPLATE.replace(/\{\{(discover|question|entities|answer)\}\}/g, (_, key: string) => fill[key]!);
}

/** A reply that has the schema's structure but not usable content: asked once more, then the run is not judged. */
export class UnusableJudgement extends Error {
  override name = "UnusableJudgement";
}

/** One run's verdict after the checks: what is stored and counted. */
export type Verdict = {
  /** One per tracked entity, in order. */
  entities: { mentioned: boolean; sentiment: SentimentValue | null; quote: string | null }[];
  discovered: string[];
  quotes_rejected: number;
  names_dropped: number;
};

const fold = (s: string) => s.normalize("NFC").trim().toLowerCase();

/** Words that do not tell two products apart when they trail a name ("monday CRM", "Acme Inc", "notion.so"). */
const GENERIC_TRAILING = new Set(["crm", "app", "apps", "software", "platform", "suite", "inc", "incorporated", "llc", "ltd", "limited", "corp", "corporation", "co", "gmbh", "plc", "com", "net", "org", "io", "ai"]);

/**
 * What two discovered names share when they name one thing (decisions.md "Mentions and links"):
 * case, punctuation and trailing generic words folded away, and a name that is a host read as its
 * registrable domain less the suffix, so "monday CRM", "Monday.com" and "www.monday.com" are one.
 */
export function nameKey(name: string): string {
  let n = name.normalize("NFC").trim().toLowerCase();
  if (/^[a-z0-9.-]+\.[a-z]{2,}$/.test(n) && isRegistrableHost(n)) n = parseHost(n).domainWithoutSuffix ?? n;
  const words = n.replace(/[^\p{L}\p{N}]+/gu, " ").trim().split(" ").filter((w) => w !== "");
  while (words.length > 1 && GENERIC_TRAILING.has(words[words.length - 1]!)) words.pop();
  return words.join(" ");
}

/**
 * Whether `name` occurs in `text` (NFC) as a whole word (not touching a letter, digit, mark or
 * underscore), in any case, where a reader sees it named: in prose or in a label of prose, not in
 * a URL, an e-mail address or a link's label that cites a page (visibility-v2).
 */
export function occursAsWord(text: string, name: string, spans: LinkSpans = readLinks(text).spans): boolean {
  const needle = name.normalize("NFC").trim();
  if (needle === "") return false;
  const escaped = needle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp(`(?<![\\p{L}\\p{N}\\p{M}_])${escaped}(?![\\p{L}\\p{N}\\p{M}_])`, "giu");
  for (const m of text.matchAll(re)) {
    const start = m.index;
    const end = start + m[0].length;
    const s = spanAt(spans, start, end);
    if (s === -1) return true;
    if (start >= spans.labelStart[s]! && end <= spans.labelEnd[s]! && labelIsProse(text, spans, s, start, end)) return true;
  }
  return false;
}

/** Words of prose a quote must hold (decisions.md "Mentions and links"). */
const QUOTE_MIN_WORDS = 3;

/** What checking the judge's quotes needs of one answer, read once. */
type QuoteContext = { text: string; spans: LinkSpans; prompt: ReturnType<typeof quotable>; sentences: ReturnType<typeof analyseText> | null };

/**
 * The evidence a judge's quote stands for, or null when it is rejected: the quote must occur
 * verbatim, hold at least three words of prose (outside links), not lie inside or cut through a
 * link, and not be a prompt echo (inside a quotation of the prompt, or naming the entity only where
 * the answer repeats the prompt). The evidence shown is the whole sentence (or sentences) holding
 * it, each link as its label.
 */
function quoteEvidence(ctx: QuoteContext, quote: string, entity: Entity): string | null {
  if (quote.trim() === "") return null;
  const { text, spans } = ctx;
  const names = buildMatcher([entity]);
  for (let at = text.indexOf(quote); at !== -1; at = text.indexOf(quote, at + 1)) {
    const end = at + quote.length;
    let linkWords = 0;
    let cut = false;
    // Links inside the quote are whole and are not its prose; one it starts or ends inside cuts it.
    for (let s = firstSpanFrom(spans, at); s < spans.count && spans.start[s]! < end; s++) {
      if (spans.start[s]! < at || spans.end[s]! > end) {
        cut = true;
        break;
      }
      linkWords += wordCount(text, spans.start[s]!, spans.end[s]!);
    }
    if (cut) continue;
    if (wordCount(text, at, end) - linkWords < QUOTE_MIN_WORDS) continue;
    if (ctx.prompt !== null) {
      if (isPromptEcho(text, at, end, [ctx.prompt])) continue;
      const named = names.find(text.slice(at, end));
      if (named.length > 0 && named.every((m) => isPromptEcho(text, at + m.start, at + m.end, [ctx.prompt!]))) continue;
    }
    ctx.sentences ??= analyseText(text, spans);
    const first = sentenceAt(ctx.sentences, at);
    const last = sentenceAt(ctx.sentences, Math.max(at, end - 1));
    const from = first >= 0 ? Math.min(ctx.sentences.starts[first]!, at) : at;
    const to = last >= 0 ? Math.max(ctx.sentences.ends[last]!, end) : end;
    return renderLinks(text, from, to, spans).text;
  }
  return null;
}

/**
 * Checks a structured reply against the answer it judges. A sentiment whose quote does not occur
 * verbatim in the answer is discarded (counted in quotes_rejected); a discovered name that does
 * not occur in the answer, or names a tracked entity, is dropped (names_dropped counts the former).
 * Throws UnusableJudgement when the reply's content cannot be read.
 */
export function verifyJudgement(value: unknown, input: { answer: string; prompt: string; entities: readonly Entity[]; sentiment: boolean; discover: boolean }): Verdict {
  if (typeof value !== "object" || value === null) throw new UnusableJudgement("the reply is not an object");
  const reply = value as { entities?: unknown; discovered?: unknown };
  if (!Array.isArray(reply.entities)) throw new UnusableJudgement("entities is not a list");
  if (!Array.isArray(reply.discovered)) throw new UnusableJudgement("discovered is not a list");
  const answer = input.answer.normalize("NFC");
  const byName = new Map<string, { mentioned: boolean; sentiment: string; quote: string }>();
  for (const item of reply.entities) {
    if (typeof item !== "object" || item === null) throw new UnusableJudgement("an entity is not an object");
    const { name, mentioned, sentiment, quote } = item as Record<string, unknown>;
    if (typeof name !== "string" || typeof mentioned !== "boolean" || typeof quote !== "string" || typeof sentiment !== "string") {
      throw new UnusableJudgement("an entity lacks name, mentioned, sentiment or quote");
    }
    if (mentioned && !(SENTIMENTS as readonly string[]).includes(sentiment)) throw new UnusableJudgement(`sentiment ${JSON.stringify(sentiment)} is not one of ${SENTIMENTS.join(", ")}`);
    if (!byName.has(fold(name))) byName.set(fold(name), { mentioned, sentiment, quote });
  }
  const known = input.entities.filter((e) => byName.has(fold(e.name))).length;
  if (input.entities.length > 0 && known === 0) throw new UnusableJudgement("the reply judges none of the tracked entities");

  let quotesRejected = 0;
  const spans = readLinks(answer).spans;
  const ctx: QuoteContext = { text: answer, spans, prompt: quotable(input.prompt, true), sentences: null };
  const entities = input.entities.map((e) => {
    const v = byName.get(fold(e.name));
    if (!v || !v.mentioned) return { mentioned: false, sentiment: null, quote: null };
    if (!input.sentiment) return { mentioned: true, sentiment: null, quote: null };
    const evidence = quoteEvidence(ctx, v.quote.normalize("NFC"), e);
    if (evidence === null) {
      quotesRejected += 1;
      return { mentioned: true, sentiment: null, quote: null };
    }
    return { mentioned: true, sentiment: v.sentiment as SentimentValue, quote: evidence };
  });

  const tracked = new Set(input.entities.flatMap((e) => [e.name, ...e.aliases].flatMap((n) => [fold(n), nameKey(n)])));
  const seen = new Set<string>();
  const discovered: string[] = [];
  let namesDropped = 0;
  if (input.discover) {
    for (const raw of reply.discovered) {
      if (typeof raw !== "string") throw new UnusableJudgement("a discovered name is not a string");
      const name = raw.normalize("NFC").trim().replace(/\s+/g, " ").slice(0, 100);
      const key = fold(name);
      if (key === "" || tracked.has(key) || tracked.has(nameKey(name)) || seen.has(key)) continue;
      if (!occursAsWord(answer, name, spans)) {
        namesDropped += 1;
        continue;
      }
      seen.add(key);
      discovered.push(name);
    }
  }
  return { entities, discovered, quotes_rejected: quotesRejected, names_dropped: namesDropped };
}

/** A judged run as the figures read it. */
export type JudgedRun = { run_id: string; engine: string | null; verdict: Verdict; /** Bit e: the rules counted a mention of entity e. */ rulesMentioned: boolean[] };

const QUOTES_PER_SENTIMENT = 3;

export function sentimentFigures(runs: readonly JudgedRun[], entities: number): EntitySentiment[] {
  return Array.from({ length: entities }, (_, e) => {
    const counts = { positive: 0, neutral: 0, negative: 0 };
    const quotes: EntitySentiment["quotes"] = [];
    const shown = { positive: 0, neutral: 0, negative: 0 };
    for (const run of runs) {
      const v = run.verdict.entities[e];
      if (!v?.sentiment || v.quote === null) continue;
      counts[v.sentiment] += 1;
      if (shown[v.sentiment] < QUOTES_PER_SENTIMENT) {
        shown[v.sentiment] += 1;
        quotes.push({ run_id: run.run_id, engine: run.engine, sentiment: v.sentiment, quote: v.quote });
      }
    }
    const n = counts.positive + counts.negative;
    const score = rateOf(counts.positive, n);
    return { runs_judged: runs.length, ...counts, score: n === 0 ? null : score.rate, score_interval: score.interval, quotes };
  });
}

/**
 * The discovered brands and products, names that name one thing merged (nameKey) under the
 * spelling most runs used, the others kept as `aliases`; most runs first.
 */
export function discoveredFigures(runs: readonly JudgedRun[]): DiscoveredEntity[] {
  const engineOf = (r: JudgedRun) => r.engine ?? "unknown";
  const engines = [...new Set(runs.map(engineOf))].sort();
  const runsOf = new Map(engines.map((g) => [g, runs.filter((r) => engineOf(r) === g).length]));
  type Found = { runs: Set<string>; byEngine: Map<string, number>; spellings: Map<string, Set<string>> };
  const found = new Map<string, Found>();
  for (const run of runs) {
    for (const name of run.verdict.discovered) {
      const key = nameKey(name);
      if (key === "") continue;
      let entry = found.get(key);
      if (!entry) found.set(key, (entry = { runs: new Set(), byEngine: new Map(), spellings: new Map() }));
      let spelling = entry.spellings.get(name);
      if (!spelling) entry.spellings.set(name, (spelling = new Set()));
      spelling.add(run.run_id);
      if (entry.runs.has(run.run_id)) continue;
      entry.runs.add(run.run_id);
      entry.byEngine.set(engineOf(run), (entry.byEngine.get(engineOf(run)) ?? 0) + 1);
    }
  }
  const named = [...found.values()].map((d) => {
    // Spellings by the runs using them, then as first met (Map order): the first is the name.
    const spellings = [...d.spellings.entries()].sort((a, b) => b[1].size - a[1].size).map(([spelling]) => spelling);
    return { ...d, name: spellings[0]!, aliases: spellings.slice(1) };
  });
  return named
    .sort((a, b) => b.runs.size - a.runs.size || (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0))
    .map((d) => ({
      name: d.name,
      aliases: d.aliases,
      runs_mentioning: d.runs.size,
      visibility: rateOf(d.runs.size, runs.length).rate,
      visibility_interval: rateOf(d.runs.size, runs.length).interval,
      by_engine: engines.map((g) => {
        const k = d.byEngine.get(g) ?? 0;
        const n = runsOf.get(g)!;
        const { rate, interval } = rateOf(k, n);
        return { engine: g, runs: n, runs_mentioning: k, visibility: rate, visibility_interval: interval };
      }),
    }));
}

/** Judge against rules on "mentioned": per run (all entities agree) and per (run, entity) pair, with Cohen's kappa over the pairs. */
export function agreementFigures(runs: readonly JudgedRun[], entities: number): JudgeAgreement {
  const table = { both: 0, firstOnly: 0, secondOnly: 0, neither: 0 };
  let agreeing = 0;
  for (const run of runs) {
    let all = true;
    for (let e = 0; e < entities; e++) {
      const judge = run.verdict.entities[e]?.mentioned ?? false;
      const rules = run.rulesMentioned[e] ?? false;
      if (judge && rules) table.both++;
      else if (judge) table.firstOnly++;
      else if (rules) table.secondOnly++;
      else table.neither++;
      if (judge !== rules) all = false;
    }
    if (all) agreeing++;
  }
  const kappa = cohensKappa(table);
  return { runs: runs.length, agreeing, pairs: runs.length * entities, pairs_agreeing: table.both + table.neither, kappa: kappa === null ? null : round4(kappa) };
}
