// Structured output through the real provider SDKs against the engine simulator: each provider's
// JSON-schema mechanism on the wire, without web search, and the simulated questions it answers.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  STRUCTURED_ENGINE_IDS,
  engineConfigFromEnv,
  engineEnvSchema,
  runStructured,
  startSimulator,
  withSimulator,
  type EngineConfig,
  type RunningSimulator,
  type StructuredOutcome,
} from "@/lib/engines";
import { QUESTIONS_SCHEMA, generationPrompt } from "@/lib/questions/prompt";
import { foldQuestion as fold } from "@/lib/questions/shape";
import { QUESTION_INTENTS, QUESTION_SPECIFICITIES } from "@/lib/schemas/questions";
import { RunError, Usage } from "@/lib/schemas/results";

// The app's own schema, so the one it sends is the one proven on every provider's wire.
const SCHEMA = QUESTIONS_SCHEMA;
const INTENTS: readonly string[] = QUESTION_INTENTS;
const SPECIFICITIES: readonly string[] = QUESTION_SPECIFICITIES;

const promptFor = (topic: string, count: number, tokens = "") => `${generationPrompt(topic, count)}\n${tokens}`.trim();

type Question = { text: string; intent: string; specificity: string; cluster: string };

let sim: RunningSimulator;
let config: EngineConfig;

function configFor(url: string): EngineConfig {
  return withSimulator(engineConfigFromEnv(engineEnvSchema.parse({ ENGINE_TIMEOUT_MS: "1500" })), url);
}

function ok(outcome: StructuredOutcome) {
  if (!outcome.ok) throw new Error(`expected success, got ${JSON.stringify(outcome.error)}`);
  return outcome;
}

function failed(outcome: StructuredOutcome) {
  if (outcome.ok) throw new Error("expected a failure");
  return outcome;
}

const questionsOf = (outcome: StructuredOutcome) => (ok(outcome).value as { questions: Question[] }).questions;

beforeAll(async () => {
  sim = await startSimulator({ seed: "integration" });
  config = configFor(sim.url);
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe.each(STRUCTURED_ENGINE_IDS)("%s structured output through its official SDK", (engine) => {
  it("answers the questions asked for, one of them repeated in other case and punctuation", async () => {
    const run = ok(await runStructured(engine, { prompt: promptFor("project management software for small teams", 30), schema: SCHEMA }, { config }));
    const questions = questionsOf(run);
    expect(questions).toHaveLength(30);
    for (const q of questions) {
      expect(Object.keys(q).sort()).toEqual(["cluster", "intent", "specificity", "text"]);
      expect(INTENTS).toContain(q.intent);
      expect(SPECIFICITIES).toContain(q.specificity);
      expect(q.text).toMatch(/project management software for small teams/i);
    }
    expect(new Set(questions.map((q) => fold(q.text))).size).toBe(29);
    expect(new Set(questions.map((q) => q.text)).size).toBe(30);
    const clusters = new Set(questions.map((q) => q.cluster));
    expect(clusters.size).toBeGreaterThanOrEqual(4);
    expect(clusters.size).toBeLessThanOrEqual(6);
    expect(run.model).toMatch(/-simulated$/);
    expect(run.envelope.model_requested).toBe(config[engine].model);
    expect(Usage.parse(run.usage)).toEqual(run.usage);
    expect(run.usage.input_tokens).toBeGreaterThan(0);
    expect(run.usage.output_tokens).toBeGreaterThan(0);
    expect(run.usage.web_searches ?? 0).toBe(0);
  });

  it("asks with the provider's JSON-schema mechanism and no web search tool, and keeps the exchange", async () => {
    const run = ok(await runStructured(engine, { prompt: promptFor("learning the piano", 5), schema: SCHEMA }, { config }));
    expect(run.envelope.exchanges).toHaveLength(1);
    const { request, response } = run.envelope.exchanges[0]!;
    expect(response?.status).toBe(200);
    const body = request.body as Record<string, unknown>;
    expect(JSON.stringify(body)).not.toMatch(/web_search|googleSearch|google_search/);
    if (engine === "chatgpt") {
      expect(request.url).toMatch(/\/v1\/responses$/);
      expect(body).toMatchObject({
        text: { format: { type: "json_schema", name: "record_questions", strict: true, schema: SCHEMA.json } },
        store: false,
        max_output_tokens: config.maxOutputTokens,
      });
      expect(body.tools).toBeUndefined();
    } else if (engine === "claude") {
      expect(body).toMatchObject({
        tools: [{ name: "record_questions", input_schema: SCHEMA.json }],
        tool_choice: { type: "tool", name: "record_questions" },
        max_tokens: config.maxOutputTokens,
      });
      expect(body.tools).toHaveLength(1);
    } else {
      expect(request.url).toMatch(/:generateContent$/);
      const generation = body.generationConfig as Record<string, unknown>;
      expect(generation).toMatchObject({ responseMimeType: "application/json", maxOutputTokens: config.maxOutputTokens });
      expect(generation.responseSchema).toMatchObject({
        type: "OBJECT",
        required: ["questions"],
        properties: { questions: { type: "ARRAY", items: { type: "OBJECT", propertyOrdering: ["text", "intent", "specificity", "cluster"] } } },
      });
      expect(body.tools).toBeUndefined();
    }
    expect(questionsOf(run)).toHaveLength(5);
  });

  it("is deterministic for a seed, engine and prompt", async () => {
    const prompt = promptFor("electric bikes for commuting", 12);
    const first = questionsOf(await runStructured(engine, { prompt, schema: SCHEMA }, { config }));
    const other = await startSimulator({ seed: "integration" });
    try {
      const again = questionsOf(await runStructured(engine, { prompt, schema: SCHEMA }, { config: configFor(other.url) }));
      expect(again).toEqual(first);
    } finally {
      await other.close();
    }
  });

  it("reports a reply without the requested structure as malformed and retryable, [[sim:invalid_json]]", async () => {
    const outcome = failed(await runStructured(engine, { prompt: promptFor("tea", 10, "[[sim:invalid_json]]"), schema: SCHEMA }, { config }));
    expect(RunError.parse(outcome.error)).toEqual(outcome.error);
    expect(outcome.error).toMatchObject({ code: "engine_malformed_response", engine, retryable: true });
    expect(outcome.error.message).toMatch(engine === "claude" ? /does not have the requested structure: questions/ : /is not JSON/);
    expect(outcome.envelope.exchanges[0]!.response?.status).toBe(200);
  });

  it("fails only the first attempt with [[sim:invalid_json*1]]", async () => {
    const prompt = promptFor("tea", 10, "[[sim:invalid_json*1]]");
    expect(failed(await runStructured(engine, { prompt, schema: SCHEMA }, { config })).error.code).toBe("engine_malformed_response");
    expect(questionsOf(await runStructured(engine, { prompt, schema: SCHEMA }, { config }))).toHaveLength(10);
  });

  it("keeps failure tokens working on structured requests", async () => {
    const outcome = failed(await runStructured(engine, { prompt: promptFor("tea", 10, "[[sim:rate_limit:3]]"), schema: SCHEMA }, { config }));
    expect(outcome.error).toMatchObject({ code: "engine_rate_limited", retryable: true });
    expect(outcome.retry_after_ms).toBe(3000);
  });
});

describe("structured output, engine-specific", () => {
  it("gives somewhat different questions on different engines", async () => {
    const prompt = promptFor("project management software for small teams", 20);
    const sets = [];
    for (const engine of STRUCTURED_ENGINE_IDS) sets.push(questionsOf(await runStructured(engine, { prompt, schema: SCHEMA }, { config })).map((q) => q.text));
    expect(new Set(sets.map((s) => JSON.stringify(s))).size).toBe(3);
  });

  it("answers the count asked for, capped at 200, and 10 without a count line", async () => {
    expect(questionsOf(await runStructured("gemini", { prompt: promptFor("houseplants", 250), schema: SCHEMA }, { config }))).toHaveLength(200);
    expect(questionsOf(await runStructured("gemini", { prompt: promptFor("houseplants", 3), schema: SCHEMA }, { config }))).toHaveLength(3);
    const plain = questionsOf(await runStructured("claude", { prompt: "Questions people ask about houseplants", schema: SCHEMA }, { config }));
    expect(plain).toHaveLength(10);
    expect(new Set(plain.map((q) => fold(q.text))).size).toBe(9);
  });

  it("refuses an engine that is not enabled", async () => {
    const live = engineConfigFromEnv(engineEnvSchema.parse({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `${sim.url}/v1` }));
    const outcome = failed(await runStructured("claude", { prompt: "x", schema: SCHEMA }, { config: live }));
    expect(outcome.error).toMatchObject({ code: "engine_bad_request", retryable: false });
    expect(outcome.envelope.exchanges).toEqual([]);
  });

  it("refuses a schema name the providers would not take, before any call", async () => {
    await expect(runStructured("chatgpt", { prompt: "x", schema: { ...SCHEMA, name: "Record Questions" } }, { config })).rejects.toThrow(/\[a-z_\]/);
  });
});
