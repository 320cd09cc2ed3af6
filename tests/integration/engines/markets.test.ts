// The searcher's market through the real provider SDKs, as the simulator receives it on the
// wire: each adapter sends the location (and the language where the provider takes one) in its
// provider's documented shape and adds nothing to the prompt; the simulator reads it back from
// each wire format and answers for that country. And [[sim:answer:TEXT]]: the normalised answer
// is exactly TEXT on every engine, with sources and citations as usual.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ENGINE_IDS, engineConfigFromEnv, engineEnvSchema, runPrompt, startSimulator, withSimulator, type EngineConfig, type RunPromptOutcome, type RunningSimulator } from "@/lib/engines";
import { coordinatesOf } from "@/lib/locale/places";
import { answerDirective } from "@/lib/engines/simulator/directive";

let sim: RunningSimulator;
let config: EngineConfig;
const wire: Array<{ engine: string; prompt: string; body: Record<string, unknown> }> = [];

function ok(outcome: RunPromptOutcome) {
  if (!outcome.ok) throw new Error(`expected success, got ${JSON.stringify(outcome.error)}`);
  return outcome;
}

beforeAll(async () => {
  sim = await startSimulator({ seed: "markets", onCall: (call) => void wire.push(call) });
  config = withSimulator(engineConfigFromEnv(engineEnvSchema.parse({})), sim.url);
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.reset();
  wire.length = 0;
});

const PROMPT = "best crm for a small team";
const MUNICH = { country: "DE", region: "Bavaria", city: "Munich", timezone: "Europe/Berlin" };

describe("each adapter sends the market in its provider's shape", () => {
  it("chatgpt: the Responses API web_search tool's user_location {type: approximate, …}; no language; the prompt unchanged", async () => {
    const run = ok(await runPrompt("chatgpt", { prompt: PROMPT, location: MUNICH, language: "de" }, { config }));
    const body = wire[0]!.body;
    expect(body.tools).toEqual([{ type: "web_search", user_location: { type: "approximate", country: "DE", region: "Bavaria", city: "Munich", timezone: "Europe/Berlin" } }]);
    expect(body.input).toBe(PROMPT);
    expect(JSON.stringify(body)).not.toContain('"de"');
    expect(run.result.locale_applied).toEqual({ location: true, language: false });
  });

  it("claude: the server web search tool's user_location {type: approximate, …}; no language; the prompt unchanged", async () => {
    const run = ok(await runPrompt("claude", { prompt: PROMPT, location: { country: "BR", city: "São Paulo" }, language: "pt-BR" }, { config }));
    const body = wire[0]!.body as { tools: Array<Record<string, unknown>>; messages: Array<{ content: unknown }> };
    expect(body.tools).toHaveLength(1);
    expect(body.tools[0]).toMatchObject({ type: "web_search_20250305", name: "web_search", user_location: { type: "approximate", country: "BR", city: "São Paulo" } });
    expect(Object.keys(body.tools[0]!.user_location as object).sort()).toEqual(["city", "country", "type"]);
    expect(body.messages[0]!.content).toBe(PROMPT);
    expect(run.result.locale_applied).toEqual({ location: true, language: false });
  });

  it("gemini: toolConfig.retrievalConfig {latLng: the city's coordinates, languageCode}; the prompt unchanged", async () => {
    const run = ok(await runPrompt("gemini", { prompt: PROMPT, location: MUNICH, language: "de" }, { config }));
    const body = wire[0]!.body as { toolConfig: unknown; contents: Array<{ parts: Array<{ text: string }> }> };
    const munich = coordinatesOf(MUNICH)!;
    expect(munich.precision).toBe("city");
    expect(munich.latitude).toBeCloseTo(48.13, 1);
    expect(munich.longitude).toBeCloseTo(11.57, 1);
    expect(body.toolConfig).toEqual({ retrievalConfig: { latLng: { latitude: munich.latitude, longitude: munich.longitude }, languageCode: "de" } });
    expect(body.contents[0]!.parts).toEqual([{ text: PROMPT }]);
    expect(run.result.locale_applied).toEqual({ location: true, language: true });
  });

  it("gemini: the country's coordinates when the city is not known; a language alone without coordinates", async () => {
    ok(await runPrompt("gemini", { prompt: PROMPT, location: { country: "FR", city: "Nowhere-sur-Rien" } }, { config }));
    const paris = coordinatesOf({ country: "FR" })!;
    expect(paris.precision).toBe("country");
    expect((wire[0]!.body.toolConfig as any).retrievalConfig).toEqual({ latLng: { latitude: paris.latitude, longitude: paris.longitude } });
    const spoken = ok(await runPrompt("gemini", { prompt: PROMPT, language: "fr" }, { config }));
    expect((wire[1]!.body.toolConfig as any).retrievalConfig).toEqual({ languageCode: "fr" });
    expect(spoken.result.locale_applied).toEqual({ location: false, language: true });
  });

  it.each(ENGINE_IDS)("%s: no market, no location parameter at all", async (engine) => {
    const run = ok(await runPrompt(engine, { prompt: PROMPT }, { config }));
    const text = JSON.stringify(wire[0]!.body);
    expect(text).not.toContain("user_location");
    expect(text).not.toContain("retrievalConfig");
    expect(run.result.locale_applied).toEqual({ location: false, language: false });
  });
});

describe("the simulator answers for the country it reads from each wire format", () => {
  const domainsOf = (run: ReturnType<typeof ok>) => run.result.sources.map((s) => s.domain ?? "");

  it.each(ENGINE_IDS)("%s: a German searcher gets German sites and searches in German; an American one neither", async (engine) => {
    const german: string[] = [];
    const american: string[] = [];
    const germanQueries: string[] = [];
    for (let i = 0; i < 3; i++) {
      const de = ok(await runPrompt(engine, { prompt: PROMPT, location: { country: "DE" } }, { config }));
      german.push(...domainsOf(de));
      germanQueries.push(...de.result.searches.map((s) => s.query));
      const us = ok(await runPrompt(engine, { prompt: PROMPT, location: { country: "US" } }, { config }));
      american.push(...domainsOf(us));
    }
    expect(german.some((d) => d.endsWith(".de"))).toBe(true);
    expect(american.some((d) => d.endsWith(".de"))).toBe(false);
    expect(germanQueries.some((q) => /vergleich|erfahrungen|test|kostenlos|empfehlung/.test(q))).toBe(true);
  });

  it("names local brands where the catalogue has them, for searchers there only", async () => {
    const local = /CentralStationCRM|weclapp/;
    const answers = async (country: string) => {
      const texts: string[] = [];
      for (const engine of ENGINE_IDS) for (let i = 0; i < 4; i++) texts.push(ok(await runPrompt(engine, { prompt: PROMPT, location: { country } }, { config })).result.answer);
      return texts.join("\n");
    };
    expect(await answers("DE")).toMatch(local);
    expect(await answers("US")).not.toMatch(local);
  });

  it("reads a country from Gemini's coordinates alone, and a language from its languageCode", async () => {
    const run = ok(await runPrompt("gemini", { prompt: PROMPT, location: { country: "BR", city: "Rio de Janeiro" }, language: "pt-BR" }, { config }));
    expect(run.result.answer).toContain("for searchers in Brazil");
    expect(run.result.searches.some((s) => /melhor|comparativo|vale a pena|grátis|escolher/.test(s.query))).toBe(true);
  });
});

describe("brands through the SDKs", () => {
  it("across a fanout's worth of runs, answers name catalogue brands in ranked lists on every engine, and now and then say they found nothing about one", async () => {
    const answers: Record<string, string[]> = { chatgpt: [], claude: [], gemini: [] };
    for (const prompt of ["pipedrive vs hubspot", "best crm for a small team"]) {
      for (const engine of ENGINE_IDS) for (let i = 0; i < 5; i++) answers[engine]!.push(ok(await runPrompt(engine, { prompt }, { config })).result.answer);
    }
    for (const engine of ENGINE_IDS) {
      // A numbered list on lines of its own, as the normalised answer keeps it.
      expect(answers[engine]!.filter((a) => /\n1\. [^\n]+: [^\n]+\n2\. /.test(a)).length).toBeGreaterThan(5);
      expect(answers[engine]!.join("\n")).toMatch(/HubSpot|Salesforce|Pipedrive|Zoho CRM/);
    }
    const all = Object.values(answers).flat();
    expect(all.some((a) => /I couldn't find any information about|There is no reliable information on|does not appear to be covered by/.test(a))).toBe(true);
    // The brand the prompt names: in some answers, not all.
    const versus = Object.values(answers).flatMap((list) => list.slice(0, 5));
    const naming = versus.filter((a) => /\n\d\. Pipedrive:/.test(a)).length;
    expect(naming).toBeGreaterThan(0);
    expect(naming).toBeLessThan(versus.length);
  });
});

describe("[[sim:answer:TEXT]]", () => {
  const TEXT = "Pipedrive is the usual pick for small teams.\n\n1. Pipedrive: simple pipelines.\n2. HubSpot CRM: a free tier.  \nI couldn't find any information about Zorblax. Für São Paulo: „ok“ 📉 ";

  it.each(ENGINE_IDS)("%s: the normalised answer is exactly TEXT, with sources, searches and citations as usual", async (engine) => {
    const run = ok(await runPrompt(engine, { prompt: `best crm for a small team ${answerDirective(TEXT)}` }, { config }));
    expect(run.result.answer).toBe(TEXT);
    expect(run.result.searches.length).toBeGreaterThan(0);
    expect(run.result.sources.length).toBeGreaterThan(0);
    expect(run.result.citations_exposed).toBe(true);
    expect(run.result.sources.some((s) => s.cited === true)).toBe(true);
    // Citation positions fall inside the text: nothing was inserted.
    for (const source of run.result.sources) for (const at of source.citation_positions ?? []) expect(at).toBeGreaterThan(0);
  });

  it.each(ENGINE_IDS)("%s: an empty TEXT is an empty answer; a one-line TEXT is itself", async (engine) => {
    expect(ok(await runPrompt(engine, { prompt: `x ${answerDirective("")}` }, { config })).result.answer).toBe("");
    expect(ok(await runPrompt(engine, { prompt: `x ${answerDirective("Just this")}` }, { config })).result.answer).toBe("Just this");
  });
});
