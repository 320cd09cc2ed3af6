// What a simulated engine answers when the app asks it to judge an answer (decisions.md "Judged
// visibility"): the prompt's tracked entities, answer and question read back from the app's
// judge prompt; for each entity whose name or alias occurs anywhere in the answer (the simulated
// judge is naive: it counts a name in "I couldn't find anything about X" or in a quoted prompt,
// which the rules do not, so judge and rules disagree where real ones do), a sentiment from the
// words of its sentence and that sentence as the quote; with discovery, the catalogue brands the
// answer names that are not tracked, as written.
//
// Deterministic mistakes, so the app's checks are tested:
// - [[sim:judge_misquote]] in the prompt (it reaches the judge prompt through the question):
//   every quote is reworded, so none occurs in the answer; in a question without any [[sim:…]]
//   directive, about one answer in eight (drawn from the seed) has its first quote reworded;
// - [[sim:judge_invent]]: the discovered names include one the answer does not contain
//   ("Vaporware Suite"); in a question without directives, about one answer in six gets one;
// - [[sim:judge_unusable]] (with *N and @ENGINE like every token): the reply has the structure
//   but a sentiment outside the enumeration, which the app cannot use.
import { everyBrand } from "./brands";
import { rngFrom } from "./rng";

/** The judge prompt's first line starts so (lib/visibility/judge.ts JUDGE_TASK_LINE). */
const JUDGE_TASK = /^Task: judge one AI answer for a brand team/;

export function isJudgeRequest(prompt: string): boolean {
  return JUDGE_TASK.test(prompt);
}

export const INVENTED_NAME = "Vaporware Suite";

type Parsed = { question: string; answer: string; entities: { name: string; aliases: string[] }[]; discover: boolean };

function parse(prompt: string): Parsed {
  const question = /^Question: (.*)$/m.exec(prompt)?.[1] ?? "";
  const open = prompt.indexOf("<<<ANSWER\n");
  const close = prompt.lastIndexOf("\nANSWER>>>");
  const answer = open >= 0 && close > open ? prompt.slice(open + "<<<ANSWER\n".length, close) : "";
  const list = /Tracked entities:\n([\s\S]*?)\n\nAnswer:/.exec(prompt)?.[1] ?? "";
  const entities = list
    .split("\n")
    .filter((line) => line.startsWith("- "))
    .map((line) => {
      const m = /^- (.*?)(?: \(also written: (.*)\))?$/.exec(line)!;
      return { name: m[1]!, aliases: m[2] ? m[2].split(", ") : [] };
    });
  return { question, answer, entities, discover: prompt.includes("Also list in `discovered`") };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The first whole-word occurrence of any of the names, any case: its offsets. */
function firstOccurrence(text: string, names: readonly string[]): { start: number; end: number } | null {
  let best: { start: number; end: number } | null = null;
  for (const name of names) {
    const m = new RegExp(`(?<![\\p{L}\\p{N}\\p{M}_])${escape(name)}(?![\\p{L}\\p{N}\\p{M}_])`, "iu").exec(text);
    if (m && (best === null || m.index < best.start)) best = { start: m.index, end: m.index + m[0].length };
  }
  return best;
}

/** The sentence (or list item) around [start, end), trimmed: a verbatim slice of the text. */
function sentenceAround(text: string, start: number, end: number): string {
  let from = start;
  while (from > 0 && !/[.!?\n。]/.test(text[from - 1]!)) from--;
  let to = end;
  while (to < text.length && !/[.!?\n。]/.test(text[to]!)) to++;
  if (to < text.length && text[to] !== "\n") to++;
  return text.slice(from, to).trim();
}

const POSITIVE = /\b(best|great|excellent|recommend\w*|lead\w*|favou?rite|popular|love[sd]?|strong|ideal|easy|simple|top|gut|beliebt|free to start|stands? out)\b|人気/iu;
const NEGATIVE = /\b(expensive|costly|pricey|poor|weak|lack\w*|complain\w*|avoid|worse|worst|clunky|slow|limited|buggy|outdated|teurer|frustrat\w*|disappoint\w*)\b/iu;

function sentimentOf(sentence: string): "positive" | "neutral" | "negative" {
  const positive = POSITIVE.test(sentence);
  const negative = NEGATIVE.test(sentence);
  if (positive === negative) return "neutral";
  return positive ? "positive" : "negative";
}

/** A quote reworded so it no longer occurs in the answer. */
const reword = (quote: string) => `${quote.replace(/[.!?]$/, "")}, which many reviewers praise.`;

export function simulatedJudgement(prompt: string, seed: string, options: { unusable: boolean }): { entities: unknown[]; discovered: string[] } {
  const { question, answer, entities, discover } = parse(prompt);
  const rng = rngFrom(seed, prompt, "judge");
  // The drawn mistakes only where the question carries no directive: a test that fixes its answers
  // ([[sim:answer:…]]) knows every mistake the judge makes.
  const drawn = !question.includes("[[sim:");
  const misquoteAll = question.includes("[[sim:judge_misquote]]");
  const misquoteFirst = drawn && rng.chance(1 / 8);
  const invent = question.includes("[[sim:judge_invent]]") || (drawn && rng.chance(1 / 6));
  let firstQuoted = false;
  const judged = entities.map((entity) => {
    const at = firstOccurrence(answer, [entity.name, ...entity.aliases]);
    if (!at) return { name: entity.name, mentioned: false, sentiment: "neutral", quote: "" };
    let quote = sentenceAround(answer, at.start, at.end);
    if (misquoteAll || (misquoteFirst && !firstQuoted)) quote = reword(quote);
    firstQuoted = true;
    return { name: entity.name, mentioned: true, sentiment: options.unusable ? "glowing" : sentimentOf(quote), quote };
  });
  const discovered: string[] = [];
  if (discover) {
    const tracked = new Set(entities.flatMap((e) => [e.name, ...e.aliases]).map((n) => n.toLowerCase()));
    const found: { start: number; written: string }[] = [];
    for (const brand of everyBrand()) {
      const names = [brand.name, ...(brand.aliases ?? [])];
      if (names.some((n) => tracked.has(n.toLowerCase()))) continue;
      const at = firstOccurrence(answer, names);
      if (at) found.push({ start: at.start, written: answer.slice(at.start, at.end) });
    }
    found.sort((a, b) => a.start - b.start);
    discovered.push(...found.map((f) => f.written));
    if (invent) discovered.push(INVENTED_NAME);
  }
  return { entities: judged, discovered };
}
