// A statement whose text changed runs its new text on a PostgreSQL connection, where pg keeps each
// named statement prepared per connection (lib/db/statement.ts names it by its text's hash).
import { describe, expect, it } from "vitest";
import { currentDb } from "@/lib/db/client";
import { defineStatement, int } from "@/lib/db/statement";
import { standalone, textTransaction } from "@/lib/db/sql";
import { usePostgresDatabase } from "../helpers/app";

// One connection: every statement below is prepared on the same session.
usePostgresDatabase({ poolSize: 1 });

const version = (n: number) =>
  defineStatement({ label: "changed_text", params: ["x"], columns: { n: int("n") }, sql: ({ select, p }) => `SELECT ${select} FROM (SELECT ${p.x}::int + ${n} AS n) t` });

describe("a statement's name on a PostgreSQL connection", () => {
  it("follows the text: a changed statement runs its new text, alone and in a transaction", async () => {
    const before = version(1);
    const after = version(2);
    expect(await before.query(standalone(), { x: 10 })).toEqual([{ n: 11 }]);
    expect(await after.query(standalone(), { x: 10 })).toEqual([{ n: 12 }]);
    await textTransaction(currentDb(), async (sql) => {
      expect(await after.query(sql, { x: 1 })).toEqual([{ n: 3 }]);
      expect(await before.query(sql, { x: 1 })).toEqual([{ n: 2 }]);
    });
  });
});
