// Shared by the Playwright config, the e2e server script's environment and the tests.
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3123);
/** Where the e2e server's SMTP catcher writes each mail it receives, one file a mail. */
export const MAILBOX = process.env.E2E_MAILBOX ?? path.join(tmpdir(), `geoscope-e2e-mailbox-${E2E_PORT}`);

/** The newest mail to `to` that contains a link, with quoted-printable soft breaks undone. */
export function latestLinkTo(to: string, pattern: RegExp): string | null {
  let files: string[];
  try {
    files = readdirSync(MAILBOX).sort();
  } catch {
    return null;
  }
  for (const file of files.reverse()) {
    const raw = readFileSync(path.join(MAILBOX, file), "utf8");
    if (!raw.toLowerCase().includes(`to: ${to.toLowerCase()}`)) continue;
    const text = raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
    const match = pattern.exec(text);
    if (match) return match[0];
  }
  return null;
}
