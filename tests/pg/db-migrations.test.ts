// The migration runner against a real PostgreSQL server (TEST_DATABASE_URL), each run on a
// database of its own: the same migrations build exactly schema.prisma's schema there too,
// applying is idempotent (also when two runners race), and the bookkeeping is Prisma's.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, openDb, type Db, type DbTarget } from "@/lib/db/client";
import { applyPendingMigrations, schemaDiff } from "@/lib/db/migrate";
import { freshPostgres } from "../helpers/db";
import { adminQuery, createTestDatabase, testServerUrl, type TestDatabase } from "../helpers/pg-database";

const SERVER = testServerUrl();
const MIGRATIONS_DIR = path.resolve("prisma", "migrations");
const committed = readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

const created: string[] = [];
const made: TestDatabase[] = [];

async function emptyDatabase(): Promise<DbTarget & { kind: "postgres" }> {
  const database = await createTestDatabase();
  made.push(database);
  return { kind: "postgres", url: database.url };
}

async function databaseExists(name: string): Promise<boolean> {
  const result = await adminQuery(SERVER, `SELECT 1 FROM pg_database WHERE datname = '${name.replace(/'/g, "''")}'`);
  return result.rowCount === 1;
}

afterAll(async () => {
  for (const database of made) await database.drop();
  for (const name of created) await adminQuery(SERVER, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
});

describe("applying the committed migrations to an empty PostgreSQL database", () => {
  let target: DbTarget & { kind: "postgres" };
  let handle: Db;

  beforeAll(async () => {
    target = await emptyDatabase();
    handle = openDb(target);
  });
  afterAll(async () => handle?.close());

  it("applies every migration, records it as Prisma does, and then has nothing left to do", async () => {
    const first = await applyPendingMigrations(target);
    expect(first.applied).toEqual(committed);

    const rows = await handle.prisma.$queryRawUnsafe<
      { migration_name: string; checksum: string; finished_at: Date | null; rolled_back_at: Date | null; applied_steps_count: number }[]
    >(`SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name`);
    expect(rows.map((r) => r.migration_name)).toEqual(committed);
    for (const row of rows) {
      const sql = readFileSync(path.join(MIGRATIONS_DIR, row.migration_name, "migration.sql"));
      expect(row.checksum).toBe(createHash("sha256").update(sql).digest("hex"));
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }

    const second = await applyPendingMigrations(target);
    expect(second.applied).toEqual([]);
    expect(await handle.prisma.$queryRawUnsafe(`SELECT count(*)::int AS n FROM _prisma_migrations`)).toEqual([{ n: committed.length }]);
  });

  it("produces exactly the schema that prisma/schema.prisma describes", async () => {
    expect(await schemaDiff(target)).toBe("");
    await handle.prisma.$executeRawUnsafe(`ALTER TABLE "runs" DROP COLUMN "raw_envelope"`);
    expect(await schemaDiff(handle)).toMatch(/ALTER TABLE "runs" ADD COLUMN\s+"raw_envelope" JSONB/);
  });

  it("gives a working Prisma client", async () => {
    const user = await handle.prisma.user.create({ data: { id: "us_01JTESTPG000000000000000001", email: "pg@example.com" } });
    await handle.prisma.workspace.create({
      data: {
        id: "ws_01JTESTPG000000000000000001",
        name: "pg",
        kind: "team",
        memberships: { create: { userId: user.id, role: "member" } },
        balance: { create: { purchasedMicros: 9_007_199_254_740_993n } },
      },
    });
    const loaded = await handle.prisma.user.findUniqueOrThrow({ where: { id: user.id }, include: { memberships: { include: { workspace: { include: { balance: true } } } } } });
    expect(loaded.memberships[0]?.workspace.balance?.purchasedMicros).toBe(9_007_199_254_740_993n);
    expect(loaded.memberships[0]?.role).toBe("member");
  });
});

describe("two runners racing on one empty database", () => {
  it("apply each migration exactly once (Prisma's advisory lock serialises them)", async () => {
    const target = await emptyDatabase();
    const [a, b] = await Promise.all([applyPendingMigrations(target), applyPendingMigrations(target)]);
    expect([...a.applied, ...b.applied].sort()).toEqual(committed);
    const check = openDb(target);
    try {
      expect(await check.prisma.$queryRawUnsafe(`SELECT count(*)::int AS n FROM _prisma_migrations`)).toEqual([{ n: committed.length }]);
      expect(await schemaDiff(check)).toBe("");
    } finally {
      await check.close();
    }
  });
});

describe("freshPostgres()", () => {
  it("drops databases that killed runs left behind long ago, and only those", async () => {
    const old = `geoscope_test_${(Date.now() - 7 * 60 * 60 * 1000).toString(36)}_deadbeef`;
    const recent = `geoscope_test_${(Date.now() - 60 * 1000).toString(36)}_cafef00d`;
    for (const name of [old, recent]) {
      await adminQuery(SERVER, `CREATE DATABASE "${name}"`);
      created.push(name);
    }
    const fresh = await freshPostgres();
    await fresh.close();
    expect(await databaseExists(old)).toBe(false);
    expect(await databaseExists(recent)).toBe(true);
  });

  it("makes a migrated database of its own, installs it as db(), and drops it on close", async () => {
    const fresh = await freshPostgres();
    expect(fresh.name).toMatch(/^geoscope_test_/);
    expect(await databaseExists(fresh.name)).toBe(true);
    expect(db()).toBe(fresh.prisma);
    expect(await db().user.count()).toBe(0);
    expect(await schemaDiff(fresh.db)).toBe("");

    const other = await freshPostgres();
    expect(other.name).not.toBe(fresh.name);
    await other.close();

    await fresh.close();
    expect(await databaseExists(fresh.name)).toBe(false);
    expect(await databaseExists(other.name)).toBe(false);
    expect(() => db()).toThrow(/freshPglite|freshPostgres/);
  });
});
