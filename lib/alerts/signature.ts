// The signature of a webhook delivery (decisions.md "Alerts and webhooks"), as Stripe signs its
// events: `Geoscope-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. The
// timestamp is the attempt's, so each attempt carries a fresh one (a receiver can refuse old
// replays); the body is the same on every attempt. README "Verifying a webhook" shows a receiver.
import { createHmac } from "node:crypto";

export const SIGNATURE_HEADER = "Geoscope-Signature";

/** The header's value for `body` sent at `at` with `secret` (the whsec_… string as shown once). */
export function signatureHeader(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac("sha256", secret).update(`${t}.${body}`, "utf8").digest("hex");
  return `t=${t},v1=${v1}`;
}
