// The authorization matrix for the browser's server actions (app/**/actions.ts): person B, signed
// in, aimed at A's objects, gets what the API gives B for the same request (the same not-found
// message, nothing changed), and a plain member gets the API's 403 for admin-only actions. Every
// exported action has a row: a new action without one fails the test.
import { readdirSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db/client";
import * as authApi from "@/lib/schemas/auth";
import * as projectsApi from "@/lib/schemas/projects";
import * as analysesApi from "@/lib/schemas/analyses";
import * as comparisonApi from "@/lib/schemas/comparison";
import * as auditsApi from "@/lib/schemas/runs";
import * as fanoutsApi from "@/lib/schemas/fanouts";
import * as alertsApi from "@/lib/schemas/alerts";
import * as monitorsApi from "@/lib/schemas/monitors";
import * as opportunitiesApi from "@/lib/schemas/opportunities";
import * as questionsApi from "@/lib/schemas/questions";
import * as sharesApi from "@/lib/schemas/shares";
import * as workspacesApi from "@/lib/schemas/workspaces";
import { useTestDatabase } from "../helpers/app";
import { dbFingerprint, fingerprintChanges } from "../helpers/fingerprint";
import { addMember, person, principalOf, type Person } from "../helpers/people";
import { seedObjects, type WorkspaceObjects } from "../helpers/objects";
import { sendJson } from "../helpers/routes";

let signedIn: Principal;
vi.mock("@/lib/auth/session", () => ({
  requireSessionPrincipal: async () => signedIn,
  sessionPrincipal: async () => signedIn,
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

/** What Next's redirect() does (it throws), with the target kept for the assertion. */
class Redirected extends Error {
  constructor(readonly url: string) {
    super(`redirect to ${url}`);
  }
}
vi.mock("next/navigation", () => ({
  redirect: (url: string) => {
    throw new Redirected(url);
  },
  notFound: () => {
    throw new Redirected("404");
  },
}));
const cookiesSet: string[] = [];
vi.mock("next/headers", () => ({ cookies: async () => ({ set: (name: string) => void cookiesSet.push(name) }) }));

const APP_DIR = path.resolve(import.meta.dirname, "..", "..", "app");

/** Every app/**\/actions.ts, relative to the repository root. */
function actionModules(dir = APP_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return actionModules(full);
    return e.name === "actions.ts" ? [path.relative(path.resolve(APP_DIR, ".."), full)] : [];
  });
}

const loaded = Object.fromEntries(
  await Promise.all(actionModules().map(async (file) => [file, (await import(path.resolve(APP_DIR, "..", file))) as Record<string, unknown>] as const)),
);
const account = loaded["app/account/actions.ts"] as typeof import("@/app/account/actions");
const device = loaded["app/device/actions.ts"] as typeof import("@/app/device/actions");
const invite = loaded["app/invite/[token]/actions.ts"] as typeof import("@/app/invite/[token]/actions");
const research = loaded["app/(research)/actions.ts"] as typeof import("@/app/(research)/actions");
const monitors = loaded["app/(research)/monitors/actions.ts"] as typeof import("@/app/(research)/monitors/actions");
const monitorPage = loaded["app/(research)/monitors/[monitor_id]/actions.ts"] as typeof import("@/app/(research)/monitors/[monitor_id]/actions");
const analysisPage = loaded["app/(research)/analyses/[analysis_id]/actions.ts"] as typeof import("@/app/(research)/analyses/[analysis_id]/actions");
const { startDeviceLogin } = await import("@/lib/auth/create");
const { decideDeviceLogin } = await import("@/lib/auth/device");

useTestDatabase();

let a: Person;
let b: Person;
let member: Person;
let team: string;
let projectId: string;
let invitationId: string;
let memberId: number;
let ownerMemberId: number;
let decidedCode: string;
let seeded: WorkspaceObjects;

beforeAll(async () => {
  [a, b, member] = await Promise.all([person("ana@example.com"), person("ben@example.com"), person("mo@example.com")]);
  const token = a.cliToken;
  team = (await sendJson(workspacesApi.createWorkspace, { token, body: { name: "Ana's team" }, expected: 201 })).id;
  memberId = (await addMember(team, member.id, "member")).id;
  ownerMemberId = (await db().membership.findUniqueOrThrow({ where: { workspaceId_userId: { workspaceId: team, userId: a.id } } })).id;
  projectId = (await sendJson(projectsApi.createProject, { token, body: { name: "Ana's research", workspace_id: team }, expected: 201 })).id;
  const invitation = await sendJson(workspacesApi.createInvitation, {
    token,
    params: { workspace_id: team },
    body: { email: "dana@example.com", role: "member" },
    expected: 201,
  });
  invitationId = invitation.id;
  const started = await startDeviceLogin("ana's laptop");
  await decideDeviceLogin(a.id, started.user_code, true);
  decidedCode = started.user_code;
  seeded = await seedObjects(a, a.workspaceId);
});

function form(fields: Record<string, string | number>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, String(value));
  return data;
}

const idle = { ok: true };

/** The API's answer to `who` for the same request: its status must be `status`; its message is what the action must say. */
async function apiMessage(who: Person, status: number, endpoint: Parameters<typeof sendJson>[0], request: { params?: Record<string, string>; body?: unknown }) {
  const answer = await sendJson(endpoint, { token: who.cliToken, ...request, expected: status });
  return answer.error.message as string;
}

/** Runs `attempt` as `who`, and proves the database is as it was afterwards. */
async function unchangedAfter<T>(who: Person, attempt: () => Promise<T>): Promise<T> {
  signedIn = principalOf(who);
  const before = await dbFingerprint();
  const outcome = await attempt();
  expect(fingerprintChanges(before, await dbFingerprint())).toEqual([]);
  return outcome;
}

async function redirectOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (error instanceof Redirected) return error.url;
    throw error;
  }
  throw new Error("the action did not redirect");
}

/** A's shared prompt run, questions analysis, prompt batch, fanout and monitor, with the API's share endpoints for each. */
function shareTargets() {
  return [
    ["run", seeded.promptRunId, { create: sharesApi.shareRun, rotate: sharesApi.rotateRunShare, revoke: sharesApi.unshareRun }, { run_id: seeded.promptRunId }],
    [
      "analysis",
      seeded.questionsAnalysisId,
      { create: sharesApi.shareAnalysis, rotate: sharesApi.rotateAnalysisShare, revoke: sharesApi.unshareAnalysis },
      { analysis_id: seeded.questionsAnalysisId },
    ],
    ["batch", seeded.batchId, { create: sharesApi.shareBatch, rotate: sharesApi.rotateBatchShare, revoke: sharesApi.unshareBatch }, { batch_id: seeded.batchId }],
    ["fanout", seeded.fanoutId, { create: sharesApi.shareFanout, rotate: sharesApi.rotateFanoutShare, revoke: sharesApi.unshareFanout }, { fanout_id: seeded.fanoutId }],
    ["monitor", seeded.monitorId, { create: sharesApi.shareMonitor, rotate: sharesApi.rotateMonitorShare, revoke: sharesApi.unshareMonitor }, { monitor_id: seeded.monitorId }],
  ] as const;
}

type Row = { foreign: () => Promise<void>; adminOnly?: () => Promise<void> };

/** One row per exported action: B against A's objects, and (admin-only actions) a plain member of A's team. */
const matrix: Record<string, Record<string, Row>> = {
  "app/(research)/analyses/[analysis_id]/actions.ts": {
    // A's visibility analysis and A's opportunity list: refused in the words a missing one is
    // (the API's 404), nothing made, held or started.
    findOpportunitiesAction: {
      async foreign() {
        const missing = "va_01M8CWEPXJDWTAJZMNEF2H98M3";
        const expected = await apiMessage(b, 404, opportunitiesApi.createOpportunityAnalysis, { body: { analysis: seeded.visibilityAnalysisId } });
        const ofMissing = await apiMessage(b, 404, opportunitiesApi.createOpportunityAnalysis, { body: { analysis: missing } });
        expect(expected).toBe(ofMissing.replace(missing, seeded.visibilityAnalysisId));
        const url = await unchangedAfter(b, () => redirectOf(() => analysisPage.findOpportunitiesAction(form({ analysis_id: seeded.visibilityAnalysisId }))));
        expect(url).toBe(`/analyses/${seeded.visibilityAnalysisId}?opportunities=${encodeURIComponent(expected)}#opportunities`);
      },
    },
    auditPagesAction: {
      async foreign() {
        const list = await sendJson(opportunitiesApi.createOpportunityAnalysis, { token: a.cliToken, body: { analysis: seeded.visibilityAnalysisId }, expected: 201 });
        const missing = "op_01M8CWEPXJDWTAJZMNEF2H98M3";
        const fields = (id: string) => form({ analysis_id: id, url: "https://www.g2.com/crm" });
        const ofMissing = await unchangedAfter(b, () => analysisPage.auditPagesAction(idle, fields(missing)));
        const outcome = await unchangedAfter(b, () => analysisPage.auditPagesAction(idle, fields(list.id)));
        expect(ofMissing).toMatchObject({ ok: false, message: `No such analysis "${missing}".` });
        expect(outcome).toEqual({ ...ofMissing, message: ofMissing.message?.replace(missing, list.id) });
      },
    },
  },
  "app/account/actions.ts": {
    createApiKeyAction: {
      async foreign() {
        const body = { name: "sneaky", workspace_id: team };
        const expected = await apiMessage(b, 404, authApi.createApiKey, { body });
        expect(await unchangedAfter(b, () => account.createApiKeyAction(idle, form(body)))).toEqual({ ok: false, message: expected });
      },
    },
    revokeApiKeyAction: {
      async foreign() {
        const expected = await apiMessage(b, 404, authApi.revokeApiKey, { params: { key_id: a.apiKeyId } });
        expect(await unchangedAfter(b, () => account.revokeApiKeyAction(idle, form({ key_id: a.apiKeyId })))).toEqual({ ok: false, message: expected });
      },
    },
    revokeCliTokenAction: {
      // No API endpoint revokes a login by id (DELETE /cli/auth/token revokes the caller's own):
      // A's login answers exactly as a well-formed id that does not exist.
      async foreign() {
        const missing = "ct_00000000000000000000000000";
        const absent = await unchangedAfter(b, () => account.revokeCliTokenAction(idle, form({ token_id: missing })));
        const outcome = await unchangedAfter(b, () => account.revokeCliTokenAction(idle, form({ token_id: a.cliTokenId })));
        expect(outcome).toEqual({ ok: false, message: absent.message!.replace(missing, a.cliTokenId) });
      },
    },
    createWorkspaceAction: {
      // Names no object: whatever B sends, the new workspace is B's alone and nothing of A's changes.
      async foreign() {
        signedIn = principalOf(b);
        const before = await db().membership.findMany({ where: { userId: { not: b.id } }, orderBy: { id: "asc" } });
        expect(await account.createWorkspaceAction(idle, form({ name: "Ben's", workspace_id: team }))).toEqual({ ok: true, message: "Workspace created." });
        const made = await db().workspace.findFirstOrThrow({ where: { name: "Ben's" }, include: { memberships: true } });
        expect(made.memberships.map((m) => [m.userId, m.role])).toEqual([[b.id, "admin"]]);
        expect(await db().membership.findMany({ where: { userId: { not: b.id } }, orderBy: { id: "asc" } })).toEqual(before);
      },
    },
    renameWorkspaceAction: {
      async foreign() {
        const expected = await apiMessage(b, 404, workspacesApi.updateWorkspace, { params: { workspace_id: team }, body: { name: "Mine" } });
        const outcome = await unchangedAfter(b, () => account.renameWorkspaceAction(idle, form({ workspace_id: team, name: "Mine" })));
        expect(outcome).toEqual({ ok: false, message: expected });
      },
      async adminOnly() {
        const expected = await apiMessage(member, 403, workspacesApi.updateWorkspace, { params: { workspace_id: team }, body: { name: "Mine" } });
        const outcome = await unchangedAfter(member, () => account.renameWorkspaceAction(idle, form({ workspace_id: team, name: "Mine" })));
        expect(outcome).toEqual({ ok: false, message: expected });
      },
    },
    changeRoleAction: {
      async foreign() {
        const params = { workspace_id: team, member_id: String(memberId) };
        const expected = await apiMessage(b, 404, workspacesApi.updateMember, { params, body: { role: "admin" } });
        const outcome = await unchangedAfter(b, () => account.changeRoleAction(idle, form({ ...params, role: "admin" })));
        expect(outcome).toEqual({ ok: false, message: expected });
      },
      async adminOnly() {
        const params = { workspace_id: team, member_id: String(memberId) };
        const expected = await apiMessage(member, 403, workspacesApi.updateMember, { params, body: { role: "admin" } });
        const outcome = await unchangedAfter(member, () => account.changeRoleAction(idle, form({ ...params, role: "admin" })));
        expect(outcome).toEqual({ ok: false, message: expected });
      },
    },
    removeMemberAction: {
      async foreign() {
        const params = { workspace_id: team, member_id: String(memberId) };
        const expected = await apiMessage(b, 404, workspacesApi.removeMember, { params });
        expect(await unchangedAfter(b, () => account.removeMemberAction(idle, form(params)))).toEqual({ ok: false, message: expected });
      },
      async adminOnly() {
        // Leaving is a member's own choice; removing someone else (here the admin) is not.
        const params = { workspace_id: team, member_id: String(ownerMemberId) };
        const expected = await apiMessage(member, 403, workspacesApi.removeMember, { params });
        expect(await unchangedAfter(member, () => account.removeMemberAction(idle, form(params)))).toEqual({ ok: false, message: expected });
      },
    },
    createInvitationAction: {
      async foreign() {
        const body = { email: "eve@example.com", role: "admin" };
        const expected = await apiMessage(b, 404, workspacesApi.createInvitation, { params: { workspace_id: team }, body });
        const outcome = await unchangedAfter(b, () => account.createInvitationAction(idle, form({ workspace_id: team, ...body })));
        expect(outcome).toEqual({ ok: false, message: expected });
      },
      async adminOnly() {
        const body = { email: "eve@example.com", role: "admin" };
        const expected = await apiMessage(member, 403, workspacesApi.createInvitation, { params: { workspace_id: team }, body });
        const outcome = await unchangedAfter(member, () => account.createInvitationAction(idle, form({ workspace_id: team, ...body })));
        expect(outcome).toEqual({ ok: false, message: expected });
      },
    },
    revokeInvitationAction: {
      async foreign() {
        const params = { workspace_id: team, invitation_id: invitationId };
        const expected = await apiMessage(b, 404, workspacesApi.revokeInvitation, { params });
        expect(await unchangedAfter(b, () => account.revokeInvitationAction(idle, form(params)))).toEqual({ ok: false, message: expected });
      },
      async adminOnly() {
        const params = { workspace_id: team, invitation_id: invitationId };
        const expected = await apiMessage(member, 403, workspacesApi.revokeInvitation, { params });
        expect(await unchangedAfter(member, () => account.revokeInvitationAction(idle, form(params)))).toEqual({ ok: false, message: expected });
      },
    },
    createProjectAction: {
      async foreign() {
        const expected = await apiMessage(b, 404, projectsApi.createProject, { body: { name: "Mine", workspace_id: team } });
        const outcome = await unchangedAfter(b, () => account.createProjectAction(idle, form({ name: "Mine", workspace_id: team })));
        expect(outcome).toEqual({ ok: false, message: expected });
      },
    },
    updateProjectAction: {
      async foreign() {
        const expected = await apiMessage(b, 404, projectsApi.updateProject, { params: { project_id: projectId }, body: { name: "Mine" } });
        const outcome = await unchangedAfter(b, () => account.updateProjectAction(idle, form({ project_id: projectId, name: "Mine" })));
        expect(outcome).toEqual({ ok: false, message: expected });
      },
    },
  },
  "app/(research)/actions.ts": {
    // Starting work in A's project, and the share controls of A's run and analysis: B gets the
    // API's 404 message for the same body, and nothing is created, held or shared.
    startPromptAction: {
      async foreign() {
        const body = { prompt: "best crm", engines: ["chatgpt"], project: seeded.projectId };
        const expected = await apiMessage(b, 404, auditsApi.createPrompt, { body });
        const outcome = await unchangedAfter(b, () => research.startPromptAction(idle, form({ ...body, engines: "chatgpt" })));
        expect(outcome).toEqual({ ok: false, message: expected, needsCredit: false });
      },
    },
    judgeVisibilityAction: {
      async foreign() {
        // A's analysis is refused in the words a missing one is, and nothing is held or queued.
        const missing = "va_01M8CWEPXJDWTAJZMNEF2H98M3";
        const fields = (id: string) => form({ project: seeded.projectId, analysis_id: id, engine: "chatgpt", sentiment: "on" });
        const ofMissing = await unchangedAfter(b, () => research.judgeVisibilityAction(idle, fields(missing)));
        const outcome = await unchangedAfter(b, () => research.judgeVisibilityAction(idle, fields(seeded.visibilityAnalysisId)));
        expect(outcome).toEqual({ ...ofMissing, message: ofMissing.message?.replace(missing, seeded.visibilityAnalysisId) });
        expect(outcome).toMatchObject({ ok: false });
      },
    },
    estimateFanoutAction: {
      async foreign() {
        const body = { prompts: [{ text: "best crm" }], engines: ["chatgpt"], runs: 1, project: seeded.projectId };
        const expected = await apiMessage(b, 404, fanoutsApi.estimateFanout, { body });
        const outcome = await unchangedAfter(b, () => research.estimateFanoutAction(idle, form({ prompts: "best crm", engines: "chatgpt", runs: 1, project: seeded.projectId })));
        expect(outcome).toEqual({ ok: false, message: expected });
      },
    },
    startFanoutAction: {
      async foreign() {
        const body = { prompts: [{ text: "best crm" }], engines: ["chatgpt"], runs: 1, project: seeded.projectId };
        const expected = await apiMessage(b, 404, fanoutsApi.createFanout, { body });
        const outcome = await unchangedAfter(b, () => research.startFanoutAction(idle, form({ prompts: "best crm", engines: "chatgpt", runs: 1, project: seeded.projectId })));
        expect(outcome).toEqual({ ok: false, message: expected, needsCredit: false });
      },
    },
    startQuestionsAction: {
      async foreign() {
        const body = { topic: "crm", count: 3, project: seeded.projectId };
        const expected = await apiMessage(b, 404, questionsApi.createQuestions, { body });
        const outcome = await unchangedAfter(b, () => research.startQuestionsAction(idle, form(body)));
        expect(outcome).toEqual({ ok: false, message: expected, needsCredit: false });
      },
    },
    saveEntitiesAction: {
      async foreign() {
        // B naming A's project's brands: the API's 404 for the same change, and A's context unchanged.
        const expected = await apiMessage(b, 404, projectsApi.updateProject, { params: { project_id: seeded.projectId }, body: { context: { brands: ["Mine"] } } });
        const fields = { project_id: seeded.projectId, rows: "1", "name.0": "Mine", "role.0": "brand", "aliases.0": "", "domains.0": "" };
        const outcome = await unchangedAfter(b, () => research.saveEntitiesAction(idle, form(fields)));
        expect(outcome).toEqual({ ok: false, message: expected });
      },
    },
    addCompetitorAction: {
      async foreign() {
        // B tracking a discovered name in A's project: the API refuses B that project (404), the
        // action says refused on the analysis page, and A's context is unchanged.
        await apiMessage(b, 404, projectsApi.updateProject, { params: { project_id: seeded.projectId }, body: { context: { competitors: ["Rival"] } } });
        const analysisId = "va_01M8CWEPXJDWTAJZMNEF2H98M3";
        const fields = { project_id: seeded.projectId, analysis_id: analysisId, name: "Rival" };
        expect(await unchangedAfter(b, () => redirectOf(() => research.addCompetitorAction(form(fields))))).toBe(
          `/analyses/${analysisId}?competitor=Rival&outcome=refused#discovered`,
        );
      },
    },
    startAuditAction: {
      async foreign() {
        const body = { url: "https://acme.com/", project: seeded.projectId };
        const expected = await apiMessage(b, 404, auditsApi.createAudit, { body });
        const outcome = await unchangedAfter(b, () => research.startAuditAction(idle, form(body)));
        expect(outcome).toEqual({ ok: false, message: expected, needsCredit: false });
      },
    },
    startCitationAnalysisAction: {
      async foreign() {
        // B's own project, A's batch and run: the API names the first id B cannot see.
        const body = { ids: [seeded.batchId, seeded.promptRunId], use_project_context: true };
        const expected = await apiMessage(b, 404, analysesApi.createCitationAnalysis, { body });
        const data = form({ project: seeded.projectId });
        for (const id of body.ids) data.append("ids", id);
        expect(await unchangedAfter(b, () => research.startCitationAnalysisAction(idle, data))).toEqual({ ok: false, message: expected, needsCredit: false });
      },
    },
    compareEnginesAction: {
      async foreign() {
        // Compare engines on A's fanout: the API names the fanout B cannot see, and nothing is made.
        const body = { ids: [seeded.fanoutId], a: "chatgpt" as const, b: "claude" as const };
        const expected = await apiMessage(b, 404, comparisonApi.createComparisonAnalysis, { body });
        const data = form({ project: seeded.projectId, a: "chatgpt", b: "claude", ids: seeded.fanoutId });
        expect(await unchangedAfter(b, () => research.compareEnginesAction(idle, data))).toEqual({ ok: false, message: expected, needsCredit: false });
      },
    },
    shareAction: {
      async foreign() {
        for (const [kind, id, endpoint, params] of shareTargets()) {
          const expected = await apiMessage(b, 404, endpoint.create, { params });
          const outcome = await unchangedAfter(b, () => research.shareAction(idle, form({ kind, id })));
          expect(outcome).toEqual({ ok: false, message: expected, at: expect.any(Number) });
        }
      },
    },
    rotateShareAction: {
      async foreign() {
        for (const [kind, id, endpoint, params] of shareTargets()) {
          const expected = await apiMessage(b, 404, endpoint.rotate, { params });
          const outcome = await unchangedAfter(b, () => research.rotateShareAction(idle, form({ kind, id })));
          expect(outcome).toEqual({ ok: false, message: expected, at: expect.any(Number) });
        }
      },
    },
    revokeShareAction: {
      async foreign() {
        for (const [kind, id, endpoint, params] of shareTargets()) {
          const expected = await apiMessage(b, 404, endpoint.revoke, { params });
          const outcome = await unchangedAfter(b, () => research.revokeShareAction(idle, form({ kind, id })));
          expect(outcome).toEqual({ ok: false, message: expected, at: expect.any(Number) });
        }
      },
    },
  },
  "app/(research)/monitors/actions.ts": {
    // "Track these prompts" from A's fanout or questions cluster, "New monitor" of A's project, and the controls of A's monitor:
    // B gets the API's 404 message for the same object, and nothing is created, run or changed.
    createMonitorAction: {
      async foreign() {
        const fanout = await apiMessage(b, 404, fanoutsApi.getFanout, { params: { fanout_id: seeded.fanoutId } });
        const fromFanout = await unchangedAfter(b, () => monitors.createMonitorAction(idle, form({ from: seeded.fanoutId, engines: "chatgpt", runs: 1 })));
        expect(fromFanout).toEqual({ ok: false, message: fanout });
        const analysis = await apiMessage(b, 404, analysesApi.getAnalysis, { params: { analysis_id: seeded.questionsAnalysisId } });
        const fromCluster = await unchangedAfter(b, () => monitors.createMonitorAction(idle, form({ from: seeded.questionsAnalysisId, cluster: "c1", engines: "chatgpt" })));
        expect(fromCluster).toEqual({ ok: false, message: analysis });
        // "New monitor" of A's project, prompts typed: the API's 404 for the project.
        const project = await apiMessage(b, 404, projectsApi.getProject, { params: { project_id: seeded.projectId } });
        const fromProject = await unchangedAfter(b, () => monitors.createMonitorAction(idle, form({ from: seeded.projectId, prompts: "best crm", engines: "chatgpt", runs: 1 })));
        expect(fromProject).toEqual({ ok: false, message: project });
      },
    },
    setMonitorStatusAction: {
      async foreign() {
        const params = { monitor_id: seeded.monitorId };
        const expected = await apiMessage(b, 404, monitorsApi.updateMonitor, { params, body: { status: "paused" } });
        const outcome = await unchangedAfter(b, () => monitors.setMonitorStatusAction(idle, form({ id: seeded.monitorId, status: "paused" })));
        expect(outcome).toEqual({ ok: false, message: expected, at: expect.any(Number) });
      },
    },
    runMonitorAction: {
      async foreign() {
        const expected = await apiMessage(b, 404, monitorsApi.runMonitor, { params: { monitor_id: seeded.monitorId } });
        const outcome = await unchangedAfter(b, () => monitors.runMonitorAction(idle, form({ id: seeded.monitorId })));
        expect(outcome).toEqual({ ok: false, message: expected, at: expect.any(Number) });
      },
    },
    deleteMonitorAction: {
      async foreign() {
        const expected = await apiMessage(b, 404, monitorsApi.deleteMonitor, { params: { monitor_id: seeded.monitorId } });
        const outcome = await unchangedAfter(b, () => monitors.deleteMonitorAction(idle, form({ id: seeded.monitorId })));
        expect(outcome).toEqual({ ok: false, message: expected, at: expect.any(Number) });
      },
    },
  },
  "app/(research)/monitors/[monitor_id]/actions.ts": {
    // The alert controls of A's monitor: B gets the API's 404 message, no ping is sent, nothing changes.
    rotateWebhookSecretAction: {
      async foreign() {
        const expected = await apiMessage(b, 404, monitorsApi.rotateMonitorWebhookSecret, { params: { monitor_id: seeded.monitorId } });
        const outcome = await unchangedAfter(b, () => monitorPage.rotateWebhookSecretAction(idle as never, form({ id: seeded.monitorId })));
        expect(outcome).toEqual({ ok: false, message: expected, at: expect.any(Number) });
      },
    },
    sendTestWebhookAction: {
      async foreign() {
        const expected = await apiMessage(b, 404, alertsApi.testMonitorWebhook, { params: { monitor_id: seeded.monitorId } });
        const outcome = await unchangedAfter(b, () => monitorPage.sendTestWebhookAction(idle, form({ id: seeded.monitorId })));
        expect(outcome).toEqual({ ok: false, message: expected, at: expect.any(Number) });
      },
    },
    updateAlertsAction: {
      async foreign() {
        const expected = await apiMessage(b, 404, monitorsApi.updateMonitor, { params: { monitor_id: seeded.monitorId }, body: { alerts: { email: true } } });
        const outcome = await unchangedAfter(b, () => monitorPage.updateAlertsAction(idle, form({ id: seeded.monitorId, email: "on", min_change: "5" })));
        expect(outcome).toEqual({ ok: false, message: expected, at: expect.any(Number) });
      },
    },
    updateMeasureAction: {
      async foreign() {
        // What A's monitor measures, changed or priced by B: the API's 404, nothing changed.
        const expected = await apiMessage(b, 404, monitorsApi.updateMonitor, { params: { monitor_id: seeded.monitorId }, body: { runs: 2 } });
        const fields = { id: seeded.monitorId, engines: "chatgpt", was_engines: "chatgpt", runs: "2", was_runs: "1" };
        expect(await unchangedAfter(b, () => monitorPage.updateMeasureAction(idle, form(fields)))).toEqual({ ok: false, message: expected, at: expect.any(Number) });
        expect(await unchangedAfter(b, () => monitorPage.updateMeasureAction(idle, form({ ...fields, intent: "estimate" })))).toEqual({
          ok: false,
          message: expected,
          at: expect.any(Number),
        });
      },
    },
    updateSettingsAction: {
      async foreign() {
        const expected = await apiMessage(b, 404, monitorsApi.updateMonitor, { params: { monitor_id: seeded.monitorId }, body: { monthly_budget_usd: "9.00" } });
        const outcome = await unchangedAfter(b, () => monitorPage.updateSettingsAction(idle, form({ id: seeded.monitorId, budget: "9.00", was_budget: "" })));
        expect(outcome).toEqual({ ok: false, message: expected, at: expect.any(Number) });
      },
    },
  },
  "app/device/actions.ts": {
    // A user code is not an object of A's: whoever holds a pending one may decide it. One A
    // already approved is gone for B, as an unknown one is, and B's typing it changes nothing.
    lookUpCodeAction: {
      async foreign() {
        expect(await unchangedAfter(b, () => redirectOf(() => device.lookUpCodeAction(form({ code: decidedCode }))))).toBe(
          `/device?error=unknown&typed=${encodeURIComponent(decidedCode)}`,
        );
      },
    },
    decideAction: {
      async foreign() {
        const url = await unchangedAfter(b, () => redirectOf(() => device.decideAction(form({ code: decidedCode, decision: "approve" }))));
        expect(url).toBe("/device?result=gone");
      },
    },
  },
  "app/invite/[token]/actions.ts": {
    // An invitation is reached by its secret token only; B, without it, is told there is no such invitation.
    acceptAction: {
      async foreign() {
        const url = await unchangedAfter(b, () => redirectOf(() => invite.acceptAction(form({ token: `${invitationId}AAAAAAAAAAAAAAAAAAAA` }))));
        expect(decodeURIComponent(url)).toMatch(/^\/invite\/.+\?error=No such invitation/);
      },
    },
    rememberInvitationAction: {
      // Only sets a cookie in B's own browser, and only for something shaped like a token.
      async foreign() {
        expect(await unchangedAfter(b, () => invite.rememberInvitationAction(invitationId))).toBe("/account");
        expect(cookiesSet).toEqual([]);
      },
    },
  },
};

describe("server actions authorization matrix", () => {
  it("has a row for every exported action of every app/**/actions.ts", () => {
    const exported = Object.fromEntries(
      Object.entries(loaded).map(([file, mod]) => [file, Object.keys(mod).filter((name) => typeof mod[name] === "function").sort()]),
    );
    const covered = Object.fromEntries(Object.entries(matrix).map(([file, rows]) => [file, Object.keys(rows).sort()]));
    expect(covered).toEqual(exported);
  });

  for (const [file, rows] of Object.entries(matrix)) {
    for (const [name, row] of Object.entries(rows)) {
      it(`${file} ${name}: B against A's objects gets what the API gives, nothing changed`, row.foreign);
      if (row.adminOnly) it(`${file} ${name}: a plain member is refused as the API refuses`, row.adminOnly);
    }
  }
});

describe("the device and invitation forms take their fields through the shared input parsing", () => {
  // A NUL byte, a lone surrogate, a page of text: no user code or token is any of these. Each is
  // answered as an unknown one, without a 500 and without a change to the database.
  const unstorable = ["BCDF\u0000GHJK", "\ud800BCD-FGHJ", "BCDF-GHJK".repeat(2_000)];

  it("a typed device code no code can be is an unknown code, and a decision on it decides nothing", async () => {
    const pending = await startDeviceLogin("mo's laptop");
    for (const code of unstorable) {
      // What was typed comes back into the field (when it is text at all), to be corrected.
      expect(await unchangedAfter(member, () => redirectOf(() => device.lookUpCodeAction(form({ code }))))).toMatch(/^\/device\?error=unknown(&typed=[^&]+)?$/);
      expect(await unchangedAfter(member, () => redirectOf(() => device.decideAction(form({ code, decision: "approve" }))))).toBe("/device?result=gone");
    }
    // A pending code with a decision that is neither approve nor deny stays pending.
    expect(await unchangedAfter(member, () => redirectOf(() => device.decideAction(form({ code: pending.user_code, decision: "maybe" }))))).toBe("/device?result=gone");
    expect(await unchangedAfter(member, () => redirectOf(() => device.lookUpCodeAction(form({ code: ` ${pending.user_code.toLowerCase()} ` }))))).toBe(
      `/device?code=${encodeURIComponent(pending.user_code.toLowerCase())}`,
    );
  });

  it("an invitation token no token can be is no such invitation", async () => {
    for (const token of unstorable) {
      const url = await unchangedAfter(member, () => redirectOf(() => invite.acceptAction(form({ token }))));
      expect(decodeURIComponent(url)).toMatch(/^\/invite\/.+\?error=No such invitation\.$/);
      expect(await unchangedAfter(member, () => invite.rememberInvitationAction(token))).toBe("/account");
    }
    expect(cookiesSet).toEqual([]);
  });
});
