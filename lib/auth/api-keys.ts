// API keys: made for one workspace, shown once, stored as a hash, revoked at once.
import type { z } from "zod";
import { db } from "../db/client";
import { newId } from "../db/ids";
import { notFound } from "../http/errors";
import type { ApiKey as ApiKeyShape, ApiKeyCreateRequest } from "../schemas/auth";
import { date, defineStatement, standalone, text } from "../db/statement";
import { defaultWorkspaceId, reachableSql, reachOf, requireWorkspace } from "../workspaces/access";
import { credentialsRevoked } from "./credential-cache";
import type { Principal } from "./principal";
import { SECRET_PREFIX, hashSecret, newSecret } from "./secrets";

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

export async function listApiKeys(principal: Principal) {
  const keys = await API_KEY_LIST.query(standalone(), reachOf(principal));
  return { items: keys.map(presentApiKey) };
}

export async function createApiKey(principal: Principal, input: z.output<typeof ApiKeyCreateRequest>) {
  const workspaceId = input.workspace_id ?? (await defaultWorkspaceId(principal));
  await requireWorkspace(principal, workspaceId);
  return issueApiKey(principal.user.id, workspaceId, input.name);
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

/** Revokes one of the caller's keys; revoking a revoked key changes nothing. */
export async function revokeApiKey(principal: Principal, keyId: string): Promise<void> {
  const key = await db().apiKey.findUnique({ where: { id: keyId } });
  if (!key || key.userId !== principal.user.id) throw notFound("API key", keyId);
  await requireWorkspace(principal, key.workspaceId, () => notFound("API key", keyId));
  await db().apiKey.updateMany({ where: { id: keyId, revokedAt: null }, data: { revokedAt: new Date() } });
  credentialsRevoked([key.secretHash]);
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
