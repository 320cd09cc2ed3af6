// Ids are `<prefix>_<ULID>` (spec 2.1). One monotonic factory per process, so ids made within
// the same millisecond still sort in the order they were made.
import { randomBytes } from "node:crypto";
import { monotonicFactory } from "ulid";
import { ULID_PATTERN } from "../schemas/common";

export const ID_PREFIXES = {
  workspace: "ws",
  project: "pr",
  run: "dr",
  batch: "rq",
  fanout: "fo",
  questionsAnalysis: "fa",
  citationAnalysis: "ca",
  visibilityAnalysis: "va",
  comparisonAnalysis: "cm",
  opportunityAnalysis: "op",
  share: "sh",
  apiKey: "ak",
  cliToken: "ct",
  monitor: "mo",
  monitorTick: "mt",
  alert: "al",
  // Internal: an alert's sending (a webhook, or a tick's email).
  alertDelivery: "ad",
  // A monitor's weekly digest (GET /monitors/{id}/digests).
  digest: "dg",
  // Internal objects the spec gives no prefix.
  user: "us",
  invitation: "iv",
  deviceCode: "dc",
  session: "se",
  account: "ac",
  hold: "ch",
  transaction: "tx",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;
export type IdPrefix = (typeof ID_PREFIXES)[IdKind];

/**
 * ulid's PRNG, fed from a pool of cryptographically random bytes: ulid's default asks
 * crypto.getRandomValues for one byte per character (sixteen calls per id), a measurable cost
 * on every request. Same source, same distribution (a byte / 256), far fewer calls.
 */
export function pooledRandom(poolSize = 4096): () => number {
  let pool = randomBytes(poolSize);
  let next = 0;
  return () => {
    if (next === pool.length) {
      pool = randomBytes(poolSize);
      next = 0;
    }
    return pool[next++]! / 256;
  };
}

const nextUlid = monotonicFactory(pooledRandom());

/** A bare ULID from the process's one generator (request ids; objects use newId). */
export function newUlid(): string {
  return nextUlid();
}

export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${nextUlid()}`;
}

const ULID_RE = new RegExp(`^${ULID_PATTERN}$`);

/** Whether `id` is a well-formed id of one of the given prefixes. */
export function isId(id: string, ...prefixes: IdPrefix[]): boolean {
  const sep = id.indexOf("_");
  if (sep < 0) return false;
  return (prefixes as string[]).includes(id.slice(0, sep)) && ULID_RE.test(id.slice(sep + 1));
}

/** The well-formed ids of `prefix` among `ids`, each once, in the order first given. */
export function idsOf(ids: readonly string[], prefix: IdPrefix): string[] {
  return [...new Set(ids.filter((id) => isId(id, prefix)))];
}
