// A questions analysis's count in words (decisions.md "Questions analyses"): how many questions
// came back of those asked for and, when fewer did, why and what is paid. Pure: the CLI imports it.

/** The counts a questions analysis gives (lib/schemas/questions.ts QuestionsAnalysis). */
export type QuestionsCount = { status: string; questions: readonly unknown[]; requested_count: number };

/** "29 of 30 asked for" once generated, "30 asked for" before. */
export function questionsTally(a: QuestionsCount): string {
  return a.status === "completed" ? `${a.questions.length} of ${a.requested_count} asked for` : `${a.requested_count} asked for`;
}

/**
 * Why a generated analysis has fewer questions than asked for, or null when it has them all (or is
 * not generated): the engine's answer held fewer different ones (a question written twice, in other
 * case or punctuation, counts once), and only those are paid for when `charged`.
 */
export function fewerQuestions(a: QuestionsCount, charged: boolean): string | null {
  const n = a.questions.length;
  if (a.status !== "completed" || n >= a.requested_count) return null;
  if (n === 0) return `The engine's answer held no usable question${charged ? "; nothing is paid for" : ""}.`;
  const held = `The engine's answer held ${n} different ${n === 1 ? "question" : "questions"}, not ${a.requested_count} (a question written twice counts once)`;
  return charged ? `${held}; only ${n === 1 ? "that one is" : `those ${n} are`} paid for.` : `${held}.`;
}
