// `npm run db:migration -- NAME`: writes prisma/migrations/<timestamp>_<name>/migration.sql
// holding the SQL from the state the existing migrations produce to prisma/schema.prisma.
// Touches no database (the migrations are replayed on a throwaway in-memory PGlite), so it
// works while the server runs. Apply the result with `npm run db:migrate` (or `npm start`).
import path from "node:path";
import { createMigration } from "@/lib/db/migrate";

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0]!.startsWith("-")) {
    process.stderr.write("usage: npm run db:migration -- NAME   (e.g. add_share_expiry)\n");
    return 2;
  }
  try {
    const created = await createMigration(args[0]!);
    if (!created) {
      process.stdout.write("db:migration: prisma/schema.prisma matches the migrations; no migration written\n");
      return 0;
    }
    process.stdout.write(`db:migration: wrote ${path.relative(process.cwd(), path.join(created.dir, "migration.sql"))}\n`);
    process.stdout.write(`${created.sql}\nReview it, then apply it with \`npm run db:migrate\`.\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`db:migration: ${(error as Error).message}\n`);
    return 1;
  }
}

process.exitCode = await main();
