// The CLI logins (tokens from device login) a person holds, for the account page to list and
// revoke. Browser-only: the API has DELETE /cli/auth/token for the token a request is made with.
import { db, type Tx } from "../db/client";
import { newId } from "../db/ids";
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
  await revokeCliTokenById(token.id);
}

/** Revokes the CLI token with this id, at once on every instance; revoking a revoked token changes nothing. */
export async function revokeCliTokenById(tokenId: string): Promise<void> {
  const revoked = await db().cliToken.updateManyAndReturn({
    where: { id: tokenId, revokedAt: null },
    data: { revokedAt: new Date() },
    select: { tokenHash: true },
  });
  credentialsRevoked(revoked.map((t) => t.tokenHash));
}

/** Stores a new CLI token (its secret only as a hash) inside the caller's transaction (the device login's hand-out). */
export function insertCliToken(tx: Tx, token: { userId: string; name: string; tokenHash: string; expiresAt: Date }) {
  return tx.cliToken.create({
    data: {
      id: newId("cliToken"),
      userId: token.userId,
      name: token.name,
      tokenHash: token.tokenHash,
      expiresAt: token.expiresAt,
    },
  });
}

/** The token with this hash and its user, as bearer authentication reads it. */
export function findCliTokenByHash(tokenHash: string) {
  return db().cliToken.findUnique({
    where: { tokenHash },
    select: { id: true, name: true, tokenHash: true, revokedAt: true, expiresAt: true, lastUsedAt: true, user: { select: { id: true, email: true } } },
  });
}

/**
 * Records that a token was used at `now` and moves its expiry to `expiresAt`, unless its last use
 * is recorded at or after `staleBefore`; true when this call wrote it (the condition settles races).
 */
export async function renewCliToken(tokenId: string, now: Date, staleBefore: Date, expiresAt: Date): Promise<boolean> {
  const { count } = await db().cliToken.updateMany({
    where: { id: tokenId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: staleBefore } }] },
    data: { lastUsedAt: now, expiresAt },
  });
  return count === 1;
}
