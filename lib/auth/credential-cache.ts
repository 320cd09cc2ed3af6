// Credentials recently looked up, so that a busy client's requests do not each read its API key
// or CLI token row: an entry answers for CREDENTIAL_CACHE_MS at most, keyed by the secret's hash
// (what the database is searched by; the secret itself is never kept).
//
// Revocation still takes effect at once: revoking publishes the credential's hash as a change
// (lib/changes/notify.ts), which drops the entry in this process and, over LISTEN/NOTIFY, in every
// other instance. A lookup listens from before its database read, so a revocation that lands
// while the row is being read is not remembered either. The cache is used only while this
// process hears every change; when its listener reconnects, every entry is dropped (changes may
// have been missed meanwhile). Expiry of a CLI token is checked on every hit.
import { currentDb, type Db } from "../db/client";
import { hearsEveryChange, localEmitter, publishChanged } from "../changes/notify";
import type { Principal } from "./principal";

export const CREDENTIAL_CACHE_MS = 10_000;
const MAX_ENTRIES = 10_000;

/** `db`: the database the credential was read from (tests switch databases within a process). */
type Entry = { principal: Principal; until: number; expiresAt: Date | null; db: Db; drop: () => void };

type CacheGlobal = { __geoscopeCredentialCache?: Map<string, Entry> };
const holder = globalThis as unknown as CacheGlobal;

function entries(): Map<string, Entry> {
  holder.__geoscopeCredentialCache ??= new Map();
  return holder.__geoscopeCredentialCache;
}

/** The change event a credential's revocation is published as. */
const revokedEvent = (hash: string) => `credential:${hash}`;

function remove(hash: string): void {
  const entry = entries().get(hash);
  if (!entry) return;
  entries().delete(hash);
  localEmitter().off(revokedEvent(hash), entry.drop);
}

/** The principal for this secret hash if it was looked up less than CREDENTIAL_CACHE_MS ago. */
export function cachedPrincipal(hash: string, now = Date.now()): Principal | null {
  const entry = entries().get(hash);
  if (!entry) return null;
  const stale = entry.until <= now || (entry.expiresAt !== null && entry.expiresAt.getTime() <= now);
  if (stale || entry.db !== currentDb() || !hearsEveryChange()) {
    remove(hash);
    return null;
  }
  return entry.principal;
}

/** Remembers a credential that was just read from the database and found valid. */
export function rememberPrincipal(hash: string, principal: Principal, expiresAt: Date | null = null, now = Date.now()): void {
  if (!hearsEveryChange()) return;
  remove(hash);
  if (entries().size >= MAX_ENTRIES) {
    const oldest = entries().keys().next().value;
    if (oldest !== undefined) remove(oldest);
  }
  const drop = () => remove(hash);
  localEmitter().once(revokedEvent(hash), drop);
  entries().set(hash, { principal, until: now + CREDENTIAL_CACHE_MS, expiresAt, db: currentDb(), drop });
}

export type CredentialRead = { principal: Principal; expiresAt: Date | null } | null;

/**
 * The principal for a secret hash: remembered, or read by `read` (null: unknown, revoked or
 * expired) and then remembered, unless its revocation was heard while it was being read.
 */
export async function lookUpCredential(hash: string, read: () => Promise<CredentialRead>): Promise<Principal | null> {
  const cached = cachedPrincipal(hash);
  if (cached) return cached;
  const event = revokedEvent(hash);
  let revoked = false;
  const onRevoked = () => (revoked = true);
  localEmitter().on(event, onRevoked);
  try {
    const found = await read();
    if (found && !revoked) rememberPrincipal(hash, found.principal, found.expiresAt);
    return found?.principal ?? null;
  } finally {
    localEmitter().off(event, onRevoked);
  }
}

/** Call after revoking credentials (once the revocation committed), with their secret hashes: every instance forgets them. */
export function credentialsRevoked(secretHashes: string[]): void {
  if (secretHashes.length > 0) publishChanged(secretHashes.map(revokedEvent));
}

/** Entries held (tests). */
export function cachedCredentialCount(): number {
  return entries().size;
}
