import { describe, expect, it } from "vitest";
import { ID_PREFIXES, isId, newId, pooledRandom } from "@/lib/db/ids";

describe("ids", () => {
  it("have the form <prefix>_<26 Crockford base32 characters>", () => {
    for (const kind of Object.keys(ID_PREFIXES) as (keyof typeof ID_PREFIXES)[]) {
      const id = newId(kind);
      expect(id).toMatch(new RegExp(`^${ID_PREFIXES[kind]}_[0-9A-HJKMNP-TV-Z]{26}$`));
    }
  });

  it("sort by creation even when 10,000 are made in one tight loop", () => {
    const ids = Array.from({ length: 10_000 }, () => newId("run"));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it("are recognised only with the expected prefix and a well-formed ULID", () => {
    const run = newId("run");
    expect(isId(run, "dr")).toBe(true);
    expect(isId(run, "rq")).toBe(false);
    expect(isId(newId("questionsAnalysis"), "fa", "ca")).toBe(true);
    expect(isId("dr_01ARZ3NDEKTSV4RRFFQ69G5FAV", "dr")).toBe(true);
    for (const bad of ["dr_", "dr", "dr_01ARZ3NDEKTSV4RRFFQ69G5FA", "dr_01ARZ3NDEKTSV4RRFFQ69G5FAVX", "dr_01ARZ3NDEKTSV4RRFFQ69G5FAI", "dr-01ARZ3NDEKTSV4RRFFQ69G5FAV", "DR_01ARZ3NDEKTSV4RRFFQ69G5FAV"]) {
      expect(isId(bad, "dr"), bad).toBe(false);
    }
  });

  it("draw their randomness from a pool that refills: every byte value, each a fraction in [0, 1)", () => {
    const random = pooledRandom(16);
    const seen = new Set<number>();
    for (let i = 0; i < 20_000; i++) {
      const r = random();
      expect(r >= 0 && r < 1).toBe(true);
      seen.add(Math.round(r * 256));
    }
    // 20,000 draws through a 16-byte pool: it refilled over a thousand times and kept varying.
    expect(seen.size).toBe(256);
  });
});
