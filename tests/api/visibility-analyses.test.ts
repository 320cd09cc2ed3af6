// Visibility analyses through the route handlers, on a hand-built fixture of answers: each run's
// answer is given exactly with [[sim:answer:…]] and goes through the engine simulator and the
// providers' real SDKs like any answer, so every mention and every figure below is known and
// worked out by hand. The fixture (five counted runs, five entities):
//
// A  chatgpt, US, "pipedrive vs hubspot": the answer quotes the prompt (two prompt echoes), then a
//    numbered list (HubSpot by its alias "HubSpot CRM", the longer name at that place; Pipedrive)
//    and a sentence naming Zoho by its alias and "monday" in lower case (not the case-sensitive
//    brand Monday). Cites zoho.com.
// B  claude, DE: Monday by its alias "Monday CRM" and Pipedrive before an emoji, a bulleted list,
//    an absence sentence about HubSpot (not counted) and a Japanese sentence naming 「HubSpot」.
//    Cites blog.hubspot.com.
// C  gemini, US, stored decomposed (NFD): quotes the run's own search query "crm reviews g2
//    capterra" (a search-query echo of Capterra), then names Capterra, Pipedrive, HubSpot CRM and
//    Zoho. Cites capterra.com and zoho.com.
// D1, D2  a fanout's runs on chatgpt and claude, no market: monday.com (Monday's alias), then a
//    bulleted list of Monday CRM and HubSpot.
// Excluded: a failed run, a run whose answer is only spaces, and A named twice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getAnalysisRoute } from "@/app/api/v1/analyses/[analysis_id]/route";
import { GET as mentionsRoute } from "@/app/api/v1/analyses/[analysis_id]/mentions/route";
import { GET as getShareRoute, POST as shareRoute } from "@/app/api/v1/analyses/[analysis_id]/share/route";
import { GET as listAnalysesRoute } from "@/app/api/v1/analyses/route";
import { GET as getBatchRoute } from "@/app/api/v1/batches/[batch_id]/route";
import { POST as postCitationAnalyses } from "@/app/api/v1/citation-analyses/route";
import { GET as getFanoutRoute } from "@/app/api/v1/fanouts/[fanout_id]/route";
import { POST as postFanouts } from "@/app/api/v1/fanouts/route";
import { GET as getProjectRoute, PATCH as patchProjectRoute } from "@/app/api/v1/projects/[project_id]/route";
import { POST as postProjects } from "@/app/api/v1/projects/route";
import { POST as postPrompts } from "@/app/api/v1/prompts/route";
import { GET as getRunRoute } from "@/app/api/v1/runs/[run_id]/route";
import { POST as postVisibility } from "@/app/api/v1/visibility-analyses/route";
import { GET as shareJsonRoute } from "@/app/s/[token]/json/route";
import { resetConfig } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { answerDirective } from "@/lib/engines/simulator/directive";
import { asciiJson } from "@/lib/http/respond";
import { wilsonInterval } from "@/lib/stats";
import { VisibilityAnalysis, type EntityInput } from "@/lib/schemas/visibility";
import { analyseVisibility } from "@/lib/visibility/create";
import { entitiesFromContext, normalizeEntity } from "@/lib/visibility/entities";
import { KEPT_SAMPLE, READING_RULES, keepStructures, readKept, readingKey, readingsKept } from "@/lib/visibility/run-observations";
import { standalone } from "@/lib/db/sql";
import { localDriver } from "@/lib/work/local-driver";
import { NO_LINKS } from "@/lib/visibility/links";
import { toNfc } from "@/lib/visibility/nfc";
import { encodeStructure } from "@/lib/visibility/text-structure";
import { domainNameOf } from "@/lib/schemas/projects";
import { computeVisibilityAnalysis, type VisibilityRunInput } from "@/lib/visibility";
import { useTestDatabase } from "../helpers/app";
import { call } from "../helpers/http";
import { withPromptRows } from "../helpers/stored-figures";
import { useSimulatedEngines } from "../helpers/engines";
import { person, principalOf, type Person } from "../helpers/people";

useSimulatedEngines({ billing: true });

useTestDatabase();

const A = 'Searches for "pipedrive vs hubspot" mostly turn up review sites.\n1. **HubSpot CRM** is free to start.\n2. Pipedrive costs $14 per seat.\nZoho is cheaper, and on monday the team met.';
const B = "For startups, Monday CRM and Pipedrive lead 🚀.\n- Pipedrive: simple pipelines.\n- Zoho CRM: cheap.\nI couldn't find any information about HubSpot.\n日本では「HubSpot」が人気です。";
const C = 'Searches for "crm reviews g2 capterra" favour Capterra.\nFür Teams in München ist Pipedrive gut.\nHubSpot CRM ist teurer als Zoho.'.normalize("NFD");
const D = "Many teams plan their week on monday.com instead.\n- Monday CRM\n- HubSpot";

const PROMPT_A = `pipedrive vs hubspot ${answerDirective(A)}`;
const PROMPT_B = `best crm for startups ${answerDirective(B)}`;
// The simulator searches "crm reviews g2 capterra" for this prompt on Gemini (checked below).
const PROMPT_C = `crm für kleine teams 39 ${answerDirective(C)}`;
const PROMPT_D = `planning tool for sales teams ${answerDirective(D)}`;

const ENTITIES: EntityInput[] = [
  { name: "HubSpot", role: "brand", aliases: ["HubSpot CRM"], domains: ["hubspot.com"] },
  { name: "Pipedrive", role: "competitor", domains: ["https://www.pipedrive.com/en"] },
  // An ordinary word: only "Monday" as written is the brand.
  { name: "Monday", role: "competitor", aliases: ["Monday CRM", "monday.com"], domains: ["monday.com"], case_sensitive: true },
  { name: "Zoho CRM", role: "competitor", aliases: ["Zoho"], domains: ["zoho.com"] },
  { name: "Capterra", role: "competitor", domains: ["capterra.com"] },
];

let alice: Person;
let bob: Person;
let project: string;
let ids: { a: string; aRun: string; b: string; c: string; fanout: string; d1: string; d2: string; failed: string; blank: string };
let order: string[];
let analysis: any;

async function finishedBatch(token: string, body: Record<string, unknown>) {
  const res = await call(postPrompts, "POST", "/prompts", { token, body });
  expect(res.status).toBe(202);
  const id = res.body.batch.id as string;
  const done = await call(getBatchRoute, "GET", `/batches/${id}`, { token, params: { batch_id: id }, query: { wait: 30 } });
  expect(["completed", "failed"]).toContain(done.body.batch.status);
  return { id, runIds: done.body.batch.run_ids as string[] };
}

const analyse = (token: string, body: unknown) => call(postVisibility, "POST", "/visibility-analyses", { token, body });
const mentions = (token: string, id: string, query: Record<string, string | number> = {}) =>
  call(mentionsRoute, "GET", `/analyses/${id}/mentions`, { token, params: { analysis_id: id }, query });

/** Everything a run's page shows that the analysis reads, as the pure function takes it. */
async function inputsFromApi(token: string, runIds: string[]): Promise<VisibilityRunInput[]> {
  const out: VisibilityRunInput[] = [];
  for (const id of runIds) {
    const run = (await call(getRunRoute, "GET", `/runs/${id}`, { token, params: { run_id: id } })).body;
    out.push({
      run_id: run.id,
      engine: run.engine,
      country: run.input.location?.country ?? null,
      prompt: run.input.prompt,
      status: run.status,
      kind: run.kind,
      answer: run.result?.answer ?? null,
      search_queries: (run.result?.searches ?? []).map((s: { query: string }) => s.query),
      cited_urls: (run.result?.sources ?? []).filter((s: { cited: boolean | null }) => s.cited === true).map((s: { url: string }) => s.url),
    });
  }
  return out;
}

beforeAll(async () => {
  alice = await person("alice@example.com");
  bob = await person("bob@example.com");
  const created = await call(postProjects, "POST", "/projects", {
    token: alice.cliToken,
    body: { name: "Visibility", workspace_id: alice.workspaceId, context: { primary_domain: "hubspot.com", brands: ["HubSpot"], competitors: ["Pipedrive", "Zoho CRM"], aliases: { "Zoho CRM": ["Zoho"] }, competitor_domains: { "Zoho CRM": ["zoho.com"] } } },
  });
  expect(created.status).toBe(201);
  project = created.body.id;
  const a = await finishedBatch(alice.cliToken, { prompt: PROMPT_A, project, engines: ["chatgpt"], location: { country: "US" } });
  const b = await finishedBatch(alice.cliToken, { prompt: PROMPT_B, project, engines: ["claude"], location: { country: "DE" } });
  const c = await finishedBatch(alice.cliToken, { prompt: PROMPT_C, project, engines: ["gemini"], location: { country: "US" } });
  const failed = await finishedBatch(alice.cliToken, { prompt: "which crm [[sim:bad_request]]", project, engines: ["chatgpt"] });
  const blank = await finishedBatch(alice.cliToken, { prompt: `an empty answer ${answerDirective("   ")}`, project, engines: ["claude"] });
  const fo = await call(postFanouts, "POST", "/fanouts", { token: alice.cliToken, body: { project, prompts: [{ text: PROMPT_D }], engines: ["chatgpt", "claude"], runs: 1 } });
  expect(fo.status).toBe(202);
  const fanout = (await call(getFanoutRoute, "GET", `/fanouts/${fo.body.id}`, { token: alice.cliToken, params: { fanout_id: fo.body.id }, query: { wait: 30 } })).body;
  expect(fanout.status).toBe("completed");
  const fanoutRuns = fanout.prompts[0].engines.flatMap((e: { runs: { run_id: string }[] }) => e.runs.map((r) => r.run_id));
  ids = { a: a.id, aRun: a.runIds[0]!, b: b.runIds[0]!, c: c.id, fanout: fanout.id, d1: fanoutRuns[0], d2: fanoutRuns[1], failed: failed.id, blank: blank.id };
  order = [ids.aRun, ids.b, c.runIds[0]!, ids.d1, ids.d2, failed.runIds[0]!, blank.runIds[0]!];
  const res = await analyse(alice.cliToken, { ids: [ids.a, ids.b, ids.c, ids.fanout, ids.failed, ids.blank, ids.aRun], entities: ENTITIES });
  expect(res.status, res.text).toBe(201);
  analysis = res.body;
});

afterAll(() => {
  resetConfig();
});

// By hand, per counted run (in the analysis's order A, B, C, D1, D2) and entity: position among the
// entities by first counted mention, prominence (sum over the sentences naming it of
// words x e^(-i/N) / entities named in it, over all words), whether the run cited one of its
// domains, counted mentions, prompt echoes and absences.
//   A: 4 sentences, 30 words. HubSpot s1 (6 words) 6e^(-1/4)/30; Pipedrive s2 (5) 5e^(-2/4)/30; Zoho s3 (9) 9e^(-3/4)/30.
//   B: 5 sentences, 30 words. s0 (7) names Monday and Pipedrive: 3.5 each; Pipedrive s1 (3) 3e^(-1/5);
//      Zoho s2 (3) 3e^(-2/5); HubSpot s4 (10: one word per Han or kana character, and HubSpot) 10e^(-4/5).
//   C: 3 sentences, 21 words. Capterra s0 (8) 8/21; Pipedrive s1 (7) 7e^(-1/3)/21; s2 (6) names HubSpot and Zoho: 3e^(-2/3)/21 each.
//   D: 3 sentences, 12 words. Monday s0 (9: monday.com is two words) and s1 (2): (9 + 2e^(-1/3))/12; HubSpot s2 (1) e^(-2/3)/12.
type Cell = { pos: number; prom: number; cited?: boolean; counted: number; echo?: number; absence?: number };
const NAMES = ["HubSpot", "Pipedrive", "Monday", "Zoho CRM", "Capterra"] as const;
const e = Math.exp;
const CELLS: Partial<Record<(typeof NAMES)[number], Cell>>[] = [
  {
    HubSpot: { pos: 1, prom: (6 * e(-1 / 4)) / 30, counted: 1, echo: 1 },
    Pipedrive: { pos: 2, prom: (5 * e(-2 / 4)) / 30, counted: 1, echo: 1 },
    "Zoho CRM": { pos: 3, prom: (9 * e(-3 / 4)) / 30, cited: true, counted: 1 },
  },
  {
    Monday: { pos: 1, prom: 3.5 / 30, counted: 1 },
    Pipedrive: { pos: 2, prom: (3.5 + 3 * e(-1 / 5)) / 30, counted: 2 },
    "Zoho CRM": { pos: 3, prom: (3 * e(-2 / 5)) / 30, counted: 1 },
    HubSpot: { pos: 4, prom: (10 * e(-4 / 5)) / 30, cited: true, counted: 1, absence: 1 },
  },
  {
    Capterra: { pos: 1, prom: 8 / 21, cited: true, counted: 1, echo: 1 },
    Pipedrive: { pos: 2, prom: (7 * e(-1 / 3)) / 21, counted: 1 },
    HubSpot: { pos: 3, prom: (3 * e(-2 / 3)) / 21, counted: 1 },
    "Zoho CRM": { pos: 4, prom: (3 * e(-2 / 3)) / 21, cited: true, counted: 1 },
  },
  { Monday: { pos: 1, prom: (9 + 2 * e(-1 / 3)) / 12, counted: 2 }, HubSpot: { pos: 2, prom: e(-2 / 3) / 12, counted: 1 } },
  { Monday: { pos: 1, prom: (9 + 2 * e(-1 / 3)) / 12, counted: 2 }, HubSpot: { pos: 2, prom: e(-2 / 3) / 12, counted: 1 } },
];

const r4 = (x: number) => Math.round(x * 10_000) / 10_000;
const rate = (k: number, n: number) => ({ rate: n === 0 ? 0 : r4(k / n), interval: wilsonInterval(k, n).map(r4) });

/** An entity's figures over the runs `group` (indices into CELLS), from the hand values above; the means' intervals are checked apart. */
function handFigures(name: (typeof NAMES)[number], group: number[]) {
  const cells = group.map((r) => CELLS[r]![name]);
  const mentioned = cells.filter((c): c is Cell => c !== undefined);
  const basis = group.reduce((n, r) => n + Object.keys(CELLS[r]!).length, 0);
  const top1 = mentioned.filter((c) => c.pos === 1).length;
  const top3 = mentioned.filter((c) => c.pos <= 3).length;
  const citing = mentioned.filter((c) => c.cited).length;
  const positions = Object.fromEntries(NAMES.map((_, k) => [String(k + 1), mentioned.filter((c) => c.pos === k + 1).length]));
  const visibility = rate(mentioned.length, group.length);
  const top1Rate = rate(top1, group.length);
  const top3Rate = rate(top3, group.length);
  const cited = rate(citing, group.length);
  return {
    runs: group.length,
    runs_mentioning: mentioned.length,
    visibility: visibility.rate,
    visibility_interval: visibility.interval,
    share_of_voice: basis === 0 ? null : r4(mentioned.length / basis),
    share_of_voice_basis: "runs mentioning any tracked entity",
    share_of_voice_n: basis,
    average_position: mentioned.length ? r4(mentioned.reduce((s, c) => s + c.pos, 0) / mentioned.length) : null,
    position_counts: positions,
    runs_top1: top1,
    top1_rate: top1Rate.rate,
    top1_rate_interval: top1Rate.interval,
    runs_top3: top3,
    top3_rate: top3Rate.rate,
    top3_rate_interval: top3Rate.interval,
    prominence: r4(mentioned.reduce((s, c) => s + c.prom, 0) / group.length),
    runs_citing: citing,
    cited_rate: cited.rate,
    cited_rate_interval: cited.interval,
    mentioned_and_cited: citing,
    mentioned_not_cited: mentioned.length - citing,
    cited_not_mentioned: 0,
    mentions: mentioned.reduce((s, c) => s + c.counted, 0),
    mentions_not_counted: { prompt_echo: mentioned.reduce((s, c) => s + (c.echo ?? 0), 0), absence: mentioned.reduce((s, c) => s + (c.absence ?? 0), 0), link: 0 },
  };
}

/** t(0.975, df) as the tables give it (NIST/SEMATECH e-Handbook 1.3.6.7.2; Fisher & Yates to 4 places). */
const T975: Record<number, number> = { 1: 12.7062, 2: 4.3027, 3: 3.1824, 4: 2.7764 };

/** Student's t interval of `values` by hand: mean ± t · s / √n, clipped to [min, max]; the whole range for one value, null for none. */
function handTInterval(values: number[], [min, max]: [number, number]): [number, number] | null {
  const n = values.length;
  if (n === 0) return null;
  if (n === 1) return [min, max];
  const mean = values.reduce((s, x) => s + x, 0) / n;
  const s = Math.sqrt(values.reduce((acc, x) => acc + (x - mean) ** 2, 0) / (n - 1));
  const half = T975[n - 1]! * (s / Math.sqrt(n));
  return [Math.max(min, mean - half), Math.min(max, mean + half)];
}

/** The means' intervals: Student's t by hand, over the runs naming it (places 1 to 5) and over all runs (prominence 0 to 1). */
function checkMeanIntervals(name: (typeof NAMES)[number], group: number[], got: { average_position_interval: [number, number] | null; prominence_interval: [number, number] }) {
  const cells = group.map((r) => CELLS[r]![name]);
  const near = (a: [number, number] | null, b: [number, number] | null) => {
    if (a === null || b === null) return expect(a).toEqual(b);
    // The table's t and the API's rounding are each within 0.00005.
    expect(Math.abs(a[0] - b[0]), `${name} low`).toBeLessThanOrEqual(1.5e-4);
    expect(Math.abs(a[1] - b[1]), `${name} high`).toBeLessThanOrEqual(1.5e-4);
  };
  near(got.average_position_interval, handTInterval(cells.filter((c) => c !== undefined).map((c) => c!.pos), [1, 5]));
  near(got.prominence_interval, handTInterval(cells.map((c) => c?.prom ?? 0), [0, 1]));
}

const ALL = [0, 1, 2, 3, 4];
const BY_ENGINE = { chatgpt: [0, 3], claude: [1, 4], gemini: [2] };
const BY_COUNTRY: [string | null, number[]][] = [["DE", [1]], ["US", [0, 2]], [null, [3, 4]]];
const BY_PROMPT: [string, number[]][] = [[PROMPT_A, [0]], [PROMPT_B, [1]], [PROMPT_C, [2]], [PROMPT_D, [3, 4]]];

/** Every mention of the fixture by hand: run, entity, the name as the entity gives it, the text matched, its sentence (NFC), list rank and reason. */
function handMentions() {
  const at = (answer: string, written: string, nth = 0) => {
    let i = -1;
    for (let k = 0; k <= nth; k++) i = answer.indexOf(written, i + 1);
    expect(i, `${written} in the answer`).toBeGreaterThanOrEqual(0);
    return { start: i, end: i + written.length };
  };
  const m = (run: string, engine: string, prompt: string, answer: string, entity: string, alias: string, written: string, nth: number, sentence: string, list_rank: number | null, reason: string | null) => ({
    run_id: run, engine, prompt, entity, alias, ...at(answer, written, nth), sentence, list_rank, counted: reason === null, reason,
  });
  const a = (...x: [string, string, string, number, string, number | null, string | null]) => m(ids.aRun, "chatgpt", PROMPT_A, A, ...x);
  const b = (...x: [string, string, string, number, string, number | null, string | null]) => m(ids.b, "claude", PROMPT_B, B, ...x);
  const c = (...x: [string, string, string, number, string, number | null, string | null]) => m(order[2]!, "gemini", PROMPT_C, C, ...x);
  const d = (run: string, engine: string) => [
    m(run, engine, PROMPT_D, D, "Monday", "monday.com", "monday.com", 0, "Many teams plan their week on monday.com instead.", null, null),
    m(run, engine, PROMPT_D, D, "Monday", "Monday CRM", "Monday CRM", 0, "Monday CRM", 1, null),
    m(run, engine, PROMPT_D, D, "HubSpot", "HubSpot", "HubSpot", 0, "HubSpot", 2, null),
  ];
  const sA0 = 'Searches for "pipedrive vs hubspot" mostly turn up review sites.';
  const sC0 = 'Searches for "crm reviews g2 capterra" favour Capterra.';
  return [
    a("Pipedrive", "Pipedrive", "pipedrive", 0, sA0, null, "prompt_echo"),
    a("HubSpot", "HubSpot", "hubspot", 0, sA0, null, "prompt_echo"),
    a("HubSpot", "HubSpot CRM", "HubSpot CRM", 0, "**HubSpot CRM** is free to start.", 1, null),
    a("Pipedrive", "Pipedrive", "Pipedrive", 0, "Pipedrive costs $14 per seat.", 2, null),
    a("Zoho CRM", "Zoho", "Zoho", 0, "Zoho is cheaper, and on monday the team met.", null, null),
    b("Monday", "Monday CRM", "Monday CRM", 0, "For startups, Monday CRM and Pipedrive lead 🚀.", null, null),
    b("Pipedrive", "Pipedrive", "Pipedrive", 0, "For startups, Monday CRM and Pipedrive lead 🚀.", null, null),
    b("Pipedrive", "Pipedrive", "Pipedrive", 1, "Pipedrive: simple pipelines.", 1, null),
    b("Zoho CRM", "Zoho CRM", "Zoho CRM", 0, "Zoho CRM: cheap.", 2, null),
    b("HubSpot", "HubSpot", "HubSpot", 0, "I couldn't find any information about HubSpot.", null, "absence"),
    b("HubSpot", "HubSpot", "HubSpot", 1, "日本では「HubSpot」が人気です。", null, null),
    c("Capterra", "Capterra", "capterra", 0, sC0, null, "prompt_echo"),
    c("Capterra", "Capterra", "Capterra", 0, sC0, null, null),
    c("Pipedrive", "Pipedrive", "Pipedrive", 0, "Für Teams in München ist Pipedrive gut.".normalize("NFC"), null, null),
    c("HubSpot", "HubSpot CRM", "HubSpot CRM", 0, "HubSpot CRM ist teurer als Zoho.", null, null),
    c("Zoho CRM", "Zoho", "Zoho", 0, "HubSpot CRM ist teurer als Zoho.", null, null),
    ...d(ids.d1, "chatgpt"),
    ...d(ids.d2, "claude"),
  ];
}

describe("POST /visibility-analyses", () => {
  it("runs the fixture through the simulator as written: exact answers, C's search for the quoted query, the cited pages", async () => {
    const inputs = await inputsFromApi(alice.cliToken, order.slice(0, 5));
    expect(inputs.map((r) => r.answer)).toEqual([A, B, C, D, D]);
    expect(inputs[2]!.search_queries).toContain("crm reviews g2 capterra");
    expect(inputs.map((r) => [r.engine, r.country])).toEqual([["chatgpt", "US"], ["claude", "DE"], ["gemini", "US"], ["chatgpt", null], ["claude", null]]);
    const hosts = inputs.map((r) => r.cited_urls.map((u) => new URL(u).hostname));
    expect(hosts[0]).toContain("www.zoho.com");
    expect(hosts[1]).toContain("blog.hubspot.com");
    expect(hosts[2]).toEqual(expect.arrayContaining(["www.capterra.com", "www.zoho.com"]));
    // Nothing else the entities own is cited anywhere.
    expect(hosts.flat().filter((h) => /(^|\.)(hubspot|pipedrive|monday|zoho|capterra)\.com$/.test(h)).sort()).toEqual(["blog.hubspot.com", "www.capterra.com", "www.zoho.com", "www.zoho.com"]);
  });

  it("counts every figure as worked out by hand: overall and by engine, country and prompt", () => {
    expect(VisibilityAnalysis.safeParse(analysis).success).toBe(true);
    expect(analysis).toMatchObject({ kind: "visibility", status: "completed", method: "visibility-v2", interval_method: "t", project_id: project, created_by: alice.email, error: null, charge: null });
    expect(analysis.id).toMatch(/^va_/);
    expect(analysis.completed_at).toBe(analysis.created_at);
    // The subject counts the prompts of every run named, excluded ones too, as a citation analysis does.
    expect(analysis.subject).toBe(`${PROMPT_A} (+5 more prompts)`);
    expect(analysis.run_ids).toEqual(order);
    expect(analysis.run_count).toBe(7);
    expect(analysis.excluded_runs).toEqual([
      { run_id: order[5], reason: "failed" },
      { run_id: order[6], reason: "no_answer" },
      { run_id: ids.aRun, reason: "duplicate" },
    ]);
    expect(analysis.totals).toEqual({ runs: 5, prompts: 4, engines: 3, mentions: 22, mentions_not_counted: { prompt_echo: 3, absence: 1, link: 0 } });
    expect(analysis.entities).toEqual([
      { name: "HubSpot", role: "brand", aliases: ["HubSpot CRM"], domains: ["hubspot.com"], case_sensitive: false },
      { name: "Pipedrive", role: "competitor", aliases: [], domains: ["www.pipedrive.com"], case_sensitive: false },
      { name: "Monday", role: "competitor", aliases: ["Monday CRM", "monday.com"], domains: ["monday.com"], case_sensitive: true },
      { name: "Zoho CRM", role: "competitor", aliases: ["Zoho"], domains: ["zoho.com"], case_sensitive: false },
      { name: "Capterra", role: "competitor", aliases: [], domains: ["capterra.com"], case_sensitive: false },
    ]);
    expect(analysis.rows.map((r: { name: string; role: string }) => [r.name, r.role])).toEqual(NAMES.map((n, i) => [n, i === 0 ? "brand" : "competitor"]));
    for (const [i, name] of NAMES.entries()) {
      const row = analysis.rows[i];
      expect(row, name).toMatchObject(handFigures(name, ALL));
      checkMeanIntervals(name, ALL, row);
      expect(row.by_engine.map((g: { engine: string }) => g.engine)).toEqual(Object.keys(BY_ENGINE));
      for (const [k, [engine, group]] of Object.entries(BY_ENGINE).entries()) {
        expect(row.by_engine[k], `${name} on ${engine}`).toMatchObject({ engine, ...handFigures(name, group) });
        checkMeanIntervals(name, group, row.by_engine[k]);
      }
      expect(row.by_country.map((g: { country: string | null }) => g.country)).toEqual(BY_COUNTRY.map(([c]) => c));
      for (const [k, [country, group]] of BY_COUNTRY.entries()) {
        expect(row.by_country[k], `${name} in ${country}`).toMatchObject({ country, ...handFigures(name, group) });
        checkMeanIntervals(name, group, row.by_country[k]);
      }
      expect(row.by_prompt.map((g: { prompt: string }) => g.prompt)).toEqual(BY_PROMPT.map(([p]) => p));
      for (const [k, [prompt, group]] of BY_PROMPT.entries()) {
        expect(row.by_prompt[k], `${name} for ${prompt.slice(0, 20)}`).toMatchObject({ prompt, ...handFigures(name, group) });
        checkMeanIntervals(name, group, row.by_prompt[k]);
      }
    }
    // A few of the above in plain numbers, as a reader checks them.
    const [hubspot, pipedrive, monday, zoho, capterra] = analysis.rows;
    expect([hubspot.visibility, pipedrive.visibility, monday.visibility, zoho.visibility, capterra.visibility]).toEqual([1, 0.6, 0.6, 0.6, 0.2]);
    expect([hubspot.share_of_voice, pipedrive.share_of_voice, capterra.share_of_voice, hubspot.share_of_voice_n]).toEqual([0.3333, 0.2, 0.0667, 15]);
    expect([hubspot.average_position, zoho.average_position, monday.average_position]).toEqual([2.4, 3.3333, 1]);
    expect(hubspot.position_counts).toEqual({ "1": 1, "2": 2, "3": 1, "4": 1, "5": 0 });
    // Places 1, 4, 3, 2, 2: s² = (34 - 12²/5) / 4 = 1.3, 2.4 ± 2.7764 · 0.5099 = [0.9843, 3.8157], clipped at place 1.
    expect(hubspot.average_position_interval).toEqual([1, 3.8157]);
    expect([hubspot.prominence, monday.prominence]).toEqual([0.0929, 0.3711]);
    expect([zoho.runs_citing, zoho.mentioned_and_cited, zoho.mentioned_not_cited, hubspot.mentioned_and_cited]).toEqual([2, 2, 1, 1]);
    expect(hubspot.mentions_not_counted).toEqual({ prompt_echo: 1, absence: 1, link: 0 });
  });

  it("is what the pure computation makes of the same runs read through GET /runs/{id}, intervals included", async () => {
    const inputs = await inputsFromApi(alice.cliToken, analysis.run_ids);
    const byId = new Map(inputs.map((r) => [r.run_id, r]));
    const named = [ids.aRun, ids.b, order[2]!, ids.d1, ids.d2, order[5]!, order[6]!, ids.aRun].map((id) => byId.get(id)!);
    const { mentions: computed, ...figures } = computeVisibilityAnalysis(named, { entities: analysis.entities });
    // Not judged: no sentiment (decisions.md "Judged visibility").
    expect({ method: analysis.method, interval_method: analysis.interval_method, entities: analysis.entities, run_ids: analysis.run_ids, excluded_runs: analysis.excluded_runs, totals: analysis.totals, rows: analysis.rows }).toEqual({
      ...figures,
      rows: figures.rows.map((row) => ({ ...row, sentiment: null })),
    });
    expect([analysis.judge, analysis.discovered, analysis.agreement, analysis.charge]).toEqual([null, null, null, null]);
    expect(computed).toEqual(handMentions());
  });
});

describe("GET /analyses/{id} and GET /analyses", () => {
  it("answers the stored analysis as POST answered it, finished at once, and lists it with kind visibility", async () => {
    const posted = await analyse(alice.cliToken, { ids: [ids.c, ids.fanout], entities: ENTITIES });
    expect(posted.status).toBe(201);
    const id = posted.body.id as string;
    const read = await call(getAnalysisRoute, "GET", `/analyses/${id}`, { token: alice.cliToken, params: { analysis_id: id }, query: { wait: 30 } });
    expect(read.status).toBe(200);
    expect(read.text).toBe(posted.text);
    // As presented from the stored row (what another instance, or this one after eviction, answers).
    // The remembered bodies (lib/analyses/read.ts's VersionCache) dropped: presented from the row.
    delete (globalThis as Record<string, unknown>).__geoscopeAnalysisBodies;
    const presented = await call(getAnalysisRoute, "GET", `/analyses/${id}`, { token: alice.cliToken, params: { analysis_id: id } });
    expect(presented.text).toBe(posted.text);
    // The row keeps the body POST answered, sent as it is.
    expect((await db().analysis.findUniqueOrThrow({ where: { id } })).body).toBe(posted.text);
    // The row's figures keep no by-prompt rows: the body holds them (lib/visibility/store-result.ts).
    const kept = (await db().analysis.findUniqueOrThrow({ where: { id } })).result as { prompts_in_body?: true; rows: { by_prompt?: unknown }[] };
    expect(kept.prompts_in_body).toBe(true);
    expect(kept.rows.every((r) => r.by_prompt === undefined)).toBe(true);
    // Such a body cannot be dropped: neither by a change of the row nor by hand.
    await expect(db().analysis.update({ where: { id }, data: { subject: "changed" } })).rejects.toThrow(/analyses_prompts_in_body/);
    await expect(db().analysis.update({ where: { id }, data: { body: null } })).rejects.toThrow(/analyses_prompts_in_body/);
    // An analysis stored before bodies were kept (none, every figure in its result) is presented from its figures: the same bytes.
    await db().analysis.update({ where: { id }, data: { body: null, result: withPromptRows(kept, posted.body) as never } });
    delete (globalThis as Record<string, unknown>).__geoscopeAnalysisBodies;
    const fromFigures = await call(getAnalysisRoute, "GET", `/analyses/${id}`, { token: alice.cliToken, params: { analysis_id: id } });
    expect(fromFigures.text).toBe(posted.text);
    // A kept body naming another creator than the row's is not sent: presented from the figures.
    await db().analysis.update({ where: { id }, data: { body: posted.text.replace(`"created_by":${JSON.stringify(alice.email)}`, '"created_by":"someone@example.com"') } });
    delete (globalThis as Record<string, unknown>).__geoscopeAnalysisBodies;
    const checked = await call(getAnalysisRoute, "GET", `/analyses/${id}`, { token: alice.cliToken, params: { analysis_id: id } });
    expect(checked.text).toBe(posted.text);

    const listed = await call(listAnalysesRoute, "GET", "/analyses", { token: alice.cliToken, query: { kind: "visibility", project } });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((a: { id: string }) => a.id)).toEqual([id, analysis.id]);
    expect(listed.body.items[1]).toMatchObject({ kind: "visibility", status: "completed", run_count: 7, subject: analysis.subject, project_id: project, created_by: alice.email });
    const page = await call(listAnalysesRoute, "GET", "/analyses", { token: alice.cliToken, query: { kind: "visibility", limit: 1 } });
    const next = await call(listAnalysesRoute, "GET", "/analyses", { token: alice.cliToken, query: { kind: "visibility", limit: 1, cursor: page.body.next_cursor } });
    expect(next.body.items.map((a: { id: string }) => a.id)).toEqual([analysis.id]);
    expect((await call(listAnalysesRoute, "GET", "/analyses", { token: alice.cliToken, query: { kind: "citations" } })).body.items).toEqual([]);
  });

  it("answers in ASCII JSON, a name outside ASCII written as \\u escapes and read back as given, from POST, the row and memory alike", async () => {
    const entities = [...ENTITIES, { name: "Société Générale", role: "competitor" as const, aliases: ["SG 😀"] }];
    const posted = await analyse(alice.cliToken, { ids: [ids.c, ids.fanout], entities });
    expect(posted.status).toBe(201);
    expect(posted.text).toMatch(/^[\x20-\x7e]*$/);
    expect(posted.text).toContain('"name":"Soci\\u00e9t\\u00e9 G\\u00e9n\\u00e9rale"');
    expect(posted.body.entities.at(-1)).toMatchObject({ name: "Société Générale", aliases: ["SG 😀"] });
    expect(posted.body.rows.at(-1).name).toBe("Société Générale");
    const id = posted.body.id as string;
    const remembered = await call(getAnalysisRoute, "GET", `/analyses/${id}`, { token: alice.cliToken, params: { analysis_id: id } });
    expect(remembered.text).toBe(posted.text);
    delete (globalThis as Record<string, unknown>).__geoscopeAnalysisBodies;
    const fromRow = await call(getAnalysisRoute, "GET", `/analyses/${id}`, { token: alice.cliToken, params: { analysis_id: id } });
    expect(fromRow.text).toBe(posted.text);
  });

  it("answers an analysis stored before Student's t with the intervals it was computed with, as `bootstrap`, every other byte as stored", async () => {
    const posted = await analyse(alice.cliToken, { ids: [ids.b, ids.fanout], entities: ENTITIES });
    expect(posted.status).toBe(201);
    const id = posted.body.id as string;
    // What the bootstrap stored: no interval_method, and its own intervals.
    const row = await db().analysis.findUniqueOrThrow({ where: { id } });
    const { interval_method, ...stored } = withPromptRows(row.result as { rows: object[] }, posted.body) as {
      interval_method?: string;
      rows: { average_position_interval: [number, number] | null; prominence_interval: [number, number] }[];
    };
    expect(interval_method).toBe("t");
    stored.rows[1]!.average_position_interval = [1.6667, 2];
    stored.rows[1]!.prominence_interval = [0.1167, 0.2234];
    await db().analysis.update({ where: { id }, data: { result: stored } });

    const expected = structuredClone(posted.body);
    expected.interval_method = "bootstrap";
    expected.rows[1].average_position_interval = [1.6667, 2];
    expected.rows[1].prominence_interval = [0.1167, 0.2234];
    const read = await call(getAnalysisRoute, "GET", `/analyses/${id}`, { token: alice.cliToken, params: { analysis_id: id } });
    expect(read.status).toBe(200);
    expect(read.text).toBe(asciiJson(expected));
    expect(VisibilityAnalysis.safeParse(read.body).success).toBe(true);
    // The stored intervals are answered, not recomputed: the t interval of those runs differs.
    expect(posted.body.rows[1].average_position_interval).not.toEqual([1.6667, 2]);
  });

  it("answers 404 for another person's analysis exactly as for one that does not exist", async () => {
    const foreign = await call(getAnalysisRoute, "GET", `/analyses/${analysis.id}`, { token: bob.cliToken, params: { analysis_id: analysis.id } });
    const missingId = newId("visibilityAnalysis");
    const missing = await call(getAnalysisRoute, "GET", `/analyses/${missingId}`, { token: bob.cliToken, params: { analysis_id: missingId } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: { ...missing.body.error, message: missing.body.error.message.replace(missingId, analysis.id) } });
    expect((await call(listAnalysesRoute, "GET", "/analyses", { token: bob.cliToken, query: { kind: "visibility" } })).body.items).toEqual([]);
  });
});

describe("GET /analyses/{id}/mentions", () => {
  it("pages every mention, by run in the analysis's order then by offset, and they add up to the figures", async () => {
    const seen: unknown[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await mentions(alice.cliToken, analysis.id, { limit: 4, ...(cursor ? { cursor } : {}) });
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(4);
      seen.push(...page.body.items);
      cursor = page.body.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(6);
    expect(seen).toEqual(handMentions());
    const whole = await mentions(alice.cliToken, analysis.id, { limit: 200 });
    expect(whole.body).toEqual({ items: handMentions(), next_cursor: null });

    // Every figure traced to these rows: counted mentions, runs mentioning, echoes and absences, positions.
    const rows = whole.body.items as { run_id: string; entity: string; counted: boolean; reason: string | null; start: number }[];
    for (const row of analysis.rows) {
      const own = rows.filter((m) => m.entity === row.name);
      expect(own.filter((m) => m.counted).length).toBe(row.mentions);
      expect(new Set(own.filter((m) => m.counted).map((m) => m.run_id)).size).toBe(row.runs_mentioning);
      expect(own.filter((m) => m.reason === "prompt_echo").length).toBe(row.mentions_not_counted.prompt_echo);
      expect(own.filter((m) => m.reason === "absence").length).toBe(row.mentions_not_counted.absence);
    }
    for (const runId of order.slice(0, 5)) {
      const firsts = [...new Set(rows.filter((m) => m.run_id === runId && m.counted).map((m) => m.entity))];
      const positions = analysis.rows.filter((r: { name: string }) => firsts.includes(r.name)).map((r: { name: string }) => [r.name, firsts.indexOf(r.name) + 1]);
      for (const [name, position] of positions) {
        const mentionedIn = rows.filter((m) => m.run_id === runId && m.counted && m.entity === name);
        expect(mentionedIn.length, `${name} in ${runId}`).toBeGreaterThan(0);
        expect(position).toBeGreaterThan(0);
      }
    }
  });

  it("narrows by entity (any case), engine, run and counted, and pages the narrowed list", async () => {
    const all = handMentions();
    const hub = await mentions(alice.cliToken, analysis.id, { entity: "hubspot" });
    expect(hub.body.items).toEqual(all.filter((m) => m.entity === "HubSpot"));
    const claude = await mentions(alice.cliToken, analysis.id, { engine: "claude" });
    expect(claude.body.items).toEqual(all.filter((m) => m.engine === "claude"));
    const notCounted = await mentions(alice.cliToken, analysis.id, { counted: "false" });
    expect(notCounted.body.items.map((m: { reason: string }) => m.reason)).toEqual(["prompt_echo", "prompt_echo", "absence", "prompt_echo"]);
    const counted = await mentions(alice.cliToken, analysis.id, { counted: "true", entity: "Pipedrive", limit: 2 });
    expect(counted.body.items).toEqual(all.filter((m) => m.entity === "Pipedrive" && m.counted).slice(0, 2));
    const rest = await mentions(alice.cliToken, analysis.id, { counted: "true", entity: "Pipedrive", limit: 2, cursor: counted.body.next_cursor });
    expect(rest.body).toEqual({ items: all.filter((m) => m.entity === "Pipedrive" && m.counted).slice(2), next_cursor: null });
    const one = await mentions(alice.cliToken, analysis.id, { run_id: ids.b, counted: "false" });
    expect(one.body.items).toEqual(all.filter((m) => m.run_id === ids.b && !m.counted));
    const none = await mentions(alice.cliToken, analysis.id, { run_id: order[5]! });
    expect(none.body).toEqual({ items: [], next_cursor: null });
    // The evidence of a by_prompt and a by_country row.
    const prompt = await mentions(alice.cliToken, analysis.id, { prompt: PROMPT_D, entity: "Monday" });
    expect(prompt.body.items).toEqual(all.filter((m) => m.prompt === PROMPT_D && m.entity === "Monday"));
    expect(prompt.body.items.filter((m: { counted: boolean }) => m.counted).length).toBe(analysis.rows[2].by_prompt[3].mentions);
    const us = await mentions(alice.cliToken, analysis.id, { country: "us" });
    expect(us.body.items).toEqual(all.filter((m) => m.run_id === ids.aRun || m.run_id === order[2]));
    const nowhere = await mentions(alice.cliToken, analysis.id, { country: "none" });
    expect(nowhere.body.items).toEqual(all.filter((m) => m.prompt === PROMPT_D));
    expect((await mentions(alice.cliToken, analysis.id, { country: "XX" })).body.error.message).toMatch(/^country: unknown country "XX"/);
  });

  it("answers every matching mention as CSV at once, with a header line", async () => {
    const csv = async (query: Record<string, string>) => {
      const url = new URL(`http://localhost/api/v1/analyses/${analysis.id}/mentions`);
      for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
      const res = await mentionsRoute(new Request(url, { headers: { authorization: `Bearer ${alice.cliToken}` } }), { params: Promise.resolve({ analysis_id: analysis.id }) });
      return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
    };
    const got = await csv({ format: "csv", limit: "1" });
    expect(got.status).toBe(200);
    expect(got.type).toBe("text/csv; charset=utf-8; header=present");
    const lines = got.text.split("\r\n");
    expect(lines[0]).toBe("run_id,engine,prompt,entity,alias,start,end,sentence,list_rank,counted,reason");
    expect(lines.at(-1)).toBe("");
    expect(lines.length).toBe(2 + 22);
    const quote = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
    const expected = handMentions().map((m) =>
      [m.run_id, m.engine, quote(m.prompt), m.entity, m.alias, m.start, m.end, quote(m.sentence), m.list_rank ?? "", m.counted, m.reason ?? ""].join(","),
    );
    expect(lines.slice(1, -1)).toEqual(expected);
    const echoes = await csv({ format: "csv", counted: "false", engine: "chatgpt" });
    expect(echoes.text.split("\r\n").slice(1, -1)).toEqual(expected.filter((_, i) => i < 2));
  });

  it("refuses an entity the analysis does not track, a forged cursor and an analysis of another kind; 404 for another's", async () => {
    const unknown = await mentions(alice.cliToken, analysis.id, { entity: "Salesforce" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/^entity: "Salesforce" is not an entity of this analysis \("HubSpot", "Pipedrive"/);
    const forged = await mentions(alice.cliToken, analysis.id, { cursor: Buffer.from(`m1:${newId("visibilityAnalysis")}:0:0`).toString("base64url") });
    expect(forged.status).toBe(400);
    expect(forged.body.error.message).toMatch(/^cursor: /);
    const badEngine = await mentions(alice.cliToken, analysis.id, { engine: "bing" });
    expect(badEngine.status).toBe(400);
    const citations = await call(postCitationAnalyses, "POST", "/citation-analyses", { token: alice.cliToken, body: { ids: [ids.a] } });
    // Only a visibility analysis has mentions: the path takes va_ ids (OpenAPI says so), and
    // another kind's id names no visibility analysis.
    const other = await mentions(alice.cliToken, citations.body.id);
    expect(other.status).toBe(404);
    expect(other.body.error.message).toBe(`No such visibility analysis "${citations.body.id}".`);

    const foreign = await mentions(bob.cliToken, analysis.id);
    const missingId = newId("visibilityAnalysis");
    const missing = await mentions(bob.cliToken, missingId);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toBe(missing.body.error.message.replace(missingId, analysis.id));
    // A run filter naming someone else's run is 404 too, as reading that run would be.
    const bobsProject = (await call(postProjects, "POST", "/projects", { token: bob.cliToken, body: { name: "Bob's" } })).body.id;
    const bobsRun = (await finishedBatch(bob.cliToken, { prompt: "bob asks", project: bobsProject, engines: ["claude"] })).runIds[0]!;
    const theirRun = await mentions(alice.cliToken, analysis.id, { run_id: bobsRun });
    const noRun = await mentions(alice.cliToken, analysis.id, { run_id: newId("run") });
    expect(theirRun.status).toBe(404);
    expect(theirRun.body.error.message).toBe(`No such run "${bobsRun}".`);
    expect(noRun.status).toBe(404);
    const foreignCsv = await mentionsRoute(new Request(`http://localhost/api/v1/analyses/${analysis.id}/mentions?format=csv`, { headers: { authorization: `Bearer ${bob.cliToken}` } }), {
      params: Promise.resolve({ analysis_id: analysis.id }),
    });
    expect(foreignCsv.status).toBe(404);
  });
});

describe("what an analysis may name", () => {
  it("answers 404 naming a foreign or missing run, batch or fanout, all alike, and creates nothing", async () => {
    const bobProject = (await call(postProjects, "POST", "/projects", { token: bob.cliToken, body: { name: "Bob" } })).body.id;
    const bobBatch = await finishedBatch(bob.cliToken, { prompt: "best crm for bob", project: bobProject, engines: ["chatgpt"] });
    const missingFanout = newId("fanout");
    const before = await db().analysis.count();
    for (const [id, message] of [
      [bobBatch.runIds[0]!, `No such run "${bobBatch.runIds[0]}".`],
      [bobBatch.id, `No such batch "${bobBatch.id}".`],
      [missingFanout, `No such fanout "${missingFanout}".`],
      ["va_nope", 'No such run, batch or fanout "va_nope".'],
    ]) {
      const res = await analyse(alice.cliToken, { ids: [ids.a, id], entities: ENTITIES });
      expect(res.status).toBe(404);
      expect(res.body.error).toEqual({ code: "not_found", message, engine: null, retryable: false });
    }
    expect(await db().analysis.count()).toBe(before);
  });

  it("refuses bad entities in the words of the field", async () => {
    const cases: [unknown, string][] = [
      [{ ids: [ids.a], entities: [{ name: "  ", role: "brand" }] }, "entities[0].name: must be 1 to 100 characters after trimming spaces"],
      [{ ids: [ids.a], entities: [{ name: "HubSpot", role: "brand" }, { name: "hubspot", role: "competitor" }] }, "entities[1].name: repeats entities[0].name"],
      [{ ids: [ids.a], entities: [{ name: "HubSpot", role: "owner" }] }, 'entities[0].role: must be one of: "brand", "competitor" (got "owner")'],
      [{ ids: [ids.a], entities: [{ name: "HubSpot", role: "brand", domains: ["localhost"] }] }, "entities[0].domains[0]: must be a domain name like acme.com (a URL is cut to its host)"],
      [{ ids: [ids.a], use_project_context: false }, "entities: must be given when use_project_context is false"],
      [{ ids: [] }, "ids: must have at least 1 id"],
    ];
    for (const [body, message] of cases) {
      const res = await analyse(alice.cliToken, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
  });

  it("tracks the project's brands and competitors, with their aliases and domains, when no entities are given", async () => {
    const res = await analyse(alice.cliToken, { ids: [ids.a, ids.b] });
    expect(res.status).toBe(201);
    expect(res.body.entities).toEqual([
      { name: "HubSpot", role: "brand", aliases: [], domains: ["hubspot.com"], case_sensitive: false },
      { name: "Pipedrive", role: "competitor", aliases: [], domains: [], case_sensitive: false },
      { name: "Zoho CRM", role: "competitor", aliases: ["Zoho"], domains: ["zoho.com"], case_sensitive: false },
    ]);
    // Zoho by its alias in A and by name in B; cited in A (zoho.com).
    expect(res.body.rows[2]).toMatchObject({ name: "Zoho CRM", runs: 2, runs_mentioning: 2, runs_citing: 1, mentions: 2 });

    const bare = (await call(postProjects, "POST", "/projects", { token: alice.cliToken, body: { name: "Bare" } })).body.id;
    const batch = await finishedBatch(alice.cliToken, { prompt: `bare ${answerDirective("Nothing here.")}`, project: bare, engines: ["chatgpt"] });
    const none = await analyse(alice.cliToken, { ids: [batch.id] });
    expect(none.status).toBe(400);
    expect(none.body.error.message).toMatch(/^entities: are required: the project's context names no brands or competitors/);
  });

  it("is what a monitor's tick calls, as the person it runs as: analyseVisibility answers the stored analysis's id", async () => {
    const id = await analyseVisibility({ ...principalOf(alice), workspaceId: alice.workspaceId }, { ids: [ids.fanout], entities: ENTITIES });
    expect(id).toMatch(/^va_/);
    const read = await call(getAnalysisRoute, "GET", `/analyses/${id}`, { token: alice.cliToken, params: { analysis_id: id } });
    expect(read.body.rows[2]).toMatchObject({ name: "Monday", runs: 2, runs_mentioning: 2, mentions: 4 });
    await expect(analyseVisibility({ ...principalOf(bob), workspaceId: bob.workspaceId }, { ids: [ids.fanout], entities: ENTITIES })).rejects.toThrow(`No such fanout "${ids.fanout}".`);
  });
});

describe("readings kept (docs/decisions.md \"Readings kept\")", () => {
  type Kept = { run_id: string; answered: boolean };
  const keptFor = (key: string, runIds: string[]) =>
    db().$queryRawUnsafe<Kept[]>(`SELECT run_id, length(cells) > 0 AS answered FROM run_observations WHERE matcher = $1 AND run_id = ANY($2::text[]) ORDER BY run_id`, key, runIds);
  const counted = () => [ids.aRun, ids.b, order[2]!, ids.d1, ids.d2];
  const page = async (id: string) => (await mentions(alice.cliToken, id, { limit: 200 })).body.items;
  const figures = (a: any) => ({ run_ids: a.run_ids, excluded_runs: a.excluded_runs, totals: a.totals, rows: a.rows });

  it("reads each run for its project's brands and competitors when it finishes, and an analysis of them adds up what was kept", async () => {
    const context = (await call(getProjectRoute, "GET", `/projects/${project}`, { token: alice.cliToken, params: { project_id: project } })).body.context;
    const key = readingKey(entitiesFromContext(context).map(normalizeEntity));
    // Before any analysis of them: every completed run was read as it finished (the blank one found without an answer), the failed one not.
    const all = [...counted(), order[5]!, order[6]!];
    expect(await keptFor(key, [order[2]!, ids.d1, ids.d2, order[5]!, order[6]!])).toEqual(
      [...[order[2]!, ids.d1, ids.d2].map((id) => ({ run_id: id, answered: true })), { run_id: order[6]!, answered: false }].sort((x, y) => (x.run_id < y.run_id ? -1 : 1)),
    );
    const res = await analyse(alice.cliToken, { ids: [ids.a, ids.b, ids.c, ids.fanout, ids.failed, ids.blank] });
    expect(res.status).toBe(201);
    expect(readingKey(res.body.entities)).toBe(key);
    expect((await keptFor(key, all)).length).toBe(6);
    // The same figures and mentions as reading every answer now (the pure computation over GET /runs/{id}).
    const inputs = await inputsFromApi(alice.cliToken, res.body.run_ids);
    const { mentions: computed, ...expected } = computeVisibilityAnalysis(inputs, { entities: res.body.entities });
    expect(figures(res.body)).toEqual({ ...figures(expected), rows: expected.rows.map((row) => ({ ...row, sentiment: null })) });
    expect((await page(res.body.id)).map(({ sentence: _, ...m }: any) => m)).toEqual(computed.map(({ sentence: _, ...m }) => m));

    // What was kept is what the analysis adds up: a kept reading saying A named nobody takes A's mentions away.
    const saved = await db().$queryRawUnsafe<{ cells: string }[]>(`SELECT encode(cells, 'hex') AS cells FROM run_observations WHERE matcher = $1 AND run_id = $2`, key, ids.aRun);
    await db().$executeRawUnsafe(`UPDATE run_observations SET cells = decode(repeat('00', length(cells)), 'hex') WHERE matcher = $1 AND run_id = $2`, key, ids.aRun);
    const without = await analyse(alice.cliToken, { ids: [ids.a, ids.b, ids.c, ids.fanout] });
    await db().$executeRawUnsafe(`UPDATE run_observations SET cells = decode($3, 'hex') WHERE matcher = $1 AND run_id = $2`, key, ids.aRun, saved[0]!.cells);
    expect(without.body.rows[0]).toMatchObject({ name: "HubSpot", runs_mentioning: res.body.rows[0].runs_mentioning - 1 });
  });

  it("reads every answer for entities nothing was read for, keeps what it read, and the next analysis adds it up to the same figures", async () => {
    // The fixture's entities with an alias no answer contains: the same figures as the analysis above.
    const entities = ENTITIES.map((e) => (e.name === "Capterra" ? { ...e, aliases: ["Capterra Reviews Hub"] } : e));
    const key = readingKey(entities.map((e) => normalizeEntity({ aliases: [], case_sensitive: false, ...e, domains: (e.domains ?? []).map((d) => domainNameOf(d)!) })));
    expect(await keptFor(key, counted())).toEqual([]);
    const first = await analyse(alice.cliToken, { ids: [ids.a, ids.b, ids.c, ids.fanout, ids.failed, ids.blank, ids.aRun], entities });
    expect(first.status).toBe(201);
    expect(readingKey(first.body.entities)).toBe(key);
    // Kept once it has answered.
    await readingsKept();
    expect((await keptFor(key, counted())).length).toBe(5);
    expect(figures(first.body)).toEqual(figures(analysis));
    const again = await analyse(alice.cliToken, { ids: [ids.a, ids.b, ids.c, ids.fanout, ids.failed, ids.blank, ids.aRun], entities });
    expect(figures(again.body)).toEqual(figures(analysis));
    expect(await page(again.body.id)).toEqual(await page(analysis.id));

    // With the entities given, the kept readings are what it adds up: one saying A named nobody
    // takes A's mentions away. So too for a monitor's tick, which asks for them with its runs, by
    // the batches, fanouts and runs it names.
    const untouched = await analyse(alice.cliToken, { ids: [ids.a, ids.fanout, ids.c], entities });
    await db().$executeRawUnsafe(`UPDATE run_observations SET cells = decode(repeat('00', length(cells)), 'hex') WHERE matcher = $1 AND run_id = $2`, key, ids.aRun);
    const named = [ids.a, ids.b, ids.c, ids.fanout, ids.failed, ids.blank, ids.aRun];
    const without = await analyse(alice.cliToken, { ids: named, entities });
    expect(without.body.rows[0]).toMatchObject({ name: "HubSpot", runs_mentioning: again.body.rows[0].runs_mentioning - 1 });
    const asTick = (await analyseVisibility({ ...principalOf(alice), workspaceId: alice.workspaceId }, { ids: [ids.a, ids.fanout, ids.c], entities }, { readingsKept: true }))!;
    const read = await call(getAnalysisRoute, "GET", `/analyses/${asTick}`, { token: alice.cliToken, params: { analysis_id: asTick } });
    const alone = await analyse(alice.cliToken, { ids: [ids.a, ids.fanout, ids.c], entities });
    expect(figures(read.body)).toEqual(figures(alone.body));
    expect(read.body.rows[0]).toMatchObject({ name: "HubSpot", runs_mentioning: untouched.body.rows[0].runs_mentioning - 1 });
  });
});

describe("answers' structures kept (docs/decisions.md \"Answers' structures kept\")", () => {
  type Kept = { run_id: string; rules: number; structure: string };
  const structures = (runIds: string[]) =>
    db().$queryRawUnsafe<Kept[]>(`SELECT run_id, rules, encode(structure, 'hex') AS structure FROM run_text_structures WHERE run_id = ANY($1::text[]) ORDER BY run_id`, runIds);
  const setStructure = (runId: string, rules: number, hex: string) =>
    db().$executeRawUnsafe(`UPDATE run_text_structures SET rules = $2, structure = decode($3, 'hex') WHERE run_id = $1`, runId, rules, hex);
  const rows = (a: any) => ({ totals: a.totals, rows: a.rows });
  // New entities each time (an alias no answer contains), so that no kept reading stands in for reading the answers.
  let n = 0;
  const fresh = () => ENTITIES.map((e) => (e.name === "Capterra" ? { ...e, aliases: [`Capterra Structure ${++n}`] } : e));
  const named = () => [ids.a, ids.b, ids.c, ids.fanout];

  it("keeps each answer's structure as its run finishes, and an analysis for new entities reads it back to the figures reading the answers gives", async () => {
    const answered = [ids.aRun, ids.b, order[2]!, ids.d1, ids.d2];
    // The failed run and the blank answer have none.
    const kept = await structures([...answered, order[5]!, order[6]!]);
    expect(kept.map((k) => k.run_id)).toEqual([...answered].sort());
    expect(kept.every((k) => k.rules === READING_RULES && k.structure.length > 0)).toBe(true);
    const res = await analyse(alice.cliToken, { ids: named(), entities: fresh() });
    expect(res.status).toBe(201);
    const inputs = await inputsFromApi(alice.cliToken, res.body.run_ids);
    const { mentions: computed, ...expected } = computeVisibilityAnalysis(inputs, { entities: res.body.entities });
    expect(rows(res.body)).toEqual(rows({ ...expected, rows: expected.rows.map((row) => ({ ...row, sentiment: null })) }));
    const page = (await mentions(alice.cliToken, res.body.id, { limit: 200 })).body.items;
    expect(page.map(({ sentence: _, ...m }: any) => m)).toEqual(computed.map(({ sentence: _, ...m }) => m));
  });

  it("keeps the structure of a run of a project that tracks entities when it finishes, not of one that tracks no one: its first analysis keeps it", async () => {
    // Its job done (the step that reads a finished run runs after the run is seen completed), before any analysis of it.
    const tracked = await finishedBatch(alice.cliToken, { prompt: PROMPT_B, project, engines: ["gemini"] });
    await localDriver().drained();
    expect(await structures(tracked.runIds)).toMatchObject([{ run_id: tracked.runIds[0], rules: READING_RULES }]);
    const plain = await call(postProjects, "POST", "/projects", { token: alice.cliToken, body: { name: "Tracks no one", workspace_id: alice.workspaceId } });
    expect(plain.status).toBe(201);
    const batch = await finishedBatch(alice.cliToken, { prompt: PROMPT_A, project: plain.body.id, engines: ["chatgpt"] });
    await localDriver().drained();
    expect(await structures(batch.runIds)).toEqual([]);
    const res = await analyse(alice.cliToken, { ids: [batch.id], entities: ENTITIES });
    expect(res.status).toBe(201);
    expect(res.body.totals.runs).toBe(1);
    await readingsKept();
    const [kept] = await structures(batch.runIds);
    expect(kept).toMatchObject({ run_id: batch.runIds[0], rules: READING_RULES });
  });

  it("reads the kept structure, not the answer: one saying A's answer is one sentence of list item 7 gives A's mentions that item", async () => {
    const [original] = await structures([ids.aRun]);
    const [input] = await inputsFromApi(alice.cliToken, [ids.aRun]);
    const length = toNfc(input!.answer!).text.length;
    const oneItem = encodeStructure({ count: 1, starts: Int32Array.of(0), ends: Int32Array.of(length), words: Int32Array.of(10), listRanks: Int32Array.of(7), totalWords: 10 }, NO_LINKS)!;
    await setStructure(ids.aRun, READING_RULES, oneItem.toString("hex"));
    try {
      const res = await analyse(alice.cliToken, { ids: named(), entities: fresh() });
      const ofA = (await mentions(alice.cliToken, res.body.id, { limit: 200 })).body.items.filter((m: any) => m.run_id === ids.aRun);
      expect(ofA.length).toBeGreaterThan(0);
      expect(ofA.every((m: any) => m.list_rank === 7)).toBe(true);
    } finally {
      await setStructure(ids.aRun, original!.rules, original!.structure);
    }
  });

  it("reads the answer again where the kept structure is not one of it, or of other rules, and keeps its structure in its place", async () => {
    const [original] = await structures([ids.aRun]);
    const base = await analyse(alice.cliToken, { ids: named(), entities: fresh() });
    for (const [rules, hex] of [[READING_RULES, "00"], [READING_RULES, "01"], [READING_RULES + 1, original!.structure]] as const) {
      await setStructure(ids.aRun, rules, hex);
      const res = await analyse(alice.cliToken, { ids: named(), entities: fresh() });
      expect(res.status).toBe(201);
      expect(rows(res.body)).toEqual(rows(base.body));
      await readingsKept();
      expect(await structures([ids.aRun])).toEqual([original]);
    }
  });

  it("leaves a kept structure as it is when the same one is kept again (two analyses reading a run at once), and replaces one that differs", async () => {
    const versions = () => db().$queryRawUnsafe<{ run_id: string; v: string }[]>(`SELECT run_id, xmin::text AS v FROM run_text_structures WHERE run_id = ANY($1::text[]) ORDER BY run_id`, [ids.aRun, ids.b]);
    const before = await versions();
    const kept = await structures([ids.aRun, ids.b]);
    const again = kept.map((k) => ({ runId: k.run_id, structure: Buffer.from(k.structure, "hex") }));
    await keepStructures(standalone(), again);
    expect(await versions()).toEqual(before);
    const [original] = await structures([ids.aRun]);
    await setStructure(ids.aRun, READING_RULES, "00");
    await keepStructures(standalone(), [again[0]!]);
    expect(await structures([ids.aRun])).toEqual([original]);
  });
});

describe("the kept readings of a large analysis", () => {
  // Readings kept under a key of their own for runs of a 1,000-run analysis (no run needs to exist: run_observations has no foreign key).
  const runs = Array.from({ length: 1000 }, (_, i) => `dr_sample_${String(i).padStart(4, "0")}`);
  const keep = (key: string, ids: string[]) =>
    db().$executeRawUnsafe(
      `INSERT INTO run_observations (run_id, matcher, cells, mentions, entities, counted, not_counted) SELECT r, $1, '\\x01'::bytea, '{}'::int[], 0, 0, 0 FROM unnest($2::text[]) r`,
      key,
      ids,
    );

  it("are all read when any run of the sample looked up first has one, and none when none has (their answers are read instead)", async () => {
    expect(runs.length).toBeGreaterThan(KEPT_SAMPLE);
    // Every other run kept: the sample finds some, and every kept one is answered, the sample's and the rest.
    const half = runs.filter((_, i) => i % 2 === 1);
    await keep("sample-half", half);
    const read = await readKept("sample-half", runs);
    expect([...read.keys()].sort()).toEqual(half);
    expect([...read.values()].every((cells) => cells.equals(Buffer.from([1])))).toBe(true);
    // Every run kept.
    await keep("sample-all", runs);
    expect((await readKept("sample-all", runs)).size).toBe(runs.length);
    // Two runs kept, neither in the sample (spread evenly: runs 0, 15, 31, 46 ... of 1,000): none looked up further.
    await keep("sample-few", [runs[1]!, runs[998]!]);
    expect((await readKept("sample-few", runs)).size).toBe(0);
    // Asked for alone, or among fewer runs than the sample, each is looked up.
    expect([...(await readKept("sample-few", [runs[1]!, runs[2]!, runs[998]!])).keys()].sort()).toEqual([runs[1], runs[998]]);
  });
});

describe("sharing a visibility analysis", () => {
  it("shares it like any analysis: the public JSON is the analysis without who made it or where", async () => {
    const shared = await call(shareRoute, "POST", `/analyses/${analysis.id}/share`, { token: alice.cliToken, params: { analysis_id: analysis.id } });
    expect(shared.status).toBe(200);
    const status = await call(getShareRoute, "GET", `/analyses/${analysis.id}/share`, { token: alice.cliToken, params: { analysis_id: analysis.id } });
    expect(status.body.shared).toBe(true);
    const token = new URL(shared.body.url).pathname.split("/").pop()!;
    const res = await shareJsonRoute(new Request(`http://localhost/s/${token}.json`), { params: Promise.resolve({ token }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ...analysis, project_id: null, created_by: null, charge: null });
    const foreign = await call(shareRoute, "POST", `/analyses/${analysis.id}/share`, { token: bob.cliToken, params: { analysis_id: analysis.id } });
    expect(foreign.status).toBe(404);
  });
});

describe("the project context's aliases and competitor domains", () => {
  const patch = (body: unknown) => call(patchProjectRoute, "PATCH", `/projects/${project}`, { token: alice.cliToken, params: { project_id: project }, body });

  it("stores them trimmed, domains as hosts, and answers them", async () => {
    const res = await patch({
      context: {
        primary_domain: "hubspot.com",
        brands: ["HubSpot"],
        competitors: [" Pipedrive ", "Zoho CRM"],
        aliases: { " HubSpot": ["HubSpot CRM", "HubSpot CRM", " Hubspot Sales Hub "], Pipedrive: [] },
        competitor_domains: { "Zoho CRM": ["https://www.zoho.com/crm", "zoho.eu"], Pipedrive: ["pipedrive.com"] },
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.context).toEqual({
      primary_domain: "hubspot.com",
      brands: ["HubSpot"],
      competitors: ["Pipedrive", "Zoho CRM"],
      aliases: { HubSpot: ["HubSpot CRM", "Hubspot Sales Hub"] },
      competitor_domains: { "Zoho CRM": ["www.zoho.com", "zoho.eu"], Pipedrive: ["pipedrive.com"] },
    });
    const read = await call(getProjectRoute, "GET", `/projects/${project}`, { token: alice.cliToken, params: { project_id: project } });
    expect(read.body.context).toEqual(res.body.context);
  });

  it("refuses keys that name no brand or competitor, blank names and a brand given competitor domains, changing nothing", async () => {
    const before = (await call(getProjectRoute, "GET", `/projects/${project}`, { token: alice.cliToken, params: { project_id: project } })).body.context;
    const cases: [unknown, string][] = [
      // The keys are checked against the context the update leaves: the stored competitors are kept.
      [{ brands: ["HubSpot"], aliases: { Salesforce: ["SFDC"] } }, 'context.aliases.Salesforce: names no brand or competitor of the context ("Salesforce"; its brands and competitors: "HubSpot", "Pipedrive", "Zoho CRM")'],
      [{ brands: ["HubSpot"], competitor_domains: { HubSpot: ["hubspot.com"] } }, 'context.competitor_domains.HubSpot: names no competitor of the context ("HubSpot"; its competitors: "Pipedrive", "Zoho CRM")'],
      [{ competitors: [], competitor_domains: { Pipedrive: ["pipedrive.com"] } }, 'context.competitor_domains.Pipedrive: names no competitor of the context ("Pipedrive"; its competitors: none)'],
      [{ brands: ["  "] }, "context.brands[0]: must be 1 to 100 characters after trimming spaces"],
      [{ brands: ["HubSpot"], aliases: { HubSpot: [" "] } }, "context.aliases.HubSpot[0]: must be 1 to 100 characters after trimming spaces"],
      [{ competitors: ["Zoho"], competitor_domains: { Zoho: ["not a domain"] } }, "context.competitor_domains.Zoho[0]: must be a domain name like acme.com (a URL is cut to its host)"],
    ];
    for (const [context, message] of cases) {
      const res = await patch({ context });
      expect(res.status, JSON.stringify(context)).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    const after = (await call(getProjectRoute, "GET", `/projects/${project}`, { token: alice.cliToken, params: { project_id: project } })).body.context;
    expect(after).toEqual(before);
  });

  it("merges a context field given alone into the stored context: competitor_domains alone keeps the competitors it names", async () => {
    const before = (await call(getProjectRoute, "GET", `/projects/${project}`, { token: alice.cliToken, params: { project_id: project } })).body.context;
    expect(before.competitors).toContain("Pipedrive");
    const res = await patch({ context: { competitor_domains: { Pipedrive: ["https://www.pipedrive.com/en"] } } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.context).toEqual({ ...before, competitor_domains: { Pipedrive: ["www.pipedrive.com"] } });
    // primary_domain: null removes that field alone; context: null the whole context.
    const cleared = await patch({ context: { primary_domain: null } });
    expect(cleared.body.context).toEqual({ ...res.body.context, primary_domain: undefined });
    expect(cleared.body.context).not.toHaveProperty("primary_domain");
    const gone = await patch({ context: null });
    expect(gone.status).toBe(200);
    expect(gone.body).not.toHaveProperty("context");
  });
});
