// The CLI logins (tokens from device login) a person holds, for the account page to list and
// revoke. Browser-only: the API has DELETE /cli/auth/token for the token a request is made with.
import { db } from "../db/client";
import { notFound } from "../http/errors";
import { credentialsRevoked } from "./credential-cache";
import type { Principal } from "./principal";

export type CliLogin = { id: string; name: string; created_at: string; last_used_at: string | null; expires_at: string };

/** The person's CLI tokens still in force (neither revoked nor expired), newest first. */
export async function listCliTokens(principal: Principal): Promise<{ items: CliLogin[] }> {
  const rows = await db().cliToken.findMany({
    where: { userId: principal.user.id, revokedAt: null, expiresAt: { gt: new Date() } },
    orderBy: { id: "desc" },
    select: { id: true, name: true, createdAt: true, lastUsedAt: true, expiresAt: true },
  });
  return {
    items: rows.map((t) => ({
      id: t.id,
      name: t.name,
      created_at: t.createdAt.toISOString(),
      last_used_at: t.lastUsedAt?.toISOString() ?? null,
      expires_at: t.expiresAt.toISOString(),
    })),
  };
}

/**
 * Revokes one of the person's own CLI tokens, at once on every instance; someone else's token or
 * an unknown id is 404. Revoking a revoked token changes nothing.
 */
export async function revokeCliToken(principal: Principal, tokenId: string): Promise<void> {
  const token = await db().cliToken.findFirst({ where: { id: tokenId, userId: principal.user.id }, select: { id: true } });
  if (!token) throw notFound("CLI login", tokenId);
  const revoked = await db().cliToken.updateManyAndReturn({
    where: { id: token.id, revokedAt: null },
    data: { revokedAt: new Date() },
    select: { tokenHash: true },
  });
  credentialsRevoked(revoked.map((t) => t.tokenHash));
}
