// One object of every kind the API names by id, made in one workspace through the route handlers
// and finished (runs completed on the engine simulator), for tests that need real objects to aim
// at: the authorization matrix and the fuzzers. No vitest import (scripts/fuzz.ts uses it too).
import { createApiKey } from "@/lib/schemas/auth";
import { createFanout, getFanout } from "@/lib/schemas/fanouts";
import { createMonitor, runMonitor } from "@/lib/schemas/monitors";
import { createProject } from "@/lib/schemas/projects";
import { createCitationAnalysis, getAnalysis } from "@/lib/schemas/analyses";
import { createQuestions } from "@/lib/schemas/questions";
import { createAudit, createPrompt, getBatch, getRun } from "@/lib/schemas/runs";
import { shareAnalysis, shareBatch, shareFanout, shareMonitor, shareRun } from "@/lib/schemas/shares";
import { createVisibilityAnalysis } from "@/lib/schemas/visibility";
import { createComparisonAnalysis } from "@/lib/schemas/comparison";
import { createInvitation } from "@/lib/schemas/workspaces";
import { localDriver } from "@/lib/work/local-driver";
import { addMember, type Person } from "./people";
import { sendJson } from "./routes";

export type WorkspaceObjects = {
  workspaceId: string;
  projectId: string;
  /** The owner's API key for this workspace. */
  apiKeyId: string;
  /** Shared. */
  batchId: string;
  /** A prompt run of the batch, shared. */
  promptRunId: string;
  /** A finished audit run: of an address the fetcher refuses (so no network is used), failed uncharged. */
  auditRunId: string;
  /** A completed questions analysis, shared, and its `questions` run. */
  questionsAnalysisId: string;
  questionsRunId: string;
  questionIds: string[];
  citationAnalysisId: string;
  /** A visibility analysis of the batch and the fanout, tracking two names. */
  visibilityAnalysisId: string;
  /** A comparison of the batch's chatgpt run with the fanout's claude run (their prompts differ: none compared). */
  comparisonAnalysisId: string;
  /** Shared. */
  fanoutId: string;
  fanoutRunId: string;
  /** A monitor of the project, shared, with one tick (run now, closed). */
  monitorId: string;
  tickId: string;
  /** Team workspaces only: a pending invitation and a plain member's membership id. */
  invitationId?: string;
  memberId?: number;
};

/**
 * Makes the objects as `owner` (an admin of `workspaceId`) and waits until every run has
 * finished; with `member`, adds that person as a plain member; with `team` (a team workspace:
 * a personal one takes no invitations), invites someone.
 */
export async function seedObjects(owner: Person, workspaceId: string, options: { member?: Person; team?: boolean } = {}): Promise<WorkspaceObjects> {
  const token = owner.cliToken;
  const post = (endpoint: Parameters<typeof sendJson>[0], body: unknown, expected: number) => sendJson(endpoint, { token, body, expected });
  const projectId = (await post(createProject, { name: "Seeded research", workspace_id: workspaceId }, 201)).id as string;
  const apiKeyId = (await post(createApiKey, { name: "seeded key", workspace_id: workspaceId }, 201)).id as string;

  const prompt = await post(createPrompt, { prompt: "best crm for a startup", engines: ["chatgpt"], project: projectId }, 202);
  const batchId = prompt.batch.id as string;
  const audit = await post(createAudit, { url: "http://127.0.0.1:9/page", project: projectId }, 202);
  const questions = await post(createQuestions, { topic: "crm software", count: 3, project: projectId }, 202);
  const fanout = await post(createFanout, { prompts: [{ text: "which crm" }], engines: ["claude"], runs: 1, project: projectId }, 202);

  const batch = await sendJson(getBatch, { token, params: { batch_id: batchId }, query: { wait: 30 }, expected: 200 });
  const auditRun = await sendJson(getRun, { token, params: { run_id: audit.id }, query: { wait: 30 }, expected: 200 });
  const analysis = await sendJson(getAnalysis, { token, params: { analysis_id: questions.id }, query: { wait: 30 }, expected: 200 });
  const fanoutDone = await sendJson(getFanout, { token, params: { fanout_id: fanout.id }, query: { wait: 30 }, expected: 200 });
  await localDriver().drained();
  const statuses = { batch: batch.batch.status, questions: analysis.status, fanout: fanoutDone.status };
  for (const [what, status] of Object.entries(statuses)) if (status !== "completed") throw new Error(`seeded ${what} did not complete: ${status}`);
  // A page that gives no HTTP answer fails its audit (decisions.md "Audits").
  if (auditRun.status !== "failed") throw new Error(`seeded audit did not fail: ${auditRun.status}`);

  const citations = await post(createCitationAnalysis, { ids: [batchId] }, 201);
  const visibility = await post(createVisibilityAnalysis, { ids: [batchId, fanout.id], entities: [{ name: "HubSpot", role: "brand" }, { name: "Pipedrive", role: "competitor" }] }, 201);
  const comparison = await post(createComparisonAnalysis, { ids: [batchId, fanout.id], a: "chatgpt", b: "claude", entities: [{ name: "HubSpot", role: "brand" }] }, 201);
  const promptRunId = batch.batch.run_ids[0] as string;
  const monitorBody = { project: projectId, prompts: [{ text: "which crm" }], engines: ["claude"], runs: 1, entities: [{ name: "Acme", role: "brand" }] };
  const monitorId = (await post(createMonitor, monitorBody, 201)).id as string;
  await sendJson(shareMonitor, { token, params: { monitor_id: monitorId }, expected: 200 });
  const tickId = (await sendJson(runMonitor, { token, params: { monitor_id: monitorId }, expected: 202 })).id as string;
  await sendJson(shareRun, { token, params: { run_id: promptRunId }, expected: 200 });
  await sendJson(shareAnalysis, { token, params: { analysis_id: questions.id }, expected: 200 });
  await sendJson(shareBatch, { token, params: { batch_id: batchId }, expected: 200 });
  await sendJson(shareFanout, { token, params: { fanout_id: fanout.id }, expected: 200 });

  const objects: WorkspaceObjects = {
    workspaceId,
    projectId,
    apiKeyId,
    batchId,
    promptRunId,
    auditRunId: audit.id,
    questionsAnalysisId: questions.id,
    questionsRunId: analysis.run_ids[0],
    questionIds: analysis.questions.map((q: { id: string }) => q.id),
    citationAnalysisId: citations.id,
    visibilityAnalysisId: visibility.id,
    comparisonAnalysisId: comparison.id,
    fanoutId: fanout.id,
    fanoutRunId: fanoutDone.prompts[0].engines[0].runs[0].run_id,
    monitorId,
    tickId,
  };
  // The tick's runs finished and the tick closed (its last run's job closes it).
  await localDriver().drained();
  if (options.member) objects.memberId = (await addMember(workspaceId, options.member.id, "member")).id;
  if (options.team) {
    const body = { email: "invitee@example.com" };
    objects.invitationId = (await sendJson(createInvitation, { token, params: { workspace_id: workspaceId }, body, expected: 201 })).id;
  }
  return objects;
}
