// Markets (decisions.md "Locale") through the route handlers: location and language on POST
// /prompts, /fanouts and /fanouts/estimate, checked and canonicalised (a bad code is 400 naming
// its field), echoed in batch and run inputs, what reached each provider in result.locale_applied,
// GET /runs?country=, and a fanout across two countries whose sources differ by country and whose
// by_country rows (citation analysis, query report) add up.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as postCitationAnalyses } from "@/app/api/v1/citation-analyses/route";
import { GET as getBatchRoute } from "@/app/api/v1/batches/[batch_id]/route";
import { POST as postFanouts } from "@/app/api/v1/fanouts/route";
import { POST as postEstimate } from "@/app/api/v1/fanouts/estimate/route";
import { GET as getFanoutRoute } from "@/app/api/v1/fanouts/[fanout_id]/route";
import { GET as getQueriesRoute } from "@/app/api/v1/fanouts/[fanout_id]/queries/route";
import { POST as postPrompts } from "@/app/api/v1/prompts/route";
import { GET as listRunsRoute } from "@/app/api/v1/runs/route";
import { GET as getRunRoute } from "@/app/api/v1/runs/[run_id]/route";
import { resetConfig } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { createProject } from "@/lib/projects/create";
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { call } from "../helpers/http";
import { person, principalOf, type Person } from "../helpers/people";

useSimulatedEngines({ billing: false });
useTestDatabase();

let alice: Person;
let project: string;

beforeAll(async () => {
  alice = await person("alice@example.com");
  project = (await createProject(principalOf(alice), { name: "Markets", workspace_id: alice.workspaceId, context: null })).id;
});
afterAll(() => resetConfig());

const MUNICH = { country: "de", region: "Bavaria", city: "Munich", timezone: "europe/berlin" };

async function finishedBatch(id: string) {
  for (;;) {
    const res = await call(getBatchRoute, "GET", `/batches/${id}`, { token: alice.apiKey, params: { batch_id: id }, query: { wait: 30 } });
    if (["completed", "partial", "failed"].includes(res.body.batch.status)) return res.body;
  }
}

async function finishedFanout(id: string) {
  for (;;) {
    const res = await call(getFanoutRoute, "GET", `/fanouts/${id}`, { token: alice.apiKey, params: { fanout_id: id }, query: { wait: 30 } });
    if (["completed", "partial", "failed"].includes(res.body.status)) return res.body;
  }
}

describe("POST /prompts in a market", () => {
  it("canonicalises the location and language, echoes them in the batch's and every run's input, and says what reached each provider", async () => {
    const res = await call(postPrompts, "POST", "/prompts", {
      token: alice.apiKey,
      body: { prompt: "best crm for a small team", project, location: { ...MUNICH, timezone: "Europe/Berlin" }, language: "DE-de" },
    });
    expect(res.status).toBe(202);
    const location = { country: "DE", region: "Bavaria", city: "Munich", timezone: "Europe/Berlin" };
    expect(res.body.batch.input).toMatchObject({ location, language: "de-DE" });
    for (const run of res.body.runs) expect(run.input).toMatchObject({ prompt: "best crm for a small team", location, language: "de-DE" });

    const done = await finishedBatch(res.body.batch.id);
    expect(done.batch.status).toBe("completed");
    const applied = Object.fromEntries(done.runs.map((r: any) => [r.engine, r.result.locale_applied]));
    // OpenAI's, Anthropic's and Perplexity's web search take a location and no language; Gemini
    // takes both, and so does DataForSEO for the apps.
    expect(applied).toEqual({
      chatgpt: { location: true, language: false, city: "Munich" },
      claude: { location: true, language: false, city: "Munich" },
      gemini: { location: true, language: true, city: "Munich" },
      perplexity: { location: true, language: false, city: "Munich" },
      // The ChatGPT scraper takes the country by name only.
      chatgpt_app: { location: true, language: true, city: null },
      gemini_app: { location: true, language: true, city: "Munich" },
      google_ai_overview: { location: true, language: true, city: "Munich" },
      google_ai_mode: { location: true, language: true, city: "Munich" },
    });
    // Nothing was added to the prompt the engines were asked.
    const raw = await call(getRunRoute, "GET", "", { token: alice.apiKey, params: { run_id: done.runs[0].id }, query: { include: "raw_envelope" } });
    expect(JSON.stringify(raw.body.raw_envelope.exchanges[0].request.body)).toContain('"best crm for a small team"');
    expect(JSON.stringify(raw.body.raw_envelope.exchanges[0].request.body)).not.toMatch(/best crm for a small team[^"]/);
  });

  it("echoes null location and language when none is given, and nothing reaches the providers", async () => {
    const res = await call(postPrompts, "POST", "/prompts", { token: alice.apiKey, body: { prompt: "best crm", project, engines: ["chatgpt", "gemini"] } });
    expect(res.status).toBe(202);
    expect(res.body.batch.input).toMatchObject({ location: null, language: null });
    const done = await finishedBatch(res.body.batch.id);
    for (const run of done.runs) {
      expect(run.input).toMatchObject({ location: null, language: null });
      expect(run.result.locale_applied).toEqual({ location: false, language: false, city: null });
    }
  });

  it.each([
    [{ location: { country: "XX" } }, /^location\.country: unknown country "XX"/],
    [{ location: { country: "UK" } }, /^location\.country: unknown country "UK"/],
    [{ location: { country: "DE", timezone: "Mars/Olympus" } }, /^location\.timezone: unknown time zone "Mars\/Olympus"/],
    [{ location: { country: "DE", city: "" } }, /^location\.city: must be 1 to 100 characters/],
    [{ location: { city: "Munich" } }, /^location\.country: is required/],
    [{ location: { country: "DE", postcode: "80331" } }, /^location: unknown field "postcode"/],
    [{ location: { country: "DE", city: "Tokyo" } }, /^location\.city: "Tokyo" is not a city of Germany \(DE\) in the place data: it is in Japan \(JP\)/],
    [{ location: { country: "de", city: "  tokyo " } }, /^location\.city: "tokyo" is not a city of Germany \(DE\).*Japan \(JP\)/],
    [{ language: "xx" }, /^language: unknown language tag "xx"/],
    [{ language: "en-XX" }, /^language: unknown language tag "en-XX"/],
    [{ language: "not a tag" }, /^language: unknown language tag "not a tag"/],
  ])("refuses %j with 400 naming the field", async (market, message) => {
    const res = await call(postPrompts, "POST", "/prompts", { token: alice.apiKey, body: { prompt: "best crm", project, ...market } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.message).toMatch(message);
  });

  it("takes a city the place data does not know, and a same-named smaller place once its region is given; refuses a city of another country in a fanout's prompt too", async () => {
    for (const location of [{ country: "DE", city: "Kleinkleckersdorf" }, { country: "US", region: "Texas", city: "Paris" }, { country: "US", city: "Portland" }]) {
      const res = await call(postPrompts, "POST", "/prompts", { token: alice.apiKey, body: { prompt: "best crm", project, engines: ["chatgpt"], location } });
      expect(res.status, JSON.stringify(location)).toBe(202);
    }
    const paris = await call(postPrompts, "POST", "/prompts", { token: alice.apiKey, body: { prompt: "best crm", project, location: { country: "US", city: "Paris" } } });
    expect(paris.status).toBe(400);
    expect(paris.body.error.message).toMatch(/^location\.city: "Paris" is not a city of United States of America \(US\) in the place data: it is in France \(FR\)\. Give a city of United States of America, or name its region too/);
    const fanout = await call(postFanouts, "POST", "/fanouts", { token: alice.apiKey, body: { prompts: [{ text: "crm", location: { country: "FR", city: "Berlin" } }], project } });
    expect(fanout.status).toBe(400);
    expect(fanout.body.error.message).toMatch(/^prompts\[0\]\.location\.city: "Berlin" is not a city of France \(FR\)/);
  });
});

describe("fanouts in markets", () => {
  it("refuses a bad code on the fanout and on a prompt, on the estimate and on creation, naming the field", async () => {
    for (const handler of [postEstimate, postFanouts]) {
      const top = await call(handler, "POST", "/fanouts", { token: alice.apiKey, body: { prompts: [{ text: "crm" }], project, language: "zz" } });
      expect(top.status).toBe(400);
      expect(top.body.error.message).toMatch(/^language: unknown language tag "zz"/);
      const own = await call(handler, "POST", "/fanouts", {
        token: alice.apiKey,
        body: { prompts: [{ text: "crm" }, { text: "crm", location: { country: "QQ" } }], project },
      });
      expect(own.status).toBe(400);
      expect(own.body.error.message).toMatch(/^prompts\[1\]\.location\.country: unknown country "QQ"/);
    }
  });

  it("counts the same text in two countries as two questions, not a repeat", async () => {
    const res = await call(postEstimate, "POST", "/fanouts/estimate", {
      token: alice.apiKey,
      body: { prompts: [{ text: "best crm", location: { country: "US" } }, { text: "best crm", location: { country: "DE" } }, { text: "best crm", location: { country: "de" } }], project },
    });
    expect(res.status).toBe(200);
    expect(res.body.identical_prompts).toBe(1);
  });

  it("runs one fanout across two countries: each prompt's market on its runs, different sources per country, by_country rows that add up", async () => {
    const text = "best crm for a small team";
    const res = await call(postFanouts, "POST", "/fanouts", {
      token: alice.apiKey,
      body: {
        prompts: [{ text, location: { country: "de", city: "Munich" }, language: "de" }, { text }],
        location: { country: "US", city: "New York" },
        engines: ["chatgpt", "claude", "gemini"],
        runs: 3,
        project,
      },
    });
    expect(res.status).toBe(202);
    expect(res.body.prompts.map((p: any) => [p.location, p.language])).toEqual([
      [{ country: "DE", city: "Munich" }, "de"],
      [{ country: "US", city: "New York" }, null],
    ]);
    const done = await finishedFanout(res.body.id);
    expect(done.status).toBe("completed");
    const runIds: string[] = done.prompts.flatMap((p: any) => p.engines.flatMap((e: any) => e.runs.map((r: any) => r.run_id)));
    expect(runIds).toHaveLength(18);

    // Every run's input carries its prompt's market; GET /runs?country= finds exactly those.
    for (const country of ["DE", "US"]) {
      const listed = await call(listRunsRoute, "GET", "/runs", { token: alice.apiKey, query: { fanout: res.body.id, country: country.toLowerCase(), limit: 50 } });
      expect(listed.status).toBe(200);
      expect(listed.body.items).toHaveLength(9);
      const rows = await db().run.findMany({ where: { id: { in: listed.body.items.map((r: any) => r.id) } }, select: { input: true } });
      for (const row of rows) expect((row.input as any).location.country).toBe(country);
    }

    const analysis = await call(postCitationAnalyses, "POST", "/citation-analyses", { token: alice.apiKey, body: { ids: runIds, domains: [] } });
    expect(analysis.status).toBe(201);
    const byCountry = analysis.body.by_country as any[];
    expect(byCountry.map((r) => r.country)).toEqual(["DE", "US"]);
    expect(byCountry.reduce((n, r) => n + r.runs, 0)).toBe(analysis.body.totals.runs);
    expect(byCountry.reduce((n, r) => n + r.citations, 0)).toBe(analysis.body.totals.citations);
    for (const row of byCountry) {
      expect(row.runs).toBe(9);
      expect(row.engines).toEqual(["chatgpt", "claude", "gemini"]);
      expect(row.domains.reduce((n: number, d: any) => n + d.citations, 0)).toBeLessThanOrEqual(row.citations);
    }
    // The German searcher's answers cite German sites; the American's none.
    const cited = (country: string) => new Set<string>(byCountry.find((r) => r.country === country).domains.map((d: any) => d.domain as string));
    expect([...cited("DE")].some((d) => d.endsWith(".de"))).toBe(true);
    expect([...cited("US")].some((d) => d.endsWith(".de"))).toBe(false);
    expect(cited("DE")).not.toEqual(cited("US"));

    // Which queries ChatGPT ran for this prompt in DE and in the US, in one call.
    const report = await call(getQueriesRoute, "GET", "", { token: alice.apiKey, params: { fanout_id: res.body.id } });
    expect(report.status).toBe(200);
    const rows = report.body.by_country.filter((r: any) => r.prompt === text);
    expect(rows.map((r: any) => [r.engine, r.country])).toEqual([
      ["chatgpt", "DE"], ["chatgpt", "US"], ["claude", "DE"], ["claude", "US"], ["gemini", "DE"], ["gemini", "US"],
    ]);
    for (const engine of ["chatgpt", "claude", "gemini"]) {
      const groups = report.body.groups.filter((g: any) => g.engine === engine && g.prompt === text);
      const total = groups.reduce((n: number, g: any) => n + g.completed_runs, 0);
      expect(rows.filter((r: any) => r.engine === engine).reduce((n: number, r: any) => n + r.completed_runs, 0)).toBe(total);
    }
    const german = rows.find((r: any) => r.engine === "gemini" && r.country === "DE");
    expect(german.prompt_indexes).toEqual([1]);
    // Searched in German for the German searcher, in English for the American one.
    expect(german.queries.some((q: any) => /vergleich|erfahrungen|test|kostenlos|empfehlung/.test(q.query))).toBe(true);
    const american = rows.find((r: any) => r.engine === "gemini" && r.country === "US");
    expect(american.queries.some((q: any) => /vergleich|erfahrungen|kostenlos|empfehlung/.test(q.query))).toBe(false);
  });
});
