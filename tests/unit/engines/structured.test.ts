// The pure parts of structured output: the engine questions use, JSON Schema as Gemini's
// responseSchema, and the simulator's questions.
import { describe, expect, it } from "vitest";
import { EngineConfigError, StructuredSchemaError, engineConfigFromEnv, engineEnvSchema, toGeminiSchema } from "@/lib/engines";
import { foldText, questionsRequestOf, simulatedQuestions } from "@/lib/engines/simulator/questions";

const configOf = (env: Record<string, string>) => engineConfigFromEnv(engineEnvSchema.parse(env));

describe("QUESTIONS_ENGINE", () => {
  it("is the first enabled of chatgpt, claude, gemini when unset, and null when none is enabled", () => {
    expect(configOf({}).questionsEngine).toBe("chatgpt");
    expect(configOf({ GEMINI_API_KEY: "g", ANTHROPIC_API_KEY: "a" }).questionsEngine).toBe("claude");
    expect(configOf({ GEOSCOPE_ENGINES: "live" }).questionsEngine).toBeNull();
  });

  it("is the variable when set to an enabled engine, kept when pointed at a simulator", () => {
    expect(configOf({ QUESTIONS_ENGINE: "gemini" }).questionsEngine).toBe("gemini");
    expect(configOf({ QUESTIONS_ENGINE: "gemini", GEOSCOPE_SIMULATOR_URL: "http://127.0.0.1:4010" }).questionsEngine).toBe("gemini");
  });

  it("refuses an engine that is not enabled, naming the enabled ones", () => {
    expect(() => configOf({ QUESTIONS_ENGINE: "claude", OPENAI_API_KEY: "k" })).toThrow(EngineConfigError);
    expect(() => configOf({ QUESTIONS_ENGINE: "claude", OPENAI_API_KEY: "k" })).toThrow(/QUESTIONS_ENGINE=claude .*enabled: chatgpt/);
  });

  it("rejects a value that is no engine with a message naming the rule", () => {
    const parsed = engineEnvSchema.safeParse({ QUESTIONS_ENGINE: "bard" });
    expect(parsed.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`)).toEqual(["QUESTIONS_ENGINE: must be one of chatgpt, claude, gemini"]);
  });
});

describe("toGeminiSchema", () => {
  it("turns JSON Schema into Gemini's OpenAPI subset, keeping the property order", () => {
    const json = {
      type: "object",
      description: "the reply",
      properties: {
        zeta: { type: "array", items: { type: "string", enum: ["a", "b"] }, minItems: 1, maxItems: 5 },
        alpha: { type: ["integer", "null"], minimum: 0 },
        nested: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"], additionalProperties: false },
      },
      required: ["zeta", "alpha", "nested"],
      additionalProperties: false,
    };
    expect(toGeminiSchema(json)).toEqual({
      type: "OBJECT",
      description: "the reply",
      properties: {
        zeta: { type: "ARRAY", items: { type: "STRING", enum: ["a", "b"] }, minItems: "1", maxItems: "5" },
        alpha: { type: "INTEGER", nullable: true, minimum: 0 },
        nested: { type: "OBJECT", properties: { ok: { type: "BOOLEAN" } }, propertyOrdering: ["ok"], required: ["ok"] },
      },
      propertyOrdering: ["zeta", "alpha", "nested"],
      required: ["zeta", "alpha", "nested"],
    });
  });

  it("refuses what Gemini cannot express, saying where", () => {
    expect(() => toGeminiSchema({ type: "object", properties: { x: { $ref: "#/$defs/x" } } })).toThrow(StructuredSchemaError);
    expect(() => toGeminiSchema({ type: "object", properties: { x: { oneOf: [] } } })).toThrow(/schema\.properties\.x\.oneOf/);
    expect(() => toGeminiSchema({ type: ["string", "integer"] })).toThrow(/no Gemini type/);
  });
});

describe("simulated questions", () => {
  const prompt = (topic: string, count: number) => `Intro.\n\nTopic: ${topic}\nNumber of questions: ${count}\n\nMore.`;

  it("reads the topic and count from the generation prompt, else the whole prompt and 10", () => {
    expect(questionsRequestOf(prompt("CRM for dentists [[sim:invalid_json]]", 25))).toEqual({ topic: "CRM for dentists", count: 25 });
    expect(questionsRequestOf(prompt("x", 1000)).count).toBe(200);
    expect(questionsRequestOf("Garden sheds")).toEqual({ topic: "garden sheds", count: 10 });
  });

  it.each([1, 4, 5, 30, 100, 200])("gives exactly %i questions, distinct after folding but for one repeat from five on", (count) => {
    for (const seed of ["a:chatgpt", "b:claude", "c:gemini"]) {
      const questions = simulatedQuestions(prompt("project management software for small teams", count), seed);
      expect(questions).toHaveLength(count);
      expect(new Set(questions.map((q) => foldText(q.text))).size).toBe(count >= 5 ? count - 1 : count);
      expect(new Set(questions.map((q) => q.text)).size).toBe(count);
      const clusters = new Set(questions.map((q) => q.cluster));
      expect(clusters.size).toBeLessThanOrEqual(6);
      if (count >= 30) expect(clusters.size).toBeGreaterThanOrEqual(4);
    }
  });

  it("is the same for the same seed and prompt, and differs between engines", () => {
    const p = prompt("standing desks", 15);
    expect(simulatedQuestions(p, "s:claude")).toEqual(simulatedQuestions(p, "s:claude"));
    expect(simulatedQuestions(p, "s:claude")).not.toEqual(simulatedQuestions(p, "s:gemini"));
  });

  it("mixes intents and specificities", () => {
    const questions = simulatedQuestions(prompt("standing desks", 60), "s:chatgpt");
    expect(new Set(questions.map((q) => q.specificity))).toEqual(new Set(["broad", "specific", "long_tail"]));
    expect(new Set(questions.map((q) => q.intent)).size).toBeGreaterThanOrEqual(3);
  });
});
