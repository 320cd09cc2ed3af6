// Response types the CLI formats, inferred from the API's own schemas in lib/schemas.
import type { z } from "zod";
import type * as auth from "../lib/schemas/auth";
import type * as projects from "../lib/schemas/projects";
import type * as workspaces from "../lib/schemas/workspaces";

export type Workspace = z.infer<typeof workspaces.Workspace>;
export type Member = z.infer<typeof workspaces.Member>;
export type Invitation = z.infer<typeof workspaces.Invitation>;
export type Project = z.infer<typeof projects.Project>;
export type ApiKey = z.infer<typeof auth.ApiKey>;
