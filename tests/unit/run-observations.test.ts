// Readings kept (lib/visibility/run-observations.ts): a kept reading gives back exactly what reading
// the run found, its key names the entities exactly, and the reading rules' version moves with
// their code, so that no analysis adds up readings made under other rules.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Observations, OBSERVATION_ARRAYS } from "@/lib/visibility/observe";
import { decodeCellsInto, encodeCellsHex, READING_RULES, readingKey } from "@/lib/visibility/run-observations";
import { SeededRandom } from "@/lib/stats/random";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/**
 * The rules' sources as of each version: when one of these files changes, this test fails until
 * the hash below is recorded again and, if what the rules find changed, READING_RULES is bumped
 * (readings kept under the old version are then read again by the next analysis that needs them).
 */
const RULE_FILES = ["observe", "matcher", "text", "links", "echo", "absence", "nfc", "entities", "text-structure"].map((f) => `lib/visibility/${f}.ts`);
const RECORDED = { rules: 1, sources: "c36378d51a08d540bf148c9d1e1975b2c5e8710cecc21c141e8919a4147f6312" };

describe("readings kept", () => {
  it("gives back every cell exactly as read: flags, positions, list ranks, counts and prominence to the last bit", () => {
    const seeded = new SeededRandom("kept readings");
    const random = () => seeded.nextDouble();
    const obs = new Observations(3, 4);
    for (let c = 0; c < 12; c++) {
      obs.mentioned[c] = random() < 0.5 ? 1 : 0;
      obs.position[c] = Math.floor(random() * 5);
      obs.cited[c] = random() < 0.3 ? 1 : 0;
      obs.listRank[c] = Math.floor(random() * 40);
      obs.counted[c] = Math.floor(random() * 100_000);
      obs.promptEcho[c] = Math.floor(random() * 9);
      obs.absence[c] = Math.floor(random() * 9);
      obs.link[c] = Math.floor(random() * 9);
      obs.prominence[c] = random() / 3;
    }
    const back = new Observations(3, 4);
    for (let r = 0; r < 3; r++) decodeCellsInto(Buffer.from(encodeCellsHex(obs, r), "hex"), back, r);
    for (const name of OBSERVATION_ARRAYS) expect([...back[name]], name).toEqual([...obs[name]]);
    expect(() => decodeCellsInto(Buffer.from(encodeCellsHex(obs, 0), "hex").subarray(0, 64), back, 0)).toThrow(/64 bytes of cells for 4 entities/);
  });

  it("keys the entities by what matching reads of them, in order: a name, an alias, a domain, the case rule or the order changes it, the role does not", () => {
    const base = [
      { name: "HubSpot", role: "brand" as const, aliases: ["HubSpot CRM"], domains: ["hubspot.com"], case_sensitive: false },
      { name: "Monday", role: "competitor" as const, aliases: [], domains: [], case_sensitive: true },
    ];
    const key = readingKey(base);
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(readingKey(base.map((e) => ({ ...e, role: "competitor" as const })))).toBe(key);
    const changed = [
      [{ ...base[0]!, name: "Hubspot" }, base[1]!],
      [{ ...base[0]!, aliases: [] }, base[1]!],
      [{ ...base[0]!, domains: ["hubspot.de"] }, base[1]!],
      [base[0]!, { ...base[1]!, case_sensitive: false }],
      [base[1]!, base[0]!],
    ];
    for (const entities of changed) expect(readingKey(entities), JSON.stringify(entities)).not.toBe(key);
  });

  it("has the reading rules' version recorded with their sources: bump READING_RULES when what they find changes", () => {
    const hash = createHash("sha256");
    for (const file of RULE_FILES) hash.update(readFileSync(path.join(ROOT, file), "utf8"));
    const sources = hash.digest("hex");
    expect(
      { rules: READING_RULES, sources },
      `${RULE_FILES.join(", ")} changed: if what they find changed, bump READING_RULES in lib/visibility/run-observations.ts; then record { rules: ${READING_RULES}, sources: "${sources}" } here`,
    ).toEqual(RECORDED);
  });
});
