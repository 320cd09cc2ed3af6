// Operator commands, run against the configured database (stop a PGlite server first):
//   npm run admin -- user:create --email E [--name N] [--api-key NAME]
// Prints JSON on stdout; errors go to stderr with a non-zero exit.
import { parseArgs } from "node:util";
import { ensureUser } from "@/lib/accounts/users";
import { issueApiKey } from "@/lib/auth/api-keys";
import { AdminUsageError, BILLING_ADMIN_COMMANDS, BILLING_ADMIN_USAGE, runBillingAdminCommand } from "@/lib/billing/admin";
import { parseConfig } from "@/lib/config/env";
import { closeDb, currentDb, describeDbTarget } from "@/lib/db/client";
import { applyPendingMigrations } from "@/lib/db/migrate";
import { sendJob } from "@/lib/work/admin";

const USAGE = `usage:
  npm run admin -- user:create --email EMAIL [--name NAME] [--api-key KEY_NAME]
      creates the user and their personal workspace (or finds them), and with --api-key
      makes an API key for that workspace; prints the user (and the key, shown once) as JSON
${BILLING_ADMIN_USAGE}
  npm run admin -- job:send --event NAME --id ID --data JSON
      records the job that event NAME starts (lib/work/events.ts), its data checked against the
      event's schema; the server's worker runs it (at its start, or when its next sweep comes)`;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

async function userCreate(args: string[]) {
  const { values } = parseArgs({
    args,
    options: { email: { type: "string" }, name: { type: "string" }, "api-key": { type: "string" } },
    strict: true,
  });
  if (!values.email || !/^[^@\s]+@[^@\s]+$/.test(values.email)) fail(`--email is required and must be an email address\n\n${USAGE}`);
  if (values["api-key"] !== undefined && (values["api-key"].trim().length < 1 || values["api-key"].length > 100)) {
    fail("--api-key must be a name of 1 to 100 characters");
  }
  const user = await ensureUser(values.email, values.name ?? null);
  const out: Record<string, unknown> = {
    user: { id: user.id, email: user.email, name: user.name, created: user.created },
    workspace_id: user.personalWorkspaceId,
  };
  if (values["api-key"]) out.api_key = await issueApiKey(user.id, user.personalWorkspaceId, values["api-key"].trim());
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

async function jobSend(args: string[]) {
  const { values } = parseArgs({ args, options: { event: { type: "string" }, id: { type: "string" }, data: { type: "string" } }, strict: true });
  if (!values.event || !values.id || !values.data) fail(`--event, --id and --data are required\n\n${USAGE}`);
  const out = await sendJob(values.event, values.id, values.data);
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  try {
    parseConfig(process.env);
  } catch (error) {
    fail((error as Error).message);
  }
  try {
    // A fresh checkout has no tables until something migrates: do it here too, and say so.
    if (command && (command === "user:create" || command === "job:send" || (BILLING_ADMIN_COMMANDS as readonly string[]).includes(command))) {
      const { applied } = await applyPendingMigrations(currentDb());
      if (applied.length > 0) process.stderr.write(`admin: applied ${applied.length} pending migrations to ${describeDbTarget(currentDb().target)}\n`);
    }
    if (command === "user:create") await userCreate(rest);
    else if (command === "job:send") await jobSend(rest);
    else if ((BILLING_ADMIN_COMMANDS as readonly string[]).includes(command ?? "")) {
      const out = await runBillingAdminCommand(command as (typeof BILLING_ADMIN_COMMANDS)[number], rest);
      process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    } else fail(command ? `unknown command ${command}\n\n${USAGE}` : USAGE);
  } catch (error) {
    if (error instanceof AdminUsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      fail(`${(error as Error).message}\n\n${USAGE}`);
    }
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 1;
  } finally {
    await closeDb();
  }
}

await main();
