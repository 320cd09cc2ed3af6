// `npm run db:migrate`: checks the configuration, then applies pending migrations from
// prisma/migrations to the configured database (DATABASE_URL, or PGlite in the data folder)
// and says what it did. `npm start` runs it before serving.
import { parseConfig } from "@/lib/config/env";
import { dbTargetFromEnv, describeDbTarget } from "@/lib/db/client";
import { applyPendingMigrations, markMigrationRolledBack } from "@/lib/db/migrate";

const USAGE = `usage:
  npm run db:migrate                            apply pending migrations
  npm run db:migrate -- --rolled-back NAME      mark the failed migration NAME as rolled back
                                                (after undoing what it did), so it runs again`;

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const rolledBack = args[0] === "--rolled-back" ? args[1] : undefined;
  if (args.length > 0 && !(rolledBack && args.length === 2)) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  try {
    parseConfig(process.env);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 1;
  }

  const target = dbTargetFromEnv();
  const where = describeDbTarget(target);
  try {
    if (rolledBack) {
      await markMigrationRolledBack(target, rolledBack);
      process.stdout.write(`db:migrate: marked ${rolledBack} as rolled back in ${where}; the next db:migrate applies it again\n`);
      return 0;
    }
    const result = await applyPendingMigrations(target);
    if (result.migrations.length === 0) {
      process.stdout.write(`db:migrate: no migrations in prisma/migrations; nothing to apply to ${where}\n`);
    } else if (result.applied.length === 0) {
      process.stdout.write(`db:migrate: ${where} is up to date (${result.migrations.length} migrations applied earlier)\n`);
    } else {
      process.stdout.write(`db:migrate: applied ${result.applied.length} of ${result.migrations.length} migrations to ${where}:\n`);
      for (const name of result.applied) process.stdout.write(`  ${name}\n`);
    }
    for (const name of result.edited) {
      process.stderr.write(`db:migrate: warning: migration ${name} was edited after it was applied; the change was NOT applied (add a new migration instead)\n`);
    }
    return 0;
  } catch (error) {
    process.stderr.write(`db:migrate: migrating ${where} failed:\n${(error as Error).message}\n`);
    if (/failed migrations|P3009|P3018/i.test((error as Error).message) || /migration_name=/.test((error as Error).message)) {
      process.stderr.write(
        "A failed migration stays recorded as failed. Fix the database (and the migration), then run\n" +
          "  npm run db:migrate -- --rolled-back <migration name>\nand apply again.\n",
      );
    }
    return 1;
  }
}

process.exitCode = await main();
