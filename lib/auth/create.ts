// The services of the auth requests that change something: API keys (POST /api-keys, DELETE
// /api-keys/{key_id}) and the CLI device login (POST /cli/auth/start, POST /cli/auth/poll, which
// may issue a token, DELETE /cli/auth/token). The tables' statements and rules stay with their
// owners (./api-keys.ts, ./device.ts, ./cli-tokens.ts).
import type { z } from "zod";
import { config } from "../config/env";
import { ApiError, notFound } from "../http/errors";
import type { ApiKeyCreateRequest, CLIAuthPoll, CLIAuthStart } from "../schemas/auth";
import { defaultWorkspaceId, requireWorkspace } from "../workspaces/access";
import { findApiKey, issueApiKey, revokeApiKeyById } from "./api-keys";
import { revokeCliTokenById } from "./cli-tokens";
import { findDeviceLogin, handOutCliToken, insertDeviceLogin, recordDevicePoll } from "./device";
import { pollAnswer, presentApprovedPoll, presentDeviceStart } from "./present";
import type { Principal } from "./principal";
import { newSecret } from "./secrets";

export async function createApiKey(principal: Principal, input: z.output<typeof ApiKeyCreateRequest>) {
  const workspaceId = input.workspace_id ?? (await defaultWorkspaceId(principal));
  await requireWorkspace(principal, workspaceId);
  return issueApiKey(principal.user.id, workspaceId, input.name);
}

/** Revokes one of the caller's keys; revoking a revoked key changes nothing. */
export async function revokeApiKey(principal: Principal, keyId: string): Promise<void> {
  const key = await findApiKey(keyId);
  if (!key || key.userId !== principal.user.id) throw notFound("API key", keyId);
  await requireWorkspace(principal, key.workspaceId, () => notFound("API key", keyId));
  await revokeApiKeyById(key);
}

export async function startDeviceLogin(clientName: string): Promise<z.input<typeof CLIAuthStart>> {
  const { PUBLIC_BASE_URL, DEVICE_CODE_TTL_SECONDS, DEVICE_POLL_INTERVAL_SECONDS } = config();
  const deviceCode = newSecret();
  const userCode = await insertDeviceLogin(deviceCode, {
    clientName,
    intervalSeconds: DEVICE_POLL_INTERVAL_SECONDS,
    ttlSeconds: DEVICE_CODE_TTL_SECONDS,
  });
  return presentDeviceStart({
    deviceCode,
    userCode,
    publicBaseUrl: PUBLIC_BASE_URL,
    expiresIn: DEVICE_CODE_TTL_SECONDS,
    interval: DEVICE_POLL_INTERVAL_SECONDS,
  });
}

export async function pollDeviceLogin(deviceCode: string): Promise<z.input<typeof CLIAuthPoll>> {
  const row = await findDeviceLogin(deviceCode);
  if (!row) {
    throw new ApiError("invalid_request", "device_code: unknown device code; start again with POST /cli/auth/start.");
  }
  const now = new Date();
  if (row.status === "spent" || row.expiresAt <= now) return pollAnswer("expired");

  if (await recordDevicePoll(row, now)) return pollAnswer("slow_down");
  if (row.status === "pending") return pollAnswer("pending");
  if (row.status === "denied") return pollAnswer("denied");

  // Approved: the token is handed out exactly once, even to two polls racing each other.
  const handed = await handOutCliToken(row, now);
  return handed ? presentApprovedPoll(handed) : pollAnswer("expired");
}

/** DELETE /cli/auth/token: revokes the CLI token the request was made with. */
export async function revokeCurrentCliToken(principal: Principal): Promise<void> {
  if (principal.credential.kind !== "cli_token") {
    throw new ApiError("invalid_request", "This request was not made with a CLI token; revoke API keys with DELETE /api-keys/{key_id}.");
  }
  await revokeCliTokenById(principal.credential.id);
}
