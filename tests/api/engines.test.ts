// GET /engines: every engine with what a reader needs to know of it (API or app, vendor, what a
// market reaches), and which this server runs; a request naming one it does not run is 400.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as listEnginesRoute, POST as postEngines } from "@/app/api/v1/engines/route";
import { GET as getBatchRoute } from "@/app/api/v1/batches/[batch_id]/route";
import { POST as postPrompts } from "@/app/api/v1/prompts/route";
import { POST as postVisibility } from "@/app/api/v1/visibility-analyses/route";
import { POST as postFanouts } from "@/app/api/v1/fanouts/route";
import { GET as getFanoutRoute } from "@/app/api/v1/fanouts/[fanout_id]/route";
import { shownSentences } from "@/lib/words/fanouts";
import { answerDirective } from "@/lib/engines/simulator/directive";
import { localDriver } from "@/lib/work/local-driver";
import { resetConfig } from "@/lib/config/env";
import { createProject } from "@/lib/projects/create";
import { EngineList } from "@/lib/schemas/engines";
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { call } from "../helpers/http";
import { person, principalOf, type Person } from "../helpers/people";

useSimulatedEngines({ billing: false });
useTestDatabase();

let alice: Person;
let project: string;

beforeAll(async () => {
  alice = await person("engines@example.com");
  project = (await createProject(principalOf(alice), { name: "Engines", workspace_id: alice.workspaceId, context: null })).id;
});

afterEach(async () => {
  // Drained before the clean-up below, which no job still running may undo (setup-api.ts drains only after it).
  await localDriver().drained();
  vi.unstubAllEnvs();
  resetConfig();
});
afterAll(() => resetConfig());

const list = () => call(listEnginesRoute, "GET", "/engines");

describe("GET /engines", () => {
  it("needs no credential and lists every engine, APIs then apps, each saying which it is; simulated, all are enabled", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(EngineList.parse(res.body)).toEqual(res.body);
    expect(res.body.items.map((e: any) => [e.id, e.label, e.surface, e.vendor, e.enabled])).toEqual([
      ["chatgpt", "ChatGPT (API)", "api", "openai", true],
      ["claude", "Claude (API)", "api", "anthropic", true],
      ["gemini", "Gemini (API)", "api", "google", true],
      ["perplexity", "Perplexity (API)", "api", "perplexity", true],
      ["chatgpt_app", "ChatGPT (app)", "app", "dataforseo", true],
      ["gemini_app", "Gemini (app)", "app", "dataforseo", true],
      ["google_ai_overview", "Google AI Overview (app)", "app", "dataforseo", true],
      ["google_ai_mode", "Google AI Mode (app)", "app", "dataforseo", true],
    ]);
    const byId = Object.fromEntries(res.body.items.map((e: any) => [e.id, e]));
    expect(byId.chatgpt).toMatchObject({ model: "gpt-5.4", locale: { location: true, language: false }, reports_queries: true });
    expect(byId.perplexity).toMatchObject({ model: "sonar", locale: { location: true, language: false }, reports_queries: false });
    expect(byId.chatgpt_app).toMatchObject({ model: "ai_optimization/chat_gpt/llm_scraper/live/advanced", locale: { location: true, language: true }, reports_queries: true });
    expect(byId.google_ai_overview).toMatchObject({ model: "serp/google/organic/live/advanced", reports_queries: false });
    const post = postEngines(new Request("http://localhost/api/v1/engines", { method: "POST" }));
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET");
  });

  it("live, enables exactly the engines whose vendor credentials are set; asking for another is 400 naming it", async () => {
    vi.stubEnv("GEOSCOPE_ENGINES", "live");
    vi.stubEnv("DATAFORSEO_LOGIN", "me@example.com");
    vi.stubEnv("DATAFORSEO_PASSWORD", "secret");
    vi.stubEnv("PERPLEXITY_API_KEY", "pplx-test");
    vi.stubEnv("PERPLEXITY_MODEL", "sonar-pro");
    resetConfig();
    const res = await list();
    expect(res.body.items.filter((e: any) => e.enabled).map((e: any) => e.id)).toEqual(["perplexity", "chatgpt_app", "gemini_app", "google_ai_overview", "google_ai_mode"]);
    // Pro Search shows its queries.
    expect(res.body.items.find((e: any) => e.id === "perplexity")).toMatchObject({ model: "sonar-pro", reports_queries: true });

    const refused = await call(postPrompts, "POST", "/prompts", { token: alice.apiKey, body: { prompt: "best crm", project, engines: ["chatgpt_app", "claude"] } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "invalid_request", engine: null });
    expect(refused.body.error.message).toBe('engines: "claude" is not an enabled engine; enabled: perplexity, chatgpt_app, gemini_app, google_ai_overview, google_ai_mode');
  });
});

describe("a query Google shows no AI Overview for", () => {
  it("completes with shown false and an empty answer, and a visibility analysis leaves it out as no_answer", async () => {
    const prompt = `which crm for a dental practice ${answerDirective("Pipedrive suits a small practice.")} [[sim:no_overview]]`;
    const queued = await call(postPrompts, "POST", "/prompts", { token: alice.apiKey, body: { prompt, project, engines: ["chatgpt_app", "google_ai_overview"] } });
    expect(queued.status).toBe(202);
    const done = await call(getBatchRoute, "GET", `/batches/${queued.body.batch.id}`, { token: alice.apiKey, params: { batch_id: queued.body.batch.id }, query: { wait: 30 } });
    expect(done.body.batch.status).toBe("completed");
    const overview = done.body.runs.find((r: any) => r.engine === "google_ai_overview");
    const app = done.body.runs.find((r: any) => r.engine === "chatgpt_app");
    expect(overview).toMatchObject({ status: "completed", error: null });
    expect(overview.result).toMatchObject({ shown: false, answer: "", sources: [], searches: [] });
    expect(app.result).toMatchObject({ shown: true, answer: "Pipedrive suits a small practice." });

    const analysis = await call(postVisibility, "POST", "/visibility-analyses", {
      token: alice.apiKey,
      body: { ids: [queued.body.batch.id], entities: [{ name: "Pipedrive", role: "competitor" }] },
    });
    expect(analysis.status).toBe(201);
    expect(analysis.body.excluded_runs).toEqual([{ run_id: overview.id, reason: "no_answer" }]);
    expect(analysis.body.totals.runs).toBe(1);
    expect(analysis.body.rows[0].by_engine.map((e: any) => [e.engine, e.runs, e.runs_mentioning])).toEqual([["chatgpt_app", 1, 1]]);
  });
});

describe("a fanout's shown rate", () => {
  it("says per engine and per prompt how often Google showed an AI Overview, with the rate's Wilson interval, and in words", async () => {
    const prompts = [
      { text: `best crm for a florist ${answerDirective("Pipedrive suits a florist.")}` },
      { text: `which crm for a bakery ${answerDirective("Pipedrive suits a bakery.")} [[sim:no_overview]]` },
      { text: `which crm for a barber ${answerDirective("Pipedrive suits a barber.")} [[sim:no_overview]]` },
    ];
    const created = await call(postFanouts, "POST", "/fanouts", { token: alice.apiKey, body: { prompts, project, engines: ["chatgpt_app", "google_ai_overview"], runs: 1 } });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const id = created.body.id as string;
    const done = await call(getFanoutRoute, "GET", `/fanouts/${id}`, { token: alice.apiKey, params: { fanout_id: id }, query: { wait: 30 } });
    expect(done.body.status).toBe("completed");
    // Wilson 95% intervals as published (Newcombe 1998, table I method 3): 1/3 = 0.0615-0.7923, 3/3 = 0.4385-1, 0/1 = 0-0.7935.
    expect(done.body.shown).toEqual([
      { engine: "chatgpt_app", completed_runs: 3, runs_shown: 3, rate: 1, interval: [0.4385, 1] },
      { engine: "google_ai_overview", completed_runs: 3, runs_shown: 1, rate: 0.3333, interval: [0.0615, 0.7923] },
    ]);
    const overviewOf = (p: number) => done.body.prompts[p].engines.find((e: any) => e.engine === "google_ai_overview");
    expect(overviewOf(0).shown).toEqual({ completed_runs: 1, runs_shown: 1, rate: 1, interval: [0.2065, 1] });
    expect(overviewOf(1).shown).toEqual({ completed_runs: 1, runs_shown: 0, rate: 0, interval: [0, 0.7935] });
    expect(overviewOf(1).runs[0].shown).toBe(false);
    expect(overviewOf(0).runs[0].shown).toBe(true);
    // Only the engine that may show nothing gets a sentence: the app answered every time.
    expect(shownSentences(done.body.shown)).toEqual(["Google AI Overview (app) showed an answer in 1 of 3 completed runs (about 33%, 95% interval 6.1–80%)."]);
  });
});
