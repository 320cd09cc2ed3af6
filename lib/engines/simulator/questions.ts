// What a simulated engine answers when asked for structured output: the questions people ask about
// a topic, read from the `Topic:` and `Number of questions:` lines of the app's generation prompt
// (else the whole prompt, and 10), grouped into named clusters. Like a real model it repeats one
// question in other case and punctuation once there are five or more.
import { rngFrom, type Rng } from "./rng";
import { topicOf } from "./scenario";

export interface SimQuestion {
  text: string;
  intent: "informational" | "commercial" | "transactional" | "navigational" | "comparison";
  specificity: "broad" | "specific" | "long_tail";
  cluster: string;
}

export const MAX_SIM_QUESTIONS = 200;
const DEFAULT_COUNT = 10;

type Intent = SimQuestion["intent"];

interface Template {
  intent: Intent;
  specificity: "broad" | "specific";
  /** Ways to ask it, `{t}` standing for the topic; engines pick different ones. */
  phrasings: string[];
}

const t = (intent: Intent, specificity: Template["specificity"], ...phrasings: string[]): Template => ({ intent, specificity, phrasings });

// Neutral wording, so that any topic reads naturally: "project management software for small
// teams", "learning the piano", "CRM".
const CLUSTERS: Array<{ name: string; templates: Template[] }> = [
  {
    name: "Basics",
    templates: [
      t("informational", "broad", "What is {t}?", "What exactly is {t}?"),
      t("informational", "broad", "How does {t} work?", "How does {t} actually work?"),
      t("informational", "specific", "What are the main benefits of {t}?", "Why do people choose {t}?"),
      t("informational", "specific", "What are the downsides of {t}?", "What are the drawbacks of {t}?"),
      t("informational", "specific", "Who is {t} best suited for?", "Who should consider {t}?"),
      t("commercial", "broad", "Is {t} worth it?", "Is {t} really worth it?"),
      t("informational", "specific", "What should I know before choosing {t}?"),
      t("informational", "specific", "What are common misconceptions about {t}?", "What do people get wrong about {t}?"),
    ],
  },
  {
    name: "Comparisons",
    templates: [
      t("commercial", "broad", "What are the best options for {t}?", "Which options are best for {t}?"),
      t("comparison", "specific", "What are the top alternatives when it comes to {t}?"),
      t("comparison", "specific", "How do the leading choices for {t} compare?", "How do the most popular choices for {t} stack up?"),
      t("comparison", "specific", "Is a free or a paid option better for {t}?"),
      t("comparison", "specific", "What is the difference between the popular choices for {t}?"),
      t("commercial", "specific", "Which choice for {t} has the best reviews?", "Which choice for {t} do reviewers rate highest?"),
      t("comparison", "specific", "How do experts rank the options for {t}?"),
      t("commercial", "specific", "What do reviewers recommend for {t}?"),
    ],
  },
  {
    name: "Pricing and plans",
    templates: [
      t("commercial", "broad", "How much does {t} cost?", "What does {t} typically cost?"),
      t("commercial", "specific", "Are there free options for {t}?", "Can I get {t} for free?"),
      t("commercial", "specific", "What is the cheapest good option for {t}?"),
      t("transactional", "specific", "Are there discounts or deals on {t}?", "Where can I find deals on {t}?"),
      t("commercial", "specific", "What hidden costs come with {t}?"),
      t("transactional", "specific", "Is there a free trial for {t}?"),
      t("transactional", "specific", "Which plan should I pick for {t}?"),
      t("commercial", "specific", "How can I save money on {t}?"),
    ],
  },
  {
    name: "Getting started",
    templates: [
      t("informational", "broad", "How do I get started with {t}?", "How should a beginner start with {t}?"),
      t("informational", "specific", "What do I need before starting with {t}?"),
      t("informational", "specific", "What is the first step with {t}?"),
      t("informational", "specific", "How long does it take to see results with {t}?"),
      t("transactional", "specific", "Where can I get {t}?", "Where is the best place to get {t}?"),
      t("informational", "specific", "How do I set up {t} properly?"),
      t("informational", "specific", "What mistakes do beginners make with {t}?"),
      t("transactional", "specific", "Can I try {t} before committing?"),
    ],
  },
  {
    name: "Troubleshooting",
    templates: [
      t("informational", "broad", "What are the most common problems with {t}?", "What usually goes wrong with {t}?"),
      t("informational", "specific", "How do I fix issues with {t}?"),
      t("informational", "specific", "Why is {t} not working for me?"),
      t("informational", "specific", "How can I get more out of {t}?"),
      t("informational", "specific", "What should I do if {t} does not meet my needs?"),
      t("transactional", "specific", "How do I switch away from {t}?"),
      t("navigational", "specific", "Who can help me with problems with {t}?"),
      t("informational", "specific", "How do I avoid costly mistakes with {t}?"),
    ],
  },
  {
    name: "Finding resources",
    templates: [
      t("navigational", "broad", "Where can I find reliable reviews of {t}?", "Where can I read trustworthy reviews of {t}?"),
      t("navigational", "specific", "What are the best guides to {t}?"),
      t("navigational", "specific", "Which websites compare options for {t}?"),
      t("navigational", "specific", "Where do experts discuss {t}?"),
      t("navigational", "specific", "Is there an official resource for {t}?"),
      t("navigational", "specific", "What are the best online communities for {t}?"),
      t("navigational", "specific", "Where can I read case studies about {t}?"),
      t("navigational", "specific", "Which YouTube channels cover {t}?"),
    ],
  },
];

// Added before the final question mark, they make a question long-tail.
const QUALIFIERS = ["in 2026", "as a beginner", "on a tight budget", "in the UK", "in the US", "according to experts", "right now", "in Europe", "in Canada"];

/** Case, punctuation and whitespace folded, as the app folds duplicate questions. */
export function foldText(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\p{P}\p{S}]/gu, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** The topic and the number of questions the prompt asks for. */
export function questionsRequestOf(prompt: string): { topic: string; count: number } {
  const topic = /^Topic:[ \t]*(.+)$/m.exec(prompt)?.[1];
  const count = /^Number of questions:[ \t]*(\d+)/m.exec(prompt)?.[1];
  return {
    topic: topicOf(topic ?? prompt),
    count: Math.min(MAX_SIM_QUESTIONS, count === undefined ? DEFAULT_COUNT : Number(count)),
  };
}

/** One cluster's questions in the order an engine would offer them: mostly plain, every third long-tail. */
function clusterQuestions(cluster: (typeof CLUSTERS)[number], topic: string, rng: Rng): SimQuestion[] {
  const plain = rng.shuffle(cluster.templates).map((template) => ({
    text: rng.pick(template.phrasings).replace("{t}", () => topic),
    intent: template.intent,
    specificity: template.specificity as SimQuestion["specificity"],
    cluster: cluster.name,
  }));
  // Round r gives every plain question its r-th qualifier (each has its own order), the last
  // ones first, so that a short list does not ask the same thing twice, once qualified.
  const orders = plain.map(() => rng.shuffle(QUALIFIERS));
  const longTail = QUALIFIERS.flatMap((_, r) =>
    plain.map((q, i) => ({ ...q, text: q.text.replace(/\?$/, ` ${orders[i]![r]}?`), specificity: "long_tail" as const })).reverse(),
  );
  const merged: SimQuestion[] = [];
  let p = 0;
  let l = 0;
  while (p < plain.length) merged.push(merged.length % 3 === 2 ? longTail[l++]! : plain[p++]!);
  return [...merged, ...longTail.slice(l)];
}

/** The same question as `text`, only in other case, punctuation and spacing. */
function nearDuplicate(text: string): string {
  return text.toLowerCase().replace(/\?$/, "").replace(" ", "  ");
}

/**
 * The questions an engine gives for `prompt`: exactly the count asked for (at most 200), the
 * same for the same seed, engine and prompt, from four to six clusters.
 */
export function simulatedQuestions(prompt: string, seed: string): SimQuestion[] {
  const { topic, count } = questionsRequestOf(prompt);
  const rng = rngFrom(seed, prompt, "questions");
  const clusters = rng.shuffle(CLUSTERS).slice(0, rng.int(4, 6));
  const queues = clusters.map((cluster) => clusterQuestions(cluster, topic, rng));
  const distinct = count >= 5 ? count - 1 : count;

  // Taken from the clusters in turn, so a short list still spans several; listed cluster by cluster.
  const seen = new Set<string>();
  const taken: SimQuestion[][] = clusters.map(() => []);
  for (let turn = 0, left = distinct; left > 0 && queues.some((q) => q.length > 0); turn++) {
    const c = turn % queues.length;
    const next = queues[c]!.shift();
    if (next === undefined || seen.has(foldText(next.text))) continue;
    seen.add(foldText(next.text));
    taken[c]!.push(next);
    left -= 1;
  }
  const questions = taken.flat();
  if (count >= 5) {
    const original = rng.int(0, questions.length - 1);
    const at = rng.int(original + 1, questions.length);
    questions.splice(at, 0, { ...questions[original]!, text: nearDuplicate(questions[original]!.text) });
  }
  return questions;
}
