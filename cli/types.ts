// Response types the CLI formats, inferred from the API's own schemas in lib/schemas.
import type { z } from "zod";
import type * as accounts from "../lib/schemas/accounts";

export type Workspace = z.infer<typeof accounts.Workspace>;
export type Member = z.infer<typeof accounts.Member>;
export type Invitation = z.infer<typeof accounts.Invitation>;
export type Project = z.infer<typeof accounts.Project>;
export type ApiKey = z.infer<typeof accounts.ApiKey>;
