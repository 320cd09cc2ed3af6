// Opportunity lists through the route handlers, on answers whose truth is known by hand: every
// run's answer is given exactly with [[sim:answer:…]] (the same text on every engine and every
// repeat), so which runs name which entity is known before anything runs:
//
// P1  a fanout, chatgpt and claude, 2 runs each (4 runs): names Pipedrive and Zoho CRM, not HubSpot.
// P4  the same fanout (4 runs): names HubSpot and Pipedrive.
// P2  a batch on chatgpt and gemini (2 runs): names Zoho CRM only.
// P3  a batch on chatgpt (1 run): names Pipedrive only.
// Excluded: a failed run.
//
// Lost prompts, by hand (Newcombe's hybrid score interval, its numbers worked out apart from
// lib/stats and written below): P1 Pipedrive 4/4 vs HubSpot 0/4, diff 1, [0.3072, 1] (Pipedrive,
// not Zoho CRM: the same difference and interval, and first in the analysis's entities); P2 Zoho
// CRM 2/2 vs 0/2, diff 1, [0.0700, 1]; P3 1/1 vs 0/1 has [-0.1221, 1], which holds 0: not lost;
// P4 4/4 each: no difference. So P1 then P2.
//
// What the runs cited and searched is the simulator's (deterministic for a prompt), read back from
// GET /runs/{id}: the brand's domain is chosen from what P1's first run cited, so its own pages and
// their exclusion from the citation targets are both exercised.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getAnalysisRoute } from "@/app/api/v1/analyses/[analysis_id]/route";
import { GET as mentionsRoute } from "@/app/api/v1/analyses/[analysis_id]/mentions/route";
import { GET as getShareRoute, POST as shareRoute } from "@/app/api/v1/analyses/[analysis_id]/share/route";
import { GET as listAnalysesRoute } from "@/app/api/v1/analyses/route";
import { GET as getBatchRoute } from "@/app/api/v1/batches/[batch_id]/route";
import { POST as postCitationAnalyses } from "@/app/api/v1/citation-analyses/route";
import { GET as getFanoutRoute } from "@/app/api/v1/fanouts/[fanout_id]/route";
import { POST as postFanouts } from "@/app/api/v1/fanouts/route";
import { POST as postOpportunities } from "@/app/api/v1/opportunity-analyses/route";
import { POST as postProjects } from "@/app/api/v1/projects/route";
import { POST as postPrompts } from "@/app/api/v1/prompts/route";
import { GET as getRunRoute } from "@/app/api/v1/runs/[run_id]/route";
import { POST as postVisibility } from "@/app/api/v1/visibility-analyses/route";
import { GET as shareJsonRoute } from "@/app/s/[token]/json/route";
import { resetConfig } from "@/lib/config/env";
import { newId } from "@/lib/db/ids";
import { answerDirective } from "@/lib/engines/simulator/directive";
import { opportunitiesCsv } from "@/lib/opportunities/csv";
import { OpportunityAnalysis } from "@/lib/schemas/opportunities";
import { engineName } from "@/lib/words/format";
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { call } from "../helpers/http";
import { person, principalOf, type Person } from "../helpers/people";
import { GET as getBilling } from "@/app/api/v1/billing/route";
import { runBillingAdminCommand } from "@/lib/billing/admin";
import { formatUsd, parseUsd } from "@/lib/billing/money";
import { db } from "@/lib/db/client";
import { auditPages, auditQuote } from "@/lib/opportunities/audit";

useSimulatedEngines({ billing: true });

useTestDatabase();

const S1a = "Pipedrive is the easiest pipeline tool for small sales teams.";
const P1 = `best crm for small sales teams ${answerDirective(`${S1a} Zoho CRM costs less per seat.`)}`;
const P2 = `cheapest crm for a startup ${answerDirective("For a tight budget, Zoho CRM is the usual pick.")}`;
const P3 = `crm for a solo founder ${answerDirective("Pipedrive works well for one founder.")}`;
const P4 = `crm with a free trial ${answerDirective("HubSpot and Pipedrive both offer free trials.")}`;

let alice: Person;
let bob: Person;
let project: string;
type RunView = { id: string; engine: string; prompt: string; cited: string[]; queries: string[] };
let runs: Record<"p1" | "p2" | "p3" | "p4", RunView[]>;
let brandDomain: string;
let va: any;
let list: any;

async function finishedBatch(token: string, body: Record<string, unknown>) {
  const res = await call(postPrompts, "POST", "/prompts", { token, body });
  expect(res.status, res.text).toBe(202);
  const id = res.body.batch.id as string;
  const done = await call(getBatchRoute, "GET", `/batches/${id}`, { token, params: { batch_id: id }, query: { wait: 30 } });
  expect(["completed", "failed"]).toContain(done.body.batch.status);
  return { id, runIds: done.body.batch.run_ids as string[] };
}

async function runView(id: string): Promise<RunView> {
  const run = (await call(getRunRoute, "GET", `/runs/${id}`, { token: alice.cliToken, params: { run_id: id } })).body;
  expect(run.status).toBe("completed");
  return {
    id,
    engine: run.engine,
    prompt: run.input.prompt,
    cited: [...new Set<string>((run.result.sources ?? []).filter((s: { cited: boolean | null }) => s.cited === true).map((s: { url: string }) => s.url))],
    queries: (run.result.searches ?? []).map((s: { query: string }) => s.query),
  };
}

const opportunities = (token: string, body: unknown) => call(postOpportunities, "POST", "/opportunity-analyses", { token, body });
const host = (url: string) => new URL(url).hostname.toLowerCase().replace(/^www\./, "");
const isBrands = (url: string) => host(url) === brandDomain || host(url).endsWith(`.${brandDomain}`);

beforeAll(async () => {
  alice = await person("alice@example.com");
  bob = await person("bob@example.com");
  project = (await call(postProjects, "POST", "/projects", { token: alice.cliToken, body: { name: "Opportunities", workspace_id: alice.workspaceId } })).body.id;
  const fo = await call(postFanouts, "POST", "/fanouts", { token: alice.cliToken, body: { project, prompts: [{ text: P1 }, { text: P4 }], engines: ["chatgpt", "claude"], runs: 2 } });
  expect(fo.status, fo.text).toBe(202);
  const fanout = (await call(getFanoutRoute, "GET", `/fanouts/${fo.body.id}`, { token: alice.cliToken, params: { fanout_id: fo.body.id }, query: { wait: 30 } })).body;
  expect(fanout.status).toBe("completed");
  const b2 = await finishedBatch(alice.cliToken, { prompt: P2, project, engines: ["chatgpt", "gemini"] });
  const b3 = await finishedBatch(alice.cliToken, { prompt: P3, project, engines: ["chatgpt"] });
  const failed = await finishedBatch(alice.cliToken, { prompt: "which crm [[sim:bad_request]]", project, engines: ["chatgpt"] });
  const fanoutRuns = await Promise.all(
    fanout.prompts.flatMap((p: { engines: { runs: { run_id: string }[] }[] }) => p.engines.flatMap((e) => e.runs.map((r) => r.run_id))).map(runView),
  );
  runs = {
    p1: fanoutRuns.filter((r) => r.prompt === P1),
    p4: fanoutRuns.filter((r) => r.prompt === P4),
    p2: await Promise.all(b2.runIds.map(runView)),
    p3: await Promise.all(b3.runIds.map(runView)),
  };
  expect([runs.p1.length, runs.p4.length, runs.p2.length, runs.p3.length]).toEqual([4, 4, 2, 1]);
  // The brand's domain: the first page P1's first run cited (so it is cited where HubSpot is not named).
  expect(runs.p1[0]!.cited.length).toBeGreaterThan(0);
  brandDomain = host(runs.p1[0]!.cited[0]!);
  const made = await call(postVisibility, "POST", "/visibility-analyses", {
    token: alice.cliToken,
    body: {
      ids: [fanout.id, b2.id, b3.id, failed.id],
      entities: [
        { name: "HubSpot", role: "brand", domains: [brandDomain] },
        { name: "Pipedrive", role: "competitor" },
        { name: "Zoho CRM", role: "competitor" },
      ],
    },
  });
  expect(made.status, made.text).toBe(201);
  va = made.body;
  const res = await opportunities(alice.cliToken, { analysis: va.id });
  expect(res.status, res.text).toBe(201);
  list = res.body;
});

afterAll(() => {
  resetConfig();
});

const ids = (rs: RunView[]) => rs.map((r) => r.id);

describe("POST /opportunity-analyses", () => {
  it("is an opportunity list of the visibility analysis, free, for its brand against its competitors", () => {
    expect(OpportunityAnalysis.safeParse(list).success).toBe(true);
    expect(list.id).toMatch(/^op_/);
    expect(list).toMatchObject({ kind: "opportunities", status: "completed", analysis_id: va.id, brand: "HubSpot", brand_domains: [brandDomain], competitors: ["Pipedrive", "Zoho CRM"], charge: null, method: "opportunities-v1" });
    expect(list.run_count).toBe(12);
    expect(list.totals).toMatchObject({ runs: 11, prompts: 4, lost_prompts: 2, lost_runs: 6, target_runs: 6 });
  });

  it("lists the prompts competitors win beyond chance, ranked by the interval's low end, with Newcombe's interval as worked out by hand", () => {
    // The visibility analysis says the same counts per prompt.
    const byPrompt = (name: string, prompt: string) => va.rows.find((r: any) => r.name === name).by_prompt.find((g: any) => g.prompt === prompt);
    expect([byPrompt("Pipedrive", P1).runs_mentioning, byPrompt("HubSpot", P1).runs_mentioning, byPrompt("Zoho CRM", P2).runs_mentioning]).toEqual([4, 0, 2]);
    expect(list.lost_prompts.map((l: any) => [l.prompt, l.competitor.name, l.n])).toEqual([
      [P1, "Pipedrive", 4],
      [P2, "Zoho CRM", 2],
    ]);
    const [p1, p2] = list.lost_prompts;
    expect(p1.brand).toEqual({ name: "HubSpot", runs: 4, runs_mentioning: 0, visibility: 0, visibility_interval: [0, 0.4899] });
    expect(p1.competitor).toEqual({ name: "Pipedrive", runs_mentioning: 4, visibility: 1, visibility_interval: [0.5101, 1] });
    expect([p1.diff, p1.diff_interval]).toEqual([1, [0.3072, 1]]);
    expect(p2.brand).toEqual({ name: "HubSpot", runs: 2, runs_mentioning: 0, visibility: 0, visibility_interval: [0, 0.6576] });
    expect(p2.competitor).toEqual({ name: "Zoho CRM", runs_mentioning: 2, visibility: 1, visibility_interval: [0.3424, 1] });
    expect([p2.diff, p2.diff_interval]).toEqual([1, [0.07, 1]]);
    // Evidence: the runs naming the competitor and not the brand, and the competitor's sentence.
    expect(new Set(p1.run_ids)).toEqual(new Set(ids(runs.p1)));
    expect(new Set(p2.run_ids)).toEqual(new Set(ids(runs.p2)));
    expect(p1.evidence.length).toBe(3);
    for (const e of p1.evidence) expect(e.sentence).toBe(S1a);
    expect(p2.evidence.map((e: any) => e.sentence)).toEqual(["For a tight budget, Zoho CRM is the usual pick.", "For a tight budget, Zoho CRM is the usual pick."]);
    expect(p2.evidence.map((e: any) => e.engine).sort()).toEqual(["chatgpt", "gemini"]);
  });

  it("lists the pages cited where a competitor is named and the brand is not, the brand's own left out, most runs first, with the competitors named", () => {
    // Every run of P1 and P2 names a competitor and not HubSpot: the targets are their pages.
    const counts = new Map<string, { p1: number; p2: number; runs: string[] }>();
    for (const [key, group] of [["p1", runs.p1], ["p2", runs.p2]] as const) {
      for (const r of group) {
        for (const url of r.cited) {
          if (isBrands(url)) continue;
          const c = counts.get(url) ?? { p1: 0, p2: 0, runs: [] };
          c[key] += 1;
          c.runs.push(r.id);
          counts.set(url, c);
        }
      }
    }
    const expected = [...counts.entries()]
      .sort((a, b) => b[1].p1 + b[1].p2 - (a[1].p1 + a[1].p2) || (a[0] < b[0] ? -1 : 1))
      .map(([url, c]) => ({
        url,
        domain: host(url),
        owner: null,
        runs_citing: c.p1 + c.p2,
        n: 6,
        // P1's runs name both competitors, P2's Zoho CRM alone.
        competitors: [{ name: "Zoho CRM", runs: c.p1 + c.p2 }, ...(c.p1 ? [{ name: "Pipedrive", runs: c.p1 }] : [])].sort((a, b) => b.runs - a.runs || (a.name === "Pipedrive" ? -1 : 1)),
        run_ids: c.runs,
      }));
    expect(expected.length).toBeGreaterThan(0);
    expect(list.citation_targets.map((t: any) => ({ ...t, run_ids: [...t.run_ids].sort() }))).toEqual(expected.map((t) => ({ ...t, run_ids: [...t.run_ids].sort() })));
    expect(list.citation_targets.some((t: any) => isBrands(t.url))).toBe(false);
  });

  it("marks a competitor's own page as its own, and the summary points at the most cited page no competitor owns", async () => {
    // Zoho CRM is given the domain of the page cited most: that row is its own page, the rest are no one's.
    const [first, second] = list.citation_targets;
    expect(second, "the fixture cites at least two pages where a competitor is named").toBeDefined();
    const zohoDomain = host(first.url);
    const made = await call(postVisibility, "POST", "/visibility-analyses", {
      token: alice.cliToken,
      body: {
        ids: va.run_ids,
        entities: [
          { name: "HubSpot", role: "brand", domains: [brandDomain] },
          { name: "Pipedrive", role: "competitor" },
          { name: "Zoho CRM", role: "competitor", domains: [zohoDomain] },
        ],
      },
    });
    expect(made.status, made.text).toBe(201);
    const res = await opportunities(alice.cliToken, { analysis: made.body.id });
    expect(res.status, res.text).toBe(201);
    const owned = res.body.citation_targets.filter((t: any) => t.owner !== null);
    expect(owned.length).toBeGreaterThan(0);
    for (const t of owned) expect([t.owner, host(t.url) === zohoDomain || host(t.url).endsWith(`.${zohoDomain}`)]).toEqual(["Zoho CRM", true]);
    const unowned = res.body.citation_targets.find((t: any) => t.owner === null);
    if (unowned) {
      expect(res.body.summary.some((s: string) => s.includes(`the page cited most that no competitor owns is ${unowned.url} `))).toBe(true);
    } else {
      expect(res.body.summary.some((s: string) => s.includes(`${first.url}, Zoho CRM's own page`))).toBe(true);
    }
  });

  it("lists the brand's own pages cited, by engine and prompt, and how often in answers that do not name it", () => {
    const all = [...runs.p1, ...runs.p4, ...runs.p2, ...runs.p3];
    const names = (r: RunView) => r.prompt === P4; // only P4's answers name HubSpot
    const pages = new Map<string, RunView[]>();
    for (const r of all) for (const url of r.cited) if (isBrands(url)) pages.set(url, [...(pages.get(url) ?? []), r]);
    const tally = (rs: RunView[]) => ({ runs_citing: rs.length, cited_not_mentioned: rs.filter((r) => !names(r)).length });
    const groups = (rs: RunView[], key: (r: RunView) => string) =>
      [
        ...rs.reduce((m, r) => m.set(key(r), [...(m.get(key(r)) ?? []), r]), new Map<string, RunView[]>()).entries(),
      ].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
    const expected = [...pages.entries()]
      .sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))
      .map(([url, rs]) => ({
        url,
        domain: host(url),
        n: 11,
        ...tally(rs),
        by_engine: groups(rs, (r) => r.engine).map(([engine, g]) => ({ engine, ...tally(g) })),
        by_prompt: groups(rs, (r) => r.prompt).map(([prompt, g]) => ({ prompt, ...tally(g) })),
        run_ids: rs.map((r) => r.id),
      }));
    expect(expected.length).toBeGreaterThan(0);
    const sortIds = (o: any) => ({ ...o, run_ids: [...o.run_ids].sort() });
    expect(list.own_pages.map(sortIds)).toEqual(expected.map(sortIds));
    // P1's first run cites the brand's page without naming it.
    expect(list.own_pages.find((o: any) => o.url === runs.p1[0]!.cited[0]).cited_not_mentioned).toBeGreaterThan(0);
    const citing = all.filter((r) => r.cited.some(isBrands));
    expect([list.totals.own_runs_citing, list.totals.own_cited_not_mentioned]).toEqual([citing.length, citing.filter((r) => !names(r)).length]);
  });

  it("lists the searches engines ran on lost prompts per engine, compared lower-cased with spaces collapsed", () => {
    const lostRuns = [...runs.p1, ...runs.p2];
    const norm = (q: string) => q.toLowerCase().replace(/\s+/g, " ").trim();
    const gaps = new Map<string, { query: string; engine: string; runs: RunView[] }>();
    for (const r of lostRuns) {
      for (const q of new Set(r.queries.map(norm))) {
        const key = `${r.engine} ${q}`;
        gaps.set(key, { query: q, engine: r.engine, runs: [...(gaps.get(key)?.runs ?? []), r] });
      }
    }
    const perEngine = (engine: string) => lostRuns.filter((r) => r.engine === engine).length;
    const expected = [...gaps.values()]
      .sort((a, b) => b.runs.length - a.runs.length || (a.engine < b.engine ? -1 : a.engine > b.engine ? 1 : a.query < b.query ? -1 : 1))
      .map((g) => ({ query: g.query, engine: g.engine, runs: g.runs.length, n: perEngine(g.engine), prompts: [...new Set(g.runs.map((r) => r.prompt))].sort(), run_ids: ids(g.runs).sort() }));
    expect(expected.length).toBeGreaterThan(0);
    expect(list.query_gaps.map((q: any) => ({ ...q, prompts: [...q.prompts].sort(), run_ids: [...q.run_ids].sort() }))).toEqual(expected);
    // No search of a prompt not lost (P3, P4) is listed.
    const others = new Set([...runs.p3, ...runs.p4].flatMap((r) => r.queries.map(norm)));
    const lostQueries = new Set(lostRuns.flatMap((r) => r.queries.map(norm)));
    for (const q of list.query_gaps) expect(lostQueries.has(q.query) || !others.has(q.query)).toBe(true);
  });

  it("leads with a summary in plain words, each figure with its n", () => {
    expect(list.summary[0]).toBe("Competitors are named more often than HubSpot, beyond what chance explains, on 2 of 4 prompts (6 answers).");
    expect(list.summary[1]).toBe(
      "On “best crm for small sales teams”, Pipedrive is named in 4 of 4 answers (about 100%, 95% interval 51–100%) and HubSpot in 0 (about 0%, 0–49%): +100 points (95% interval +30 to +100 points).",
    );
    expect(list.summary.length).toBeLessThanOrEqual(5);
    expect(list.summary.some((s: string) => s.startsWith("In the 6 answers of those prompts that name a competitor and not HubSpot, the page cited most is "))).toBe(true);
    // The search most run on the lost prompts, with its engine and n: the first of query_gaps.
    const gap = list.query_gaps[0];
    expect(gap).toBeDefined();
    expect(list.summary.at(-1)).toBe(`On the prompts lost, the search run most often is “${gap.query}” (${engineName(gap.engine)}, ${gap.runs} of ${gap.n} ${gap.n === 1 ? "answer" : "answers"}).`);
  });

  it("takes another tracked entity as the brand: every other entity is then its competitor", async () => {
    const res = await opportunities(alice.cliToken, { analysis: va.id, brand: "pipedrive" });
    expect(res.status, res.text).toBe(201);
    expect(res.body.brand).toBe("Pipedrive");
    expect(res.body.competitors).toEqual(["HubSpot", "Zoho CRM"]);
    // P2: Zoho CRM 2/2, Pipedrive 0/2. P1 (4/4 each) and P4 (HubSpot 4/4, Pipedrive 4/4) are no loss.
    expect(res.body.lost_prompts.map((l: any) => [l.prompt, l.competitor.name, l.diff_interval])).toEqual([[P2, "Zoho CRM", [0.07, 1]]]);
  });

  it("is answered by GET /analyses/{id} byte for byte, listed among the analyses, and exported a section at a time", async () => {
    const got = await call(getAnalysisRoute, "GET", `/analyses/${list.id}`, { token: alice.cliToken, params: { analysis_id: list.id } });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(list);
    const listed = await call(listAnalysesRoute, "GET", "/analyses", { token: alice.cliToken, query: { kind: "opportunities" } });
    expect(listed.body.items.map((i: any) => [i.id, i.kind, i.run_count])).toContainEqual([list.id, "opportunities", 12]);
    const csv = opportunitiesCsv(list, "lost_prompts").split("\r\n");
    expect(csv[0]).toMatch(/^rank,prompt,n,competitor,/);
    expect(csv[1]).toContain(`,4,Pipedrive,4,100%,51%,100%,HubSpot,0,0%,0%,49%,100%,30%,100%,${S1a},`);
  });

  it("answers 404 for another workspace's analysis exactly as for a missing one, and 400 naming a brand not tracked or an analysis of another kind", async () => {
    const foreign = await opportunities(bob.cliToken, { analysis: va.id });
    const missingId = newId("visibilityAnalysis");
    const missing = await opportunities(bob.cliToken, { analysis: missingId });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: { ...missing.body.error, message: missing.body.error.message.replace(missingId, va.id) } });
    const unknown = await opportunities(alice.cliToken, { analysis: va.id, brand: "Salesforce" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe('brand: "Salesforce" is not tracked by this analysis (it tracks "HubSpot", "Pipedrive", "Zoho CRM")');
    const ca = await call(postCitationAnalyses, "POST", "/citation-analyses", { token: alice.cliToken, body: { ids: [runs.p1[0]!.id] } });
    expect(ca.status).toBe(201);
    const wrong = await opportunities(alice.cliToken, { analysis: ca.body.id });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toBe(`analysis: ${ca.body.id} is a citations analysis; opportunities are read from a visibility analysis (va_…)`);
    const ofAList = await opportunities(alice.cliToken, { analysis: list.id });
    expect(ofAList.status).toBe(400);
    expect(ofAList.body.error.message).toBe(`analysis: ${list.id} is an opportunity list; opportunities are read from a visibility analysis (va_…)`);
    // A list has no mentions of its own (its evidence is its visibility analysis's): the mentions path names no such visibility analysis.
    const noMentions = await call(mentionsRoute, "GET", `/analyses/${list.id}/mentions`, { token: alice.cliToken, params: { analysis_id: list.id } });
    expect(noMentions.status).toBe(404);
    expect(noMentions.body.error.message).toBe(`No such visibility analysis "${list.id}".`);
    const bad = await opportunities(alice.cliToken, { analysis: va.id, extra: 1 });
    expect(bad.status).toBe(400);
    // A fanout's id where the analysis goes: told what to name, with an example of it.
    const fanoutId = newId("fanout");
    const notAnAnalysis = await opportunities(alice.cliToken, { analysis: fanoutId });
    expect(notAnAnalysis.status).toBe(400);
    expect(notAnAnalysis.body.error.message).toBe("analysis: must be a visibility analysis id: va_ followed by 26 letters and digits, such as va_01JD4M9RZ6XQ7W8V5T3S2R1P0N");
  });

  it("is shared like any analysis: the public JSON without who made it or where", async () => {
    const shared = await call(shareRoute, "POST", `/analyses/${list.id}/share`, { token: alice.cliToken, params: { analysis_id: list.id } });
    expect(shared.status).toBe(200);
    expect((await call(getShareRoute, "GET", `/analyses/${list.id}/share`, { token: alice.cliToken, params: { analysis_id: list.id } })).body.shared).toBe(true);
    const token = new URL(shared.body.url).pathname.split("/").pop()!;
    const res = await shareJsonRoute(new Request(`http://localhost/s/${token}.json`), { params: Promise.resolve({ token }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ...list, project_id: null, created_by: null });
  });
});

describe("Audit these pages (the list's page)", () => {
  const available = async (p: Person) => parseUsd((await call(getBilling, "GET", "/billing", { token: p.cliToken, query: { workspace: p.workspaceId } })).body.available_usd);
  const audits = () => db().run.count({ where: { workspaceId: alice.workspaceId, kind: "audit" } });

  it("prices a page before anything starts, from the rate card, with the credit available", async () => {
    const quote = await auditQuote(principalOf(alice), list.id);
    expect(quote).toMatchObject({ unit_price_usd: "0.01", unit_price_micros: "10000", billing_enabled: true, available_usd: formatUsd(await available(alice)) });
    await expect(auditQuote(principalOf(bob), list.id)).rejects.toThrow(`No such analysis "${list.id}".`);
  });

  it("audits only the list's pages, starts nothing when the credit does not cover every page, and otherwise one audit run per page", async () => {
    const target = list.citation_targets[0].url as string;
    const own = list.own_pages[0].url as string;
    await expect(auditPages(principalOf(alice), list.id, ["https://elsewhere.example/"])).rejects.toThrow("url: https://elsewhere.example/ is not a page of this list");
    await expect(auditPages(principalOf(alice), list.id, [])).rejects.toThrow("Tick the pages to audit.");
    const before = await audits();
    const left = await available(alice);
    // Leave 0.015: two pages need 0.02.
    await runBillingAdminCommand("credit:adjust", ["--workspace", alice.workspaceId, "--usd", `-${formatUsd(left - parseUsd("0.015"))}`, "--promo", "--note", "test"]);
    await expect(auditPages(principalOf(alice), list.id, [target, own])).rejects.toMatchObject({ code: "insufficient_credit" });
    expect(await audits()).toBe(before);
    const started = await auditPages(principalOf(alice), list.id, [own]);
    expect(started).toHaveLength(1);
    const run = await db().run.findUniqueOrThrow({ where: { id: started[0]! } });
    expect([run.kind, run.projectId, (run.input as { url: string }).url]).toEqual(["audit", project, own]);
    expect(await audits()).toBe(before + 1);
  });
});

