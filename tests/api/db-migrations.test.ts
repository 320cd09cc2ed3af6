// The migration runner and the client factory on PGlite: the committed migrations build exactly
// what prisma/schema.prisma describes, applying is idempotent and keeps Prisma's bookkeeping,
// a failing migration leaves nothing half-done, and a PGlite folder is never opened twice.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatabaseInUseError, db, dbTargetFromEnv, describeDbTarget, openDb, PGLITE_MEMORY, type Db } from "@/lib/db/client";
import { applyPendingMigrations, createMigration, markMigrationRolledBack, MigrationError, migrationSlug, schemaDiff } from "@/lib/db/migrate";
import { freshPglite, migratedPglite } from "../helpers/db";

const MIGRATIONS_DIR = path.resolve("prisma", "migrations");
const SCHEMA = path.resolve("prisma", "schema.prisma");
const committed = readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

type MigrationRow = {
  migration_name: string;
  checksum: string;
  started_at: Date;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  applied_steps_count: number;
  logs: string | null;
};

async function bookkeeping(target: Db): Promise<MigrationRow[]> {
  return target.prisma.$queryRawUnsafe<MigrationRow[]>(
    `SELECT migration_name, checksum, started_at, finished_at, rolled_back_at, applied_steps_count, logs
       FROM _prisma_migrations ORDER BY started_at, migration_name`,
  );
}

async function tableNames(target: Db): Promise<string[]> {
  const rows = await target.prisma.$queryRawUnsafe<{ table_name: string }[]>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
  );
  return rows.map((r) => r.table_name);
}

function tempDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), `geoscope-${prefix}-`));
}

const cleanup: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn();
});

describe("applying the committed migrations to an empty PGlite database", () => {
  let target: Db;
  let firstRun: Awaited<ReturnType<typeof applyPendingMigrations>>;

  beforeAll(async () => {
    target = openDb({ kind: "pglite", dataDir: PGLITE_MEMORY });
    cleanup.push(() => target.close());
    expect(await tableNames(target)).toEqual([]);
    firstRun = await applyPendingMigrations(target);
  });

  it("applies every migration in the folder, in order", () => {
    expect(committed.length).toBeGreaterThan(0);
    expect(firstRun.applied).toEqual(committed);
    expect(firstRun.migrations).toEqual(committed);
    expect(firstRun.edited).toEqual([]);
  });

  it("records each one in _prisma_migrations the way Prisma does", async () => {
    const rows = await bookkeeping(target);
    expect(rows.map((r) => r.migration_name)).toEqual(committed);
    for (const row of rows) {
      const sql = readFileSync(path.join(MIGRATIONS_DIR, row.migration_name, "migration.sql"));
      // `prisma migrate deploy` compares this checksum with the file's SHA-256.
      expect(row.checksum).toBe(createHash("sha256").update(sql).digest("hex"));
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
  });

  it("is a no-op the second time", async () => {
    const before = await bookkeeping(target);
    const tablesBefore = await tableNames(target);
    const again = await applyPendingMigrations(target);
    expect(again.applied).toEqual([]);
    expect(again.migrations).toEqual(committed);
    expect(await bookkeeping(target)).toEqual(before);
    expect(await tableNames(target)).toEqual(tablesBefore);
  });

  it("produces exactly the schema that prisma/schema.prisma describes", async () => {
    expect(await schemaDiff(target)).toBe("");
  });

  it("would notice a database that drifted from the schema", async () => {
    // Proves the empty diff above is a real comparison, not an engine that always says "none".
    const scratch = await migratedPglite();
    try {
      await scratch.prisma.$executeRawUnsafe(`DROP INDEX "memberships_user_id_idx"`);
      await scratch.prisma.$executeRawUnsafe(`ALTER TABLE "projects" DROP COLUMN "context"`);
      const diff = await schemaDiff(scratch);
      expect(diff).toContain(`CREATE INDEX "memberships_user_id_idx"`);
      expect(diff).toMatch(/ALTER TABLE "projects" ADD COLUMN\s+"context" JSONB/);
    } finally {
      await scratch.close();
    }
  });

  it("gives a working Prisma client: a round trip through relations, enums, JSON and BigInt", async () => {
    const prisma = target.prisma;
    const user = await prisma.user.create({ data: { id: "us_01JTEST0000000000000000001", email: "ada@example.com" } });
    const workspace = await prisma.workspace.create({
      data: {
        id: "ws_01JTEST0000000000000000001",
        name: "Ada's",
        kind: "personal",
        ownerUserId: user.id,
        memberships: { create: { userId: user.id, role: "admin" } },
        balance: { create: { promoMicros: 2_500_000n, purchasedMicros: 9_007_199_254_740_993n } },
        projects: {
          create: {
            id: "pr_01JTEST0000000000000000001",
            name: "Research",
            slug: "research",
            context: { primary_domain: "example.com", brands: ["Ada", "Ada & Co"] },
            createdByUserId: user.id,
          },
        },
      },
    });

    const loaded = await prisma.workspace.findUniqueOrThrow({
      where: { id: workspace.id },
      include: { memberships: true, balance: true, projects: true, owner: true },
    });
    expect(loaded.kind).toBe("personal");
    expect(loaded.owner?.email).toBe("ada@example.com");
    expect(loaded.memberships).toEqual([expect.objectContaining({ userId: user.id, role: "admin", id: expect.any(Number) })]);
    // Beyond 2^53: BigInt must survive the adapter both ways.
    expect(loaded.balance?.purchasedMicros).toBe(9_007_199_254_740_993n);
    expect(loaded.projects[0]?.context).toEqual({ primary_domain: "example.com", brands: ["Ada", "Ada & Co"] });
    expect(loaded.createdAt).toBeInstanceOf(Date);

    await expect(prisma.user.create({ data: { id: "us_01JTEST0000000000000000002", email: "ada@example.com" } })).rejects.toMatchObject({
      code: "P2002",
    });

    // An interactive transaction that throws leaves nothing behind.
    await expect(
      prisma.$transaction(async (tx) => {
        await tx.user.create({ data: { id: "us_01JTEST0000000000000000003", email: "grace@example.com" } });
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect(await prisma.user.count()).toBe(1);
  });
});

describe("two runs at once on one PGlite database", () => {
  it("apply each migration exactly once", async () => {
    const target = openDb({ kind: "pglite", dataDir: PGLITE_MEMORY });
    try {
      const [a, b] = await Promise.all([applyPendingMigrations(target), applyPendingMigrations(target)]);
      expect([...a.applied, ...b.applied].sort()).toEqual(committed);
      expect((await bookkeeping(target)).map((r) => r.migration_name)).toEqual(committed);
    } finally {
      await target.close();
    }
  });
});

describe("freshPglite()", () => {
  it("installs a migrated, empty database as db() and uninstalls it on close", async () => {
    const fresh = await freshPglite();
    expect(db()).toBe(fresh.prisma);
    expect(await db().user.count()).toBe(0);
    expect(await schemaDiff(fresh.db)).toBe("");
    await fresh.close();
    expect(() => db()).toThrow(/freshPglite/);
  });

  it("gives each call its own database", async () => {
    const a = await freshPglite();
    const b = await freshPglite();
    try {
      await a.prisma.user.create({ data: { id: "us_01JTEST0000000000000000009", email: "a@example.com" } });
      expect(await b.prisma.user.count()).toBe(0);
      expect(db()).toBe(b.prisma);
    } finally {
      await b.close();
      await a.close();
    }
  });
});

describe("the embedded database under a long chain of statements", () => {
  // PGlite runs in this thread. Until each statement yielded a turn of the event loop, 10 s of
  // back-to-back statements (a thousand runs created) answered no request and fired no timer,
  // and this request was answered only after the last statement.
  it("still lets the server answer requests between statements", async () => {
    const fresh = await freshPglite();
    const server = createServer((_req, res) => res.end("ok"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const statements = 1000;
      // Warm: Prisma's first statements load its query compiler, which waits on the disk.
      for (let i = 0; i < 20; i++) await fresh.prisma.$transaction(async (tx) => tx.$queryRaw`SELECT ${i}::int AS n`);
      let done = 0;
      let doneWhenAnswered = -1;
      const answered = fetch(`http://127.0.0.1:${port}/`).then(async (r) => {
        doneWhenAnswered = done;
        return r.text();
      });
      for (let i = 0; i < statements; i++) {
        if (i % 10 === 0) await fresh.prisma.$transaction(async (tx) => tx.$queryRaw`SELECT ${i}::int AS n`);
        else await fresh.prisma.$queryRaw`SELECT ${i}::int AS n`;
        done += 1;
      }
      expect(await answered).toBe("ok");
      // Answered while the chain ran, not after it.
      expect(doneWhenAnswered).toBeGreaterThanOrEqual(0);
      expect(doneWhenAnswered).toBeLessThan(statements);
    } finally {
      server.close();
      await fresh.close();
    }
  });
});

describe("createMigration", () => {
  it("finds nothing to write: the committed migrations match schema.prisma", async () => {
    const dir = tempDir("migrations");
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    expect(await createMigration("nothing", { migrationsDir: dir })).toBeNull();
    expect(readdirSync(dir).sort()).toEqual(readdirSync(MIGRATIONS_DIR).sort());
  });

  it("writes the difference as a new timestamped migration that then applies cleanly", async () => {
    const dir = tempDir("migrations");
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    const schemaPath = path.join(dir, "schema.prisma");
    writeFileSync(
      schemaPath,
      `${readFileSync(SCHEMA, "utf8")}\nmodel Bookmark {\n  id    String @id\n  label String @default("x; y")\n\n  @@map("bookmarks")\n}\n`,
    );

    // A clock behind the last migration must still sort after it.
    const created = await createMigration("Add bookmarks!", { schemaPath, migrationsDir: dir, now: new Date("2001-01-01T00:00:00Z") });
    expect(created).not.toBeNull();
    expect(created!.name).toMatch(/^\d{14}_add_bookmarks$/);
    expect([...committed, created!.name].sort().at(-1)).toBe(created!.name);
    expect(created!.sql).toContain(`CREATE TABLE "bookmarks"`);
    expect(readFileSync(path.join(dir, created!.name, "migration.sql"), "utf8")).toBe(created!.sql);
    expect(await createMigration("again", { schemaPath, migrationsDir: dir })).toBeNull();

    const scratch = await migratedPglite();
    try {
      const result = await applyPendingMigrations(scratch, { migrationsDir: dir });
      expect(result.applied).toEqual([created!.name]);
      expect(await schemaDiff(scratch, { schemaPath })).toBe("");
      // The `;` inside the default survives: scripts are not split on semicolons.
      await scratch.prisma.$executeRawUnsafe(`INSERT INTO bookmarks (id) VALUES ('b1')`);
      expect(await scratch.prisma.$queryRawUnsafe(`SELECT label FROM bookmarks`)).toEqual([{ label: "x; y" }]);
    } finally {
      await scratch.close();
    }
  });

  it("starts a new folder with Prisma's lock file", async () => {
    const dir = tempDir("migrations");
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const created = await createMigration("init", { migrationsDir: dir });
    expect(created?.sql).toContain(`CREATE TABLE "users"`);
    expect(readFileSync(path.join(dir, "migration_lock.toml"), "utf8")).toMatch(/^provider = "postgresql"$/m);
  });

  it("names migrations the way Prisma does and refuses an empty name", () => {
    expect(migrationSlug("Add share expiry")).toBe("add_share_expiry");
    expect(migrationSlug("--v2: runs.lease--")).toBe("v2_runs_lease");
    expect(() => migrationSlug("!!!")).toThrow(MigrationError);
  });
});

describe("20261130082321_analysis_run_ids", () => {
  it("keeps every stored analysis's runs in its order, with their number, and its kept body", async () => {
    const NAME = "20261130082321_analysis_run_ids";
    const dir = tempDir("migrations");
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    // The database as it was before: every migration up to this one.
    for (const later of committed.filter((name) => name >= NAME)) rmSync(path.join(dir, later), { recursive: true });
    const target = openDb({ kind: "pglite", dataDir: PGLITE_MEMORY });
    try {
      await applyPendingMigrations(target, { migrationsDir: dir });
      const sql = (text: string) => target.prisma.$executeRawUnsafe(text);
      await sql(`INSERT INTO users (id, email) VALUES ('u1', 'a@example.com')`);
      await sql(`INSERT INTO workspaces (id, name, kind, updated_at) VALUES ('ws1', 'W', 'personal', now())`);
      await sql(`INSERT INTO projects (id, workspace_id, name, slug, created_by_user_id, updated_at) VALUES ('pr1', 'ws1', 'P', 'p', 'u1', now())`);
      const analysis = (id: string, kind: string, body: string | null) =>
        sql(`INSERT INTO analyses (id, kind, status, workspace_id, project_id, subject, input, result, body, created_by_user_id)
             VALUES ('${id}', '${kind}', 'completed', 'ws1', 'pr1', 's', '{}', '{"run_ids": []}', ${body === null ? "NULL" : `'${body}'`}, 'u1')`);
      await analysis("va_1", "visibility", '{"kept": true}');
      await analysis("ca_1", "citations", null);
      await analysis("ca_2", "citations", null);
      // Inserted out of order: the order is the positions'.
      await sql(`INSERT INTO analysis_runs (analysis_id, run_id, position) VALUES ('va_1', 'dr_c', 2), ('va_1', 'dr_a', 0), ('va_1', 'dr_b', 1), ('ca_1', 'dr_z', 0)`);

      cpSync(path.join(MIGRATIONS_DIR, NAME), path.join(dir, NAME), { recursive: true });
      expect((await applyPendingMigrations(target, { migrationsDir: dir })).applied).toEqual([NAME]);
      expect(await target.prisma.$queryRawUnsafe(`SELECT id, run_ids, run_count, body FROM analyses ORDER BY id`)).toEqual([
        { id: "ca_1", run_ids: ["dr_z"], run_count: 1, body: null },
        // An analysis without runs (none stored) covers none.
        { id: "ca_2", run_ids: [], run_count: 0, body: null },
        { id: "va_1", run_ids: ["dr_a", "dr_b", "dr_c"], run_count: 3, body: '{"kept": true}' },
      ]);
      expect(await tableNames(target)).not.toContain("analysis_runs");
      // Its kept body still follows the row: any other change drops it.
      await sql(`UPDATE analyses SET subject = 'changed' WHERE id = 'va_1'`);
      expect(await target.prisma.$queryRawUnsafe(`SELECT body FROM analyses WHERE id = 'va_1'`)).toEqual([{ body: null }]);
    } finally {
      await target.close();
    }
  });
});

describe("a migration that fails", () => {
  it("rolls back entirely, is recorded as failed, and blocks later runs until marked rolled back", async () => {
    const dir = tempDir("migrations");
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    const bad = "99990101000000_broken";
    mkdirSync(path.join(dir, bad));
    writeFileSync(
      path.join(dir, bad, "migration.sql"),
      `CREATE TABLE "half_done" (id INT);\nINSERT INTO "no_such_table" VALUES (1);\nCREATE TABLE "never" (id INT);\n`,
    );

    const target = await migratedPglite();
    try {
      const error = await applyPendingMigrations(target, { migrationsDir: dir }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MigrationError);
      expect((error as Error).message).toContain(bad);
      expect((error as Error).message).toMatch(/no_such_table/);

      const tables = await tableNames(target);
      expect(tables).not.toContain("half_done");
      expect(tables).not.toContain("never");
      expect(tables).toContain("users");

      const rows = await bookkeeping(target);
      expect(rows.find((r) => r.migration_name === bad)).toMatchObject({ finished_at: null, rolled_back_at: null });
      expect(rows.filter((r) => r.finished_at !== null).map((r) => r.migration_name)).toEqual(committed);

      // Prisma's rule (P3009): a failed migration must be resolved before anything else is applied.
      await expect(applyPendingMigrations(target, { migrationsDir: dir })).rejects.toThrow(/failed migrations|P3009/i);

      // Resolved as `prisma migrate resolve --rolled-back` would, a fixed migration applies.
      writeFileSync(path.join(dir, bad, "migration.sql"), `CREATE TABLE "half_done" (id INT);\n`);
      await markMigrationRolledBack(target, bad);
      expect((await applyPendingMigrations(target, { migrationsDir: dir })).applied).toEqual([bad]);
      expect(await tableNames(target)).toContain("half_done");
      const history = (await bookkeeping(target)).filter((r) => r.migration_name === bad);
      expect(history).toEqual([
        expect.objectContaining({ finished_at: null, rolled_back_at: expect.any(Date) }),
        expect.objectContaining({ finished_at: expect.any(Date), rolled_back_at: null }),
      ]);
    } finally {
      await target.close();
    }
  });
});

describe("the embedded database's folder", () => {
  it("lives under GEOSCOPE_DATA_DIR (default .data) unless DATABASE_URL is set", () => {
    expect(dbTargetFromEnv({})).toEqual({ kind: "pglite", dataDir: path.resolve(".data", "pglite") });
    expect(dbTargetFromEnv({ GEOSCOPE_DATA_DIR: "/srv/geo", DATABASE_URL: "" })).toEqual({ kind: "pglite", dataDir: "/srv/geo/pglite" });
    expect(dbTargetFromEnv({ DATABASE_URL: "postgresql://u:secret@db:5432/geo" })).toEqual({
      kind: "postgres",
      url: "postgresql://u:secret@db:5432/geo",
    });
    expect(describeDbTarget({ kind: "postgres", url: "postgresql://u:secret@db:5432/geo" })).not.toContain("secret");
  });

  it("persists across close and reopen", async () => {
    const dataDir = path.join(tempDir("pglite"), "pglite");
    cleanup.push(() => rmSync(path.dirname(dataDir), { recursive: true, force: true }));
    const first = openDb({ kind: "pglite", dataDir });
    await applyPendingMigrations(first);
    await first.prisma.user.create({ data: { id: "us_01JTEST0000000000000000010", email: "kept@example.com" } });
    await first.close();

    const second = openDb({ kind: "pglite", dataDir });
    try {
      expect((await applyPendingMigrations(second)).applied).toEqual([]);
      expect(await second.prisma.user.findMany({ select: { email: true } })).toEqual([{ email: "kept@example.com" }]);
    } finally {
      await second.close();
    }
  });

  it("cannot be opened twice, and says what to do instead", async () => {
    const dataDir = path.join(tempDir("pglite"), "pglite");
    cleanup.push(() => rmSync(path.dirname(dataDir), { recursive: true, force: true }));
    const holder = openDb({ kind: "pglite", dataDir });
    try {
      expect(() => openDb({ kind: "pglite", dataDir })).toThrow(DatabaseInUseError);
    } finally {
      await holder.close();
    }
    // Closed: the folder is free again.
    const again = openDb({ kind: "pglite", dataDir });
    await again.close();

    // Another live process holds it: a sleeping node process stands in for the server.
    const server = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
    cleanup.push(() => void server.kill());
    writeFileSync(`${dataDir}.lock`, JSON.stringify({ pid: server.pid, host: hostname(), since: "2026-01-01T00:00:00Z" }));
    let message = "";
    try {
      openDb({ kind: "pglite", dataDir });
    } catch (error) {
      expect(error).toBeInstanceOf(DatabaseInUseError);
      message = (error as Error).message;
    }
    expect(message).toContain(`pid ${server.pid}`);
    expect(message).toContain("stop the geoscope server");
    expect(message).toContain("DATABASE_URL");
  });

  it("takes over a lock left by a process that no longer exists", async () => {
    const dataDir = path.join(tempDir("pglite"), "pglite");
    cleanup.push(() => rmSync(path.dirname(dataDir), { recursive: true, force: true }));
    // pid_max is at most 2^22 on Linux, so this pid cannot be running.
    writeFileSync(`${dataDir}.lock`, JSON.stringify({ pid: 2 ** 22 + 7, host: hostname(), since: "2026-01-01T00:00:00Z" }));
    const opened = openDb({ kind: "pglite", dataDir });
    try {
      expect(JSON.parse(readFileSync(`${dataDir}.lock`, "utf8")).pid).toBe(process.pid);
      expect(await opened.prisma.$queryRawUnsafe(`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
    } finally {
      await opened.close();
    }
    expect(() => readFileSync(`${dataDir}.lock`)).toThrow();
  });
});
