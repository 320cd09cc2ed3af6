// Embedded PGlite in a worker thread, as the server runs it (lib/db/pglite-thread.ts): the app's
// services on it through Prisma and through the prepared statements of lib/db/sql.ts, the
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
import { queryText, textTransaction } from "@/lib/db/sql";
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

const select = (name: string, text: string) => ({ name: `thread_test_${name}_v1`, text });

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

  it("runs the prepared statements of lib/db/sql.ts, alone and in a transaction", async () => {
    const echo = select("echo", "SELECT $1::text, $2::text");
    expect(await queryText(threaded, echo, ["it's", null])).toEqual([["it's", null]]);
    expect(await queryText(threaded, echo, ["again", "b"])).toEqual([["again", "b"]]);

    const insert = select("insert", "INSERT INTO users (id, email) VALUES ($1, $2) RETURNING id::text");
    await textTransaction(threaded, async (sql) => {
      await sql.query(insert, ["us_01JTHREAD0000000000000004", "text-committed@example.com"]);
    });
    await expect(
      textTransaction(threaded, async (sql) => {
        await sql.query(insert, ["us_01JTHREAD0000000000000005", "text-rolled-back@example.com"]);
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    const count = select("count", "SELECT count(*)::text FROM users WHERE email LIKE $1");
    expect(await queryText(threaded, count, ["text-%"])).toEqual([["1"]]);
    // A failing statement rejects with PostgreSQL's message and code, and the session goes on.
    await expect(queryText(threaded, insert, ["us_01JTHREAD0000000000000006", "text-committed@example.com"])).rejects.toMatchObject({ code: "23505" });
    expect(await queryText(threaded, count, ["text-%"])).toEqual([["1"]]);
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
      const rows = await queryText(threaded, select("slow", "SELECT count(*)::text FROM generate_series(1, $1::int)"), ["3000000"]);
      const took = performance.now() - started;
      expect(rows).toEqual([["3000000"]]);
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
