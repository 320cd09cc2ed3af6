// The reads of projects (GET /projects, GET /projects/{project_id}) and the project others' work
// is found in: each read folds the access rule into its statement.
import type { Principal } from "../auth/principal";
import { date, defineStatement, group, json, standalone, text } from "../db/statement";
import { notFound } from "../http/errors";
import type { EntityContext } from "../visibility/entities";
import { reachableSql, reachOf, requireWorkspace } from "../workspaces/access";
import { presentProject, type ProjectRow } from "./present";

/** A project (alias `p`) as presentProject takes it, with its workspace's name and its creator's email (joined by projectNames). */
export const projectColumns = {
  id: text("p.id"),
  name: text("p.name"),
  slug: text("p.slug"),
  workspaceId: text("p.workspace_id"),
  context: json("p.context").nullable,
  createdAt: date("p.created_at"),
  workspace: group({ name: text("w.name") }),
  createdBy: group({ email: text("u.email") }),
};
export const projectNames = "JOIN workspaces w ON w.id = p.workspace_id JOIN users u ON u.id = p.created_by_user_id";
const projectFrom = `projects p ${projectNames}`;

/** The projects of one workspace (checked reachable first), or of every one the credential can act in, newest first. */
const PROJECT_LIST = defineStatement({
  label: "projects",
  params: ["user", "own", "workspace"],
  columns: projectColumns,
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM ${projectFrom} WHERE ${given.workspace ? `p.workspace_id = ${p.workspace}` : reachableSql("p", p)} ORDER BY p.id DESC`,
});

/** A project the credential can reach. */
const PROJECT_BY_ID = defineStatement({
  label: "project_by_id",
  params: ["project", "user", "own"],
  columns: projectColumns,
  sql: ({ select, p }) => `SELECT ${select} FROM ${projectFrom} WHERE p.id = ${p.project} AND ${reachableSql("p", p)}`,
});

export async function listProjects(principal: Principal, workspace?: string) {
  const workspaceId = workspace ? (await requireWorkspace(principal, workspace)).workspace.id : undefined;
  const rows = await PROJECT_LIST.query(standalone(), { ...reachOf(principal), workspace: workspaceId });
  return { items: rows.map(presentProject) };
}

/** A project the credential can act on, or 404. */
export async function getProjectOrThrow(principal: Principal, projectId: string): Promise<ProjectRow> {
  const row = await PROJECT_BY_ID.first(standalone(), { project: projectId, ...reachOf(principal) });
  if (!row) throw notFound("project", projectId);
  return row;
}

export async function getProject(principal: Principal, projectId: string) {
  return presentProject(await getProjectOrThrow(principal, projectId));
}

const PROJECT_CONTEXT = defineStatement({
  label: "visibility_project",
  params: ["project"],
  columns: { workspaceId: text("p.workspace_id"), context: json<EntityContext>("p.context").nullable },
  sql: ({ select, p }) => `SELECT ${select} FROM projects p WHERE p.id = ${p.project}`,
});

/** A project's workspace and context (its brands and competitors), without any access check: for work on runs already found reachable. */
export function readProjectContext(projectId: string): Promise<{ workspaceId: string; context: EntityContext | null } | undefined> {
  return PROJECT_CONTEXT.first(standalone(), { project: projectId });
}
