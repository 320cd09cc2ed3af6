// The server the end-to-end tests talk to: the production build on a fresh PGlite folder, with
// a local SMTP catcher that writes every mail to E2E_MAILBOX (so tests read sign-in links).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { run } from "./lib/run.mjs";
import { serverEnv } from "./lib/server-env.mjs";

const root = path.resolve(import.meta.dirname, "..");
const port = process.env.E2E_PORT ?? "3123";
const mailbox = process.env.E2E_MAILBOX ?? path.join(tmpdir(), `geoscope-e2e-mailbox-${port}`);
rmSync(mailbox, { recursive: true, force: true });
mkdirSync(mailbox, { recursive: true });

let count = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  onData(stream, _session, callback) {
    const chunks = [];
    stream.on("data", (c) => chunks.push(c));
    stream.on("end", () => {
      writeFileSync(path.join(mailbox, `${String(++count).padStart(4, "0")}.eml`), Buffer.concat(chunks));
      callback();
    });
  },
});
await new Promise((resolve) => smtp.listen(0, "127.0.0.1", resolve));
const smtpPort = smtp.server.address().port;

const env = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: "1",
  GEOSCOPE_DATA_DIR: process.env.GEOSCOPE_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "geoscope-e2e-")),
  PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
  NEXTAUTH_URL: `http://127.0.0.1:${port}`,
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
};
delete env.DATABASE_URL;

const migrated = await run(path.join(root, "node_modules", ".bin", "tsx"), [path.join(root, "scripts", "db-migrate.ts")], { cwd: root, env });
if (migrated !== 0) process.exit(migrated);
const code = await run(path.join(root, "node_modules", ".bin", "next"), ["start", "-p", port, "-H", "127.0.0.1"], { cwd: root, env: serverEnv(env) });
smtp.close();
process.exit(code);
