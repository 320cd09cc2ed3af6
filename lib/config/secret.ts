// The secret that signs browser sessions' cookies and hashes sign-in tokens: AUTH_SECRET, or
// one generated on first start and kept in the data folder so sessions survive restarts.
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { config } from "./env";

let cached: string | undefined;

export function authSecret(): string {
  if (cached) return cached;
  const c = config();
  if (c.AUTH_SECRET) return (cached = c.AUTH_SECRET);
  const file = path.resolve(c.GEOSCOPE_DATA_DIR, "auth-secret");
  try {
    cached = readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
    const fresh = randomBytes(32).toString("base64url");
    try {
      // `wx`: when two processes race to create it, the loser reads the winner's.
      writeFileSync(file, fresh, { flag: "wx", mode: 0o600 });
      cached = fresh;
    } catch {
      cached = readFileSync(file, "utf8").trim();
    }
  }
  return cached;
}
