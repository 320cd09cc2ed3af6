// The research reads' suite, run on PGlite (tests/api/read-path-research.test.ts) and on a
// PostgreSQL server (tests/pg/read-path-research.test.ts): GET /fanouts/{id}, GET /fanouts,
// GET /analyses/{id} and GET /analyses answer what prepared statements read, remembered per
// version (lib/fanouts/read.ts, lib/analyses/read.ts): byte for byte what the presenters make
// of the rows read through Prisma, for finished, failed and queued work, every list page its
// details' summaries, and never a stale body once a run, a hold, the object or its creator's
// email changed. The caller installs a fresh database and simulated engines with billing first.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET as getAnalysisRoute } from "@/app/api/v1/analyses/[analysis_id]/route";
import { GET as listAnalysesRoute } from "@/app/api/v1/analyses/route";
import { POST as postCitationAnalyses } from "@/app/api/v1/citation-analyses/route";
import { GET as listFanoutsRoute, POST as postFanouts } from "@/app/api/v1/fanouts/route";
import { GET as getFanoutRoute } from "@/app/api/v1/fanouts/[fanout_id]/route";
import { POST as postQuestions } from "@/app/api/v1/questions/route";
import { POST as postVisibility } from "@/app/api/v1/visibility-analyses/route";
import { getAnalysis } from "@/lib/analyses/read";
import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { encodeCursor } from "@/lib/http/pagination";
import { asciiJson } from "@/lib/http/respond";
import { createProject } from "@/lib/projects/create";
import { AnalysisSummary } from "@/lib/schemas/analyses";
import { FanoutSummary } from "@/lib/schemas/fanouts";
import { localDriver } from "@/lib/work/local-driver";
import { call } from "./http";
import { everyFigure } from "./stored-figures";
import { heldBack, withEmail } from "./app";
import { person, principalOf, type Person } from "./people";
import { referenceFanout } from "./references";

export function researchReadsSuite(): void {
  let dana: Person;
  let principal: Principal;
  let project: string;
  let fanoutId: string;
  let citationsId: string;
  let citationsPosted: string;
  let visibilityId: string;
  let visibilityPosted: string;
  let questionsId: string;

  const readFanout = (id: string, token = dana.apiKey) => call(getFanoutRoute, "GET", `/fanouts/${id}`, { token, params: { fanout_id: id } });
  const readAnalysis = (id: string, token = dana.apiKey) => call(getAnalysisRoute, "GET", `/analyses/${id}`, { token, params: { analysis_id: id } });
  /** The fanout as the presenter makes it of the rows Prisma reads. */
  const presentedFanout = referenceFanout;
  // As GET sends it: a questions analysis as POST answered it, the others in ASCII (lib/http/respond.ts asciiJson).
  const presentedAnalysis = async (id: string) => {
    const analysis = await getAnalysis(principal, id);
    return analysis.kind === "questions" ? JSON.stringify(analysis) : asciiJson(analysis);
  };

  /** Every page of a list, following next_cursor. */
  async function everyPage(route: typeof listFanoutsRoute, path: string, query: Record<string, string>, token = dana.apiKey) {
    const items: Record<string, unknown>[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: { items: Record<string, unknown>[]; next_cursor: string | null } } = await call(route, "GET", path, { token, query: { ...query, ...(cursor ? { cursor } : {}) } });
      expect(res.status).toBe(200);
      items.push(...res.body.items);
      cursor = res.body.next_cursor;
    } while (cursor);
    return items;
  }

  /** The summary fields of a detail: what its list item must show. */
  const summaryOfFanout = (detail: Record<string, unknown>) => Object.fromEntries(Object.keys(FanoutSummary.shape).map((k) => [k, detail[k]]));
  const summaryOfAnalysis = (detail: Record<string, unknown>) =>
    Object.fromEntries(Object.keys(AnalysisSummary.shape).map((k) => [k, k === "run_count" ? (detail.run_ids as string[]).length : detail[k]]));

  /** Each fanout of the list, page by page, is its detail's summary. */
  async function expectFanoutListMatchesDetails(query: Record<string, string> = {}) {
    const items = await everyPage(listFanoutsRoute, "/fanouts", { limit: "1", ...query });
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(item).toEqual(summaryOfFanout((await readFanout(item.id as string)).body));
    return items;
  }

  beforeAll(async () => {
    dana = await person("dana@example.com");
    principal = principalOf(dana);
    project = (await createProject(principal, { name: "Research reads", workspace_id: dana.workspaceId, context: null })).id;
    // Completed runs with searches (unicode among them) and, on claude, failed runs with their error.
    const fanout = await call(postFanouts, "POST", "/fanouts", {
      token: dana.apiKey,
      body: {
        name: "Reads ünïcode",
        prompts: [{ text: "best trail shoes [[sim:unicode]]" }, { text: "trail shoes on sale [[sim:server_error:9@claude]]" }],
        engines: ["chatgpt", "claude", "gemini"],
        runs: 2,
        project,
      },
    });
    expect(fanout.status).toBe(202);
    fanoutId = fanout.body.id;
    const questions = await call(postQuestions, "POST", "/questions", { token: dana.apiKey, body: { topic: "trail running shoes", count: 6, project } });
    expect(questions.status).toBe(202);
    questionsId = questions.body.id;
    await localDriver().drained();
    const runIds = (await db().run.findMany({ where: { fanoutId }, select: { id: true } })).map((r) => r.id);
    const analysis = await call(postCitationAnalyses, "POST", "/citation-analyses", { token: dana.apiKey, body: { ids: runIds, brands: ["Acme"], domains: ["example.com"] } });
    expect(analysis.status).toBe(201);
    citationsId = analysis.body.id;
    citationsPosted = analysis.text;
    const visibility = await call(postVisibility, "POST", "/visibility-analyses", {
      token: dana.apiKey,
      body: { ids: [fanoutId], entities: [{ name: "Nike", role: "brand", aliases: ["Nike Pegasus"] }, { name: "Hoka", role: "competitor", domains: ["hoka.com"] }, { name: "Brooks", role: "competitor" }] },
    });
    expect(visibility.status).toBe(201);
    visibilityId = visibility.body.id;
    visibilityPosted = visibility.text;
  });

  afterEach(async () => {
    await localDriver().sweep();
    await localDriver().drained();
  });

  describe("GET /fanouts/{id}", () => {
    it("is byte for byte the presented fanout, read first and then remembered", async () => {
      const expected = await presentedFanout(fanoutId);
      expect(JSON.parse(expected).status).toBe("partial");
      for (let i = 0; i < 3; i++) {
        const res = await readFanout(fanoutId);
        expect(res.status).toBe(200);
        expect(res.text).toBe(expected);
      }
    });

    it("is the presented fanout while its runs are queued and their credit held, and again once they ran", async () => {
      const queued = await heldBack(() =>
        call(postFanouts, "POST", "/fanouts", { token: dana.apiKey, body: { prompts: [{ text: "trail shoes for mud" }], engines: ["gemini", "chatgpt"], runs: 2, project } }),
      );
      const id = queued.body.id as string;
      const before = await readFanout(id);
      expect(before.body).toMatchObject({ status: "queued", held_usd: expect.not.stringMatching(/^0\.00$/) });
      expect(before.text).toBe(await presentedFanout(id));
      expect((await expectFanoutListMatchesDetails()).map((f) => f.status)).toContain("queued");
      await localDriver().sweep();
      await localDriver().drained();
      const after = await readFanout(id);
      expect(after.body.status).toBe("completed");
      expect(after.body.held_usd).toBe("0.00");
      expect(after.text).toBe(await presentedFanout(id));
      const listed = await expectFanoutListMatchesDetails();
      expect(listed.map((f) => f.status).sort()).toEqual(["completed", "partial"]);
    });

    it("GET /fanouts lists each fanout as its detail's summary, on every page and with every filter", async () => {
      const all = await expectFanoutListMatchesDetails();
      expect(await expectFanoutListMatchesDetails({ project })).toEqual(all);
      expect(await expectFanoutListMatchesDetails({ workspace: dana.workspaceId, limit: "50" })).toEqual(all);
      const erin = await person("erin.lists@example.com");
      expect((await call(listFanoutsRoute, "GET", "/fanouts", { token: erin.apiKey })).body).toEqual({ items: [], next_cursor: null });
      expect((await call(listFanoutsRoute, "GET", "/fanouts", { token: erin.apiKey, query: { project } })).status).toBe(404);
    });

    it("shows a change to a run, to its hold or to the creator's email at once", async () => {
      await readFanout(fanoutId);
      const run = await db().run.findFirstOrThrow({ where: { fanoutId, status: "completed" }, select: { id: true, result: true } });
      const result = run.result as { searches: { query: string }[] };
      await db().run.update({ where: { id: run.id }, data: { result: { ...result, searches: [{ query: "changed query \u2028 ü" }] } } });
      let res = await readFanout(fanoutId);
      const cell = (res.body.prompts as { engines: { runs: { run_id: string; queries: { text: string }[] }[] }[] }[])
        .flatMap((p) => p.engines.flatMap((e) => e.runs))
        .find((r) => r.run_id === run.id)!;
      expect(cell.queries.map((q) => q.text)).toEqual(["changed query \u2028 ü"]);
      expect(res.text).toBe(await presentedFanout(fanoutId));

      const hold = await db().creditHold.findFirstOrThrow({ where: { runId: run.id } });
      await db().creditHold.update({ where: { id: hold.id }, data: { pricingVersion: "2026-11-26-repriced" } });
      res = await readFanout(fanoutId);
      expect(res.text).toContain(`"pricing_version":"2026-11-26-repriced"`);
      expect(res.text).toBe(await presentedFanout(fanoutId));

      await withEmail(dana, "dana.renamed@example.com", async () => {
        res = await readFanout(fanoutId);
        expect(res.body.created_by).toBe("dana.renamed@example.com");
        expect(res.text).toBe(await presentedFanout(fanoutId));
      });
      expect((await readFanout(fanoutId)).body.created_by).toBe(dana.email);
    });

    it("answers another person 404, exactly as a fanout that does not exist", async () => {
      const erin = await person("erin@example.com");
      await readFanout(fanoutId);
      const theirs = await readFanout(fanoutId, erin.apiKey);
      const missingId = newId("fanout");
      const missing = await readFanout(missingId, erin.apiKey);
      expect(theirs.status).toBe(404);
      expect(theirs.text).toBe(missing.text.replace(missingId, fanoutId));
    });
  });

  describe("GET /analyses/{id}", () => {
    it("is byte for byte the presented citation analysis, as POST answered it and as remembered since", async () => {
      const expected = await presentedAnalysis(citationsId);
      expect(JSON.parse(expected).totals.runs).toBeGreaterThan(0);
      expect(citationsPosted).toBe(expected);
      for (let i = 0; i < 3; i++) {
        const res = await readAnalysis(citationsId);
        expect(res.status).toBe(200);
        expect(res.text).toBe(expected);
      }
    });

    it("is byte for byte the presented visibility analysis (its stored figures, whose keys jsonb reorders), as POST answered it", async () => {
      const expected = await presentedAnalysis(visibilityId);
      expect(JSON.parse(expected).totals.mentions).toBeGreaterThan(0);
      expect(visibilityPosted).toBe(expected);
      for (let i = 0; i < 3; i++) {
        const res = await readAnalysis(visibilityId);
        expect(res.status).toBe(200);
        expect(res.text).toBe(expected);
      }
      // A change to the stored figures is shown at once. The row keeps its rows' by_prompt in its
      // body alone (lib/visibility/store-result.ts): a change by hand writes them back with it.
      const figures = (await everyFigure(visibilityId)) as { totals: { prompts: number } };
      await db().analysis.update({ where: { id: visibilityId }, data: { result: { ...figures, totals: { ...figures.totals, prompts: 99 } } as never } });
      const changed = await readAnalysis(visibilityId);
      expect(changed.body.totals.prompts).toBe(99);
      expect(changed.text).toBe(await presentedAnalysis(visibilityId));
    });

    it("is byte for byte the presented questions analysis, queued with its hold and finished with its charge", async () => {
      const done = await readAnalysis(questionsId);
      expect(done.body.status).toBe("completed");
      expect(done.body.charge.status).toBe("captured");
      expect(done.text).toBe(await presentedAnalysis(questionsId));
      const queued = await heldBack(() => call(postQuestions, "POST", "/questions", { token: dana.apiKey, body: { topic: "hiking boots", count: 3, project } }));
      const id = queued.body.id as string;
      const before = await readAnalysis(id);
      expect(before.body).toMatchObject({ status: "queued", charge: { status: "held" } });
      expect(before.text).toBe(await presentedAnalysis(id));
      // Woken when the real driver, sweeping as after a restart, has generated the questions.
      const pending = call(getAnalysisRoute, "GET", `/analyses/${id}`, { token: dana.apiKey, params: { analysis_id: id }, query: { wait: 30 } });
      await localDriver().sweep();
      const waited = await pending;
      expect(waited.body.status).toBe("completed");
      expect(waited.text).toBe(await presentedAnalysis(id));
    });

    it("shows a change to the analysis or to the creator's email at once", async () => {
      await readAnalysis(citationsId);
      const row = await db().analysis.findUniqueOrThrow({ where: { id: citationsId }, select: { result: true } });
      const figures = row.result as { brands: string[] };
      await db().analysis.update({ where: { id: citationsId }, data: { result: { ...figures, brands: ["Acme \u2028 ü"] } } });
      let res = await readAnalysis(citationsId);
      expect(res.body.brands).toEqual(["Acme \u2028 ü"]);
      expect(res.text).toBe(await presentedAnalysis(citationsId));
      await withEmail(dana, "dana.again@example.com", async () => {
        res = await readAnalysis(citationsId);
        expect(res.body.created_by).toBe("dana.again@example.com");
        expect(res.text).toBe(await presentedAnalysis(citationsId));
      });
    });

    it("GET /analyses lists each analysis as its detail's summary, newest first, on every page and by kind", async () => {
      const all = await everyPage(listAnalysesRoute, "/analyses", { limit: "1" });
      expect(all.length).toBeGreaterThanOrEqual(4);
      for (const item of all) expect(item).toEqual(summaryOfAnalysis((await readAnalysis(item.id as string)).body));
      const created = all.map((a) => `${a.created_at} ${a.id}`);
      expect(created).toEqual([...created].sort().reverse());
      expect(await everyPage(listAnalysesRoute, "/analyses", { kind: "questions", project })).toEqual(all.filter((a) => a.kind === "questions"));
      expect(await everyPage(listAnalysesRoute, "/analyses", { kind: "citations", workspace: dana.workspaceId })).toEqual(all.filter((a) => a.kind === "citations"));
      expect(await everyPage(listAnalysesRoute, "/analyses", { kind: "visibility", project })).toEqual(all.filter((a) => a.kind === "visibility"));
      // After the oldest: an empty last page. After someone else's analysis: refused like a forged cursor.
      const oldest = all.at(-1)!.id as string;
      expect((await call(listAnalysesRoute, "GET", "/analyses", { token: dana.apiKey, query: { cursor: encodeCursor(oldest) } })).body).toEqual({ items: [], next_cursor: null });
      const grace = await person("grace@example.com");
      const foreign = await call(listAnalysesRoute, "GET", "/analyses", { token: grace.apiKey, query: { cursor: encodeCursor(citationsId) } });
      expect(foreign.status).toBe(400);
      expect(foreign.body.error.message).toMatch(/^cursor: /);
    });

    it("answers another person 404, exactly as an analysis that does not exist", async () => {
      const frank = await person("frank@example.com");
      for (const id of [citationsId, questionsId, visibilityId]) {
        await readAnalysis(id);
        const theirs = await readAnalysis(id, frank.cliToken);
        const missingId = newId(id.startsWith("ca_") ? "citationAnalysis" : id.startsWith("va_") ? "visibilityAnalysis" : "questionsAnalysis");
        const missing = await readAnalysis(missingId, frank.cliToken);
        expect(theirs.status).toBe(404);
        expect(theirs.text).toBe(missing.text.replace(missingId, id));
      }
    });
  });
}
