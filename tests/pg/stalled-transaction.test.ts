// A transaction whose holder stops sending (a hung await, a frozen process), on a PostgreSQL
// server: the server ends its session after the idle limit (lib/db/client.ts
// IDLE_IN_TRANSACTION_MS, a second here), so the lock it held goes to the transaction waiting for
// it instead of keeping it waiting for as long as the holder hangs; the holder's own next
// statement fails, its work is rolled back, and the pool goes on with a new connection.
import { setTimeout as sleep } from "node:timers/promises";
import { expect, it } from "vitest";
import { openDb } from "@/lib/db/client";
import { standalone, textTransaction } from "@/lib/db/sql";
import { defineStatement, int } from "@/lib/db/statement";
import { usePostgresDatabase } from "../helpers/app";

const database = usePostgresDatabase({ poolSize: 2 });

/** A transaction-scoped lock, as a workspace's row lock is taken by the requests that charge it. */
const LOCK = defineStatement({ label: "test_stalled_lock", columns: { n: int("l.n") }, sql: ({ select }) => `SELECT ${select} FROM (SELECT 1 AS n, pg_advisory_xact_lock(4242)) l` });
const ONE = defineStatement({ label: "test_stalled_one", columns: { n: int("t.n") }, sql: ({ select }) => `SELECT ${select} FROM (SELECT 1 AS n) t` });

it("ends a transaction left idle past its limit: the next one gets its lock, its own next statement fails, the pool goes on", { timeout: 60_000 }, async () => {
  const db = openDb({ kind: "postgres", url: database().url }, { poolSize: 3, idleInTransactionMs: 1000 });
  try {
    const events: string[] = [];
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    const first = textTransaction(db, async (sql) => {
      await LOCK.query(sql, {});
      events.push("first locked");
      // Sends nothing until the second has the lock, or for 30 s (without the limit, the second waits that long).
      await Promise.race([woken, sleep(30_000)]);
      events.push("first woke");
      await ONE.query(sql, {});
      events.push("first went on");
    });
    first.catch(() => undefined);
    while (!events.includes("first locked")) await sleep(10);
    await textTransaction(db, async (sql) => {
      await LOCK.query(sql, {});
      events.push("second locked");
    });
    wake();
    await expect(first).rejects.toThrow();
    expect(events).toEqual(["first locked", "second locked", "first woke"]);
    expect(await ONE.query(standalone(db), {})).toEqual([{ n: 1 }]);
  } finally {
    await db.close();
  }
});
