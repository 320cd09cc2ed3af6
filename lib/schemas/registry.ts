// Every operation of /api/v1, in the order the OpenAPI document lists them. A test checks that
// this list and the route files under app/api/v1 name exactly the same operations.
import type { EndpointDefinition, HttpMethod } from "./endpoint";
import * as accounts from "./accounts";
import { getBilling, getPricing, getUsage, listTransactions } from "./billing";
import * as runs from "./runs";
import { getVersion } from "./service";

export const endpoints: readonly EndpointDefinition[] = [
  getVersion,
  accounts.getMe,
  accounts.listApiKeys,
  accounts.createApiKey,
  accounts.revokeApiKey,
  accounts.startCliAuth,
  accounts.pollCliAuth,
  accounts.revokeCliToken,
  runs.createPrompt,
  runs.listRuns,
  runs.getRun,
  runs.getBatch,
  getPricing,
  getBilling,
  listTransactions,
  getUsage,
  accounts.listWorkspaces,
  accounts.createWorkspace,
  accounts.getWorkspace,
  accounts.updateWorkspace,
  accounts.listMembers,
  accounts.updateMember,
  accounts.removeMember,
  accounts.listInvitations,
  accounts.createInvitation,
  accounts.revokeInvitation,
  accounts.listProjects,
  accounts.createProject,
  accounts.getProject,
  accounts.updateProject,
];

/** Routes under /api/v1 that are not operations of the API: its own description and explorer. */
export const metaRoutes: readonly { method: HttpMethod; path: string }[] = [
  { method: "GET", path: "/openapi.json" },
  { method: "GET", path: "/docs" },
  { method: "GET", path: "/docs/assets/{file}" },
];
