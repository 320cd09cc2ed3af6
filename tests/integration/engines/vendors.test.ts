// Perplexity and the consumer apps (through DataForSEO) with their official clients against the
// engine simulator: what a run records, what a failure becomes (DataForSEO's inside an HTTP 200
// included), and how the simulated apps differ from the APIs the way published studies report.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  engineConfigFromEnv,
  engineEnvSchema,
  normalizeEnvelope,
  runPrompt,
  startSimulator,
  withSimulator,
  type EngineConfig,
  type EngineId,
  type RunPromptOutcome,
  type RunningSimulator,
} from "@/lib/engines";
import { PromptResult, RunError } from "@/lib/schemas/results";

let sim: RunningSimulator;
let config: EngineConfig;

const configFor = (url: string, env: Record<string, string> = {}) => withSimulator(engineConfigFromEnv(engineEnvSchema.parse(env)), url);

function ok(outcome: RunPromptOutcome) {
  if (!outcome.ok) throw new Error(`expected success, got ${JSON.stringify(outcome.error)}`);
  return outcome;
}

function failed(outcome: RunPromptOutcome) {
  if (outcome.ok) throw new Error("expected a failure");
  return outcome;
}

beforeAll(async () => {
  sim = await startSimulator({ seed: "vendors" });
  config = configFor(sim.url, { ENGINE_TIMEOUT_MS: "1500" });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const APPS = ["chatgpt_app", "gemini_app", "google_ai_overview", "google_ai_mode"] as const;

describe("perplexity through @perplexity-ai/perplexity_ai", () => {
  it("records the answer without its [n] markers, each a citation of the page it numbers, with Perplexity's cost and search count", async () => {
    const run = ok(await runPrompt("perplexity", { prompt: "Which trail running shoes are best for wide feet?" }, { config }));
    expect(PromptResult.parse(run.result)).toEqual(run.result);
    expect(run.model).toBe("sonar-simulated");
    const raw = (run.envelope.exchanges[0]!.response!.body as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content;
    expect(raw).toMatch(/\[\d+\]/);
    expect(run.result.answer).not.toMatch(/\[\d+\]/);
    expect(run.result.answer).toBe(raw.replace(/\[\d+\]/g, ""));
    expect(run.result.citations_exposed).toBe(true);
    expect(run.result.sources.length).toBeGreaterThan(0);
    expect(run.result.sources.every((s) => s.search_query_observed === true)).toBe(true);
    expect(run.result.sources.some((s) => s.cited === true)).toBe(true);
    // Sonar shows no queries: a count, and the vendor's own cost as a decimal string.
    expect(run.result.searches).toEqual([]);
    expect(run.result.search_count).toBeGreaterThan(0);
    expect(run.usage.web_searches).toBe(run.result.search_count);
    expect(run.result.provider_cost_usd).toMatch(/^0\.\d{2,6}$/);
    expect(run.result.shown).toBe(true);
    expect(normalizeEnvelope(JSON.parse(JSON.stringify(run.envelope))).result).toEqual(run.result);
  });

  it("records Pro Search's queries from its reasoning steps when the model is sonar-pro", async () => {
    const pro = configFor(sim.url, { PERPLEXITY_MODEL: "sonar-pro" });
    const run = ok(await runPrompt("perplexity", { prompt: "best espresso machine under 500 dollars" }, { config: pro }));
    expect(run.result.searches.length).toBeGreaterThan(0);
    expect(run.result.search_calls).toBeGreaterThan(0);
    expect(run.result.searches.map((s) => s.position)).toEqual(run.result.searches.map((_, i) => i + 1));
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
    const outcome = failed(await runPrompt("perplexity", { prompt: `Tell me about tea [[sim:${token}]]` }, { config }));
    expect(RunError.parse(outcome.error)).toEqual(outcome.error);
    expect(outcome.error).toMatchObject({ code, engine: "perplexity", retryable });
    if (token === "rate_limit:7") expect(outcome.retry_after_ms).toBe(7000);
  });
});

describe.each(APPS)("%s through dataforseo-client", (engine) => {
  // Google's AI Overview is asked to show one here; whether it shows is tested below.
  const prompt = (text: string) => (engine === "google_ai_overview" ? `${text} [[sim:overview]]` : text);

  it("records the app's answer and the pages it cited, with the vendor's cost, and normalises the same again", async () => {
    const run = ok(await runPrompt(engine, { prompt: prompt("best crm for a small team") }, { config }));
    expect(PromptResult.parse(run.result)).toEqual(run.result);
    expect(run.result.shown).toBe(true);
    expect(run.result.answer).toMatch(/crm/i);
    expect(run.result.sources.filter((s) => s.cited === true).length).toBeGreaterThan(0);
    expect(run.result.citations_exposed).toBe(true);
    expect(run.result.provider_cost_usd).toMatch(/^0\.\d{2,6}$/);
    expect(run.usage).toEqual({ input_tokens: null, output_tokens: null, reasoning_tokens: null, total_tokens: null, web_searches: null });
    const stored = JSON.parse(JSON.stringify(run.envelope));
    expect(JSON.stringify(stored)).not.toContain("sk-geoscope-simulated");
    expect(normalizeEnvelope(stored).result).toEqual(run.result);
  });

  it("is deterministic for a prompt, seed and repeat", async () => {
    const first = ok(await runPrompt(engine, { prompt: prompt("how to learn piano as an adult") }, { config }));
    const other = await startSimulator({ seed: "vendors" });
    try {
      const again = ok(await runPrompt(engine, { prompt: prompt("how to learn piano as an adult") }, { config: configFor(other.url) }));
      expect(again.result).toEqual(first.result);
    } finally {
      await other.close();
    }
  });

  // DataForSEO answers HTTP 200 with the failure in the body (the request's status or its task's).
  const failures: Array<[string, number | null, string, boolean]> = [
    ["rate_limit", 40202, "engine_rate_limited", true],
    ["overloaded", 40209, "engine_rate_limited", true],
    ["server_error", 50000, "engine_unavailable", true],
    ["bad_request", 40501, "engine_bad_request", false],
    ["no_credit", 40200, "engine_bad_request", false],
  ];
  it.each(failures)("a %s inside an HTTP 200 (status %s) becomes %s (retryable: %s)", async (token, status, code, retryable) => {
    const outcome = failed(await runPrompt(engine, { prompt: `Tell me about tea [[sim:${token}]]` }, { config }));
    expect(RunError.parse(outcome.error)).toEqual(outcome.error);
    expect(outcome.error).toMatchObject({ code, engine, retryable });
    expect(outcome.error.message).toContain(String(status));
    const response = outcome.envelope.exchanges[outcome.envelope.exchanges.length - 1]!.response!;
    expect(response.status).toBe(200);
  });

  it("a refused login (HTTP 401) is engine_auth_failed; a cut-off body is engine_malformed_response", async () => {
    expect(failed(await runPrompt(engine, { prompt: "x [[sim:auth_error]]" }, { config })).error).toMatchObject({ code: "engine_auth_failed", retryable: false });
    expect(failed(await runPrompt(engine, { prompt: "x [[sim:malformed]]" }, { config })).error).toMatchObject({ code: "engine_malformed_response", retryable: true });
  });
});

describe("the apps answer the way studies say they differ from the APIs", () => {
  const PROMPTS = ["best crm for a small team", "best running shoes for flat feet", "how to learn piano as an adult", "cheap flights to lisbon", "best budget espresso machine", "is intermittent fasting healthy"];
  const SOCIAL = /(^|\.)(reddit|youtube|quora|trustpilot|tiktok|g2)\.com$/;

  async function runsOf(engine: EngineId) {
    const runs = [];
    for (const p of PROMPTS) for (let i = 0; i < 2; i++) runs.push(ok(await runPrompt(engine, { prompt: p }, { config })));
    return runs;
  }

  it("ChatGPT's app cites more forums, video and review sites, searches other and more fan-out queries, and ranks brands its own way", async () => {
    const api = await runsOf("chatgpt");
    const app = await runsOf("chatgpt_app");
    const socialShare = (runs: typeof api) => {
      const cited = runs.flatMap((r) => r.result.sources.filter((s) => s.cited === true));
      return cited.filter((s) => SOCIAL.test(s.domain ?? "")).length / cited.length;
    };
    expect(socialShare(app)).toBeGreaterThan(socialShare(api) * 2);
    const queries = (runs: typeof api) => runs.flatMap((r) => r.result.searches.map((s) => s.query));
    const apiQueries = new Set(queries(api));
    expect(queries(app).filter((q) => apiQueries.has(q))).toEqual([]);
    expect(queries(app).length).toBeGreaterThan(queries(api).length);
    // The first brand of the CRM answers' lists.
    const firstBrand = (runs: typeof api) => runs.slice(0, 2).map((r) => /\n1\. ([^:]+):/.exec(r.result.answer)?.[1]);
    const firsts = await Promise.all(
      (["chatgpt", "chatgpt_app"] as const).map(async (engine) => {
        const list = [];
        for (let i = 0; i < 8; i++) list.push(...firstBrand([ok(await runPrompt(engine, { prompt: "best crm for a small team" }, { config }))]));
        return list.join(",");
      }),
    );
    expect(firsts[0]).not.toEqual(firsts[1]);
  });

  it("Google shows an AI Overview for about 60% of queries, the same query always the same; none is a completed run with an empty answer", async () => {
    const topics = ["crm", "running shoes", "espresso machine", "flights to lisbon", "learn piano", "vpn", "laptop", "rust", "mortgage", "yoga", "paris hotels", "sourdough", "noise cancelling headphones", "accounting software", "electric bike", "air fryer", "learn spanish", "index funds", "headphones", "project management"];
    const prompts = topics.flatMap((t) => [`best ${t}`, `is ${t} worth it`]);
    const shown: boolean[] = [];
    for (const p of prompts) {
      const run = ok(await runPrompt("google_ai_overview", { prompt: p }, { config }));
      shown.push(run.result.shown === true);
      if (run.result.shown === false) {
        expect(run.result).toMatchObject({ answer: "", sources: [], searches: [], citations_exposed: false });
        expect(run.result.provider_cost_usd).toMatch(/^0\.\d{2,6}$/);
      }
      const again = ok(await runPrompt("google_ai_overview", { prompt: p }, { config }));
      expect(again.result.shown).toBe(run.result.shown);
    }
    const rate = shown.filter(Boolean).length / shown.length;
    expect(rate).toBeGreaterThan(0.4);
    expect(rate).toBeLessThan(0.8);
    const none = ok(await runPrompt("google_ai_overview", { prompt: "best crm [[sim:no_overview]]" }, { config }));
    expect(none.result.shown).toBe(false);
  });
});
