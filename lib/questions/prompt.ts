// What a questions analysis asks its engine (decisions.md "Questions analyses"): the generation
// prompt, its version and hash, and the JSON schema of the structured reply. Changing the prompt
// text means bumping PROMPT_VERSION, so provenance says which prompt made which questions.
import { createHash } from "node:crypto";
import type { StructuredSchema } from "../engines/structured";
import { QUESTION_INTENTS, QUESTION_SPECIFICITIES } from "../schemas/questions";

export const PROMPT_VERSION = "1";
export const STRATEGY = "llm_generation";

/**
 * The generation prompt for a topic. The topic's runs of spaces and line breaks become one space,
 * so it stays on its line; `Topic:` and `Number of questions:` lines are what the engine simulator
 * reads back.
 */
export function generationPrompt(topic: string, count: number): string {
  const oneLine = topic.replace(/\s+/g, " ").trim();
  return [
    "You research what people ask answer engines (ChatGPT, Claude, Gemini) about a topic.",
    "",
    `Topic: ${oneLine}`,
    `Number of questions: ${count}`,
    "",
    `Write exactly ${count} different questions that real people would type into an answer engine about this topic.`,
    "Cover the range of what people want: learning what it is, choosing between options, comparing named alternatives,",
    "buying or signing up, and reaching a specific site or page. Mix broad questions with specific and long-tail ones.",
    "Write each question the way a person would ask it, in the language of the topic, without numbering.",
    "",
    "Group related questions into clusters, each with a short name of two to five words. For each question give:",
    "- text: the question",
    `- intent: one of ${QUESTION_INTENTS.join(", ")}`,
    `- specificity: one of ${QUESTION_SPECIFICITIES.join(", ")}`,
    "- cluster: the name of its cluster, the same for every question of that cluster",
    "",
    "Answer only with the JSON object the schema describes.",
  ].join("\n");
}

/** SHA-256 hex of the prompt exactly as sent (QuestionsProvenance.prompt_sha). */
export function promptSha(promptText: string): string {
  return createHash("sha256").update(promptText, "utf8").digest("hex");
}

/** The structured reply asked for: each provider is given this schema in its own mechanism. */
export const QUESTIONS_SCHEMA: StructuredSchema = {
  name: "record_questions",
  description: "Records the questions people ask about the topic, each with its intent, specificity and cluster.",
  json: {
    type: "object",
    properties: {
      questions: {
        type: "array",
        items: {
          type: "object",
          properties: {
            text: { type: "string", description: "The question as a person would ask it." },
            intent: { type: "string", enum: [...QUESTION_INTENTS] },
            specificity: { type: "string", enum: [...QUESTION_SPECIFICITIES] },
            cluster: { type: "string", description: "The name of the question's cluster (two to five words)." },
          },
          required: ["text", "intent", "specificity", "cluster"],
          additionalProperties: false,
        },
      },
    },
    required: ["questions"],
    additionalProperties: false,
  },
};
