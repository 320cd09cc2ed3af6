// The authorization matrix of spec 4.1 and 5, generated from the endpoint registry: every
// operation that names an object by id (path, query or body), asked by credentials that cannot
// reach the object, answers exactly what it answers for an id that names nothing (same status,
// byte-identical body with the id swapped) and changes nothing in the database. Admin-only
// operations answer 403 to a plain member. An operation of the registry that the table below does
// not cover fails the test, and so does an id field the table has no row for.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueApiKey } from "@/lib/auth/api-keys";
import { hashSecret } from "@/lib/auth/secrets";
import { runBillingAdminCommand } from "@/lib/billing/admin";
import { resetConfig } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { newId, newUlid } from "@/lib/db/ids";
import { namesObject } from "@/lib/http/openapi";
import type { EndpointDefinition } from "@/lib/schemas/endpoint";
import { createMonitor, runMonitor } from "@/lib/schemas/monitors";
import { createProject } from "@/lib/schemas/projects";
import { createVisibilityAnalysis } from "@/lib/schemas/visibility";
import { endpoints } from "@/lib/schemas/registry";
import { createWorkspace } from "@/lib/schemas/workspaces";
import { localDriver } from "@/lib/work/local-driver";
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { dbFingerprint, fingerprintChanges } from "../helpers/fingerprint";
import { call } from "../helpers/http";
import { idFieldPaths, jsonSchemaOf } from "../helpers/json-schema";
import { seedObjects, type WorkspaceObjects } from "../helpers/objects";
import { person, type Person } from "../helpers/people";
import { fillPath, handlerOf, sendJson } from "../helpers/routes";

useSimulatedEngines({ billing: true });
useTestDatabase();

/** Kinds of object a request can name. */
type Kind = "workspace" | "project" | "apiKey" | "invitation" | "member" | "run" | "batch" | "fanout" | "questionsAnalysis" | "citationAnalysis" | "visibilityAnalysis" | "comparisonAnalysis" | "monitor" | "monitorTick";

/** The caller's own things, for the parts of a request that are not under test. */
type Own = { workspaceId: string; projectId: string; membershipId: number; monitorId: string; tickId: string; visibilityAnalysisId: string };
type Req = { params?: Record<string, string>; query?: Record<string, string>; body?: unknown };
type Slot = {
  /** `path.run_id`, `query.project`, `body.prompts[].source.analysis_id`. */
  field: string;
  kinds: Kind[];
  build: (id: string, own: Own) => Req;
  /** When the answer for an unreachable id is not 404, the status and the documented reason. */
  status?: { code: number; why: string };
};

const path = (param: string, kinds: Kind[], extra: (own: Own) => Req = () => ({})): Slot => ({
  field: `path.${param}`,
  kinds,
  build: (id, own) => {
    const more = extra(own);
    return { ...more, params: { ...more.params, [param]: id } };
  },
});
const query = (name: string, kinds: Kind[]): Slot => ({ field: `query.${name}`, kinds, build: (id) => ({ query: { [name]: id } }) });
const body = (field: string, kinds: Kind[], build: Slot["build"], status?: Slot["status"]): Slot => ({
  field: `body.${field}`,
  kinds,
  build,
  status,
});

const byRun = [path("run_id", ["run"])];
const byAnalysis = [path("analysis_id", ["questionsAnalysis", "citationAnalysis", "visibilityAnalysis", "comparisonAnalysis"])];
const byWorkspace = (extra?: (own: Own) => Req) => [path("workspace_id", ["workspace"], extra)];
const fanoutBody = (project: string, analysisId?: string) => ({
  body: {
    prompts: [{ text: "which crm", ...(analysisId ? { source: { analysis_id: analysisId, question_id: "q1" } } : {}) }],
    engines: ["chatgpt"],
    runs: 1,
    project,
  },
});
const fanoutSlots: Slot[] = [
  body("project", ["project"], (id) => fanoutBody(id)),
  body("prompts[].source.analysis_id", ["questionsAnalysis"], (id, own) => fanoutBody(own.projectId, id), {
    code: 400,
    why: "docs/decisions.md (Fanouts): a source naming no questions analysis of the project's workspace is 400 naming the prompt",
  }),
];
const monitorBody = (project: string, analysisId?: string) => ({
  body: { ...fanoutBody(project, analysisId).body, entities: [{ name: "Acme", role: "brand" }] },
});
const monitorSlots: Slot[] = [
  body("project", ["project"], (id) => monitorBody(id)),
  body("prompts[].source.analysis_id", ["questionsAnalysis"], (id, own) => monitorBody(own.projectId, id), {
    code: 400,
    why: "docs/decisions.md (Monitors): a monitor's prompts' sources are checked as POST /fanouts checks them, 400 naming the prompt",
  }),
];
const byMonitor = [path("monitor_id", ["monitor"])];
const memberSlots = (bodyOf: () => unknown): Slot[] => [
  path("workspace_id", ["workspace"], (own) => ({ params: { member_id: String(own.membershipId) }, body: bodyOf() })),
  path("member_id", ["member"], (own) => ({ params: { workspace_id: own.workspaceId }, body: bodyOf() })),
];

/** Every operation that names an object, and how to aim each of its id fields at one. */
const MATRIX: Record<string, Slot[]> = {
  revokeApiKey: [path("key_id", ["apiKey"])],
  getRun: byRun,
  getBatch: [path("batch_id", ["batch"])],
  getRunShare: byRun,
  shareRun: byRun,
  unshareRun: byRun,
  rotateRunShare: byRun,
  getAnalysis: byAnalysis,
  listMentions: [
    path("analysis_id", ["visibilityAnalysis"]),
    { field: "query.run_id", kinds: ["run"], build: (id, own) => ({ params: { analysis_id: own.visibilityAnalysisId }, query: { run_id: id } }) },
  ],
  getAnalysisShare: byAnalysis,
  shareAnalysis: byAnalysis,
  unshareAnalysis: byAnalysis,
  rotateAnalysisShare: byAnalysis,
  getFanout: [path("fanout_id", ["fanout"])],
  getFanoutQueries: [path("fanout_id", ["fanout"])],
  getFanoutShare: [path("fanout_id", ["fanout"])],
  shareFanout: [path("fanout_id", ["fanout"])],
  unshareFanout: [path("fanout_id", ["fanout"])],
  rotateFanoutShare: [path("fanout_id", ["fanout"])],
  getBatchShare: [path("batch_id", ["batch"])],
  shareBatch: [path("batch_id", ["batch"])],
  unshareBatch: [path("batch_id", ["batch"])],
  rotateBatchShare: [path("batch_id", ["batch"])],
  getMonitorShare: byMonitor,
  shareMonitor: byMonitor,
  unshareMonitor: byMonitor,
  rotateMonitorShare: byMonitor,
  getWorkspace: byWorkspace(),
  updateWorkspace: byWorkspace(() => ({ body: { name: "Taken over" } })),
  listMembers: byWorkspace(),
  updateMember: memberSlots(() => ({ role: "member" })),
  removeMember: memberSlots(() => undefined),
  listInvitations: byWorkspace(),
  createInvitation: byWorkspace(() => ({ body: { email: "mallory@example.com" } })),
  revokeInvitation: [
    path("workspace_id", ["workspace"], () => ({ params: { invitation_id: `iv_${newUlid()}` } })),
    path("invitation_id", ["invitation"], (own) => ({ params: { workspace_id: own.workspaceId } })),
  ],
  getProject: [path("project_id", ["project"])],
  getProjectMonitorOverview: [path("project_id", ["project"])],
  updateProject: [path("project_id", ["project"], () => ({ body: { name: "Taken over" } }))],
  listRuns: [query("batch", ["batch"]), query("fanout", ["fanout"]), query("project", ["project"]), query("workspace", ["workspace"])],
  listAnalyses: [query("project", ["project"]), query("workspace", ["workspace"])],
  listFanouts: [query("project", ["project"]), query("workspace", ["workspace"])],
  listProjects: [query("workspace", ["workspace"])],
  getBilling: [query("workspace", ["workspace"])],
  listTransactions: [query("workspace", ["workspace"])],
  getUsage: [query("workspace", ["workspace"])],
  createApiKey: [body("workspace_id", ["workspace"], (id) => ({ body: { name: "taken", workspace_id: id } }))],
  createProject: [body("workspace_id", ["workspace"], (id) => ({ body: { name: "taken", workspace_id: id } }))],
  createPrompt: [body("project", ["project"], (id) => ({ body: { prompt: "best crm", engines: ["chatgpt"], project: id } }))],
  createAudit: [body("project", ["project"], (id) => ({ body: { url: "https://example.com/", project: id } }))],
  createQuestions: [body("project", ["project"], (id) => ({ body: { topic: "crm", count: 3, project: id } }))],
  estimateFanout: fanoutSlots,
  createFanout: fanoutSlots,
  createCitationAnalysis: [body("ids[]", ["run", "batch"], (id) => ({ body: { ids: [id] } }))],
  estimateMonitor: monitorSlots,
  createMonitor: monitorSlots,
  listMonitors: [query("project", ["project"]), query("workspace", ["workspace"])],
  getMonitor: byMonitor,
  updateMonitor: [
    path("monitor_id", ["monitor"], () => ({ body: { name: "Taken over", status: "paused" } })),
    body(
      "prompts[].source.analysis_id",
      ["questionsAnalysis"],
      (id, own) => ({ params: { monitor_id: own.monitorId }, body: { prompts: fanoutBody(own.projectId, id).body.prompts } }),
      { code: 400, why: "docs/decisions.md (Monitors): new prompts' sources are checked as POST /fanouts checks them, 400 naming the prompt" },
    ),
  ],
  deleteMonitor: byMonitor,
  runMonitor: byMonitor,
  listMonitorTicks: byMonitor,
  getMonitorTick: [
    path("monitor_id", ["monitor"], (own) => ({ params: { tick_id: own.tickId } })),
    path("tick_id", ["monitorTick"], (own) => ({ params: { monitor_id: own.monitorId } })),
  ],
  getMonitorSeries: byMonitor,
  rotateMonitorWebhookSecret: byMonitor,
  createVisibilityAnalysis: [body("ids[]", ["run", "batch", "fanout"], (id) => ({ body: { ids: [id], entities: [{ name: "HubSpot", role: "brand" }] } }))],
  createComparisonAnalysis: [body("ids[]", ["run", "batch", "fanout"], (id) => ({ body: { ids: [id], a: "chatgpt", b: "chatgpt_app", entities: [{ name: "HubSpot", role: "brand" }] } }))],
  listMonitorAlerts: byMonitor,
  testMonitorWebhook: byMonitor,
  listMonitorDigests: byMonitor,
  createOpportunityAnalysis: [body("analysis", ["questionsAnalysis", "citationAnalysis", "visibilityAnalysis"], (id) => ({ body: { analysis: id } }))],
};

/**
 * Id fields typed as plain strings, which the registry cannot see as ids: `ids` takes runs and
 * batches alike (a malformed one is 404 naming it, like a missing one).
 */
const PLAIN_STRING_IDS: Record<string, string[]> = { createCitationAnalysis: ["body.ids[]"], createVisibilityAnalysis: ["body.ids[]"], createComparisonAnalysis: ["body.ids[]"] };

/** Admin-only operations (spec 4.4.9), each aimed at the team workspace by a plain member of it. */
const ADMIN_ONLY: Record<string, () => Req> = {
  updateWorkspace: () => ({ params: { workspace_id: team.workspaceId }, body: { name: "Renamed by a member" } }),
  updateMember: () => ({ params: { workspace_id: team.workspaceId, member_id: String(aliceTeamMembership) }, body: { role: "member" } }),
  removeMember: () => ({ params: { workspace_id: team.workspaceId, member_id: String(aliceTeamMembership) } }),
  listInvitations: () => ({ params: { workspace_id: team.workspaceId } }),
  createInvitation: () => ({ params: { workspace_id: team.workspaceId }, body: { email: "friend@example.com" } }),
  revokeInvitation: () => ({ params: { workspace_id: team.workspaceId, invitation_id: team.invitationId! } }),
};

const WORK_STARTING = ["createPrompt", "createFanout", "createQuestions", "createAudit", "createCitationAnalysis", "createVisibilityAnalysis", "createComparisonAnalysis", "createMonitor", "runMonitor"];

let alice: Person; // owns everything under test, in her team workspace
let bob: Person; // an outsider
let carol: Person; // a plain member of Alice's team workspace
let team: WorkspaceObjects;
let aliceTeamMembership: number;
let callers: { label: string; token: () => string; own: () => Own; foreign: () => Record<Kind, string[]> }[];
let ownOfBob: Own;
let ownOfAliceKey: Own;

async function ownOf(p: Person, workspaceId: string): Promise<Own> {
  const projectId = (await sendJson(createProject, { token: p.cliToken, body: { name: "Own", workspace_id: workspaceId }, expected: 201 })).id;
  const membership = await db().membership.findFirstOrThrow({ where: { workspaceId, userId: p.id } });
  const monitorId = (await sendJson(createMonitor, { token: p.cliToken, body: monitorBody(projectId).body, expected: 201 })).id;
  // A tick of the caller's own monitor (skipped when the workspace has no credit: a tick all the same).
  const tickId = (await sendJson(runMonitor, { token: p.cliToken, params: { monitor_id: monitorId }, expected: 202 })).id;
  // A visibility analysis of the caller's own (of a run written as stored), to aim its mentions' run_id filter at others' runs.
  const runId = newId("run");
  await db().run.create({
    data: {
      id: runId, kind: "prompt", status: "completed", workspaceId, projectId, engine: "chatgpt", subject: "own run",
      input: { prompt: "own run", engine: "chatgpt", project: projectId }, result: { answer: "HubSpot leads.", searches: [], sources: [] },
    },
  });
  const entities = [{ name: "HubSpot", role: "brand" }];
  const visibilityAnalysisId = (await sendJson(createVisibilityAnalysis, { token: p.cliToken, body: { ids: [runId], entities }, expected: 201 })).id;
  return { workspaceId, projectId, membershipId: membership.id, monitorId, tickId, visibilityAnalysisId };
}

beforeAll(async () => {
  alice = await person("alice@example.com");
  bob = await person("bob@example.com");
  carol = await person("carol@example.com");
  const teamId = (await sendJson(createWorkspace, { token: alice.cliToken, body: { name: "Alice's team" }, expected: 201 })).id as string;
  await runBillingAdminCommand("credit:add", ["--workspace", teamId, "--usd", "50.00", "--note", "matrix"]);
  team = await seedObjects(alice, teamId, { member: carol, team: true });
  aliceTeamMembership = (await db().membership.findFirstOrThrow({ where: { workspaceId: teamId, userId: alice.id } })).id;
  ownOfBob = await ownOf(bob, bob.workspaceId);
  ownOfAliceKey = await ownOf(alice, alice.workspaceId);

  const inTeam: Record<Kind, string[]> = {
    workspace: [team.workspaceId],
    project: [team.projectId],
    apiKey: [team.apiKeyId],
    invitation: [team.invitationId!],
    member: [String(team.memberId), String(aliceTeamMembership)],
    run: [team.promptRunId, team.auditRunId, team.questionsRunId, team.fanoutRunId],
    batch: [team.batchId],
    fanout: [team.fanoutId],
    questionsAnalysis: [team.questionsAnalysisId],
    citationAnalysis: [team.citationAnalysisId],
    monitor: [team.monitorId],
    monitorTick: [team.tickId],
    visibilityAnalysis: [team.visibilityAnalysisId],
    comparisonAnalysis: [team.comparisonAnalysisId],
  };
  // To Bob, Alice's personal workspace, its project and its key are as foreign as her team's.
  const toBob = {
    ...inTeam,
    workspace: [...inTeam.workspace, alice.workspaceId],
    project: [...inTeam.project, ownOfAliceKey.projectId],
    apiKey: [...inTeam.apiKey, alice.apiKeyId],
  };
  callers = [
    { label: "another person's API key", token: () => bob.apiKey, own: () => ownOfBob, foreign: () => toBob },
    { label: "another person's CLI token", token: () => bob.cliToken, own: () => ownOfBob, foreign: () => toBob },
    { label: "the owner's API key of her other workspace", token: () => alice.apiKey, own: () => ownOfAliceKey, foreign: () => inTeam },
  ];
  await localDriver().drained();
});

afterAll(async () => {
  await localDriver().drained();
  resetConfig();
});

const byId = new Map(endpoints.map((e) => [e.operationId, e]));

function endpoint(operationId: string): EndpointDefinition {
  const found = byId.get(operationId);
  if (!found) throw new Error(`${operationId} is not in the registry`);
  return found;
}

/** An id of the same kind (same prefix) that names nothing. */
function missingLike(id: string): string {
  return /^\d+$/.test(id) ? "2147480000" : `${id.slice(0, id.indexOf("_"))}_${newUlid()}`;
}

/** The response text with the id replaced, so two answers about different ids compare byte for byte. */
function withoutId(text: string, id: string): string {
  return /^\d+$/.test(id) ? text.replaceAll(`\\"${id}\\"`, "<ID>") : text.replaceAll(id, "<ID>");
}

async function ask(e: EndpointDefinition, token: string, req: Req) {
  const params = req.params ?? {};
  return call(await handlerOf(e), e.method, fillPath(e.path, params), { token, params, query: req.query, body: req.body });
}

describe("the matrix", () => {
  it("covers exactly the registry's operations that name an object, and every id field of each", () => {
    const naming = endpoints.filter((e) => e.params || namesObject(e.query) || namesObject(e.body) || PLAIN_STRING_IDS[e.operationId]);
    expect(Object.keys(MATRIX).sort()).toEqual(naming.map((e) => e.operationId).sort());
    for (const e of naming) {
      const fields = [
        ...Object.keys(e.params?.shape ?? {}).map((p) => `path.${p}`),
        ...(e.query ? idFieldPaths(jsonSchemaOf(e.query)).map((f) => `query.${f}`) : []),
        ...(e.body ? idFieldPaths(jsonSchemaOf(e.body)).map((f) => `body.${f}`) : []),
        ...(PLAIN_STRING_IDS[e.operationId] ?? []),
      ];
      expect(MATRIX[e.operationId]!.map((s) => s.field).sort(), e.operationId).toEqual(fields.sort());
    }
  });

  it("lists every admin-only operation: those that may answer permission_denied inside a workspace", () => {
    const adminOnly = endpoints.filter((e) => e.errors?.includes("permission_denied") && e.params?.shape.workspace_id);
    expect(Object.keys(ADMIN_ONLY).sort()).toEqual(adminOnly.map((e) => e.operationId).sort());
  });
});

describe.each([0, 1, 2])("objects out of reach (caller %i)", (index) => {
  it("answer exactly as missing ones, for every operation and id field, and nothing changes", async () => {
    const caller = callers[index]!;
    const token = caller.token();
    const own = caller.own();
    const foreign = caller.foreign();
    const problems: string[] = [];
    let asked = 0;
    let before = await dbFingerprint();
    for (const [operationId, slots] of Object.entries(MATRIX)) {
      const e = endpoint(operationId);
      for (const slot of slots) {
        for (const kind of slot.kinds) {
          for (const id of foreign[kind]) {
            const missingId = missingLike(id);
            const theirs = await ask(e, token, slot.build(id, own));
            const none = await ask(e, token, slot.build(missingId, own));
            asked += 2;
            const where = `${caller.label}: ${e.method} ${e.path} ${slot.field} = ${kind} ${id}`;
            const status = slot.status?.code ?? 404;
            if (theirs.status !== status || none.status !== status) {
              problems.push(`${where}: ${theirs.status} (missing id: ${none.status}), expected ${status}: ${theirs.text}`);
            }
            if (withoutId(theirs.text, id) !== withoutId(none.text, missingId)) {
              problems.push(`${where}: ${theirs.text} differs from the missing id's ${none.text}`);
            }
            const after = await dbFingerprint();
            const changes = fingerprintChanges(before, after);
            if (changes.length) problems.push(`${where}: changed the database (${changes.join("; ")})`);
            before = after;
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(asked).toBeGreaterThan(100);
  });
});

describe("work-starting requests", () => {
  it("naming a project, runs or a monitor out of reach create nothing: no run, batch, fanout, analysis, hold, job, monitor or tick", async () => {
    const counts = () =>
      Promise.all([
        db().run.count(), db().batch.count(), db().fanout.count(), db().analysis.count(), db().creditHold.count(), db().job.count(),
        db().monitor.count(), db().monitorTick.count(),
      ]);
    const before = await counts();
    for (const operationId of WORK_STARTING) {
      for (const slot of MATRIX[operationId]!) {
        for (const kind of slot.kinds) {
          const id = callers[1]!.foreign()[kind][0]!;
          const res = await ask(endpoint(operationId), bob.cliToken, slot.build(id, ownOfBob));
          expect(res.status, `${operationId} ${slot.field}`).toBe(slot.status?.code ?? 404);
        }
      }
    }
    expect(await counts()).toEqual(before);
  });
});

describe("admin-only actions", () => {
  it("answer 403 permission_denied to a plain member, by CLI token and by API key, and change nothing", async () => {
    const carolKey = (await issueApiKey(carol.id, team.workspaceId, "carol's team key")).key;
    const problems: string[] = [];
    let before = await dbFingerprint();
    for (const token of [carol.cliToken, carolKey]) {
      for (const [operationId, build] of Object.entries(ADMIN_ONLY)) {
        const e = endpoint(operationId);
        const res = await ask(e, token, build());
        if (res.status !== 403 || res.body.error.code !== "permission_denied") problems.push(`${operationId}: ${res.status} ${res.text}`);
        const after = await dbFingerprint();
        const changes = fingerprintChanges(before, after);
        if (changes.length) problems.push(`${operationId}: changed the database (${changes.join("; ")})`);
        before = after;
      }
    }
    expect(problems).toEqual([]);
  });
});

describe("credential kinds", () => {
  it("does not take a browser session as a credential: /api/v1 answers 401 to the session cookie alone", async () => {
    // authenticate() reads only Authorization: Bearer (an API key or a CLI token); the browser
    // acts through server actions, not through this API.
    const sessionToken = `matrix-${newUlid()}`;
    const expires = new Date(Date.now() + 3600_000);
    await db().session.create({ data: { id: newId("session"), sessionTokenHash: hashSecret(sessionToken), userId: alice.id, expires } });
    const cookie = `next-auth.session-token=${sessionToken}; __Secure-next-auth.session-token=${sessionToken}`;
    for (const e of endpoints.filter((x) => x.auth === "bearer")) {
      const params = Object.fromEntries(Object.keys(e.params?.shape ?? {}).map((p) => [p, p === "member_id" ? "1" : `xx_${newUlid()}`]));
      const res = await call(await handlerOf(e), e.method, fillPath(e.path, params), { params, headers: { cookie } });
      expect(res.status, `${e.method} ${e.path}`).toBe(401);
    }
  });
});
