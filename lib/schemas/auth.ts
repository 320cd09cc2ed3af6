// Credentials: API keys and the CLI's device login (spec 2.2, 4.2, 5), served by lib/auth.
import { z } from "zod";
import { DateTime, idOf, name } from "./common";
import { defineEndpoint } from "./endpoint";
import {
  exampleApiKey,
  exampleApiKeyCreated,
  exampleApiKeyCreateRequest,
  exampleCliAuthPoll,
  exampleCliAuthStart,
  exampleCredential,
} from "./examples";
import { WorkspaceId } from "./workspaces";

export const CredentialKind = z.enum(["api_key", "cli_token", "session"]).meta({ id: "CredentialKind" });

export const ApiKeyId = idOf("ak");

export const Credential = z
  .object({
    kind: CredentialKind,
    id: idOf("ak", "ct", "us").describe("`ak_…` for an API key, `ct_…` for a CLI token, the person's own `us_…` id for a browser session."),
    name: z.string().describe("The API key's or CLI client's name; `browser` for a session."),
  })
  .meta({ id: "Credential", examples: [exampleCredential] });

export const ApiKey = z
  .object({
    id: ApiKeyId,
    name: z.string(),
    prefix: z.string().describe("The first 12 characters of the key: enough to recognise it, never to use it."),
    created_at: DateTime,
    workspace_id: WorkspaceId.nullable().describe("The one workspace the key acts in and whose credit it spends."),
    last_used_at: DateTime.nullable(),
    revoked_at: DateTime.nullable(),
  })
  .meta({ id: "ApiKey", examples: [exampleApiKey] });

export const ApiKeyCreated = ApiKey.extend({
  key: z.string().describe("The secret, returned once and never retrievable again."),
}).meta({ id: "ApiKeyCreated", examples: [exampleApiKeyCreated] });

export const ApiKeyList = z.object({ items: z.array(ApiKey) }).meta({ id: "ApiKeyList", examples: [{ items: [exampleApiKey] }] });

export const CLIAuthStart = z
  .object({
    device_code: z.string().describe("Secret the CLI polls with; it stays in the CLI."),
    user_code: z.string().describe("Shown to the person, who compares it in the browser (XXXX-XXXX)."),
    verification_uri: z.string(),
    verification_uri_complete: z.string(),
    expires_in: z.int().positive().describe("Seconds the device code stays valid."),
    interval: z.int().positive().describe("Seconds to wait between polls."),
  })
  .meta({ id: "CLIAuthStart", examples: [exampleCliAuthStart] });

export const CLIAuthPollStatus = z.enum(["pending", "slow_down", "approved", "denied", "expired"]).meta({ id: "CLIAuthPollStatus" });

export const CLIAuthPoll = z
  .object({
    status: CLIAuthPollStatus.describe("RFC 8628 semantics; after `approved` has been answered once, the device code answers `expired`."),
    token: z.string().nullable(),
    token_id: idOf("ct").nullable(),
    email: z.string().nullable(),
  })
  .meta({ id: "CLIAuthPoll", examples: [exampleCliAuthPoll] });

// Request bodies
export const ApiKeyCreateRequest = z
  .strictObject({
    name: name(100),
    workspace_id: WorkspaceId.nullable().optional().describe("Defaults to the caller's own workspace."),
  })
  .meta({ id: "ApiKeyCreateRequest", examples: [exampleApiKeyCreateRequest] });
export const CLIAuthStartRequest = z
  .strictObject({ client_name: name(200) })
  .meta({ id: "CLIAuthStartRequest", examples: [{ client_name: exampleCredential.name }] });
export const CLIAuthPollRequest = z
  .strictObject({ device_code: z.string().min(1, { error: "is required" }) })
  .meta({ id: "CLIAuthPollRequest", examples: [{ device_code: exampleCliAuthStart.device_code }] });

// Endpoints
export const listApiKeys = defineEndpoint({
  method: "GET", path: "/api-keys", operationId: "listApiKeys", summary: "The caller's API keys, revoked ones included",
  description:
    "Newest first, revoked keys included with `revoked_at`. An API key sees only the keys of its own workspace. The secret of a key is never shown again: only its `prefix`.",
  tags: ["API keys"], auth: "bearer", response: ApiKeyList, status: 200,
});
export const createApiKey = defineEndpoint({
  method: "POST", path: "/api-keys", operationId: "createApiKey", summary: "Create an API key; the secret is returned once",
  description:
    "The key acts in one workspace (`workspace_id`, default the caller's own) and spends that workspace's credit. `key` holds the secret in this response only; the server keeps a hash. An API key cannot make keys for another workspace.",
  tags: ["API keys"], auth: "bearer", body: ApiKeyCreateRequest, response: ApiKeyCreated, status: 201,
});
export const revokeApiKey = defineEndpoint({
  method: "DELETE", path: "/api-keys/{key_id}", operationId: "revokeApiKey", summary: "Revoke an API key at once",
  description:
    "The key stops working on the next request, on every server instance. Revoking a revoked key answers 204 again. A key the caller cannot see answers 404.",
  tags: ["API keys"], auth: "bearer", params: z.object({ key_id: ApiKeyId }), status: 204,
});
export const startCliAuth = defineEndpoint({
  method: "POST", path: "/cli/auth/start", operationId: "startCliAuth", summary: "Start a CLI device login (RFC 8628)",
  description:
    "Answers a `device_code` (a secret the CLI keeps and polls with) and a `user_code` the person compares in the browser at `verification_uri_complete`, where they approve. Needs no credential.",
  tags: ["CLI login"], auth: "none", body: CLIAuthStartRequest, response: CLIAuthStart, status: 200,
});
export const pollCliAuth = defineEndpoint({
  method: "POST", path: "/cli/auth/poll", operationId: "pollCliAuth", summary: "Poll a CLI device login",
  description:
    "Poll at most every `interval` seconds (faster answers `slow_down` and adds 5 seconds). `status` is `pending`, `slow_down`, `approved` (with the `gsc_…` token, shown once), `denied` or `expired`; after `approved` the device code is spent. A `device_code` no login was started with (or one already spent) is refused with 400: start again with POST /cli/auth/start. Needs no credential.",
  tags: ["CLI login"], auth: "none", body: CLIAuthPollRequest, response: CLIAuthPoll, status: 200,
});
export const revokeCliToken = defineEndpoint({
  method: "DELETE", path: "/cli/auth/token", operationId: "revokeCliToken", summary: "Log out: revoke the CLI token this request used",
  description:
    "Revokes the CLI token in `Authorization`; it stops working at once. Other credentials of the person are untouched.",
  tags: ["CLI login"], auth: "bearer", status: 204, errors: ["invalid_request"],
});

/**
 * The device-login page's forms (/device): a typed user code, and the decision on one. Not API
 * input: the code is looked up and decided by the signed-in person in the browser.
 */
export const deviceCodeForm = z.object({ code: z.string().trim().max(64, "is too long for a user code") });
export const deviceDecisionForm = deviceCodeForm.extend({ decision: z.enum(["approve", "deny"]) });
