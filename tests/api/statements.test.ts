// A statement whose text changed runs its new text on PGlite's one session, where a statement is
// PREPAREd once under its name and EXECUTEd by name from then on: its name follows its text
// (lib/db/statement.ts). A name that did not (the hand-bumped names before) kept running the text
// first prepared under it, as the first test shows of the session itself.
import { describe, expect, it } from "vitest";
import { currentDb } from "@/lib/db/client";
import { arrayParam, date, defineStatement, int, json, optional, packed, text } from "@/lib/db/statement";
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

describe("a packed group (one column for many)", () => {
  // The columns of a run-like row: texts with quotes, backslashes and multi-byte letters, a
  // null, a JSON document, a timestamp and a left-joined group that may be missing.
  const columns = {
    name: text("t.name"),
    note: text("t.note").nullable,
    body: json("t.body"),
    at: date("t.at"),
    owner: optional({ email: text("t.email") }, "t.email IS NOT NULL"),
  };
  const row = (alias: string, as: "optional" | "packed") =>
    defineStatement({
      label: `packed_${as}_${alias}`,
      params: ["known"],
      columns: (p) => ({ version: int("t.v"), row: (as === "packed" ? packed : optional)(columns, `t.v IS DISTINCT FROM ${p.known}::int`) }),
      sql: ({ select }) =>
        `SELECT ${select} FROM (VALUES (1, 'say "hi" \\ to Zürich — 東京 😀', NULL, '{"a": [1, "x\\ny"], "b": null}'::jsonb, '2026-11-27 01:02:03.456'::timestamp(3), 'a@example.com'), ` +
        `(2, 'plain', 'n', '[]'::jsonb, '2026-01-01 00:00:00'::timestamp(3), NULL)) t(v, name, note, body, at, email) ORDER BY t.v`,
    });

  it("decodes to what optional() decodes, text for text, and leaves the group out when its condition fails", async () => {
    const optionalRows = await row("a", "optional").query(standalone(), { known: null });
    const packedRows = await row("a", "packed").query(standalone(), { known: null });
    expect(packedRows).toEqual(optionalRows);
    expect(packedRows[0]!.row).toEqual({
      name: 'say "hi" \\ to Zürich — 東京 😀',
      note: null,
      body: { a: [1, "x\ny"], b: null },
      at: new Date("2026-11-27T01:02:03.456Z"),
      owner: { email: "a@example.com" },
    });
    expect(packedRows[1]!.row).toMatchObject({ name: "plain", note: "n", body: [], owner: null });
    // The caller has version 1: that row's group is not sent, the other's is.
    const known = await row("a", "packed").query(standalone(), { known: 1 });
    expect(known.map((r) => r.row === null)).toEqual([true, false]);
    expect(row("a", "packed").render({ known: true }).text).toContain("json_build_array(");
  });
});

describe("a list as one parameter (arrayParam)", () => {
  const UNNEST = defineStatement({
    label: "array_param_unnest",
    params: ["texts", "ints"],
    columns: { t: text("t").nullable, i: int("i").nullable },
    sql: ({ select, p }) => `SELECT ${select} FROM unnest(${p.texts}::text[], ${p.ints}::bigint[]) WITH ORDINALITY AS u(t, i, k) ORDER BY k`,
  });

  it("reads back every string as given, quotes, backslashes, braces, commas and spaces included, and null as null", async () => {
    const texts = ["run_01ABC", 'say "hi"', "back\\slash\\", "{1,2,3}", " spaced, out ", "", null, "NULL", "é – 😀"];
    const ints = [1, 2n, -3, null, 0, 42n, 7, 8, 9];
    const rows = await UNNEST.query(standalone(), { texts: arrayParam(texts), ints: arrayParam(ints) });
    expect(rows.map((r) => r.t)).toEqual(texts);
    expect(rows.map((r) => r.i)).toEqual([1, 2, -3, null, 0, 42, 7, 8, 9]);
  });
});
