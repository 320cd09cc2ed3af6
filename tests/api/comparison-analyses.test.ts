// Comparison analyses through the route handlers, on answers whose truth is known by hand: each
// answer is given exactly with [[sim:answer:…]] and goes through the engine simulator and the
// providers' real SDKs like any answer. Two fanouts, one per engine, ask the same prompts (the
// same text less the directive), five runs each:
//
// "best crm for startups"  chatgpt: "1. HubSpot … 2. Pipedrive … 3. Zoho …"  (order H, P, Z)
//                          chatgpt_app: "Pipedrive leads … HubSpot …"        (order P, H)
// "cheapest crm"           chatgpt: "Zoho is the cheapest."                  (order Z)
//                          chatgpt_app: "Zoho and HubSpot …"                 (order Z, H)
// "crm for agencies"       chatgpt only: excluded, listed in excluded_prompts
// "cheapest crm" (blank)   chatgpt_app, an answer of spaces: excluded as no_answer
// and a claude run of "best crm for startups": excluded as other_engine.
//
// So on chatgpt HubSpot is named in 5 of 10 answers, Pipedrive 5, Zoho 10; on chatgpt_app HubSpot
// 10 of 10, Pipedrive 5, Zoho 5. Every figure below is computed here from those counts, or from
// the runs' own sources and searches read through GET /runs, without the code under test.
import { getDomain } from "tldts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { GET as getAnalysisRoute } from "@/app/api/v1/analyses/[analysis_id]/route";
import { POST as shareRoute } from "@/app/api/v1/analyses/[analysis_id]/share/route";
import { GET as listAnalysesRoute } from "@/app/api/v1/analyses/route";
import { GET as getBatchRoute } from "@/app/api/v1/batches/[batch_id]/route";
import { POST as postComparison } from "@/app/api/v1/comparison-analyses/route";
import { GET as getFanoutRoute } from "@/app/api/v1/fanouts/[fanout_id]/route";
import { POST as postFanouts } from "@/app/api/v1/fanouts/route";
import { POST as postProjects } from "@/app/api/v1/projects/route";
import { POST as postPrompts } from "@/app/api/v1/prompts/route";
import { GET as getRunRoute } from "@/app/api/v1/runs/[run_id]/route";
import { GET as shareJsonRoute } from "@/app/s/[token]/json/route";
import { resetConfig } from "@/lib/config/env";
import { newId } from "@/lib/db/ids";
import { answerDirective } from "@/lib/engines/simulator/directive";
import { ComparisonAnalysis } from "@/lib/schemas/comparison";
import { readingKey, readingsKept } from "@/lib/visibility/run-observations";
import { useTestDatabase } from "../helpers/app";
import { call } from "../helpers/http";
import { useSimulatedEngines } from "../helpers/engines";
import { person, type Person } from "../helpers/people";

useSimulatedEngines({ billing: false });

useTestDatabase();

const P1 = "best crm for startups";
const P2 = "cheapest crm";
const P3 = "crm for agencies";
const A1 = "1. HubSpot is free to start.\n2. Pipedrive is simple.\n3. Zoho is cheap.";
const B1 = "Pipedrive leads for startups. HubSpot is a close second.";
const A2 = "Zoho is the cheapest.";
const B2 = "Zoho and HubSpot both have free plans.";
const A3 = "HubSpot suits agencies.";

const ENTITIES = [
  { name: "HubSpot", role: "brand", domains: ["hubspot.com"] },
  { name: "Pipedrive", role: "competitor" },
  { name: "Zoho CRM", role: "competitor", aliases: ["Zoho"] },
];
const RUNS = 5;

// z for a two-sided interval at 1 - 0.05/3 (three entities), Φ⁻¹(1 − 0.05/6), from Python's
// statistics.NormalDist().inv_cdf; t(0.975, 1) for a mean over two prompts.
const Z_BONFERRONI_3 = 2.3939797998185104;
const T_975_1 = 12.706204736174705;

/** Wilson's score interval, written out here (Newcombe 1998, eq. for method 3). */
function wilson(k: number, n: number, z: number): [number, number] {
  const p = k / n;
  const centre = (2 * n * p + z * z) / (2 * (n + z * z));
  const half = (z * Math.sqrt(z * z + 4 * n * p * (1 - p))) / (2 * (n + z * z));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** Newcombe's method 10 for p1 − p2, written out here. */
function newcombe(k1: number, n1: number, k2: number, n2: number, z: number): [number, number] {
  const [l1, u1] = wilson(k1, n1, z);
  const [l2, u2] = wilson(k2, n2, z);
  const p1 = k1 / n1;
  const p2 = k2 / n2;
  return [p1 - p2 - Math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), p1 - p2 + Math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)];
}

const r4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** A mean of two values with its t interval clipped to 0..1, as the figures give it. */
function meanOfTwo(x: number, y: number): { mean: number; interval: [number, number] } {
  const mean = (x + y) / 2;
  const sd = Math.abs(x - y) / Math.SQRT2;
  const half = (T_975_1 * sd) / Math.SQRT2;
  return { mean: r4(mean), interval: [r4(Math.max(0, mean - half)), r4(Math.min(1, mean + half))] };
}

let alice: Person;
let bob: Person;
let project: string;
let fanoutA: { id: string; runs: string[] };
let fanoutB: { id: string; runs: string[] };
let claudeBatch: { id: string; runs: string[] };
let bobBatch: string;
let created: { status: number; text: string; body: any };
let runs: Map<string, any>;

async function finishedFanout(token: string, prompts: string[], engine: string) {
  const res = await call(postFanouts, "POST", "/fanouts", { token, body: { project, prompts: prompts.map((text) => ({ text })), engines: [engine], runs: RUNS } });
  expect(res.status, res.text).toBe(202);
  const fanout = (await call(getFanoutRoute, "GET", `/fanouts/${res.body.id}`, { token, params: { fanout_id: res.body.id }, query: { wait: 30 } })).body;
  expect(fanout.status).toBe("completed");
  const runIds = fanout.prompts.flatMap((p: { engines: { runs: { run_id: string }[] }[] }) => p.engines.flatMap((e) => e.runs.map((r) => r.run_id)));
  return { id: fanout.id as string, runs: runIds as string[] };
}

async function finishedBatch(token: string, body: Record<string, unknown>) {
  const res = await call(postPrompts, "POST", "/prompts", { token, body });
  expect(res.status, res.text).toBe(202);
  const id = res.body.batch.id as string;
  const done = await call(getBatchRoute, "GET", `/batches/${id}`, { token, params: { batch_id: id }, query: { wait: 30 } });
  return { id, runs: done.body.batch.run_ids as string[] };
}

const compare = (token: string, body: unknown) => call(postComparison, "POST", "/comparison-analyses", { token, body });
const core = (prompt: string) => prompt.replace(/\s*\[\[sim:[^\]]*\]\]\s*/g, " ").trim();

beforeAll(async () => {
  alice = await person("alice@example.com");
  bob = await person("bob@example.com");
  const made = await call(postProjects, "POST", "/projects", { token: alice.cliToken, body: { name: "Compare", workspace_id: alice.workspaceId } });
  expect(made.status).toBe(201);
  project = made.body.id;
  fanoutA = await finishedFanout(alice.cliToken, [`${P1} ${answerDirective(A1)}`, `${P2} ${answerDirective(A2)}`, `${P3} ${answerDirective(A3)}`], "chatgpt");
  fanoutB = await finishedFanout(alice.cliToken, [`${P1} ${answerDirective(B1)}`, `${P2} ${answerDirective(B2)}`, `${P2} ${answerDirective("   ")}`], "chatgpt_app");
  claudeBatch = await finishedBatch(alice.cliToken, { prompt: `${P1} ${answerDirective(B1)}`, project, engines: ["claude"] });
  const bobProject = await call(postProjects, "POST", "/projects", { token: bob.cliToken, body: { name: "Bob's", workspace_id: bob.workspaceId } });
  const bobProjectId = bobProject.body.id as string;
  const res = await call(postPrompts, "POST", "/prompts", { token: bob.cliToken, body: { prompt: `${P1} ${answerDirective(B1)}`, project: bobProjectId, engines: ["chatgpt_app"] } });
  bobBatch = res.body.batch.id;
  await call(getBatchRoute, "GET", `/batches/${bobBatch}`, { token: bob.cliToken, params: { batch_id: bobBatch }, query: { wait: 30 } });

  runs = new Map();
  for (const id of [...fanoutA.runs, ...fanoutB.runs, ...claudeBatch.runs]) {
    runs.set(id, (await call(getRunRoute, "GET", `/runs/${id}`, { token: alice.cliToken, params: { run_id: id } })).body);
  }
  created = await compare(alice.cliToken, { ids: [fanoutA.id, fanoutB.id, claudeBatch.id], a: "chatgpt", b: "chatgpt_app", entities: ENTITIES });
});

afterAll(() => resetConfig());

/** The runs of an engine for a prompt (its core text), completed with an answer. */
function answered(engine: string, prompt: string) {
  return [...runs.values()].filter((r) => r.engine === engine && core(r.input.prompt) === prompt && r.status === "completed" && r.result.answer.trim() !== "");
}

describe("POST /comparison-analyses", () => {
  it("answers 201 with a comparison of the shape the schema states, stored, and GET answers the same bytes", async () => {
    expect(created.status, created.text).toBe(201);
    expect(ComparisonAnalysis.safeParse(created.body).success).toBe(true);
    const c = created.body;
    expect(c.id).toMatch(/^cm_/);
    expect([c.kind, c.method, c.a, c.b, c.status, c.charge]).toEqual(["comparison", "comparison-v1", "chatgpt", "chatgpt_app", "completed", null]);
    const read = await call(getAnalysisRoute, "GET", `/analyses/${c.id}`, { token: alice.cliToken, params: { analysis_id: c.id } });
    expect(read.status).toBe(200);
    expect(read.text).toBe(created.text);
    // From the row (the remembered bodies dropped, as another instance reads it): the body POST
    // answered, kept with the comparison; and one stored before bodies were kept (none) is
    // presented from its figures, the same bytes.
    const fromRow = async () => {
      delete (globalThis as Record<string, unknown>).__geoscopeAnalysisBodies;
      return (await call(getAnalysisRoute, "GET", `/analyses/${c.id}`, { token: alice.cliToken, params: { analysis_id: c.id } })).text;
    };
    expect((await db().analysis.findUniqueOrThrow({ where: { id: c.id } })).body).toBe(created.text);
    expect(await fromRow()).toBe(created.text);
    await db().analysis.update({ where: { id: c.id }, data: { body: null } });
    expect(await fromRow()).toBe(created.text);
    const listed = await call(listAnalysesRoute, "GET", "/analyses", { token: alice.cliToken, query: { kind: "comparison" } });
    expect(listed.body.items.map((i: { id: string; kind: string; run_count: number }) => [i.id, i.kind, i.run_count])).toEqual([[c.id, "comparison", 31]]);
  });

  it("compares only the prompts both engines answered, lists the one only chatgpt answered, and says why each run was left out", () => {
    const c = created.body;
    expect(c.prompts_compared).toBe(2);
    expect(c.by_prompt.map((p: { prompt: string; runs_a: number; runs_b: number }) => [p.prompt, p.runs_a, p.runs_b])).toEqual([
      [P1, 5, 5],
      [P2, 5, 5],
    ]);
    expect(c.excluded_prompts).toEqual([{ prompt: P3, engine: "chatgpt", runs: 5 }]);
    const reasons = new Map<string, string>(c.excluded_runs.map((x: { run_id: string; reason: string }) => [x.run_id, x.reason]));
    const p3Runs = fanoutA.runs.filter((id) => core(runs.get(id).input.prompt) === P3);
    const blankRuns = fanoutB.runs.filter((id) => runs.get(id).result.answer.trim() === "");
    expect(p3Runs).toHaveLength(5);
    expect(blankRuns).toHaveLength(5);
    for (const id of p3Runs) expect(reasons.get(id)).toBe("one_engine_only");
    for (const id of blankRuns) expect(reasons.get(id)).toBe("no_answer");
    expect(reasons.get(claudeBatch.runs[0]!)).toBe("other_engine");
    expect(c.excluded_runs).toHaveLength(11);
    expect(c.run_ids).toHaveLength(31);
  });

  it("gives each entity's visibility on both engines and b − a with Newcombe's interval at 1 − 0.05/3, computed here", () => {
    const c = created.body;
    const counts: Record<string, [number, number]> = { HubSpot: [5, 10], Pipedrive: [5, 5], "Zoho CRM": [10, 5] };
    expect(c.confidence).toBe(r4(1 - 0.05 / 3));
    for (const row of c.rows) {
      const [ka, kb] = counts[row.name]!;
      const [low, high] = newcombe(kb, 10, ka, 10, Z_BONFERRONI_3);
      const w = (k: number) => wilson(k, 10, 1.959963984540054).map(r4);
      expect(row.a).toEqual({ runs: 10, runs_mentioning: ka, visibility: ka / 10, visibility_interval: w(ka) });
      expect(row.b).toEqual({ runs: 10, runs_mentioning: kb, visibility: kb / 10, visibility_interval: w(kb) });
      expect(row.diff).toBe(r4((kb - ka) / 10));
      expect(row.diff_interval).toEqual([r4(low), r4(high)]);
      expect(row.significant).toBe(low > 0 || high < 0);
    }
    // 5 of 10 against 10 of 10 is beyond chance even at 1 − 0.05/3; 5 against 5 is not.
    expect(c.rows.map((r: { name: string; significant: boolean }) => [r.name, r.significant])).toEqual([
      ["HubSpot", true],
      ["Pipedrive", false],
      ["Zoho CRM", true],
    ]);
    expect(c.by_prompt[0].entities).toEqual([
      { name: "HubSpot", a: 1, b: 1, diff: 0 },
      { name: "Pipedrive", a: 1, b: 1, diff: 0 },
      { name: "Zoho CRM", a: 1, b: 0, diff: -1 },
    ]);
    expect(c.by_prompt[1].entities).toEqual([
      { name: "HubSpot", a: 0, b: 1, diff: 1 },
      { name: "Pipedrive", a: 0, b: 0, diff: 0 },
      { name: "Zoho CRM", a: 1, b: 1, diff: 0 },
    ]);
  });

  it("gives the rank-biased overlap of the orders named: 0.9 for (H, P, Z) against (P, H), 1 for (Z) against (Z, H)", () => {
    const c = created.body;
    // Eq. 32 by hand for S = (P, H), L = (H, P, Z), p = 0.9: X = 0, 2, 2;
    // (0.1/0.9)(2/2·0.81 + 2/3·0.729 + 2·1/6·0.729) + (0 + 2/2)·0.729 = 0.171 + 0.729.
    const p1 = (0.1 / 0.9) * (0.81 + (2 / 3) * 0.729 + (2 / 6) * 0.729) + 0.729;
    // S = (Z), L = (Z, H): X = 1, 1; (0.1/0.9)(0.9 + 0.405 + 0.405) + 0.81 = 1.
    const p2 = (0.1 / 0.9) * (0.9 + 0.405 + 0.405) + 0.81;
    expect(c.by_prompt.map((p: { rbo: number }) => p.rbo)).toEqual([r4(p1), r4(p2)]);
    expect(r4(p1)).toBe(0.9);
    const { mean, interval } = meanOfTwo(p1, p2);
    expect(c.order).toEqual({ rbo: mean, rbo_interval: interval, prompts: 2, pairs: 50 });
  });

  it("gives each prompt's Jaccard index of the registrable domains cited and the mean over prompts, computed from the runs' own sources", () => {
    const c = created.body;
    const domains = (engine: string, prompt: string) =>
      new Set(answered(engine, prompt).flatMap((r) => r.result.sources.filter((s: { cited: boolean }) => s.cited === true).map((s: { url: string }) => getDomain(new URL(s.url).hostname)!)));
    const jaccards = [P1, P2].map((p) => {
      const a = domains("chatgpt", p);
      const b = domains("chatgpt_app", p);
      const union = new Set([...a, ...b]);
      const both = [...a].filter((d) => b.has(d)).length;
      return { jaccard: union.size ? both / union.size : null, a, b };
    });
    // The simulator's app cites other pages than its API: the figure is neither 0 nor 1 by accident.
    expect(jaccards.every((j) => j.jaccard !== null)).toBe(true);
    expect(c.by_prompt.map((p: { jaccard: number | null }) => p.jaccard)).toEqual(jaccards.map((j) => r4(j.jaccard!)));
    const { mean, interval } = meanOfTwo(jaccards[0]!.jaccard!, jaccards[1]!.jaccard!);
    expect([c.sources.jaccard, c.sources.jaccard_interval, c.sources.prompts]).toEqual([mean, interval, 2]);

    // Only one engine's domains, most runs citing first, with those runs counted here.
    const citing = (engine: string) => {
      const counts = new Map<string, number>();
      for (const r of [...answered(engine, P1), ...answered(engine, P2)]) {
        for (const d of new Set<string>(r.result.sources.filter((s: { cited: boolean }) => s.cited === true).map((s: { url: string }) => getDomain(new URL(s.url).hostname)!))) counts.set(d, (counts.get(d) ?? 0) + 1);
      }
      return counts;
    };
    const a = citing("chatgpt");
    const b = citing("chatgpt_app");
    const only = (mine: Map<string, number>, theirs: Map<string, number>) =>
      [...mine].filter(([d]) => !theirs.has(d)).sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0])).slice(0, 20).map(([domain, runs_citing]) => ({ domain, runs_citing }));
    expect(c.sources.only_a).toEqual(only(a, b));
    expect(c.sources.only_b).toEqual(only(b, a));
    expect(c.sources.only_a.length + c.sources.only_b.length).toBeGreaterThan(0);
  });

  it("gives the share of chatgpt's distinct searches chatgpt_app also ran, per prompt and on average, computed from the runs' searches", () => {
    const c = created.body;
    const queries = (engine: string, prompt: string) =>
      new Set(answered(engine, prompt).flatMap((r) => r.result.searches.map((s: { query: string }) => s.query.toLowerCase().replace(/\s+/g, " ").trim())));
    const overlaps = [P1, P2].map((p) => {
      const a = queries("chatgpt", p);
      const b = queries("chatgpt_app", p);
      expect(a.size).toBeGreaterThan(0);
      return [...a].filter((q) => b.has(q)).length / a.size;
    });
    expect(c.by_prompt.map((p: { query_overlap: number | null }) => p.query_overlap)).toEqual(overlaps.map(r4));
    const { mean, interval } = meanOfTwo(overlaps[0]!, overlaps[1]!);
    expect(c.searches).toEqual({ overlap: mean, overlap_interval: interval, prompts: 2 });
  });

  it("keeps what it read of each run, and a second comparison of the same runs adds that up to the same figures", async () => {
    const key = readingKey(created.body.entities);
    await readingsKept();
    const ab = [...fanoutA.runs, ...fanoutB.runs].filter((id) => runs.get(id).status === "completed");
    const kept = await db().$queryRawUnsafe<{ run_id: string; answered: boolean }[]>(
      `SELECT run_id, length(cells) > 0 AS answered FROM run_observations WHERE matcher = $1 AND run_id = ANY($2::text[]) ORDER BY run_id`, key, ab,
    );
    // The answers it read: both engines' to the prompts both answered (the others it did not need to read).
    const read = [P1, P2].flatMap((p) => [...answered("chatgpt", p), ...answered("chatgpt_app", p)]).map((r) => r.id as string);
    expect(read.length).toBe(20);
    expect(kept).toEqual(read.sort().map((id) => ({ run_id: id, answered: true })));
    const body = { ids: [fanoutA.id, fanoutB.id, claudeBatch.id], a: "chatgpt", b: "chatgpt_app", entities: ENTITIES };
    const again = await compare(alice.cliToken, body);
    const { id: _a, created_at: _b, completed_at: _c, ...first } = created.body;
    const { id: _d, created_at: _e, completed_at: _f, ...second } = again.body;
    expect(second).toEqual(first);
    // What is added up is what was kept: a kept reading of one chatgpt_app answer naming nobody takes it from HubSpot's count.
    const one = answered("chatgpt_app", P1)[0].id as string;
    await db().$executeRawUnsafe(`UPDATE run_observations SET cells = decode(repeat('00', length(cells)), 'hex') WHERE matcher = $1 AND run_id = $2`, key, one);
    const tampered = await compare(alice.cliToken, body);
    expect(tampered.body.rows[0].b.runs_mentioning).toBe(created.body.rows[0].b.runs_mentioning - 1);
  });

  it("leads with a summary in plain words, each figure with its n", () => {
    expect(created.body.summary).toEqual([
      "ChatGPT (API) and ChatGPT (app) are compared on the 2 prompts both answered: 10 answers from ChatGPT (API), 10 from ChatGPT (app) (1 prompt answered by one of them only is left out).",
      "ChatGPT (app) names HubSpot more often than ChatGPT (API), more than chance explains: in 10 of 10 answers (about 100%, 95% interval 72–100%) against 5 of 10 (about 50%, 23–77%), 50 points apart; 1 other name differs beyond chance too.",
      "The domains the two cite for a prompt overlap by 13% on average (2 prompts, the same on each prompt, so no interval; Jaccard index); only ChatGPT (app) cites g2.com (in 3 answers), and only ChatGPT (API) cites techcrunch.com (in 3).",
      "ChatGPT (app) ran none of ChatGPT (API)'s searches (2 prompts where ChatGPT (API) searched).",
      "Where both name tracked names, the order they name them in agrees by about 95% on average (2 prompts, 95% interval 31–100%; rank-biased overlap: 100% is the same order, 0% none in common).",
    ]);
  });

  it("says no searches are compared when an engine does not report them (Perplexity)", async () => {
    const perplexity = await finishedFanout(alice.cliToken, [`${P1} ${answerDirective(B1)}`], "perplexity");
    const res = await compare(alice.cliToken, { ids: [fanoutA.id, perplexity.id], a: "chatgpt", b: "perplexity", entities: ENTITIES });
    expect(res.status, res.text).toBe(201);
    expect(res.body.searches).toBeNull();
    expect(res.body.by_prompt.map((p: { prompt: string; query_overlap: null }) => [p.prompt, p.query_overlap])).toEqual([[P1, null]]);
    expect(res.body.excluded_prompts.map((p: { prompt: string }) => p.prompt)).toEqual([P2, P3]);
  });

  it("leaves out a Google AI Overview that was not shown, as no_answer, and its prompt as answered by one engine", async () => {
    const overview = await finishedFanout(alice.cliToken, [`${P2} [[sim:no_overview]]`], "google_ai_overview");
    const shown = [...overview.runs].map((id) => id);
    const res = await compare(alice.cliToken, { ids: [fanoutA.id, overview.id], a: "chatgpt", b: "google_ai_overview", entities: ENTITIES });
    expect(res.status, res.text).toBe(201);
    const reasons = new Map(res.body.excluded_runs.map((x: { run_id: string; reason: string }) => [x.run_id, x.reason]));
    for (const id of shown) expect(reasons.get(id)).toBe("no_answer");
    expect(res.body.prompts_compared).toBe(0);
    expect(res.body.summary).toEqual([
      "No prompt was answered by both ChatGPT (API) and Google AI Overview (app), so nothing could be compared (3 prompts answered by one of them only are left out).",
    ]);
  });

  it("refuses a bad engine, an engine with no runs among the ids, and the same engine twice, each a 400 naming it", async () => {
    const bad = await compare(alice.cliToken, { ids: [fanoutA.id], a: "chatgpt", b: "chatgpt_web" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/\bb\b/);
    expect(bad.text).toContain("chatgpt_web");
    const absent = await compare(alice.cliToken, { ids: [fanoutA.id, fanoutB.id], a: "chatgpt", b: "gemini", entities: ENTITIES });
    expect(absent.status).toBe(400);
    expect(absent.body.error.message).toBe("b: gemini has no runs among those the ids name (their engines: chatgpt, chatgpt_app); compare two engines that answered the same prompts");
    const same = await compare(alice.cliToken, { ids: [fanoutA.id], a: "chatgpt", b: "chatgpt", entities: ENTITIES });
    expect(same.status).toBe(400);
    expect(same.text).toContain("must differ from a (both are chatgpt)");
  });

  it("answers 404 for another workspace's runs and comparison, as for ones that do not exist", async () => {
    const foreign = await compare(alice.cliToken, { ids: [fanoutA.id, bobBatch], a: "chatgpt", b: "chatgpt_app", entities: ENTITIES });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toContain(bobBatch);
    const missingBatch = newId("batch");
    const missing = await compare(alice.cliToken, { ids: [fanoutA.id, missingBatch], a: "chatgpt", b: "chatgpt_app", entities: ENTITIES });
    expect(foreign.body.error.message.replace(bobBatch, missingBatch)).toBe(missing.body.error.message);

    const id = created.body.id;
    const theirs = await call(getAnalysisRoute, "GET", `/analyses/${id}`, { token: bob.cliToken, params: { analysis_id: id } });
    const missingId = newId("comparisonAnalysis");
    const none = await call(getAnalysisRoute, "GET", `/analyses/${missingId}`, { token: bob.cliToken, params: { analysis_id: missingId } });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.message.replace(id, missingId)).toBe(none.body.error.message);
    expect((await call(listAnalysesRoute, "GET", "/analyses", { token: bob.cliToken, query: { kind: "comparison" } })).body.items).toEqual([]);
  });

  it("is shared like any analysis: the public .json is the body without the project or its creator", async () => {
    const id = created.body.id;
    const shared = await call(shareRoute, "POST", `/analyses/${id}/share`, { token: alice.cliToken, params: { analysis_id: id } });
    expect(shared.status, shared.text).toBe(200);
    const token = (shared.body.url as string).split("/s/")[1]!;
    const res = await shareJsonRoute(new Request(`http://localhost/s/${token}.json`), { params: Promise.resolve({ token }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ...created.body, project_id: null, created_by: null, charge: null });
  });
});
