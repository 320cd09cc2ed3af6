// The real provider SDKs against the engine simulator, end to end: what a run records, and
// every failure the simulator can inject.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  ENGINE_IDS,
  NORMALIZER_VERSION,
  SIMULATED_API_KEY,
  engineConfigFromEnv,
  engineEnvSchema,
  normalizeEnvelope,
  runPrompt,
  startSimulator,
  withSimulator,
  type EngineConfig,
  type RunPromptOutcome,
  type RunningSimulator,
} from "@/lib/engines";
import { PromptResult, RunError, Usage } from "@/lib/schemas/results";

let sim: RunningSimulator;
let config: EngineConfig;

function configFor(url: string, env: Record<string, string> = {}): EngineConfig {
  return withSimulator(engineConfigFromEnv(engineEnvSchema.parse(env)), url);
}

function ok(outcome: RunPromptOutcome) {
  if (!outcome.ok) throw new Error(`expected success, got ${JSON.stringify(outcome.error)}`);
  return outcome;
}

function failed(outcome: RunPromptOutcome) {
  if (outcome.ok) throw new Error("expected a failure");
  return outcome;
}

beforeAll(async () => {
  sim = await startSimulator({ seed: "integration" });
  config = configFor(sim.url, { ENGINE_TIMEOUT_MS: "1500" });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

// The three model APIs these behaviours were written for; Perplexity and the apps, whose wire
// formats and failures differ, have their own suite (vendors.test.ts).
const MODEL_APIS = ["chatgpt", "claude", "gemini"] as const satisfies readonly (typeof ENGINE_IDS)[number][];

describe.each(MODEL_APIS)("%s through its official SDK", (engine) => {
  it("records an answer with searches, sources and citations, from a model marked simulated", async () => {
    const run = ok(await runPrompt(engine, { prompt: "Which trail running shoes are best for wide feet?" }, { config }));
    expect(run.model).toMatch(/-simulated$/);
    expect(PromptResult.parse(run.result)).toEqual(run.result);
    expect(Usage.parse(run.usage)).toEqual(run.usage);
    expect(run.result.answer.length).toBeGreaterThan(40);
    // About the prompt, in English: multi-byte text only comes with [[sim:unicode]].
    expect(run.result.answer).toMatch(/trail running shoes/);
    expect(run.result.answer).not.toMatch(/[\u3000-\u30ff\u4e00-\u9fff]/);
    expect(run.result.searched).toBe(true);
    expect(run.result.searches.length).toBeGreaterThan(0);
    expect(run.result.searches.map((s) => s.position)).toEqual(run.result.searches.map((_, i) => i + 1));
    expect(run.result.sources.length).toBeGreaterThan(0);
    expect(run.usage.input_tokens).toBeGreaterThan(0);
    expect(run.usage.output_tokens).toBeGreaterThan(0);
  });

  it("keeps the request and the full response, without the key, and normalises the same again", async () => {
    const run = ok(await runPrompt(engine, { prompt: "How do heat pumps work in cold climates?" }, { config }));
    const stored = JSON.parse(JSON.stringify(run.envelope));
    expect(JSON.stringify(stored)).not.toContain(SIMULATED_API_KEY);
    expect(stored.normalizer_version).toBe(NORMALIZER_VERSION);
    expect(stored.exchanges[0].request.body).toBeTruthy();
    expect(stored.exchanges[0].response.status).toBe(200);
    expect(normalizeEnvelope(stored).result).toEqual(run.result);
  });

  it("is deterministic for a prompt, seed and repeat, and varies across repeats", async () => {
    const prompt = "What is the best budget espresso machine?";
    const first = ok(await runPrompt(engine, { prompt }, { config }));
    const repeats = [first];
    for (let i = 0; i < 3; i++) repeats.push(ok(await runPrompt(engine, { prompt }, { config })));
    const fingerprint = (r: typeof first) => JSON.stringify([r.result.answer, r.result.searches.map((s) => s.query), r.result.sources.map((s) => s.url.replace(/^http:\/\/127\.0\.0\.1:\d+/, "simulator"))]);
    expect(new Set(repeats.map(fingerprint)).size).toBeGreaterThan(1);

    const other = await startSimulator({ seed: "integration" });
    try {
      const again = ok(await runPrompt(engine, { prompt }, { config: configFor(other.url) }));
      expect(fingerprint(again)).toEqual(fingerprint(first));
    } finally {
      await other.close();
    }
  });

  it("records a run without searches and without citations", async () => {
    const run = ok(await runPrompt(engine, { prompt: "Say hello [[sim:no_search]]" }, { config }));
    expect(run.result.searched).toBe(false);
    expect(run.result.searches).toEqual([]);
    expect(run.result.sources).toEqual([]);
    expect(run.result.citations_exposed).toBe(false);
  });

  it("records multi-byte answers and odd URLs with [[sim:unicode]], cited after the multi-byte text", async () => {
    const run = ok(await runPrompt(engine, { prompt: "Explain tides [[sim:unicode]]" }, { config }));
    expect(run.result.answer).toContain("「コスパ最強」");
    expect(run.result.answer).toContain("📉");
    expect(run.result.sources.some((s) => s.cited)).toBe(true);
    expect(run.result.sources.every((s) => !/utm_|#/.test(s.url))).toBe(true);
    // Gemini shows only the pages its answer used; the others show every search result.
    if (engine !== "gemini") {
      expect(run.result.sources.map((s) => s.domain)).toEqual(expect.arrayContaining(["nhk.or.jp", "wikipedia.org", "youtube.com"]));
      expect(run.result.sources.find((s) => s.domain === "wikipedia.org")!.url).toContain("%C3%9Cberblick");
    }
  });

  it("records sources seen but no citation marks when citations are off", async () => {
    const run = ok(await runPrompt(engine, { prompt: "Explain tides [[sim:no_citations]]" }, { config }));
    expect(run.result.citations_exposed).toBe(false);
    expect(run.result.sources.length).toBeGreaterThan(0);
    expect(run.result.sources.every((s) => s.citation_count === 0)).toBe(true);
  });

  const failures: Array<[string, string, boolean]> = [
    ["rate_limit:7", "engine_rate_limited", true],
    ["server_error", "engine_unavailable", true],
    ["overloaded", "engine_unavailable", true],
    ["timeout", "engine_timeout", true],
    ["malformed", "engine_malformed_response", true],
    ["auth_error", "engine_auth_failed", false],
    ["bad_request", "engine_bad_request", false],
  ];
  it.each(failures)("maps an injected %s to %s (retryable: %s)", async (token, code, retryable) => {
    const outcome = failed(await runPrompt(engine, { prompt: `Tell me about tea [[sim:${token}]]` }, { config }));
    expect(RunError.parse(outcome.error)).toEqual(outcome.error);
    expect(outcome.error).toMatchObject({ code, engine, retryable });
    expect(outcome.error.message.length).toBeGreaterThan(5);
    if (token === "rate_limit:7") expect(outcome.retry_after_ms).toBe(7000);
    // The failed exchange is kept as evidence: its status, or no response for a timeout.
    const last = outcome.envelope.exchanges[outcome.envelope.exchanges.length - 1]!;
    if (token === "timeout") expect(last.response).toBeNull();
    else expect(last.response?.status).toBeGreaterThanOrEqual(token === "malformed" ? 200 : 400);
  });

  it("reports a call the caller cancelled as cancelled, not as a provider failure", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const outcome = failed(await runPrompt(engine, { prompt: "Slow one [[sim:timeout]]", signal: controller.signal }, { config }));
    expect(outcome.error).toMatchObject({ code: "engine_cancelled", retryable: true });
  });

  it("fails only the first attempts a rule names, so a retry succeeds", async () => {
    sim.setFailures([{ kind: "server_error", engine, times: 1 }]);
    const first = failed(await runPrompt(engine, { prompt: "Retry me" }, { config }));
    expect(first.error.code).toBe("engine_unavailable");
    ok(await runPrompt(engine, { prompt: "Retry me" }, { config }));
  });
});

describe("engine-specific behaviour", () => {
  it("chatgpt: over a few prompts and repeats, shows every shape real runs have", async () => {
    // Each shape is a chance per run; two repeats of six prompts make missing one unlikely
    // whatever the content, rather than depending on one lucky draw per prompt.
    const prompts = ["best noise cancelling headphones", "how to learn piano as an adult", "is intermittent fasting healthy", "cheapest way to travel europe [[sim:unicode]]", "how do vaccines work", "best laptop for students"];
    const runs = [];
    for (const prompt of [...prompts, ...prompts]) runs.push(ok(await runPrompt("chatgpt", { prompt }, { config })));
    const calls = runs.flatMap((r) => {
      const byCall = new Map<number, number>();
      for (const s of r.result.searches) byCall.set(s.search_call!, (byCall.get(s.search_call!) ?? 0) + 1);
      return Array.from({ length: r.result.search_calls ?? 0 }, (_, i) => byCall.get(i + 1) ?? 0);
    });
    expect(calls.some((n) => n >= 2)).toBe(true); // one call carrying several queries
    expect(calls.some((n) => n === 0)).toBe(true); // a call with no query
    const sources = runs.flatMap((r) => r.result.sources);
    expect(sources.some((s) => s.cited === false && s.search_query_observed === true)).toBe(true);
    expect(sources.some((s) => s.citation_count >= 2)).toBe(true);
    // Citation marks after multi-byte text, the way real answers mix scripts and emoji.
    for (const run of [runs[3]!, runs[9]!]) {
      expect(run.result.answer).toMatch(/コスパ最強.*📉|📉.*コスパ最強/s);
      expect(run.result.sources.some((s) => s.cited)).toBe(true);
    }
  });

  it("claude: continues a pause_turn answer and records both turns", async () => {
    const run = ok(await runPrompt("claude", { prompt: "Latest fusion energy results [[sim:pause_turn]]" }, { config }));
    expect(run.envelope.exchanges).toHaveLength(2);
    const continuation = run.envelope.exchanges[1]!.request.body as { messages: Array<{ role: string }> };
    expect(continuation.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(run.result.answer).toMatch(/fusion energy/);
    expect(run.result.sources.some((s) => s.cited)).toBe(true);
  });

  it("claude: fails as incomplete when continuations are not allowed", async () => {
    const strict = configFor(sim.url, { ANTHROPIC_MAX_CONTINUATIONS: "0" });
    const outcome = failed(await runPrompt("claude", { prompt: "Latest fusion energy results [[sim:pause_turn]]" }, { config: strict }));
    expect(outcome.error).toMatchObject({ code: "engine_incomplete", retryable: true });
  });

  it("claude: keeps a web_search_tool_result_error inside a 200", async () => {
    const run = ok(await runPrompt("claude", { prompt: "Euro to yen today [[sim:search_error]]" }, { config }));
    expect(run.search_errors).toEqual([expect.objectContaining({ error_code: "max_uses_exceeded" })]);
    expect(run.result.answer.length).toBeGreaterThan(0);
  });

  it("chatgpt: asks for web search with its sources included", async () => {
    const run = ok(await runPrompt("chatgpt", { prompt: "Best e-bikes for commuting" }, { config }));
    const body = run.envelope.exchanges[0]!.request.body as Record<string, unknown>;
    expect(body).toMatchObject({ tools: [{ type: "web_search" }], include: ["web_search_call.action.sources"], store: false });
  });

  it("gemini: resolves every grounding redirect of ordinary prompts through the simulator", async () => {
    const runs = [];
    for (const prompt of ["History of the bicycle", "best crm for a startup", "how to learn rust", "cheap flights to lisbon"]) {
      runs.push(ok(await runPrompt("gemini", { prompt }, { config })));
    }
    const sources = runs.flatMap((r) => r.result.sources);
    expect(sources.length).toBeGreaterThan(4);
    for (const s of sources) {
      expect(s.resolution).toBe("resolved");
      expect(s.raw_url).toContain("/grounding-api-redirect/");
      // No loopback redirect URL is ever a source's url.
      expect(s.url).toMatch(/^https:\/\//);
      expect(s.domain).not.toBeNull();
    }
    // The envelope holds what each redirect gave, so normalising again needs no network.
    expect(Object.keys(runs[0]!.envelope.redirects).length).toBeGreaterThan(0);
  });

  it("gemini: a run whose redirects all fail still completes, its sources unresolved with a hint", async () => {
    const run = ok(await runPrompt("gemini", { prompt: "Volcanoes of Iceland [[sim:redirect_fail]]" }, { config }));
    expect(run.result.sources.length).toBeGreaterThan(0);
    for (const s of run.result.sources) {
      expect(s).toMatchObject({ resolution: "unresolved", domain: null });
      expect(s.domain_hint).toMatch(/\./);
    }
  });

  it("gemini: never asks a loopback redirect host unless the simulated configuration allows it", async () => {
    const live = { ...config, redirects: { ...config.redirects, allowLoopback: false } };
    const run = ok(await runPrompt("gemini", { prompt: "History of the bicycle" }, { config: live }));
    const outcomes = Object.values(run.envelope.redirects);
    expect(outcomes.length).toBeGreaterThan(0);
    expect(outcomes.every((o) => o.location === null && /private or reserved/.test(o.error ?? ""))).toBe(true);
    expect(run.result.sources.every((s) => s.resolution === "unresolved")).toBe(true);
  });

  it("fails only the engine a token names", async () => {
    const prompt = "Compare cloud providers [[sim:server_error@gemini]]";
    expect((await runPrompt("chatgpt", { prompt }, { config })).ok).toBe(true);
    expect(failed(await runPrompt("gemini", { prompt }, { config })).error.code).toBe("engine_unavailable");
  });

  it("fails the first N attempts of a prompt with [[sim:KIND*N]]", async () => {
    const prompt = "Flaky question [[sim:rate_limit:2*2]]";
    expect(failed(await runPrompt("claude", { prompt }, { config })).retry_after_ms).toBe(2000);
    expect(failed(await runPrompt("claude", { prompt }, { config })).error.code).toBe("engine_rate_limited");
    ok(await runPrompt("claude", { prompt }, { config }));
  });

  it("takes failure rules over HTTP, for suites that run the simulator in another process", async () => {
    const put = await fetch(`${sim.url}/_simulator/failures`, { method: "PUT", body: JSON.stringify([{ kind: "auth_error", engine: "chatgpt" }]) });
    expect(put.status).toBe(200);
    expect(failed(await runPrompt("chatgpt", { prompt: "Anything" }, { config })).error.code).toBe("engine_auth_failed");
    await fetch(`${sim.url}/_simulator/failures`, { method: "DELETE" });
    ok(await runPrompt("chatgpt", { prompt: "Anything" }, { config }));
  });

  it("refuses an engine that is not enabled", async () => {
    const live = engineConfigFromEnv(engineEnvSchema.parse({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `${sim.url}/v1` }));
    const outcome = failed(await runPrompt("claude", { prompt: "x" }, { config: live }));
    expect(outcome.error).toMatchObject({ code: "engine_bad_request", retryable: false });
    expect(outcome.error.message).toContain("enabled: chatgpt");
  });
});
