// The one list of the API's schema modules and operations, which the OpenAPI document and the
// route test read: a new schema file is added here and nowhere else.
import type { EndpointDefinition, HttpMethod } from "./endpoint";
import * as accounts from "./accounts";
import * as alerts from "./alerts";
import * as analyses from "./analyses";
import * as audits from "./audits";
import * as auth from "./auth";
import * as billing from "./billing";
import * as common from "./common";
import * as comparison from "./comparison";
import * as digests from "./digests";
import * as engines from "./engines";
import * as fanouts from "./fanouts";
import * as locale from "./locale";
import * as monitors from "./monitors";
import * as opportunities from "./opportunities";
import * as overview from "./overview";
import * as plan from "./plan";
import * as projects from "./projects";
import * as questions from "./questions";
import * as results from "./results";
import * as runs from "./runs";
import * as service from "./service";
import * as shares from "./shares";
import * as summary from "./summary";
import * as visibility from "./visibility";
import * as workspaces from "./workspaces";

/**
 * Every module of lib/schemas that declares schemas. The OpenAPI document's components are the
 * named schemas (those with a metadata `id`) these export, in this order (each module's exports
 * in alphabetical order).
 */
export const schemaModules: readonly Readonly<Record<string, unknown>>[] = [
  accounts,
  alerts,
  analyses,
  audits,
  auth,
  billing,
  common,
  comparison,
  digests,
  engines,
  fanouts,
  locale,
  monitors,
  opportunities,
  overview,
  plan,
  projects,
  questions,
  results,
  runs,
  service,
  shares,
  summary,
  visibility,
  workspaces,
];

/**
 * Every operation of /api/v1, in the order the OpenAPI document lists them. A test checks that
 * this list and the route files under app/api/v1 name exactly the same operations.
 */
export const endpoints: readonly EndpointDefinition[] = [
  service.getVersion,
  engines.listEngines,
  accounts.getMe,
  auth.listApiKeys,
  auth.createApiKey,
  auth.revokeApiKey,
  auth.startCliAuth,
  auth.pollCliAuth,
  auth.revokeCliToken,
  runs.createPrompt,
  runs.listRuns,
  runs.getRun,
  runs.getBatch,
  runs.createAudit,
  questions.createQuestions,
  analyses.createCitationAnalysis,
  visibility.createVisibilityAnalysis,
  comparison.createComparisonAnalysis,
  opportunities.createOpportunityAnalysis,
  analyses.listAnalyses,
  analyses.getAnalysis,
  analyses.listMentions,
  fanouts.estimateFanout,
  fanouts.createFanout,
  fanouts.listFanouts,
  fanouts.getFanout,
  fanouts.getFanoutQueries,
  monitors.estimateMonitor,
  monitors.createMonitor,
  monitors.listMonitors,
  monitors.getMonitor,
  monitors.updateMonitor,
  monitors.deleteMonitor,
  monitors.runMonitor,
  monitors.listMonitorTicks,
  monitors.getMonitorTick,
  monitors.getMonitorSeries,
  overview.getProjectMonitorOverview,
  monitors.rotateMonitorWebhookSecret,
  alerts.listMonitorAlerts,
  alerts.testMonitorWebhook,
  digests.listMonitorDigests,
  // Each kind's share endpoints (GET, POST, DELETE …/share, POST …/share/rotate), kind by kind.
  ...shares.shareEndpointList,
  billing.getPricing,
  billing.getBilling,
  billing.listTransactions,
  billing.getUsage,
  workspaces.listWorkspaces,
  workspaces.createWorkspace,
  workspaces.getWorkspace,
  workspaces.updateWorkspace,
  workspaces.listMembers,
  workspaces.updateMember,
  workspaces.removeMember,
  workspaces.listInvitations,
  workspaces.createInvitation,
  workspaces.revokeInvitation,
  projects.listProjects,
  projects.createProject,
  projects.getProject,
  projects.updateProject,
];

/** Routes under /api/v1 that are not operations of the API: its own description and explorer. */
export const metaRoutes: readonly { method: HttpMethod; path: string }[] = [
  { method: "GET", path: "/openapi.json" },
  { method: "GET", path: "/docs" },
  { method: "GET", path: "/docs/assets/{file}" },
];
