// Embedded PGlite in a worker thread, as the server runs it (lib/db/pglite-thread.ts): the app's
// services on it through Prisma and through the typed statements of lib/db/statement.ts, the
// transactions of both committed and rolled back, Prisma's errors as Prisma reports them, the
// request thread free while a statement runs, and the folder written when it closes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureUser } from "@/lib/accounts/users";
import { openDb, PGLITE_MEMORY, setCurrentDb, type Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { applyPendingMigrations } from "@/lib/db/migrate";
import { defineStatement, int, text } from "@/lib/db/statement";
import { standalone, textTransaction } from "@/lib/db/sql";
import { migratedPglite } from "../helpers/db";

let threaded: Db;
let previous: Db | undefined;

beforeAll(async () => {
  const inline = await migratedPglite();
  const archive = await inline.pglite!.dumpDataDir("none");
  await inline.close();
  threaded = openDb({ kind: "pglite", dataDir: PGLITE_MEMORY }, { pgliteThread: true, pgliteLoadDataDir: archive });
  previous = setCurrentDb(threaded);
});

afterAll(async () => {
  setCurrentDb(previous);
  await threaded.close();
});

const echo = defineStatement({
  label: "thread_test_echo",
  params: ["a", "b"],
  columns: (p) => ({ a: text(p.a).nullable, b: text(p.b).nullable }),
  sql: ({ select }) => `SELECT ${select}`,
});
const insert = defineStatement({
  label: "thread_test_insert",
  params: ["id", "email"],
  columns: { id: text("id") },
  sql: ({ select, p }) => `INSERT INTO users (id, email) VALUES (${p.id}, ${p.email}) RETURNING ${select}`,
});
const count = defineStatement({
  label: "thread_test_count",
  params: ["like"],
  columns: { n: int("count(*)") },
  sql: ({ select, p }) => `SELECT ${select} FROM users WHERE email LIKE ${p.like}`,
});
const slow = defineStatement({
  label: "thread_test_slow",
  params: ["n"],
  columns: { n: int("count(*)") },
  sql: ({ select, p }) => `SELECT ${select} FROM generate_series(1, ${p.n}::int)`,
});

describe("PGlite in a worker thread", () => {
  it("runs the app's services through Prisma: writes, reads, relations", async () => {
    expect(threaded.pglite).toBeUndefined();
    expect(threaded.pgliteThread).toBeDefined();
    const user = await ensureUser("thread@example.com");
    const found = await threaded.prisma.user.findUnique({ where: { id: user.id }, include: { memberships: true } });
    expect(found?.email).toBe("thread@example.com");
    expect(found?.memberships.map((m) => m.workspaceId)).toEqual([user.personalWorkspaceId]);
    // The same user again: found, not created twice.
    expect((await ensureUser("thread@example.com")).id).toBe(user.id);
  });

  it("commits a Prisma transaction, and rolls one back when it throws", async () => {
    await threaded.prisma.$transaction(async (tx) => {
      await tx.user.create({ data: { id: "us_01JTHREAD0000000000000001", email: "committed@example.com" } });
    });
    await expect(
      threaded.prisma.$transaction(async (tx) => {
        await tx.user.create({ data: { id: "us_01JTHREAD0000000000000002", email: "rolled-back@example.com" } });
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    const emails = (await threaded.prisma.user.findMany({ where: { id: { startsWith: "us_01JTHREAD" } } })).map((u) => u.email);
    expect(emails).toEqual(["committed@example.com"]);
  });

  it("reports a unique violation as Prisma's P2002, as in the request thread", async () => {
    const again = threaded.prisma.user.create({ data: { id: "us_01JTHREAD0000000000000003", email: "committed@example.com" } });
    await expect(again).rejects.toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
    await expect(again).rejects.toMatchObject({ code: "P2002" });
  });

  it("runs typed statements (lib/db/statement.ts), alone and in a transaction", async () => {
    const alone = standalone(threaded);
    expect(await echo.query(alone, { a: "it's", b: null })).toEqual([{ a: "it's", b: null }]);
    expect(await echo.query(alone, { a: "again", b: "b" })).toEqual([{ a: "again", b: "b" }]);

    await textTransaction(threaded, async (sql) => {
      await insert.query(sql, { id: "us_01JTHREAD0000000000000004", email: "text-committed@example.com" });
    });
    await expect(
      textTransaction(threaded, async (sql) => {
        await insert.query(sql, { id: "us_01JTHREAD0000000000000005", email: "text-rolled-back@example.com" });
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    expect(await count.query(alone, { like: "text-%" })).toEqual([{ n: 1 }]);
    // A failing statement rejects with PostgreSQL's message and code, and the session goes on.
    await expect(insert.query(alone, { id: "us_01JTHREAD0000000000000006", email: "text-committed@example.com" })).rejects.toMatchObject({ code: "23505" });
    expect(await count.query(alone, { like: "text-%" })).toEqual([{ n: 1 }]);
  });

  it("keeps a transaction's statements together while others wait for it", async () => {
    const order: string[] = [];
    const inTx = threaded.prisma.$transaction(async (tx) => {
      await tx.user.create({ data: { id: "us_01JTHREAD0000000000000007", email: "first@example.com" } });
      order.push("tx wrote");
      await new Promise((resolve) => setTimeout(resolve, 50));
      await tx.user.update({ where: { id: "us_01JTHREAD0000000000000007" }, data: { email: "second@example.com" } });
      order.push("tx committed");
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const outside = threaded.prisma.user.findUnique({ where: { id: "us_01JTHREAD0000000000000007" } }).then((u) => {
      order.push("read");
      return u?.email;
    });
    await inTx;
    // Never the half-done transaction's first write.
    expect(await outside).toBe("second@example.com");
    expect(order).toEqual(["tx wrote", "tx committed", "read"]);
  });

  it("leaves the request thread free while a statement runs", async () => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    try {
      const started = performance.now();
      const rows = await slow.query(standalone(threaded), { n: 3_000_000 });
      const took = performance.now() - started;
      expect(rows).toEqual([{ n: 3_000_000 }]);
      // The statement took long enough for several ticks, and this thread saw them tick meanwhile.
      expect(took).toBeGreaterThan(50);
      expect(ticks).toBeGreaterThanOrEqual(Math.floor(took / 5 / 4));
    } finally {
      clearInterval(ticker);
    }
  });
});

describe("a PGlite folder in a worker thread", () => {
  it("is written when it closes: what it committed is there when opened again in this thread", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "geoscope-pglite-thread-"));
    try {
      const dataDir = path.join(root, "pglite");
      const migrated = await applyPendingMigrations({ kind: "pglite", dataDir });
      expect(migrated.applied.length).toBeGreaterThan(0);
      const first = openDb({ kind: "pglite", dataDir }, { pgliteThread: true });
      await first.prisma.user.create({ data: { id: "us_01JTHREAD0000000000000008", email: "kept@example.com" } });
      await first.close();
      await expect(first.prisma.user.count()).rejects.toThrow();

      const again = openDb({ kind: "pglite", dataDir });
      try {
        expect((await again.prisma.user.findUnique({ where: { id: "us_01JTHREAD0000000000000008" } }))?.email).toBe("kept@example.com");
      } finally {
        await again.close();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
