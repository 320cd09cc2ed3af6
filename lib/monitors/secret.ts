// A monitor's webhook signing secret. Unlike the other secrets (kept only as hashes) the server
// must sign every delivery with it, so it is kept encrypted: AES-256-GCM under a key derived
// (HKDF-SHA256) from the server's AUTH_SECRET, which every instance of a deployment shares as its
// browser sessions already require. A database copy alone reveals no secret. Shown once, in the
// 201 of POST /monitors and of the rotation; never logged.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { newSecret } from "../auth/secrets";
import { authSecret } from "../config/secret";

export const WEBHOOK_SECRET_PREFIX = "whsec_";
const VERSION = "v1";

function key(): Buffer {
  return Buffer.from(hkdfSync("sha256", authSecret(), "geoscope", "monitor webhook secret v1", 32));
}

/** A new secret: `whsec_` and 40 random base62 characters. */
export function newWebhookSecret(): string {
  return newSecret(WEBHOOK_SECRET_PREFIX);
}

/** The secret as stored: `v1.<iv>.<ciphertext and tag>`, base64url. */
export function sealWebhookSecret(secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `${VERSION}.${iv.toString("base64url")}.${sealed.toString("base64url")}`;
}

export class WebhookSecretUnreadable extends Error {
  override name = "WebhookSecretUnreadable";
}

/**
 * The secret a stored value holds. Throws WebhookSecretUnreadable when it was sealed under another
 * AUTH_SECRET (the deployment's changed, or an instance has another): rotate the monitor's secret.
 */
export function openWebhookSecret(stored: string): string {
  const [version, iv, sealed] = stored.split(".");
  if (version !== VERSION || !iv || !sealed) throw new WebhookSecretUnreadable("not a sealed webhook secret");
  const bytes = Buffer.from(sealed, "base64url");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString("utf8");
  } catch {
    throw new WebhookSecretUnreadable("the webhook secret was sealed under another AUTH_SECRET; rotate it (POST /monitors/{id}/webhook-secret/rotate)");
  }
}
