import { describe, expect, it } from "vitest";
import { newId } from "@/lib/db/ids";
import { decodeCursor, encodeCursor, pageOf } from "@/lib/http/pagination";

describe("cursors", () => {
  it("round-trip the id of the last item, opaquely", () => {
    const id = newId("run");
    const cursor = encodeCursor(id);
    expect(cursor).not.toContain(id);
    expect(decodeCursor(cursor, "dr")).toBe(id);
  });

  it("are refused with 400 naming cursor when this server did not issue them for this list", () => {
    const bad = ["", "abc", "!!", encodeCursor("not-an-id"), encodeCursor(newId("transaction")), Buffer.from(`t0:${newId("run")}`).toString("base64url")];
    for (const cursor of bad) {
      expect(() => decodeCursor(cursor, "dr"), cursor).toThrow(expect.objectContaining({ code: "invalid_request", message: expect.stringMatching(/^cursor: /) }));
    }
  });

  it("make a page of limit items and point after the last only when more exist", () => {
    const rows = Array.from({ length: 4 }, () => ({ id: newId("run") })).reverse();
    const full = pageOf(rows, 3);
    expect(full.items).toEqual(rows.slice(0, 3));
    expect(decodeCursor(full.next_cursor!, "dr")).toBe(rows[2]!.id);
    expect(pageOf(rows.slice(0, 3), 3).next_cursor).toBeNull();
  });
});
