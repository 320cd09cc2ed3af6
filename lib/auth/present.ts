// API keys and CLI device logins as the API shows them: rows in, JSON out.
import type { z } from "zod";
import type { ApiKey as ApiKeyShape, CLIAuthPoll, CLIAuthStart } from "../schemas/auth";

type ApiKeyRow = {
  id: string;
  name: string;
  prefix: string;
  workspaceId: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

export function presentApiKey(key: ApiKeyRow): z.input<typeof ApiKeyShape> {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    created_at: key.createdAt.toISOString(),
    workspace_id: key.workspaceId,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}

/** A user code as shown: XXXX-XXXX. */
export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** A started device login: the device code (shown once, to the CLI) and where the person approves it. */
export function presentDeviceStart(start: {
  deviceCode: string;
  userCode: string;
  publicBaseUrl: string;
  expiresIn: number;
  interval: number;
}): z.input<typeof CLIAuthStart> {
  const verification = `${start.publicBaseUrl}/device`;
  return {
    device_code: start.deviceCode,
    user_code: formatUserCode(start.userCode),
    verification_uri: verification,
    verification_uri_complete: `${verification}?code=${formatUserCode(start.userCode)}`,
    expires_in: start.expiresIn,
    interval: start.interval,
  };
}

type Poll = z.input<typeof CLIAuthPoll>;

/** A poll's answer without a token (pending, slow_down, denied, expired). */
export const pollAnswer = (status: Poll["status"]): Poll => ({ status, token: null, token_id: null, email: null });

/** The one poll that hands out the token (its secret, shown once). */
export function presentApprovedPoll(handed: { token: string; tokenId: string; email: string }): Poll {
  return { status: "approved" as const, token: handed.token, token_id: handed.tokenId, email: handed.email };
}
