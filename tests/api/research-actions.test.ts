// The research pages' server actions and live stream (app/(research)/actions.ts, app/live),
// as the signed-in person would use them: starting each kind of work lands on its page with the
// work queued and held for; a refusal says what the API says (402 offers billing) and creates
// nothing; the fanout estimate is the API's; share, rotate and revoke change what the public
// link does; and the live stream tells a page when its runs moved and when they are all done.
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db/client";
import { createProject } from "@/lib/projects/create";
import { progressOfAll } from "@/lib/research/progress";
import { workingShare } from "@/lib/shares/read";
import { localDriver } from "@/lib/work/local-driver";
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { dbFingerprint, fingerprintChanges } from "../helpers/fingerprint";
import { person, principalOf, type Person } from "../helpers/people";

let signedIn: Principal | null = null;
vi.mock("@/lib/auth/session", () => ({
  requireSessionPrincipal: async () => signedIn,
  sessionPrincipal: async () => signedIn,
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
class Redirected extends Error {
  constructor(readonly url: string) {
    super(`redirect to ${url}`);
  }
}
vi.mock("next/navigation", () => ({
  redirect: (url: string) => {
    throw new Redirected(url);
  },
}));

useSimulatedEngines({ billing: true });
useTestDatabase();

const research = await import("@/app/(research)/actions");
const { GET: live } = await import("@/app/live/route");

let ana: Person;
let ben: Person;
let project: string;

beforeAll(async () => {
  [ana, ben] = await Promise.all([person("ana@example.com"), person("ben@example.com")]);
  project = (await createProject(principalOf(ana), { name: "Ana's research", workspace_id: ana.workspaceId, context: { primary_domain: "acme.com", brands: ["Acme"] } })).id;
});

function form(fields: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) data.append(name, v);
  return data;
}

async function redirectOf(run: () => Promise<unknown>): Promise<string> {
  try {
    const outcome = await run();
    throw new Error(`the action did not redirect: ${JSON.stringify(outcome)}`);
  } catch (error) {
    if (error instanceof Redirected) return error.url;
    throw error;
  }
}

const idle = { ok: true };

async function finished() {
  await localDriver().drained();
}

describe("starting work from the project page", () => {
  it("a prompt on the ticked engines lands on its batch, one run per engine", async () => {
    signedIn = principalOf(ana);
    const url = await redirectOf(() => research.startPromptAction(idle, form({ project, prompt: "best crm for a startup", engines: ["chatgpt", "gemini"] })));
    const batchId = /^\/batches\/(rq_[0-9A-Z]{26})$/.exec(url)?.[1];
    expect(batchId).toBeDefined();
    const runs = await db().run.findMany({ where: { batchId }, orderBy: { engine: "asc" } });
    expect(runs.map((r) => r.engine)).toEqual(["chatgpt", "gemini"]);
    await finished();
  });

  it("the market picker's country, city and language start a prompt and a fanout in that market; a bad one is refused in words", async () => {
    signedIn = principalOf(ana);
    const market = { country: "de", city: " Munich ", language: "de-de" };
    const url = await redirectOf(() => research.startPromptAction(idle, form({ project, prompt: "best crm", engines: ["gemini"], ...market })));
    const batch = await db().batch.findUniqueOrThrow({ where: { id: url.split("/").at(-1)! } });
    expect(batch.input).toMatchObject({ location: { country: "DE", city: "Munich" }, language: "de-DE" });
    const fanoutUrl = await redirectOf(() => research.startFanoutAction(idle, form({ project, prompts: "best crm", engines: ["chatgpt"], runs: "1", country: "BR" })));
    const fanout = await db().fanout.findUniqueOrThrow({ where: { id: fanoutUrl.split("/").at(-1)! } });
    expect(fanout.prompts).toEqual([{ text: "best crm", source: null, location: { country: "BR" }, language: null }]);
    await finished();

    const before = await dbFingerprint();
    const refused = await research.startPromptAction(idle, form({ project, prompt: "best crm", engines: ["gemini"], country: "DE", language: "xx" }));
    expect(refused.ok).toBe(false);
    expect(refused.message).toMatch(/^Language: unknown language tag "xx"/);
    const estimate = await research.estimateFanoutAction({ ok: true }, form({ project, prompts: "best crm", engines: ["chatgpt"], runs: "1", country: "ZZ" }));
    expect(estimate).toMatchObject({ ok: false, message: expect.stringMatching(/^Country: unknown country "ZZ"/) });
    expect(fingerprintChanges(before, await dbFingerprint())).toEqual([]);
  });

  it("no engine ticked is refused with the field named, not taken as every engine", async () => {
    signedIn = principalOf(ana);
    const before = await dbFingerprint();
    const outcome = await research.startPromptAction(idle, form({ project, prompt: "best crm" }));
    expect(outcome).toEqual({ ok: false, message: "Tick at least one engine.", needsCredit: false });
    expect(fingerprintChanges(before, await dbFingerprint())).toEqual([]);
  });

  it("the fanout estimate is the API's, and starting it lands on the fanout; one short of credit offers billing and starts nothing", async () => {
    signedIn = principalOf(ana);
    const fields = { project, prompts: "best crm\n\n  crm for agencies  \n", engines: ["chatgpt", "claude"], runs: "2" };
    const estimated = await research.estimateFanoutAction({ ok: true }, form(fields));
    expect(estimated.ok).toBe(true);
    expect(estimated.estimate).toMatchObject({ prompts: 2, engines: ["chatgpt", "claude"], runs: 2, executions: 8, billing_enabled: true, sufficient: true });

    const url = await redirectOf(() => research.startFanoutAction(idle, form(fields)));
    const fanoutId = /^\/fanouts\/(fo_[0-9A-Z]{26})$/.exec(url)?.[1]!;
    const fanout = await db().fanout.findUniqueOrThrow({ where: { id: fanoutId } });
    expect(fanout.prompts).toEqual([
      { text: "best crm", source: null, location: null, language: null },
      { text: "crm for agencies", source: null, location: null, language: null },
    ]);
    await finished();

    // 20 prompts × 3 engines × 20 runs is far beyond the 5.00 USD of promotional credit.
    const many = { project, prompts: Array.from({ length: 20 }, (_, i) => `prompt ${i}`).join("\n"), engines: ["chatgpt", "claude", "gemini"], runs: "16" };
    const before = await dbFingerprint();
    const poor = await research.startFanoutAction(idle, form(many));
    expect(poor.ok).toBe(false);
    expect(poor.needsCredit).toBe(true);
    expect(poor.message).toMatch(/^Not enough credit: this needs \d+\.\d+ USD/);
    // The page links to billing itself: no raw address in the message.
    expect(poor.message).not.toMatch(/https?:\/\/|Add credit at/);
    expect(fingerprintChanges(before, await dbFingerprint())).toEqual([]);
  });

  it("questions sent from a questions analysis keep where each came from", async () => {
    signedIn = principalOf(ana);
    const url = await redirectOf(() => research.startQuestionsAction(idle, form({ project, topic: "crm software", count: "4" })));
    const analysisId = /^\/analyses\/(fa_[0-9A-Z]{26})$/.exec(url)?.[1]!;
    await finished();
    const analysis = await db().analysis.findUniqueOrThrow({ where: { id: analysisId } });
    expect(analysis.status).toBe("completed");
    const questions = (analysis.result as { questions: { id: string; text: string }[] }).questions;
    const chosen = questions.slice(0, 2);
    const fanoutUrl = await redirectOf(() =>
      research.startFanoutAction(
        idle,
        // A line of the person's own between the two questions: it has no source, and the second
        // question keeps its own.
        form({
          project,
          prompts: [chosen[0]!.text, "my own prompt", chosen[1]!.text].join("\n"),
          source: [`${analysisId}:${chosen[0]!.id}`, "", `${analysisId}:${chosen[1]!.id}`],
          engines: ["chatgpt"],
          runs: "1",
        }),
      ),
    );
    const fanout = await db().fanout.findUniqueOrThrow({ where: { id: fanoutUrl.split("/").at(-1)! } });
    const from = (q: { id: string; text: string }) => ({ text: q.text, source: { kind: "question", analysis_id: analysisId, question_id: q.id }, location: null, language: null });
    expect(fanout.prompts).toEqual([from(chosen[0]!), { text: "my own prompt", source: null, location: null, language: null }, from(chosen[1]!)]);
    await finished();
  });

  it("an audit lands on its run; a citation analysis of ticked batches and runs lands on the analysis", async () => {
    signedIn = principalOf(ana);
    const auditUrl = await redirectOf(() => research.startAuditAction(idle, form({ project, url: " http://127.0.0.1:9/pricing " })));
    const audit = await db().run.findUniqueOrThrow({ where: { id: auditUrl.split("/").at(-1)! } });
    expect([audit.kind, (audit.input as { url: string }).url]).toEqual(["audit", "http://127.0.0.1:9/pricing"]);
    await finished();

    const batch = await db().batch.findFirstOrThrow({ where: { projectId: project }, include: { runs: true } });
    const url = await redirectOf(() => research.startCitationAnalysisAction(idle, form({ project, ids: [batch.id] })));
    const analysis = await db().analysis.findUniqueOrThrow({ where: { id: url.split("/").at(-1)! } });
    expect(analysis.kind).toBe("citations");
    expect((analysis.result as { totals: { runs: number } }).totals.runs).toBe(batch.runs.length);

    expect(await research.startCitationAnalysisAction(idle, form({ project }))).toEqual({ ok: false, message: "Tick the runs or batches to analyse.", needsCredit: false });
  });

  it("a malformed project is the API's 400 naming the field", async () => {
    signedIn = principalOf(ana);
    const outcome = await research.startAuditAction(idle, form({ project: "pr_nope", url: "https://acme.com/" }));
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toMatch(/^project: /);
  });
});

describe("share controls", () => {
  it("share shows a link that works, rotate replaces it, revoke stops it", async () => {
    signedIn = principalOf(ana);
    const run = await db().run.findFirstOrThrow({ where: { projectId: project, kind: "prompt", status: "completed" } });
    const target = { kind: "run", id: run.id };
    const tokenOf = (url: string) => url.split("/s/")[1]!;

    const shared = await research.shareAction(idle, form(target));
    expect(shared).toMatchObject({ ok: true, shared: true });
    expect((await workingShare(tokenOf(shared.url!)))?.targetId).toBe(run.id);
    // Sharing again shows the same link.
    expect((await research.shareAction(idle, form(target))).url).toBe(shared.url);

    const rotated = await research.rotateShareAction(idle, form(target));
    expect(rotated.url).not.toBe(shared.url);
    expect(await workingShare(tokenOf(shared.url!))).toBeNull();
    expect((await workingShare(tokenOf(rotated.url!)))?.targetId).toBe(run.id);

    expect(await research.revokeShareAction(idle, form(target))).toMatchObject({ ok: true, shared: false, url: null });
    expect(await workingShare(tokenOf(rotated.url!))).toBeNull();
    expect(await research.rotateShareAction(idle, form(target))).toMatchObject({ ok: false, message: expect.stringContaining("is not shared") });
  });
});

/** Reads a server-sent event stream to its end (the route closes it once everything finished). */
async function eventsOf(response: Response): Promise<Array<{ event: string; data: string }>> {
  const text = await response.text();
  return text
    .split("\n\n")
    .map((block) => Object.fromEntries(block.split("\n").filter((l) => /^(event|data): /.test(l)).map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 2)])))
    .filter((e): e is { event: string; data: string } => typeof e.event === "string");
}

describe("GET /live", () => {
  const request = (ids: string, since = "") => new Request(`http://localhost/live?ids=${encodeURIComponent(ids)}&since=${encodeURIComponent(since)}`);

  it("without a session answers 401 in the envelope; a foreign or malformed id as the API would", async () => {
    signedIn = null;
    const anon = await live(request("rq_00000000000000000000000000"));
    expect(anon.status).toBe(401);
    expect((await anon.json()).error.code).toBe("unauthenticated");

    signedIn = principalOf(ben);
    const batch = await db().batch.findFirstOrThrow({ where: { projectId: project } });
    const foreign = await live(request(batch.id));
    const missing = await live(request("rq_00000000000000000000000000"));
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).error.message).toBe(`No such batch "${batch.id}".`);
    expect(missing.status).toBe(404);
    const bad = await live(request("../etc"));
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toMatch(/^ids: /);
  });

  it("a finished object the page already shows as finished: done, and nothing to refresh", async () => {
    signedIn = principalOf(ana);
    const batch = await db().batch.findFirstOrThrow({ where: { projectId: project } });
    const shown = await progressOfAll(principalOf(ana), [batch.id]);
    const events = await eventsOf(await live(request(batch.id, shown.signature)));
    expect(events.map((e) => e.event)).toEqual(["done"]);
  });

  it("a page rendered while its runs were queued is told they moved, then that all are done", async () => {
    signedIn = principalOf(ana);
    const url = await redirectOf(() => research.startPromptAction(idle, form({ project, prompt: "crm for dentists", engines: ["chatgpt", "claude", "gemini"] })));
    const batchId = url.split("/").at(-1)!;
    // What the page showed: nothing finished yet.
    const events = await eventsOf(await live(request(batchId, "0/3")));
    expect(events.at(-1)?.event).toBe("done");
    const changes = events.filter((e) => e.event === "changed").map((e) => JSON.parse(e.data).signature as string);
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.at(-1)).toBe("3/3");
    await finished();
  });
});
