// Operator commands (lib/operator/commands.ts):
//   npm run admin -- user:create --email E [--name N] [--api-key NAME]
//   npm run admin -- credit:add|credit:adjust … ; npm run admin -- job:send …
// Against the configured database; with the embedded one (no DATABASE_URL) while the server runs,
// the server carries the command out through its loopback operator endpoint (PGlite allows one
// process). Prints the command's JSON on stdout and what it did on stderr; usage mistakes exit 2,
// failures 1.
import { isOperatorCommand, OPERATOR_USAGE, runOperatorCommand, AdminUsageError } from "@/lib/operator/commands";
import { runningServer, sendOperatorCommand } from "@/lib/operator/client";
import { parseConfig } from "@/lib/config/env";
import { closeDb, currentDb, dbTargetFromEnv, describeDbTarget } from "@/lib/db/client";
import { applyPendingMigrations } from "@/lib/db/migrate";

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

function done(result: unknown, summary: string, where: string): void {
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  process.stderr.write(`admin: ${summary} (${where})\n`);
}

/** Through the running server's operator endpoint; false when no server answers for the data folder. */
async function throughServer(dataDir: string, command: string, args: string[]): Promise<boolean> {
  const server = runningServer(dataDir);
  if (!server) return false;
  const sent = await sendOperatorCommand(server, command, args);
  if (!sent) return false;
  const { body } = sent;
  if ("error" in body) {
    if (body.error.kind === "usage") fail(`${body.error.message}\n\n${OPERATOR_USAGE}`);
    process.stderr.write(`${body.error.message}\n`);
    process.exitCode = 1;
    return true;
  }
  done(body.result, body.summary, `carried out by the running server, pid ${server.pid}`);
  return true;
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const settings = (() => {
    try {
      return parseConfig(process.env);
    } catch (error) {
      fail((error as Error).message);
    }
  })();
  if (!isOperatorCommand(command)) fail(command ? `unknown command ${command}\n\n${OPERATOR_USAGE}` : OPERATOR_USAGE);
  const target = dbTargetFromEnv();
  if (target.kind === "pglite" && (await throughServer(settings.GEOSCOPE_DATA_DIR, command, rest))) return;
  try {
    // A fresh checkout has no tables until something migrates: do it here too, and say so.
    const { applied } = await applyPendingMigrations(currentDb());
    if (applied.length > 0) process.stderr.write(`admin: applied ${applied.length} pending migrations to ${describeDbTarget(currentDb().target)}\n`);
    const { result, summary } = await runOperatorCommand(command, rest);
    done(result, summary, describeDbTarget(currentDb().target));
  } catch (error) {
    if (error instanceof AdminUsageError) fail(`${error.message}\n\n${OPERATOR_USAGE}`);
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 1;
  } finally {
    await closeDb();
  }
}

await main();
