// A statement whose text changed runs its new text on PGlite's one session, where a statement is
// PREPAREd once under its name and EXECUTEd by name from then on: its name follows its text
// (lib/db/statement.ts). A name that did not (the hand-bumped names before) kept running the text
// first prepared under it, as the first test shows of the session itself.
import { describe, expect, it } from "vitest";
import { currentDb } from "@/lib/db/client";
import { defineStatement, int } from "@/lib/db/statement";
import { queryText, standalone, textTransaction } from "@/lib/db/sql";
import { useTestDatabase } from "../helpers/app";

useTestDatabase();

/** The same statement, as an earlier and a later version of a module would define it. */
const version = (n: number) =>
  defineStatement({ label: "changed_text", params: ["x"], columns: { n: int("n") }, sql: ({ select, p }) => `SELECT ${select} FROM (SELECT ${p.x}::int + ${n} AS n) t` });

describe("a statement's name on PGlite's session", () => {
  it("is prepared once: a name kept for a changed text runs the old text", async () => {
    expect(await queryText(currentDb(), { name: "kept_name_v1", text: "SELECT 1::text" }, [])).toEqual([["1"]]);
    expect(await queryText(currentDb(), { name: "kept_name_v1", text: "SELECT 2::text" }, [])).toEqual([["1"]]);
  });

  it("follows the text: a changed statement runs its new text, alone and in a transaction", async () => {
    const before = version(1);
    const after = version(2);
    expect(after.render({ x: true }).name).not.toBe(before.render({ x: true }).name);
    expect(await before.query(standalone(), { x: 10 })).toEqual([{ n: 11 }]);
    expect(await after.query(standalone(), { x: 10 })).toEqual([{ n: 12 }]);
    expect(await before.query(standalone(), { x: 10 })).toEqual([{ n: 11 }]);
    await textTransaction(currentDb(), async (sql) => {
      expect(await after.query(sql, { x: 1 })).toEqual([{ n: 3 }]);
      expect(await before.query(sql, { x: 1 })).toEqual([{ n: 2 }]);
    });
  });
});
