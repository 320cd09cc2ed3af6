// Citation analyses end to end through the route handlers: runs executed by the local driver
// against the engine simulator, POST /citation-analyses computed from run_sources equal to the
// pure function over the same runs' full results, exclusions, one project, 404s naming the id,
// and GET /analyses and /analyses/{id} answering it unchanged.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getAnalysisRoute } from "@/app/api/v1/analyses/[analysis_id]/route";
import { GET as listAnalysesRoute } from "@/app/api/v1/analyses/route";
import { GET as getBatchRoute } from "@/app/api/v1/batches/[batch_id]/route";
import { POST as postCitationAnalyses } from "@/app/api/v1/citation-analyses/route";
import { POST as postPrompts } from "@/app/api/v1/prompts/route";
import { GET as getRunRoute } from "@/app/api/v1/runs/[run_id]/route";
import { computeCitationAnalysis, type RunObservation } from "@/lib/analyses/citations";
import { resetConfig } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { createProject } from "@/lib/projects/create";
import { CitationAnalysis } from "@/lib/schemas/analyses";
import { useTestDatabase } from "../helpers/app";
import { call } from "../helpers/http";
import { useSimulatedEngines } from "../helpers/engines";
import { person, principalOf, type Person } from "../helpers/people";

useSimulatedEngines({ billing: true });

useTestDatabase();

let alice: Person;
let bob: Person;
let aliceProject: string;
let aliceOther: string;
let bobProject: string;
let batches: { id: string; runIds: string[] }[];

async function projectOf(p: Person, name: string, context: Record<string, unknown> | null = null) {
  return (await createProject(principalOf(p), { name, workspace_id: p.workspaceId, context })).id;
}

async function promptBatch(token: string, prompt: string, project: string) {
  const res = await call(postPrompts, "POST", "/prompts", { token, body: { prompt, project } });
  expect(res.status).toBe(202);
  const id = res.body.batch.id as string;
  const done = await call(getBatchRoute, "GET", `/batches/${id}`, { token, params: { batch_id: id }, query: { wait: 30 } });
  expect(done.body.batch.status).toBe("completed");
  return { id, runIds: done.body.batch.run_ids as string[] };
}

/** A run written as it is stored, for states the simulator does not produce on demand. */
async function storedRun(owner: Person, projectId: string, fields: { kind?: "prompt" | "audit"; status: "queued" | "failed" | "completed" }) {
  const id = newId("run");
  await db().run.create({
    data: {
      id,
      kind: fields.kind ?? "prompt",
      status: fields.status,
      workspaceId: owner.workspaceId,
      projectId,
      engine: fields.kind === "audit" ? null : "chatgpt",
      subject: "stored run",
      input: { prompt: "stored run", engine: "chatgpt", project: projectId },
    },
  });
  return id;
}

function analyse(token: string, body: unknown) {
  return call(postCitationAnalyses, "POST", "/citation-analyses", { token, body });
}

/** The observations of runs read whole through GET /runs/{id}: what the pure function is given in the unit tests. */
async function observationsFromApi(token: string, runIds: string[]): Promise<RunObservation[]> {
  const out: RunObservation[] = [];
  for (const id of runIds) {
    const run = (await call(getRunRoute, "GET", `/runs/${id}`, { token, params: { run_id: id } })).body;
    out.push({
      run_id: run.id,
      engine: run.engine,
      prompt: run.input.prompt ?? "stored run",
      status: run.status,
      kind: run.kind,
      citations_exposed: run.result?.citations_exposed ?? null,
      answer: run.result?.answer ?? "",
      sources: (run.result?.sources ?? []).map((s: any) => ({
        url: s.url,
        domain: s.domain,
        cited: s.cited,
        search_query_observed: s.search_query_observed,
        retrieval_observed: s.retrieval_observed,
        citation_count: s.citation_count,
        resolution: s.resolution,
      })),
    });
  }
  return out;
}

beforeAll(async () => {
  alice = await person("alice@example.com");
  bob = await person("bob@example.com");
  aliceProject = await projectOf(alice, "Alice research", { primary_domain: "hubspot.com", domains: ["www.salesforce.com"], brands: ["HubSpot"], competitors: ["Pipedrive"] });
  aliceOther = await projectOf(alice, "Alice other");
  bobProject = await projectOf(bob, "Bob research");
  batches = [
    await promptBatch(alice.cliToken, "Which CRM is best for a 10-person B2B startup?", aliceProject),
    await promptBatch(alice.cliToken, "HubSpot vs Pipedrive pricing", aliceProject),
  ];
});

afterAll(() => {
  resetConfig();
});

describe("POST /citation-analyses", () => {
  it("equals the pure function over the same runs' full results, and is stored, finished and free", async () => {
    const runIds = batches.flatMap((b) => b.runIds);
    const observations = await observationsFromApi(alice.cliToken, runIds);
    const someDomain = observations.flatMap((o) => o.sources).find((s) => s.cited === true && s.domain)?.domain ?? "hubspot.com";
    const body = { ids: batches.map((b) => b.id), brands: ["HubSpot", "Pipedrive"], domains: [someDomain, "https://www.zoho.com/crm"] };
    const res = await analyse(alice.cliToken, body);
    expect(res.status).toBe(201);
    const expected = computeCitationAnalysis(observations, { brands: body.brands, domains: [someDomain, "www.zoho.com"] });
    const { id, created_at, completed_at, subject, ...rest } = res.body;
    expect(id).toMatch(/^ca_/);
    expect(completed_at).toBe(created_at);
    expect(subject).toBe("Which CRM is best for a 10-person B2B startup? (+1 more prompts)");
    expect(rest).toEqual({
      kind: "citations",
      status: "completed",
      project_id: aliceProject,
      created_by: alice.email,
      error: null,
      method: "stored_results_v1",
      charge: null,
      ...expected,
    });
    expect(res.body.totals.runs).toBe(runIds.length);
    expect(res.body.totals.sources_observed).toBeGreaterThan(0);
    expect(res.body.totals.citations).toBeGreaterThan(0);
    expect(await db().runSource.count({ where: { runId: { in: runIds } } })).toBe(res.body.totals.sources_observed);
    expect(res.body.excluded_runs).toEqual([]);
    expect(CitationAnalysis.safeParse(res.body).success).toBe(true);

    // Stored: GET answers the same bytes, at once even with wait.
    const again = await call(getAnalysisRoute, "GET", `/analyses/${id}`, { token: alice.cliToken, params: { analysis_id: id }, query: { wait: 30 } });
    expect(again.status).toBe(200);
    expect(again.text).toBe(res.text);
    // Its runs are stored with it, in its order.
    expect(await db().analysis.findUniqueOrThrow({ where: { id }, select: { runIds: true, runCount: true } })).toEqual({ runIds: res.body.run_ids, runCount: runIds.length });
    expect(await db().creditHold.count({ where: { analysisId: id } })).toBe(0);
  });

  it("keeps out unfinished, failed, duplicate and non-prompt runs, listing each with its reason", async () => {
    const queued = await storedRun(alice, aliceProject, { status: "queued" });
    const failed = await storedRun(alice, aliceProject, { status: "failed" });
    const audit = await storedRun(alice, aliceProject, { kind: "audit", status: "completed" });
    const [first] = batches;
    const res = await analyse(alice.cliToken, { ids: [first!.id, first!.runIds[0], queued, failed, audit, queued] });
    expect(res.status).toBe(201);
    expect(res.body.excluded_runs).toEqual([
      { run_id: first!.runIds[0], reason: "duplicate" },
      { run_id: queued, reason: "unfinished" },
      { run_id: failed, reason: "failed" },
      { run_id: audit, reason: "not_a_prompt_run" },
      { run_id: queued, reason: "duplicate" },
    ]);
    expect(res.body.run_ids).toEqual([...first!.runIds, queued, failed, audit]);
    expect(res.body.totals.runs).toBe(first!.runIds.length);
  });

  it("uses the project's domains, brands and competitors only when asked and nothing was given, and records them", async () => {
    const ids = [batches[0]!.id];
    const withContext = await analyse(alice.cliToken, { ids, use_project_context: true });
    expect(withContext.body.brands).toEqual(["HubSpot", "Pipedrive"]);
    expect(withContext.body.target_domains).toEqual(["hubspot.com", "www.salesforce.com"]);
    expect(withContext.body.domain_coverage.map((c: { domain: string }) => c.domain)).toEqual(["hubspot.com", "www.salesforce.com"]);

    const given = await analyse(alice.cliToken, { ids, brands: ["Zoho"], use_project_context: true });
    expect(given.body.brands).toEqual(["Zoho"]);
    expect(given.body.target_domains).toEqual([]);

    const none = await analyse(alice.cliToken, { ids });
    expect(none.body.brands).toEqual([]);
    expect(none.body.textual_mentions).toEqual([]);
    expect(none.body.domain_coverage).toEqual([]);
  });

  it("answers 400 for runs of two projects and creates nothing", async () => {
    const other = await storedRun(alice, aliceOther, { status: "completed" });
    const before = await db().analysis.count();
    const res = await analyse(alice.cliToken, { ids: [batches[0]!.id, other] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.message).toContain("2 projects");
    expect(await db().analysis.count()).toBe(before);
  });

  it("answers 404 naming the id for a foreign, missing or malformed id, all alike", async () => {
    const bobBatch = await promptBatch(bob.cliToken, "Best CRM?", bobProject);
    const foreignRun = bobBatch.runIds[0]!;
    const missingBatch = newId("batch");
    const cases: [string, string][] = [
      [foreignRun, `No such run "${foreignRun}".`],
      [bobBatch.id, `No such batch "${bobBatch.id}".`],
      [missingBatch, `No such batch "${missingBatch}".`],
      ["fo_nope", 'No such fanout "fo_nope".'],
      ["ca_nope", 'No such run, batch or fanout "ca_nope".'],
    ];
    for (const [id, message] of cases) {
      const res = await analyse(alice.cliToken, { ids: [batches[0]!.id, id] });
      expect(res.status).toBe(404);
      expect(res.body.error).toEqual({ code: "not_found", message, engine: null, retryable: false });
    }
  });

  it("refuses a request without ids, an unknown field and a domain that is not one", async () => {
    expect((await analyse(alice.cliToken, { ids: [] })).body.error.message).toBe("ids: must have at least 1 id");
    expect((await analyse(alice.cliToken, { ids: [batches[0]!.id], brand: ["x"] })).status).toBe(400);
    const bad = await analyse(alice.cliToken, { ids: [batches[0]!.id], domains: ["localhost"] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("domains[0]");
  });
});

describe("GET /analyses and /analyses/{id}", () => {
  it("lists the caller's analyses newest first, filtered by kind and project, paged by cursor", async () => {
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await analyse(alice.cliToken, { ids: [batches[1]!.id] })).body.id as string);
    const first = await call(listAnalysesRoute, "GET", "/analyses", { token: alice.cliToken, query: { limit: 2, project: aliceProject, kind: "citations" } });
    expect(first.status).toBe(200);
    expect(first.body.items.map((a: { id: string }) => a.id)).toEqual([made[2], made[1]]);
    expect(first.body.items[0]).toMatchObject({ kind: "citations", status: "completed", run_count: batches[1]!.runIds.length, project_id: aliceProject, created_by: alice.email });
    const second = await call(listAnalysesRoute, "GET", "/analyses", { token: alice.cliToken, query: { limit: 2, cursor: first.body.next_cursor } });
    expect(second.body.items[0].id).toBe(made[0]);

    const questions = await call(listAnalysesRoute, "GET", "/analyses", { token: alice.cliToken, query: { kind: "questions" } });
    expect(questions.body).toEqual({ items: [], next_cursor: null });
    const bobs = await call(listAnalysesRoute, "GET", "/analyses", { token: bob.cliToken });
    expect(bobs.body.items).toEqual([]);
    const foreignProject = await call(listAnalysesRoute, "GET", "/analyses", { token: bob.cliToken, query: { project: aliceProject } });
    expect(foreignProject.status).toBe(404);
    const badKind = await call(listAnalysesRoute, "GET", "/analyses", { token: alice.cliToken, query: { kind: "audits" } });
    expect(badKind.status).toBe(400);

    // A cursor names an analysis of the caller's: Alice's cursor in Bob's hands is refused exactly like
    // a cursor pointing at no analysis at all, never taken as "start again" nor telling that it exists.
    const foreignCursor = await call(listAnalysesRoute, "GET", "/analyses", { token: bob.cliToken, query: { cursor: first.body.next_cursor } });
    const missingCursor = await call(listAnalysesRoute, "GET", "/analyses", {
      token: alice.cliToken,
      query: { cursor: Buffer.from(`t1:${newId("citationAnalysis")}`, "utf8").toString("base64url") },
    });
    for (const res of [foreignCursor, missingCursor]) {
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/^cursor: is not a cursor this server issued/);
    }
  });

  it("answers 404 naming the id to someone else and for a missing one", async () => {
    const id = (await analyse(alice.cliToken, { ids: [batches[0]!.id] })).body.id as string;
    const foreign = await call(getAnalysisRoute, "GET", `/analyses/${id}`, { token: bob.cliToken, params: { analysis_id: id } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toBe(`No such analysis "${id}".`);
    const missing = newId("citationAnalysis");
    const none = await call(getAnalysisRoute, "GET", `/analyses/${missing}`, { token: alice.cliToken, params: { analysis_id: missing } });
    expect(none.status).toBe(404);
    expect(none.body.error.message).toBe(`No such analysis "${missing}".`);
  });
});

describe("the run_sources backfill of the migration", () => {
  it("gives runs stored before the table the same rows and citations_exposed the run's finishing wrote", async () => {
    const runIds = batches[0]!.runIds;
    const select = { runId: true, position: true, workspaceId: true, engine: true, promptHash: true, url: true, domain: true, cited: true, searchQueryObserved: true, retrievalObserved: true, citationCount: true, resolution: true } as const;
    const order = [{ runId: "asc" as const }, { position: "asc" as const }];
    const written = await db().runSource.findMany({ where: { runId: { in: runIds } }, select, orderBy: order });
    const exposed = await db().run.findMany({ where: { id: { in: runIds } }, select: { id: true, citationsExposed: true }, orderBy: { id: "asc" } });
    expect(written.length).toBeGreaterThan(0);

    // As before the migration: no rows, no column value.
    await db().runSource.deleteMany({ where: { runId: { in: runIds } } });
    await db().run.updateMany({ where: { id: { in: runIds } }, data: { citationsExposed: null } });
    const dir = readdirSync(path.resolve("prisma", "migrations")).find((d) => d.endsWith("_run_sources"))!;
    const sql = readFileSync(path.resolve("prisma", "migrations", dir, "migration.sql"), "utf8");
    const backfill = sql.slice(sql.indexOf("-- Backfill"));
    // The migration fills an empty table: so does this.
    await db().runSource.deleteMany({ where: { runId: { notIn: runIds } } });
    for (const statement of backfill.split(/;\s*$/m).map((s) => s.trim()).filter((s) => s && !/^(--[^\n]*\n?)*$/.test(s))) {
      await db().$executeRawUnsafe(statement);
    }
    expect(await db().runSource.findMany({ where: { runId: { in: runIds } }, select, orderBy: order })).toEqual(written);
    expect(await db().run.findMany({ where: { id: { in: runIds } }, select: { id: true, citationsExposed: true }, orderBy: { id: "asc" } })).toEqual(exposed);
  });
});
