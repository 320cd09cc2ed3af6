// A share's token (decisions.md "Sharing"): never stored, it is derived from the share's id with an
// HMAC keyed by the server's secret, so the same link can be shown again (spec: asking again
// returns the same link) while the database holds only its SHA-256 (./create.ts stores it, ./read.ts
// looks a token up by it, ./present.ts shows the link).
import { createHmac } from "node:crypto";
import { authSecret } from "../config/secret";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** 62^43 > 2^256: every bit of the HMAC is kept. */
export const SHARE_TOKEN_LENGTH = 43;
/** What a token looks like; anything else is never looked up. */
export const TOKEN_PATTERN = new RegExp(`^[0-9A-Za-z]{${SHARE_TOKEN_LENGTH}}$`);

/** The share's token: HMAC-SHA256(server secret, share id) in base62. */
export function tokenOf(shareId: string): string {
  const mac = createHmac("sha256", authSecret()).update(`geoscope share token\u0000${shareId}`).digest("hex");
  let n = BigInt(`0x${mac}`);
  let out = "";
  for (let i = 0; i < SHARE_TOKEN_LENGTH; i++) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out;
}
