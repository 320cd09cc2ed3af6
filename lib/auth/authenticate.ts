// Bearer authentication: turns `Authorization: Bearer <API key | CLI token>` into a Principal,
// or answers 401 `unauthenticated` for a missing, unknown, revoked or expired credential.
// A credential found valid is remembered for a few seconds (./credential-cache.ts); revoking
// one drops it everywhere at once.
import { ApiError } from "../http/errors";
import { findApiKeyBySecretHash, recordApiKeyUse } from "./api-keys";
import { findCliTokenByHash, renewCliToken } from "./cli-tokens";
import { lookUpCredential } from "./credential-cache";
import type { Principal } from "./principal";
import { SECRET_PREFIX, hashSecret, hashesEqual } from "./secrets";

const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="geoscope"' };
const LAST_USED_GRANULARITY_MS = 60_000;
export const CLI_TOKEN_IDLE_LIFETIME_MS = 90 * 24 * 60 * 60 * 1000;

function unauthenticated(message: string): ApiError {
  return new ApiError("unauthenticated", message, { headers: CHALLENGE });
}

export function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

export async function authenticate(request: Request): Promise<Principal> {
  const token = bearerToken(request);
  if (!token) {
    throw unauthenticated("No credential: send the header Authorization: Bearer <API key or CLI token>.");
  }
  const principal = token.startsWith(SECRET_PREFIX.apiKey)
    ? await apiKeyPrincipal(token)
    : token.startsWith(SECRET_PREFIX.cliToken)
      ? await cliTokenPrincipal(token)
      : null;
  if (!principal) throw unauthenticated("The credential is unknown, revoked or expired.");
  return principal;
}

async function apiKeyPrincipal(secret: string): Promise<Principal | null> {
  const hash = hashSecret(secret);
  return lookUpCredential(hash, async () => {
    const key = await findApiKeyBySecretHash(hash);
    if (!key || key.revokedAt || !hashesEqual(key.secretHash, hash)) return null;
    const now = new Date();
    // Written at most once a minute per key, so a busy key does not write on every request; the
    // stale check on the row already read spares the query, the condition settles races.
    if (!isFresh(key.lastUsedAt, now)) {
      await recordApiKeyUse(key.id, now, new Date(now.getTime() - LAST_USED_GRANULARITY_MS));
    }
    return { principal: apiKeyPrincipalOf(key), expiresAt: null };
  });
}

function isFresh(lastUsedAt: Date | null, now: Date): boolean {
  return lastUsedAt !== null && now.getTime() - lastUsedAt.getTime() < LAST_USED_GRANULARITY_MS;
}

function apiKeyPrincipalOf(key: { id: string; name: string; workspaceId: string; user: { id: string; email: string } }): Principal {
  return {
    user: { id: key.user.id, email: key.user.email },
    credential: { kind: "api_key", id: key.id, name: key.name },
    workspaceId: key.workspaceId,
    apiKeyId: key.id,
  };
}

async function cliTokenPrincipal(secret: string): Promise<Principal | null> {
  const hash = hashSecret(secret);
  return lookUpCredential(hash, async () => {
    const token = await findCliTokenByHash(hash);
    const now = new Date();
    if (!token || token.revokedAt || token.expiresAt <= now || !hashesEqual(token.tokenHash, hash)) return null;
    // A CLI token lives 90 days from its last use (renewed at most once a minute, as for keys).
    let expiresAt = token.expiresAt;
    if (!isFresh(token.lastUsedAt, now)) {
      const renewed = new Date(now.getTime() + CLI_TOKEN_IDLE_LIFETIME_MS);
      if (await renewCliToken(token.id, now, new Date(now.getTime() - LAST_USED_GRANULARITY_MS), renewed)) expiresAt = renewed;
    }
    const principal: Principal = {
      user: { id: token.user.id, email: token.user.email },
      credential: { kind: "cli_token", id: token.id, name: token.name },
      workspaceId: null,
      apiKeyId: null,
    };
    return { principal, expiresAt };
  });
}
