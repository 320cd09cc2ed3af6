// Secrets (API keys, CLI tokens, invitation, share and device codes): made from a CSPRNG,
// shown once, stored only as SHA-256 hashes, compared in constant time.
import { createHash, randomInt, timingSafeEqual } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export const SECRET_PREFIX = { apiKey: "gsk_", cliToken: "gsc_" } as const;

export function randomBase62(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += BASE62[randomInt(BASE62.length)];
  return out;
}

/** A new secret: the prefix and 40 random base62 characters (about 238 bits). */
export function newSecret(prefix = ""): string {
  return prefix + randomBase62(40);
}

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

export function hashesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
}
