// Fresh, migrated databases for tests. Each becomes the process's database (what `db()` returns)
// until closed, so services under test use it without being told.
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { openDb, PGLITE_MEMORY, setCurrentDb, type Db } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/client";
import { applyPendingMigrations } from "@/lib/db/migrate";
import { createTestDatabase, dropAbandonedDatabases } from "./pg-database";

export type FreshDb = {
  db: Db;
  prisma: PrismaClient;
  /** Closes the database (and drops it, on PostgreSQL); `db()` has none until the next fresh one. */
  close(): Promise<void>;
};

export type FreshPostgres = FreshDb & {
  /** Connection string of the new database, for tests that need their own pool. */
  url: string;
  name: string;
};

const TEMPLATE_DIR = path.resolve("node_modules", ".cache", "geoscope");

/**
 * A migrated in-memory PGlite database, installed as the process's database.
 *
 * Starting PGlite's cluster (initdb) costs seconds, so the first call migrates an empty one
 * with the real runner and saves it as a template in node_modules/.cache; later calls, in any
 * test process, start from a copy of that. The template's name is a hash of the migrations
 * and PGlite's version, so it is rebuilt whenever either changes.
 */
export async function freshPglite(): Promise<FreshDb> {
  return install(await migratedPglite(), async () => undefined);
}

/** Like freshPglite(), but not installed as the process's database: the caller owns and closes it. */
export async function migratedPglite(): Promise<Db> {
  const templateFile = await pgliteTemplatePath();
  const template = await readFile(templateFile).catch(() => undefined);
  const db = openDb({ kind: "pglite", dataDir: PGLITE_MEMORY }, template ? { pgliteLoadDataDir: new Blob([template]) } : {});
  try {
    // From a current template this applies nothing; it still proves that the template is current.
    await applyPendingMigrations(db);
    if (!template) await saveTemplate(db, templateFile).catch(() => undefined);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

async function pgliteTemplatePath(): Promise<string> {
  const migrationsDir = path.resolve("prisma", "migrations");
  // The archive format is PGlite's own: a new PGlite must not load an old one.
  const pglitePackage = await readFile(path.resolve("node_modules", "@electric-sql", "pglite", "package.json")).catch(() => Buffer.alloc(0));
  const hash = createHash("sha256").update(pglitePackage);
  const entries = await readdir(migrationsDir, { withFileTypes: true }).catch(() => []);
  for (const name of entries.filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
    hash.update(`${name}\n`);
    hash.update(await readFile(path.join(migrationsDir, name, "migration.sql")).catch(() => Buffer.alloc(0)));
  }
  return path.join(TEMPLATE_DIR, `pglite-template-${hash.digest("hex").slice(0, 16)}.tar`);
}

async function saveTemplate(db: Db, file: string): Promise<void> {
  const dump = await db.pglite!.dumpDataDir("none");
  await mkdir(path.dirname(file), { recursive: true });
  // Test workers race to write the same template; a rename makes each write all-or-nothing.
  const partial = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
  await rename(partial, file);
  for (const old of await readdir(path.dirname(file))) {
    if (old.startsWith("pglite-template-") && path.join(path.dirname(file), old) !== file && !old.includes(".tar.")) {
      await rm(path.join(path.dirname(file), old), { force: true });
    }
  }
}

/**
 * A migrated database with a unique name on the server of TEST_DATABASE_URL (default
 * postgresql://postgres@127.0.0.1:5432/postgres; made by tests/helpers/pg-database.ts), installed
 * as the process's database and dropped on close. Test files take it through
 * usePostgresDatabase() (tests/helpers/app.ts).
 */
export async function freshPostgres(options: { poolSize?: number } = {}): Promise<FreshPostgres> {
  await dropAbandonedDatabases();
  const database = await createTestDatabase();
  const db = openDb({ kind: "postgres", url: database.url }, options);
  try {
    // Applies the committed SQL (no diffing), exactly as `npm run db:migrate` does.
    await applyPendingMigrations(db);
  } catch (error) {
    await db.close();
    await database.drop().catch(() => undefined);
    throw error;
  }
  return { ...(await install(db, database.drop)), url: database.url, name: database.name };
}

async function install(db: Db, afterClose: () => Promise<unknown>): Promise<FreshDb> {
  // Whatever was installed before stays open: its owner may still hold its client.
  setCurrentDb(db);
  let closed: Promise<void> | undefined;
  return {
    db,
    prisma: db.prisma,
    close: () =>
      (closed ??= (async () => {
        const current = setCurrentDb(undefined);
        if (current !== db) setCurrentDb(current);
        await db.close();
        await afterClose();
      })()),
  };
}
