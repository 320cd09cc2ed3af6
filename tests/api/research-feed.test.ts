// What the project page lists (lib/research/feed.ts): prompt batches newest first, ten to a page
// with a cursor to the older ones, filtered by engine; each prompt run marked with whether the
// project's domain was cited and which of its brands and competitors the answer names; audits,
// fanouts and analyses of the project only; another person's project is the API's 404.
import { beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/errors";
import { createProject, updateProject } from "@/lib/projects/create";
import { auditRuns, glanceOf, PAGE_SIZE, promptBatches, watchOf } from "@/lib/research/feed";
import { createPromptBatch } from "@/lib/runs/create";
import { getBatch } from "@/lib/runs/read";
import { createAudit } from "@/lib/audits/create";
import { promptResultOf } from "@/lib/schemas/results";
import { Run } from "@/lib/schemas/runs";
import { localDriver } from "@/lib/work/local-driver";
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { person, principalOf, type Person } from "../helpers/people";

useSimulatedEngines({ billing: false });
useTestDatabase();

let ana: Person;
let ben: Person;
let project: string;
const PROMPTS = Array.from({ length: PAGE_SIZE + 2 }, (_, i) => `best crm for team ${i + 1}`);

beforeAll(async () => {
  [ana, ben] = await Promise.all([person("ana@example.com"), person("ben@example.com")]);
  project = (await createProject(principalOf(ana), { name: "CRM", workspace_id: ana.workspaceId, context: null })).id;
  for (const prompt of PROMPTS) await createPromptBatch(principalOf(ana), { prompt, engines: ["chatgpt", "claude"], project });
  await createAudit(principalOf(ana), { url: "http://127.0.0.1:9/page", project });
  await localDriver().drained();
});

describe("the project's prompts", () => {
  it("lists them newest first, a page at a time, each with its runs", async () => {
    const first = await promptBatches(principalOf(ana), project, {});
    expect(first.items.map((b) => b.batch.input.prompt)).toEqual(PROMPTS.slice().reverse().slice(0, PAGE_SIZE));
    expect(first.items.every((b) => b.runs.length === 2 && b.batch.status === "completed")).toBe(true);
    // The page's batch is the API's: what GET /batches/{id} answers of it.
    const api = await getBatch(principalOf(ana), first.items[0]!.batch.id);
    expect(first.items[0]!.batch).toEqual(api.batch);
    expect(first.items[0]!.runs.map((r) => r.run)).toEqual(api.runs);
    expect(first.nextCursor).not.toBeNull();
    const second = await promptBatches(principalOf(ana), project, { cursor: first.nextCursor! });
    expect(second.items.map((b) => b.batch.input.prompt)).toEqual(PROMPTS.slice(0, 2).reverse());
    expect(second.nextCursor).toBeNull();
  });

  it("filters by engine: only that engine's runs are listed", async () => {
    const claude = await promptBatches(principalOf(ana), project, { engine: "claude" });
    expect(claude.items.flatMap((b) => b.runs.map((r) => r.run.engine))).toEqual(Array(PAGE_SIZE).fill("claude"));
    expect((await promptBatches(principalOf(ana), project, { engine: "gemini" })).items).toEqual([]);
  });

  it("marks each run with its own domain cited or not, and the brands and competitors the answer names", async () => {
    const [latest] = (await promptBatches(principalOf(ana), project, {})).items;
    const run = latest!.runs[0]!.run;
    const result = promptResultOf(Run.parse(run).result)!;
    const cited = result.sources.find((s) => s.cited === true && s.domain)!;
    const named = /\b([A-Z][a-z]{3,})\b/.exec(result.answer)?.[1];
    expect(named).toBeDefined();

    // Without a context there is nothing to watch for.
    expect(glanceOf(run, watchOf(await projectAs({ context: null })))).toEqual({ ownCited: null, brands: [], competitors: [] });
    // A cited page's domain (a subdomain counts for it), a word of the answer, and names it lacks.
    const watch = watchOf(await projectAs({ context: { primary_domain: cited.domain!, brands: [named!.toLowerCase(), "Nowherebrand"], competitors: ["Globexcorp"] } }));
    expect(glanceOf(run, watch)).toEqual({ ownCited: true, brands: [named!.toLowerCase()], competitors: [] });
    const elsewhere = watchOf(await projectAs({ context: { primary_domain: `not${cited.domain}` } }));
    expect(glanceOf(run, elsewhere)?.ownCited).toBe(false);
  });

  it("lists the project's audits apart from its prompts", async () => {
    const audits = await auditRuns(principalOf(ana), project, {});
    expect(audits.items.map((r) => [r.kind, r.input.url])).toEqual([["audit", "http://127.0.0.1:9/page"]]);
  });

  it("another person's project answers as a missing one", async () => {
    const error = await promptBatches(principalOf(ben), project, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(`No such project "${project}".`);
  });
});

async function projectAs(change: Parameters<typeof updateProject>[2]) {
  return updateProject(principalOf(ana), project, change);
}
