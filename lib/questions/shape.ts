// From the engine's structured reply to the analysis's questions and clusters (decisions.md
// "Questions analyses"): validated with zod, duplicates folded, at most `count`, ids in answer
// order, intents outside the enumeration replaced by their cluster's.
import { z } from "zod";
import {
  QUESTION_INTENTS,
  QUESTION_SPECIFICITIES,
  type QuestionIntent,
  type QuestionSpecificity,
  type QuestionsAnalysis,
} from "../schemas/questions";

/**
 * The reply as the app reads it: strict about the list and each text, lenient about the labels,
 * which have fallbacks (a model that invents an intent still gave a usable question).
 */
export const QuestionsReply = z.object({
  questions: z.array(
    z.object({
      text: z.string(),
      intent: z.string().nullish(),
      specificity: z.string().nullish(),
      cluster: z.string().nullish(),
    }),
  ),
});

export type Shaped = Pick<QuestionsAnalysis, "questions" | "clusters">;

/** Raised when a reply cannot give any question; the generation asks once more, then fails. */
export class UnusableReply extends Error {
  override name = "UnusableReply";
}

/** Case, punctuation, symbols and whitespace folded: two texts that fold alike are one question. */
export function foldQuestion(text: string): string {
  return text
    .normalize("NFKC")
    .toLocaleLowerCase("en")
    .replace(/[\p{P}\p{S}]/gu, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** A label as one of `allowed`, read loosely ("Long-tail" is long_tail), else null. */
function labelOf<T extends string>(value: string | null | undefined, allowed: readonly T[]): T | null {
  if (typeof value !== "string") return null;
  const key = value.trim().toLowerCase().replace(/[\s-]+/g, "_");
  return (allowed as readonly string[]).includes(key) ? (key as T) : null;
}

const UNNAMED_CLUSTER = "Other questions";

/** The intent most questions of a cluster have; the first to reach the top count wins a tie; else informational. */
export function clusterIntent(intents: readonly (QuestionIntent | null)[]): QuestionIntent {
  const counts = new Map<QuestionIntent, number>();
  let best: QuestionIntent | null = null;
  for (const intent of intents) {
    if (!intent) continue;
    const n = (counts.get(intent) ?? 0) + 1;
    counts.set(intent, n);
    if (best === null || n > counts.get(best)!) best = intent;
  }
  return best ?? "informational";
}

/**
 * The questions and clusters of a reply. Throws UnusableReply when the reply is not the asked
 * structure or holds no question with text.
 */
export function shapeQuestions(reply: unknown, count: number): Shaped {
  const parsed = QuestionsReply.safeParse(reply);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UnusableReply(`the reply is not the requested structure: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  type Draft = { text: string; intent: QuestionIntent | null; specificity: QuestionSpecificity | null; clusterKey: string };
  const seen = new Set<string>();
  const drafts: Draft[] = [];
  const clusterNames = new Map<string, string>();
  for (const q of parsed.data.questions) {
    if (drafts.length >= count) break;
    const text = q.text.replace(/\s+/g, " ").trim();
    const folded = foldQuestion(text);
    if (folded === "" || seen.has(folded)) continue;
    seen.add(folded);
    const name = (q.cluster ?? "").replace(/\s+/g, " ").trim() || UNNAMED_CLUSTER;
    const clusterKey = foldQuestion(name) || foldQuestion(UNNAMED_CLUSTER);
    if (!clusterNames.has(clusterKey)) clusterNames.set(clusterKey, name);
    drafts.push({ text, intent: labelOf(q.intent, QUESTION_INTENTS), specificity: labelOf(q.specificity, QUESTION_SPECIFICITIES), clusterKey });
  }
  if (drafts.length === 0) throw new UnusableReply("the reply holds no question");

  const keys = [...clusterNames.keys()];
  const clusterIdOf = new Map(keys.map((key, i) => [key, `c${i + 1}`]));
  const intentOf = new Map(keys.map((key) => [key, clusterIntent(drafts.filter((d) => d.clusterKey === key).map((d) => d.intent))]));
  const questions = drafts.map((d, i) => ({
    id: `q${i + 1}`,
    text: d.text,
    cluster_id: clusterIdOf.get(d.clusterKey)!,
    intent: d.intent ?? intentOf.get(d.clusterKey)!,
    specificity: d.specificity,
  }));
  const clusters = keys.map((key) => ({
    id: clusterIdOf.get(key)!,
    name: clusterNames.get(key)!,
    intent: intentOf.get(key)!,
    question_ids: questions.filter((q) => q.cluster_id === clusterIdOf.get(key)).map((q) => q.id),
  }));
  return { questions, clusters };
}
