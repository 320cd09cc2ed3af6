// API keys: made for one workspace, shown once, stored as a hash, revoked at once. The requests'
// services are in ./create.ts and ./read.ts; this file holds api_keys' statements.
import { db, type Tx } from "../db/client";
import { newId } from "../db/ids";
import { date, defineStatement, standalone, text } from "../db/statement";
import { reachableSql, reachOf } from "../workspaces/access";
import { credentialsRevoked } from "./credential-cache";
import type { Principal } from "./principal";
import { presentApiKey } from "./present";
import { SECRET_PREFIX, hashSecret, newSecret } from "./secrets";

/** The caller's own keys in the workspaces the credential can act in, newest first. */
const API_KEY_LIST = defineStatement({
  label: "api_keys",
  params: ["user", "own"],
  columns: {
    id: text("k.id"),
    name: text("k.name"),
    prefix: text("k.prefix"),
    workspaceId: text("k.workspace_id"),
    createdAt: date("k.created_at"),
    lastUsedAt: date("k.last_used_at").nullable,
    revokedAt: date("k.revoked_at").nullable,
  },
  sql: ({ select, p }) => `SELECT ${select} FROM api_keys k WHERE k.user_id = ${p.user} AND ${reachableSql("k", p)} ORDER BY k.id DESC`,
});

/** The caller's own keys in the workspaces the credential can act in, newest first (GET /api-keys). */
export function findOwnApiKeys(principal: Principal) {
  return API_KEY_LIST.query(standalone(), reachOf(principal));
}

/** Makes a key for a member of the workspace (the caller checked that); the secret is in `key`, once. */
export async function issueApiKey(userId: string, workspaceId: string, name: string) {
  const secret = newSecret(SECRET_PREFIX.apiKey);
  const key = await db().apiKey.create({
    data: {
      id: newId("apiKey"),
      workspaceId,
      userId,
      name,
      prefix: secret.slice(0, 12),
      secretHash: hashSecret(secret),
    },
  });
  return { ...presentApiKey(key), key: secret };
}

/** The key with this id, or null. */
export function findApiKey(keyId: string) {
  return db().apiKey.findUnique({ where: { id: keyId } });
}

/** Revokes a key, at once on every instance; revoking a revoked key changes nothing. */
export async function revokeApiKeyById(key: { id: string; secretHash: string }): Promise<void> {
  await db().apiKey.updateMany({ where: { id: key.id, revokedAt: null }, data: { revokedAt: new Date() } });
  credentialsRevoked([key.secretHash]);
}

/**
 * Revokes a member's keys of a workspace inside the caller's transaction (removing the member);
 * answers their secret hashes, for the caller to pass to credentialsRevoked once it committed.
 */
export async function revokeKeysOfMember(tx: Tx, workspaceId: string, userId: string): Promise<string[]> {
  const revoked = await tx.apiKey.updateManyAndReturn({
    where: { workspaceId, userId, revokedAt: null },
    data: { revokedAt: new Date() },
    select: { secretHash: true },
  });
  return revoked.map((k) => k.secretHash);
}

/** The key with this secret hash and its user, as bearer authentication reads it. */
export function findApiKeyBySecretHash(secretHash: string) {
  return db().apiKey.findUnique({
    where: { secretHash },
    select: { id: true, name: true, workspaceId: true, secretHash: true, revokedAt: true, lastUsedAt: true, user: { select: { id: true, email: true } } },
  });
}

/**
 * Records that a key was used at `now`, unless its last use is recorded at or after `staleBefore`:
 * the condition settles two requests racing to write it.
 */
export async function recordApiKeyUse(keyId: string, now: Date, staleBefore: Date): Promise<void> {
  await db().apiKey.updateMany({
    where: { id: keyId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: staleBefore } }] },
    data: { lastUsedAt: now },
  });
}
