// Credentials: API keys and the CLI's device login (spec 2.2, 4.2, 5), served by lib/auth.
import { z } from "zod";
import { DateTime, idOf, name } from "./common";
import { defineEndpoint } from "./endpoint";
import { WorkspaceId } from "./workspaces";

export const CredentialKind = z.enum(["api_key", "cli_token", "session"]).meta({ id: "CredentialKind" });

export const ApiKeyId = idOf("ak");

export const Credential = z
  .object({ kind: CredentialKind, id: z.string(), name: z.string() })
  .meta({ id: "Credential" });

export const ApiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().describe("The first 12 characters of the key: enough to recognise it, never to use it."),
    created_at: DateTime,
    workspace_id: z.string().nullable().describe("The one workspace the key acts in and whose credit it spends."),
    last_used_at: DateTime.nullable(),
    revoked_at: DateTime.nullable(),
  })
  .meta({ id: "ApiKey" });

export const ApiKeyCreated = ApiKey.extend({
  key: z.string().describe("The secret, returned once and never retrievable again."),
}).meta({ id: "ApiKeyCreated" });

export const ApiKeyList = z.object({ items: z.array(ApiKey) }).meta({ id: "ApiKeyList" });

export const CLIAuthStart = z
  .object({
    device_code: z.string().describe("Secret the CLI polls with; it stays in the CLI."),
    user_code: z.string().describe("Shown to the person, who compares it in the browser (XXXX-XXXX)."),
    verification_uri: z.string(),
    verification_uri_complete: z.string(),
    expires_in: z.number().int(),
    interval: z.number().int(),
  })
  .meta({ id: "CLIAuthStart" });

export const CLIAuthPollStatus = z.enum(["pending", "slow_down", "approved", "denied", "expired"]).meta({ id: "CLIAuthPollStatus" });

export const CLIAuthPoll = z
  .object({
    status: CLIAuthPollStatus.describe("RFC 8628 semantics; after `approved` has been answered once, the device code answers `expired`."),
    token: z.string().nullable(),
    token_id: z.string().nullable(),
    email: z.string().nullable(),
  })
  .meta({ id: "CLIAuthPoll" });

// Request bodies
export const ApiKeyCreateRequest = z
  .strictObject({
    name: name(100),
    workspace_id: WorkspaceId.nullable().optional().describe("Defaults to the caller's own workspace."),
  })
  .meta({ id: "ApiKeyCreateRequest" });
export const CLIAuthStartRequest = z.strictObject({ client_name: name(200) }).meta({ id: "CLIAuthStartRequest" });
export const CLIAuthPollRequest = z
  .strictObject({ device_code: z.string().min(1, { error: "is required" }) })
  .meta({ id: "CLIAuthPollRequest" });

// Endpoints
export const listApiKeys = defineEndpoint({
  method: "GET", path: "/api-keys", operationId: "listApiKeys", summary: "The caller's API keys, revoked ones included",
  tags: ["API keys"], auth: "bearer", response: ApiKeyList, status: 200,
});
export const createApiKey = defineEndpoint({
  method: "POST", path: "/api-keys", operationId: "createApiKey", summary: "Create an API key; the secret is returned once",
  tags: ["API keys"], auth: "bearer", body: ApiKeyCreateRequest, response: ApiKeyCreated, status: 201, errors: ["not_found"],
});
export const revokeApiKey = defineEndpoint({
  method: "DELETE", path: "/api-keys/{key_id}", operationId: "revokeApiKey", summary: "Revoke an API key at once",
  tags: ["API keys"], auth: "bearer", params: z.object({ key_id: ApiKeyId }), status: 204,
});
export const startCliAuth = defineEndpoint({
  method: "POST", path: "/cli/auth/start", operationId: "startCliAuth", summary: "Start a CLI device login (RFC 8628)",
  tags: ["CLI login"], auth: "none", body: CLIAuthStartRequest, response: CLIAuthStart, status: 200,
});
export const pollCliAuth = defineEndpoint({
  method: "POST", path: "/cli/auth/poll", operationId: "pollCliAuth", summary: "Poll a CLI device login",
  tags: ["CLI login"], auth: "none", body: CLIAuthPollRequest, response: CLIAuthPoll, status: 200,
});
export const revokeCliToken = defineEndpoint({
  method: "DELETE", path: "/cli/auth/token", operationId: "revokeCliToken", summary: "Log out: revoke the CLI token this request used",
  tags: ["CLI login"], auth: "bearer", status: 204, errors: ["invalid_request"],
});
