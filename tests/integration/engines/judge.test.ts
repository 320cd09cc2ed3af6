// The judge's structured request (decisions.md "Judged visibility") through the real provider SDKs
// against the engine simulator: the app's own prompt and schema on each provider's wire (OpenAI
// json_schema, Claude's forced tool, Gemini's responseSchema), the simulated judgement read back
// and checked by the app's verification exactly as the job does.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { STRUCTURED_ENGINE_IDS, engineConfigFromEnv, engineEnvSchema, runStructured, startSimulator, withSimulator, type EngineConfig, type RunningSimulator, type StructuredOutcome } from "@/lib/engines";
import { INVENTED_NAME } from "@/lib/engines/simulator/judge";
import { JUDGE_SCHEMA, UnusableJudgement, judgePrompt, verifyJudgement } from "@/lib/visibility/judge";
import type { Entity } from "@/lib/visibility";

const ENTITIES: Entity[] = [
  { name: "Acme CRM", role: "brand", aliases: ["Acme"], domains: [], case_sensitive: false },
  { name: "HubSpot", role: "competitor", aliases: [], domains: [], case_sensitive: false },
  { name: "Zoho CRM", role: "competitor", aliases: ["Zoho"], domains: [], case_sensitive: false },
];
const ANSWER = "Acme CRM is the best choice for small agencies.\nHubSpot is expensive for small teams.\nSalesforce is another option.";

let sim: RunningSimulator;
let config: EngineConfig;

beforeAll(async () => {
  sim = await startSimulator({ seed: "integration" });
  config = withSimulator(engineConfigFromEnv(engineEnvSchema.parse({ ENGINE_TIMEOUT_MS: "1500" })), sim.url);
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

function valueOf(outcome: StructuredOutcome): unknown {
  if (!outcome.ok) throw new Error(`expected success, got ${JSON.stringify(outcome.error)}`);
  return outcome.value;
}

const ask = (engine: (typeof STRUCTURED_ENGINE_IDS)[number], question: string) =>
  runStructured(engine, { prompt: judgePrompt({ question, answer: ANSWER, entities: ENTITIES, discover: true }), schema: JUDGE_SCHEMA }, { config });

describe.each(STRUCTURED_ENGINE_IDS)("%s judges through its official SDK", (engine) => {
  it("names each tracked entity with a sentiment and a verbatim quote, and the other brands", async () => {
    const value = valueOf(await ask(engine, "best crm [[sim:answer:x]]"));
    const verdict = verifyJudgement(value, { answer: ANSWER, prompt: "best crm", entities: ENTITIES, sentiment: true, discover: true });
    expect(verdict).toEqual({
      entities: [
        { mentioned: true, sentiment: "positive", quote: "Acme CRM is the best choice for small agencies." },
        { mentioned: true, sentiment: "negative", quote: "HubSpot is expensive for small teams." },
        { mentioned: false, sentiment: null, quote: null },
      ],
      discovered: ["Salesforce"],
      quotes_rejected: 0,
      names_dropped: 0,
    });
  });

  it("misquotes and invents on demand, and the checks throw both away", async () => {
    const value = valueOf(await ask(engine, "best crm [[sim:judge_misquote]] [[sim:judge_invent]]"));
    expect((value as { discovered: string[] }).discovered).toContain(INVENTED_NAME);
    const verdict = verifyJudgement(value, { answer: ANSWER, prompt: "best crm", entities: ENTITIES, sentiment: true, discover: true });
    expect(verdict.quotes_rejected).toBe(2);
    expect(verdict.names_dropped).toBe(1);
    expect(verdict.discovered).toEqual(["Salesforce"]);
    expect(verdict.entities.map((e) => [e.mentioned, e.sentiment])).toEqual([[true, null], [true, null], [false, null]]);
  });

  it("answers an unusable judgement on demand, then a usable one (*1)", async () => {
    const question = "best crm [[sim:judge_unusable*1]]";
    const first = valueOf(await ask(engine, question));
    expect(() => verifyJudgement(first, { answer: ANSWER, prompt: "best crm", entities: ENTITIES, sentiment: true, discover: true })).toThrow(UnusableJudgement);
    const second = valueOf(await ask(engine, question));
    expect(verifyJudgement(second, { answer: ANSWER, prompt: "best crm", entities: ENTITIES, sentiment: true, discover: true }).quotes_rejected).toBe(0);
  });

  it("is deterministic for a seed", async () => {
    const question = "which crm should a small agency pick";
    expect(valueOf(await ask(engine, question))).toEqual(valueOf(await ask(engine, question)));
  });
});
