// Required text refused the same way everywhere (#32): leading and trailing whitespace trimmed,
// whitespace only a 400 naming the field, before anything is created or charged; what is stored
// is the trimmed text. Brand and competitor names blank nowhere, PATCH /projects included. And
// citation analyses of fanout ids (all the fanout's runs).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createCitationAnalysis } from "@/app/api/v1/citation-analyses/route";
import { GET as getFanoutRoute } from "@/app/api/v1/fanouts/[fanout_id]/route";
import { POST as estimateFanout } from "@/app/api/v1/fanouts/estimate/route";
import { POST as createFanout } from "@/app/api/v1/fanouts/route";
import { PATCH as updateProject } from "@/app/api/v1/projects/[project_id]/route";
import { POST as createProject } from "@/app/api/v1/projects/route";
import { POST as postPrompts } from "@/app/api/v1/prompts/route";
import { POST as postQuestions } from "@/app/api/v1/questions/route";
import { POST as postAudits } from "@/app/api/v1/audits/route";
import { GET as getBatch } from "@/app/api/v1/batches/[batch_id]/route";
import { resetConfig } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { call } from "../helpers/http";
import { person, type Person } from "../helpers/people";

useSimulatedEngines({ billing: true });
useTestDatabase();

let alice: Person;
let bob: Person;
let project: string;

const BLANKS = ["", "   ", " \n\t ", "\u00a0\u2003"];

/** What a refused request could have left behind: runs, holds and ledger rows, and the project's context. */
async function books() {
  return {
    runs: await db().run.count(),
    holds: await db().creditHold.count(),
    ledger: await db().ledgerTransaction.count(),
    fanouts: await db().fanout.count(),
    analyses: await db().analysis.count(),
  };
}

beforeAll(async () => {
  alice = await person("alice@example.com");
  bob = await person("bob@example.com");
  const created = await call(createProject, "POST", "/projects", { token: alice.apiKey, body: { name: "Texts" } });
  expect(created.status).toBe(201);
  project = created.body.id;
});

afterAll(() => {
  resetConfig();
});

describe("required text: trimmed, and whitespace only refused naming the field, before anything is charged", () => {
  it("refuses a whitespace-only prompt, fanout prompt, topic and URL with the same rule, and changes nothing", async () => {
    const before = await books();
    for (const blank of BLANKS) {
      const cases = [
        [postPrompts, "/prompts", { prompt: blank, engines: ["chatgpt"], project }, "prompt: must be 1 to 4000 characters after trimming spaces"],
        [createFanout, "/fanouts", { prompts: [{ text: "ok" }, { text: blank }], engines: ["chatgpt"], runs: 1, project }, "prompts[1].text: must be 1 to 4000 characters after trimming spaces"],
        [estimateFanout, "/fanouts/estimate", { prompts: [{ text: blank }], project }, "prompts[0].text: must be 1 to 4000 characters after trimming spaces"],
        [postQuestions, "/questions", { topic: blank, project }, "topic: must be 1 to 500 characters after trimming spaces"],
      ] as const;
      for (const [handler, path, body, message] of cases) {
        const res = await call(handler, "POST", path, { token: alice.apiKey, body });
        expect(res.status, `${path} ${JSON.stringify(blank)}`).toBe(400);
        expect(res.body.error).toEqual({ code: "invalid_request", message, engine: null, retryable: false });
      }
      const audit = await call(postAudits, "POST", "/audits", { token: alice.apiKey, body: { url: blank, project } });
      expect(audit.status).toBe(400);
      expect(audit.body.error.message).toMatch(/^url: /);
    }
    expect(await books()).toEqual(before);
  });

  it("stores and runs a prompt trimmed, inner whitespace kept; the 4000 characters count after trimming", async () => {
    const res = await call(postPrompts, "POST", "/prompts", { token: alice.apiKey, body: { prompt: "\n  best  crm\nfor startups \t", engines: ["chatgpt"], project } });
    expect(res.status).toBe(202);
    expect(res.body.batch.input.prompt).toBe("best  crm\nfor startups");
    expect(res.body.runs[0].input.prompt).toBe("best  crm\nfor startups");
    const batch = await call(getBatch, "GET", `/batches/${res.body.batch.id}`, { token: alice.apiKey, params: { batch_id: res.body.batch.id }, query: { wait: 30 } });
    expect(batch.body.runs[0].status).toBe("completed");
    const padded = await call(postPrompts, "POST", "/prompts", { token: alice.apiKey, body: { prompt: `  ${"x".repeat(4000)}  `, engines: ["chatgpt"], project } });
    expect(padded.status).toBe(202);
  });

  it("counts fanout prompts equal once trimmed as identical", async () => {
    const res = await call(estimateFanout, "POST", "/fanouts/estimate", { token: alice.apiKey, body: { prompts: [{ text: "which crm" }, { text: " which crm\n" }], engines: ["chatgpt"], runs: 1, project } });
    expect(res.status).toBe(200);
    expect(res.body.identical_prompts).toBe(1);
  });
});

describe("brand and competitor names are never blank", () => {
  it("refuses blank names on POST and PATCH /projects, and keeps the context as it was", async () => {
    const patched = await call(updateProject, "PATCH", `/projects/${project}`, {
      token: alice.apiKey,
      params: { project_id: project },
      body: { context: { primary_domain: "acme.com", brands: ["Acme"], competitors: ["Globex"] } },
    });
    expect(patched.status).toBe(200);
    for (const blank of BLANKS) {
      for (const field of ["brands", "competitors"] as const) {
        const context = { brands: ["Acme"], competitors: ["Globex"], [field]: ["Fine", blank] };
        const patch = await call(updateProject, "PATCH", `/projects/${project}`, { token: alice.apiKey, params: { project_id: project }, body: { context } });
        expect(patch.status).toBe(400);
        expect(patch.body.error.message).toBe(`context.${field}[1]: must be 1 to 100 characters after trimming spaces`);
        const create = await call(createProject, "POST", "/projects", { token: alice.apiKey, body: { name: "Blank", context } });
        expect(create.status).toBe(400);
        expect(create.body.error.message).toBe(`context.${field}[1]: must be 1 to 100 characters after trimming spaces`);
      }
    }
    const row = await db().project.findUniqueOrThrow({ where: { id: project } });
    expect(row.context).toEqual({ primary_domain: "acme.com", brands: ["Acme"], competitors: ["Globex"] });
    expect(await db().project.count({ where: { name: "Blank" } })).toBe(0);
  });

  it("stores names trimmed and refuses one over 100 characters", async () => {
    const res = await call(updateProject, "PATCH", `/projects/${project}`, {
      token: alice.apiKey,
      params: { project_id: project },
      body: { context: { brands: ["  Acme CRM "], competitors: ["\tGlobex"] } },
    });
    expect(res.status).toBe(200);
    // The fields given replace theirs; the stored primary_domain is kept (decisions.md "Updating a project's context").
    expect(res.body.context).toEqual({ primary_domain: "acme.com", brands: ["Acme CRM"], competitors: ["Globex"] });
    const long = await call(updateProject, "PATCH", `/projects/${project}`, { token: alice.apiKey, params: { project_id: project }, body: { context: { brands: ["x".repeat(101)] } } });
    expect(long.status).toBe(400);
  });

  it("refuses a blank brand in a citation analysis", async () => {
    const prompt = await call(postPrompts, "POST", "/prompts", { token: alice.apiKey, body: { prompt: "crm", engines: ["chatgpt"], project } });
    const res = await call(createCitationAnalysis, "POST", "/citation-analyses", { token: alice.apiKey, body: { ids: [prompt.body.batch.id], brands: ["Acme", "  "] } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe("brands[1]: must be 1 to 200 characters after trimming spaces");
  });
});

describe("citation analyses of fanouts", () => {
  it("take fo_ ids: every run of the fanout, in creation order, alone or with runs and batches", async () => {
    const fanout = await call(createFanout, "POST", "/fanouts", {
      token: alice.apiKey,
      body: { prompts: [{ text: "best crm" }, { text: "crm for startups" }], engines: ["chatgpt", "claude"], runs: 2, project },
    });
    expect(fanout.status).toBe(202);
    const id = fanout.body.id as string;
    const done = await call(getFanoutRoute, "GET", `/fanouts/${id}`, { token: alice.apiKey, params: { fanout_id: id }, query: { wait: 30 } });
    expect(done.body.status).toBe("completed");
    const runIds = (await db().run.findMany({ where: { fanoutId: id }, orderBy: { id: "asc" }, select: { id: true } })).map((r) => r.id);
    expect(runIds).toHaveLength(8);

    const analysis = await call(createCitationAnalysis, "POST", "/citation-analyses", { token: alice.apiKey, body: { ids: [id], brands: ["HubSpot"] } });
    expect(analysis.status).toBe(201);
    expect(analysis.body.run_ids).toEqual(runIds);
    expect(analysis.body.excluded_runs).toEqual([]);
    expect(analysis.body.totals.runs).toBe(8);

    // A run named directly and again through its fanout counts once, the repeat listed as a duplicate.
    const both = await call(createCitationAnalysis, "POST", "/citation-analyses", { token: alice.apiKey, body: { ids: [runIds[3], id] } });
    expect(both.status).toBe(201);
    expect(both.body.run_ids).toEqual([runIds[3], ...runIds.filter((r) => r !== runIds[3])]);
    expect(both.body.excluded_runs).toEqual([{ run_id: runIds[3], reason: "duplicate" }]);
  });

  it("answers 404 naming a fanout the caller cannot see, as for a missing one", async () => {
    const fanout = await call(createFanout, "POST", "/fanouts", { token: alice.apiKey, body: { prompts: [{ text: "crm" }], engines: ["chatgpt"], runs: 1, project } });
    const foreign = await call(createCitationAnalysis, "POST", "/citation-analyses", { token: bob.apiKey, body: { ids: [fanout.body.id] } });
    const missing = await call(createCitationAnalysis, "POST", "/citation-analyses", { token: bob.apiKey, body: { ids: ["fo_01JAAAAAAAAAAAAAAAAAAAAAAA"] } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toBe(`No such fanout "${fanout.body.id}".`);
    expect(missing.body.error.message).toBe('No such fanout "fo_01JAAAAAAAAAAAAAAAAAAAAAAA".');
  });
});
