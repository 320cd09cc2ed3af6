import { route } from "@/lib/http/route";
import { getProject } from "@/lib/projects/read";
import { updateProject } from "@/lib/projects/create";
import * as endpoints from "@/lib/schemas/projects";
import { otherMethods } from "@/lib/http/methods";

export const GET = route(endpoints.getProject, ({ principal, params }) => getProject(principal, params.project_id));
export const PATCH = route(endpoints.updateProject, ({ principal, params, body }) =>
  updateProject(principal, params.project_id, body),
);

// Methods this path does not serve: 405 in the error envelope (lib/http/methods.ts).
export const { POST, PUT, DELETE, OPTIONS } = otherMethods({ GET, PATCH });
