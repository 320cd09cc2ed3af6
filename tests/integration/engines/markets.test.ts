// The searcher's market through the real provider SDKs, as the simulator receives it on the
// wire: each adapter sends the location (and the language where the provider takes one) in its
// provider's documented shape and adds nothing to the prompt; the simulator reads it back from
// each wire format and answers for that country. And [[sim:answer:TEXT]]: the normalised answer
// is exactly TEXT on every engine, with sources and citations as usual.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ENGINE_IDS, engineConfigFromEnv, engineEnvSchema, runPrompt, startSimulator, withSimulator, type EngineConfig, type RunPromptOutcome, type RunningSimulator } from "@/lib/engines";
import { coordinatesOf } from "@/lib/locale/places";
import { answerDirective } from "@/lib/engines/simulator/directive";
import { ENGINE_FACTS } from "@/lib/schemas/engines";

// The engines that say which searches they ran (the others' `searches` are empty by design).
const reportsQueries = (engine: (typeof ENGINE_IDS)[number]) => ENGINE_FACTS[engine].reports_queries;

let sim: RunningSimulator;
let config: EngineConfig;
const wire: Array<{ engine: string; prompt: string; body: Record<string, unknown>; path: string; authorization: string | null }> = [];

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
    expect(run.result.locale_applied).toEqual({ location: true, language: false, city: "Munich" });
  });

  it("claude: the server web search tool's user_location {type: approximate, …}; no language; the prompt unchanged", async () => {
    const run = ok(await runPrompt("claude", { prompt: PROMPT, location: { country: "BR", city: "São Paulo" }, language: "pt-BR" }, { config }));
    const body = wire[0]!.body as { tools: Array<Record<string, unknown>>; messages: Array<{ content: unknown }> };
    expect(body.tools).toHaveLength(1);
    expect(body.tools[0]).toMatchObject({ type: "web_search_20250305", name: "web_search", user_location: { type: "approximate", country: "BR", city: "São Paulo" } });
    expect(Object.keys(body.tools[0]!.user_location as object).sort()).toEqual(["city", "country", "type"]);
    expect(body.messages[0]!.content).toBe(PROMPT);
    expect(run.result.locale_applied).toEqual({ location: true, language: false, city: "São Paulo" });
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
    expect(run.result.locale_applied).toEqual({ location: true, language: true, city: "Munich" });
  });

  it("gemini: the country's coordinates when the city is not known; a language alone without coordinates", async () => {
    const nowhere = ok(await runPrompt("gemini", { prompt: PROMPT, location: { country: "FR", city: "Nowhere-sur-Rien" } }, { config }));
    // The run says which city's point Gemini was given: the country's most populous, not the one asked for.
    expect(nowhere.result.locale_applied).toEqual({ location: true, language: false, city: "Paris" });
    const paris = coordinatesOf({ country: "FR" })!;
    expect(paris.precision).toBe("country");
    expect((wire[0]!.body.toolConfig as any).retrievalConfig).toEqual({ latLng: { latitude: paris.latitude, longitude: paris.longitude } });
    const spoken = ok(await runPrompt("gemini", { prompt: PROMPT, language: "fr" }, { config }));
    expect((wire[1]!.body.toolConfig as any).retrievalConfig).toEqual({ languageCode: "fr" });
    expect(spoken.result.locale_applied).toEqual({ location: false, language: true, city: null });
  });

  it("perplexity: POST /chat/completions with the key as a bearer token; web_search_options.user_location {country, region, city, latitude, longitude}; no language", async () => {
    const run = ok(await runPrompt("perplexity", { prompt: PROMPT, location: MUNICH, language: "de" }, { config }));
    const call = wire[0]!;
    expect(call.path).toBe("/chat/completions");
    expect(call.authorization).toBe("Bearer sk-geoscope-simulated");
    const munich = coordinatesOf(MUNICH)!;
    expect(call.body).toEqual({
      model: "sonar",
      messages: [{ role: "user", content: PROMPT }],
      max_tokens: 4096,
      stream: false,
      web_search_options: { user_location: { country: "DE", region: "Bavaria", city: "Munich", latitude: munich.latitude, longitude: munich.longitude } },
    });
    expect(run.result.locale_applied).toEqual({ location: true, language: false, city: "Munich" });
  });

  const basic = `Basic ${Buffer.from("geoscope-simulated:sk-geoscope-simulated").toString("base64")}`;
  const app = (engine: string) => wire.find((c) => c.engine === engine)!;

  it("chatgpt_app: one task on the ChatGPT LLM scraper, HTTP Basic; the country by location_name (it takes no coordinates) and language_code", async () => {
    const run = ok(await runPrompt("chatgpt_app", { prompt: PROMPT, location: MUNICH, language: "de-DE" }, { config }));
    expect(app("chatgpt_app").path).toBe("/v3/ai_optimization/chat_gpt/llm_scraper/live/advanced");
    expect(app("chatgpt_app").authorization).toBe(basic);
    expect(app("chatgpt_app").body).toEqual([{ keyword: PROMPT, location_name: "Germany", language_code: "de" }]);
    expect(run.result.locale_applied).toEqual({ location: true, language: true, city: null });
  });

  it("gemini_app: the Gemini LLM scraper with location_coordinate 'latitude,longitude,radius' from the city's coordinates", async () => {
    ok(await runPrompt("gemini_app", { prompt: PROMPT, location: MUNICH, language: "de" }, { config }));
    const munich = coordinatesOf(MUNICH)!;
    expect(app("gemini_app").path).toBe("/v3/ai_optimization/gemini/llm_scraper/live/advanced");
    expect(app("gemini_app").body).toEqual([{ keyword: PROMPT, location_coordinate: `${Number(munich.latitude.toFixed(7))},${Number(munich.longitude.toFixed(7))},20000`, language_code: "de" }]);
  });

  it("google_ai_overview: the organic SERP with the asynchronous AI Overview loaded, on the desktop, at the country's coordinates when the city is unknown", async () => {
    const run = ok(await runPrompt("google_ai_overview", { prompt: PROMPT, location: { country: "FR", city: "Nowhere-sur-Rien" }, language: "fr" }, { config }));
    const paris = coordinatesOf({ country: "FR" })!;
    expect(app("google_ai_overview").path).toBe("/v3/serp/google/organic/live/advanced");
    expect(app("google_ai_overview").authorization).toBe(basic);
    expect(app("google_ai_overview").body).toEqual([
      // The official client writes every list field of the request, null when unset.
      { keyword: PROMPT, location_coordinate: `${Number(paris.latitude.toFixed(7))},${Number(paris.longitude.toFixed(7))},199999`, language_code: "fr", device: "desktop", depth: 10, load_async_ai_overview: true, stop_crawl_on_match: null },
    ]);
    expect(run.result.locale_applied).toEqual({ location: true, language: true, city: "Paris" });
  });

  it("google_ai_mode: AI Mode with location_coordinate 'latitude,longitude,zoom'", async () => {
    ok(await runPrompt("google_ai_mode", { prompt: PROMPT, location: MUNICH }, { config }));
    const munich = coordinatesOf(MUNICH)!;
    expect(app("google_ai_mode").path).toBe("/v3/serp/google/ai_mode/live/advanced");
    // No language given: the country's, by name (DataForSEO requires one); it does not count as the run's.
    expect(app("google_ai_mode").body).toEqual([{ keyword: PROMPT, location_coordinate: `${Number(munich.latitude.toFixed(7))},${Number(munich.longitude.toFixed(7))},11z`, language_name: "German", device: "desktop" }]);
  });

  it.each(["chatgpt_app", "gemini_app", "google_ai_overview", "google_ai_mode"] as const)("%s: no market, DataForSEO's required defaults (United States, English), which locale_applied does not count", async (engine) => {
    const run = ok(await runPrompt(engine, { prompt: PROMPT }, { config }));
    expect((app(engine).body as unknown as Array<Record<string, unknown>>)[0]).toMatchObject({ keyword: PROMPT, location_code: 2840, language_name: "English" });
    expect(run.result.locale_applied).toEqual({ location: false, language: false, city: null });
  });

  it.each(ENGINE_IDS)("%s: no market, no location parameter at all", async (engine) => {
    const run = ok(await runPrompt(engine, { prompt: PROMPT }, { config }));
    const text = JSON.stringify(wire[0]!.body);
    expect(text).not.toContain("user_location");
    expect(text).not.toContain("retrievalConfig");
    expect(run.result.locale_applied).toEqual({ location: false, language: false, city: null });
  });
});

describe("the simulator answers for the country it reads from each wire format", () => {
  const domainsOf = (run: ReturnType<typeof ok>) => run.result.sources.map((s) => s.domain ?? "");

  it.each(ENGINE_IDS)("%s: a German searcher gets German sites and searches in German; an American one neither", async (engine) => {
    const german: string[] = [];
    const american: string[] = [];
    const germanQueries: string[] = [];
    // Google shows an AI Overview for some queries only: this one is asked to show one.
    const prompt = engine === "google_ai_overview" ? `${PROMPT} [[sim:overview]]` : PROMPT;
    for (let i = 0; i < 3; i++) {
      const de = ok(await runPrompt(engine, { prompt, location: { country: "DE" } }, { config }));
      german.push(...domainsOf(de));
      germanQueries.push(...de.result.searches.map((s) => s.query));
      const us = ok(await runPrompt(engine, { prompt, location: { country: "US" } }, { config }));
      american.push(...domainsOf(us));
    }
    expect(german.some((d) => d.endsWith(".de"))).toBe(true);
    expect(american.some((d) => d.endsWith(".de"))).toBe(false);
    if (reportsQueries(engine)) expect(germanQueries.some((q) => /vergleich|erfahrungen|test|kostenlos|empfehlung/.test(q))).toBe(true);
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
    // Google's AI Overview is left out: whether it shows at all is decided per query (vendors.test.ts).
    const engines = ENGINE_IDS.filter((e) => e !== "google_ai_overview");
    const answers: Record<string, string[]> = Object.fromEntries(engines.map((e) => [e, []]));
    for (const prompt of ["pipedrive vs hubspot", "best crm for a small team"]) {
      for (const engine of engines) for (let i = 0; i < 5; i++) answers[engine]!.push(ok(await runPrompt(engine, { prompt }, { config })).result.answer);
    }
    for (const engine of engines) {
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
    expect(run.result.shown).toBe(true);
    if (reportsQueries(engine)) expect(run.result.searches.length).toBeGreaterThan(0);
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
