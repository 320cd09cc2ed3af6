// API keys: made for one workspace, shown once, stored as a hash, revoked at once. The requests'
// services are in ./create.ts and ./read.ts; this file holds api_keys' statements.
import { newId } from "../db/ids";
import { atUtc, date, defineStatement, group, standalone, text, type SqlSession } from "../db/statement";
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

const API_KEY_INSERT = defineStatement({
  label: "api_key_insert",
  params: ["id", "workspace", "user", "name", "prefix", "hash", "now"],
  columns: {
    id: text("id"),
    name: text("name"),
    prefix: text("prefix"),
    workspaceId: text("workspace_id"),
    createdAt: date("created_at"),
    lastUsedAt: date("last_used_at").nullable,
    revokedAt: date("revoked_at").nullable,
  },
  sql: ({ select, p }) =>
    `INSERT INTO api_keys (id, workspace_id, user_id, name, prefix, secret_hash, created_at) ` +
    `VALUES (${p.id}, ${p.workspace}, ${p.user}, ${p.name}, ${p.prefix}, ${p.hash}, ${atUtc(p.now)}) RETURNING ${select}`,
});

/** Makes a key for a member of the workspace (the caller checked that); the secret is in `key`, once. */
export async function issueApiKey(userId: string, workspaceId: string, name: string) {
  const secret = newSecret(SECRET_PREFIX.apiKey);
  const key = await API_KEY_INSERT.first(standalone(), {
    id: newId("apiKey"),
    workspace: workspaceId,
    user: userId,
    name,
    prefix: secret.slice(0, 12),
    hash: hashSecret(secret),
    now: new Date(),
  });
  return { ...presentApiKey(key!), key: secret };
}

const API_KEY_BY_ID = defineStatement({
  label: "api_key_by_id",
  params: ["key"],
  columns: { id: text("k.id"), userId: text("k.user_id"), workspaceId: text("k.workspace_id"), secretHash: text("k.secret_hash") },
  sql: ({ select, p }) => `SELECT ${select} FROM api_keys k WHERE k.id = ${p.key}`,
});

/** The key with this id (its owner, workspace and secret hash), or undefined. */
export function findApiKey(keyId: string) {
  return API_KEY_BY_ID.first(standalone(), { key: keyId });
}

const API_KEY_REVOKE = defineStatement({
  label: "api_key_revoke",
  params: ["key", "now"],
  sql: ({ p }) => `UPDATE api_keys SET revoked_at = ${atUtc(p.now)} WHERE id = ${p.key} AND revoked_at IS NULL`,
});

/** Revokes a key, at once on every instance; revoking a revoked key changes nothing. */
export async function revokeApiKeyById(key: { id: string; secretHash: string }): Promise<void> {
  await API_KEY_REVOKE.query(standalone(), { key: key.id, now: new Date() });
  credentialsRevoked([key.secretHash]);
}

const API_KEYS_OF_MEMBER_REVOKE = defineStatement({
  label: "api_keys_revoke_of_member",
  params: ["workspace", "user", "now"],
  columns: { secretHash: text("secret_hash") },
  sql: ({ select, p }) =>
    `UPDATE api_keys SET revoked_at = ${atUtc(p.now)} WHERE workspace_id = ${p.workspace} AND user_id = ${p.user} AND revoked_at IS NULL RETURNING ${select}`,
});

/**
 * Revokes a member's keys of a workspace in the caller's session (removing the member, under the
 * workspace's lock); answers their secret hashes, for the caller to pass to credentialsRevoked
 * once it committed.
 */
export async function revokeKeysOfMember(sql: SqlSession, workspaceId: string, userId: string): Promise<string[]> {
  const revoked = await API_KEYS_OF_MEMBER_REVOKE.query(sql, { workspace: workspaceId, user: userId, now: new Date() });
  return revoked.map((k) => k.secretHash);
}

/** Bearer authentication's read: the key with this secret hash and its user, one statement. */
const API_KEY_BY_SECRET = defineStatement({
  label: "api_key_by_secret",
  params: ["hash"],
  columns: {
    id: text("k.id"),
    name: text("k.name"),
    workspaceId: text("k.workspace_id"),
    secretHash: text("k.secret_hash"),
    revokedAt: date("k.revoked_at").nullable,
    lastUsedAt: date("k.last_used_at").nullable,
    user: group({ id: text("u.id"), email: text("u.email") }),
  },
  sql: ({ select, p }) => `SELECT ${select} FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.secret_hash = ${p.hash}`,
});

/** The key with this secret hash and its user, as bearer authentication reads it; null when there is none. */
export async function findApiKeyBySecretHash(secretHash: string) {
  return (await API_KEY_BY_SECRET.first(standalone(), { hash: secretHash })) ?? null;
}

const API_KEY_USED = defineStatement({
  label: "api_key_used",
  params: ["key", "now", "stale"],
  sql: ({ p }) =>
    `UPDATE api_keys SET last_used_at = ${atUtc(p.now)} WHERE id = ${p.key} AND (last_used_at IS NULL OR last_used_at < ${atUtc(p.stale)})`,
});

/**
 * Records that a key was used at `now`, unless its last use is recorded at or after `staleBefore`:
 * the condition settles two requests racing to write it. One statement, on its own.
 */
export async function recordApiKeyUse(keyId: string, now: Date, staleBefore: Date): Promise<void> {
  await API_KEY_USED.query(standalone(), { key: keyId, now, stale: staleBefore });
}
