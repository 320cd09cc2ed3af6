// Projects as the API shows them: rows in, JSON out.
import type { z } from "zod";
import type { Project, ProjectContext } from "../schemas/projects";

export type ProjectRow = {
  id: string;
  name: string;
  slug: string;
  workspaceId: string;
  context: unknown;
  createdAt: Date;
  workspace: { name: string };
  createdBy: { email: string };
};

export function presentProject(p: ProjectRow): z.input<typeof Project> {
  return {
    id: p.id,
    name: p.name,
    slug: p.slug,
    workspace_id: p.workspaceId,
    workspace_name: p.workspace.name,
    created_by: p.createdBy.email,
    created_at: p.createdAt.toISOString(),
    ...(p.context ? { context: p.context as z.input<typeof ProjectContext> } : {}),
  };
}
