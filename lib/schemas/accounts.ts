// GET /me: who the credential belongs to and where it can act (spec 2.2, 5), served by lib/accounts.
import { z } from "zod";
import { Credential } from "./auth";
import { defineEndpoint } from "./endpoint";
import { exampleCredential, examplePersonalWorkspace, exampleWorkspace } from "./examples";
import { Workspace } from "./workspaces";

export const Me = z
  .object({
    email: z.string(),
    credential: Credential,
    workspaces: z.array(Workspace).describe("Where the credential can act, own workspace first."),
    engines_simulated: z
      .boolean()
      .describe("True when this server answers prompts from its engine simulator instead of the real providers."),
  })
  .meta({
    id: "Me",
    examples: [
      {
        email: "alice@acme.example",
        credential: exampleCredential,
        workspaces: [examplePersonalWorkspace, exampleWorkspace],
        engines_simulated: false,
      },
    ],
  });

// Endpoints
export const getMe = defineEndpoint({
  method: "GET", path: "/me", operationId: "getMe", summary: "Who the credential belongs to and where it can act",
  description:
    "The account's email, the credential this request used (`kind` `api_key`, `cli_token` or `session`), the workspaces it can act in (an API key: its one workspace; a person: all of theirs, own first), and whether the server's engines are simulated.",
  tags: ["Accounts"], auth: "bearer", response: Me, status: 200,
});
