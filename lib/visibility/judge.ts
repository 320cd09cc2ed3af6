// Judged visibility (decisions.md "Judged visibility"), the pure part: the judge prompt and its
// structured-output schema, the check of one reply against the answer it judges (quotes must occur
// verbatim, discovered names must occur in the text), and the figures made of the verified
// verdicts (sentiment per entity with its Wilson interval, discovered entities, agreement with the
// rules by Cohen's kappa). No database, no clock: the job (./judging.ts) feeds it.
import { createHash } from "node:crypto";
import type { StructuredSchema } from "../engines/structured";
import { cohensKappa, rateOf, round4 } from "../stats";
import type { DiscoveredEntity, EntitySentiment, JudgeAgreement } from "../schemas/visibility";
import type { Entity } from "./entities";

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

/** Whether `name` occurs in `text` as a whole word (not touching a letter, digit, mark or underscore), in any case. */
export function occursAsWord(text: string, name: string): boolean {
  const needle = name.normalize("NFC").trim();
  if (needle === "") return false;
  const escaped = needle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\p{L}\\p{N}\\p{M}_])${escaped}(?![\\p{L}\\p{N}\\p{M}_])`, "iu").test(text.normalize("NFC"));
}

/**
 * Checks a structured reply against the answer it judges. A sentiment whose quote does not occur
 * verbatim in the answer is discarded (counted in quotes_rejected); a discovered name that does
 * not occur in the answer, or names a tracked entity, is dropped (names_dropped counts the former).
 * Throws UnusableJudgement when the reply's content cannot be read.
 */
export function verifyJudgement(value: unknown, input: { answer: string; entities: readonly Entity[]; sentiment: boolean; discover: boolean }): Verdict {
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
  const entities = input.entities.map((e) => {
    const v = byName.get(fold(e.name));
    if (!v || !v.mentioned) return { mentioned: false, sentiment: null, quote: null };
    if (!input.sentiment) return { mentioned: true, sentiment: null, quote: null };
    const quote = v.quote.normalize("NFC");
    if (quote.trim() === "" || !answer.includes(quote)) {
      quotesRejected += 1;
      return { mentioned: true, sentiment: null, quote: null };
    }
    return { mentioned: true, sentiment: v.sentiment as SentimentValue, quote };
  });

  const tracked = new Set(input.entities.flatMap((e) => [e.name, ...e.aliases].map(fold)));
  const seen = new Set<string>();
  const discovered: string[] = [];
  let namesDropped = 0;
  if (input.discover) {
    for (const raw of reply.discovered) {
      if (typeof raw !== "string") throw new UnusableJudgement("a discovered name is not a string");
      const name = raw.normalize("NFC").trim().replace(/\s+/g, " ").slice(0, 100);
      const key = fold(name);
      if (key === "" || tracked.has(key) || seen.has(key)) continue;
      if (!occursAsWord(answer, name)) {
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

export function discoveredFigures(runs: readonly JudgedRun[]): DiscoveredEntity[] {
  const engineOf = (r: JudgedRun) => r.engine ?? "unknown";
  const engines = [...new Set(runs.map(engineOf))].sort();
  const runsOf = new Map(engines.map((g) => [g, runs.filter((r) => engineOf(r) === g).length]));
  const found = new Map<string, { name: string; runs: Set<string>; byEngine: Map<string, number> }>();
  for (const run of runs) {
    for (const name of run.verdict.discovered) {
      const key = fold(name);
      let entry = found.get(key);
      if (!entry) found.set(key, (entry = { name, runs: new Set(), byEngine: new Map() }));
      if (entry.runs.has(run.run_id)) continue;
      entry.runs.add(run.run_id);
      entry.byEngine.set(engineOf(run), (entry.byEngine.get(engineOf(run)) ?? 0) + 1);
    }
  }
  return [...found.values()]
    .sort((a, b) => b.runs.size - a.runs.size || (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0))
    .map((d) => ({
      name: d.name,
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
