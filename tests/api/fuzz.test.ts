// Fuzzed requests to every endpoint with a body or a query (tests/helpers/fuzz.ts): never a 5xx,
// every 4xx the error envelope and nothing changed, and what decisions.md refuses (NUL, lone
// surrogates, unknown fields at any depth…) refused as 400 naming the field. A bounded number of
// seeded cases per endpoint here; `npm run fuzz -- --seed N --cases N` runs more.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/config/env";
import { endpoints } from "@/lib/schemas/registry";
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { startCliAuth } from "@/lib/schemas/auth";
import { formatFailure, fuzzEndpoint, fuzzedEndpoints, fuzzTarget, mutationsOf, prepareFuzzWorld, type FuzzWorld } from "../helpers/fuzz";
import { handlerOf, send } from "../helpers/routes";

useSimulatedEngines({ billing: true });
useTestDatabase();

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_522);
/** Every mutation of an endpoint this many times (odd rounds aim below the top level). */
const ROUNDS = Number(process.env.FUZZ_ROUNDS ?? 3);

let world: FuzzWorld;

beforeAll(async () => {
  world = await prepareFuzzWorld();
});

afterAll(() => {
  world?.restoreDriver();
  resetConfig();
});

describe("fuzzed requests", () => {
  it("cover every endpoint with a body or a query", () => {
    const expected = endpoints.filter((e) => e.body !== undefined || e.query !== undefined).map((e) => e.operationId);
    expect(fuzzedEndpoints().map((e) => e.operationId)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(20);
  });

  const cases = fuzzedEndpoints().map((e) => [e.operationId, e] as const);
  it.each(cases)("%s: no 5xx, the envelope on every 4xx, nothing changed by a 4xx", async (_, endpoint) => {
    const target = await fuzzTarget(endpoint, world);
    const count = ROUNDS * mutationsOf(endpoint).length;
    const { cases, failures } = await fuzzEndpoint(target, { seed: SEED, count });
    expect(cases).toBe(count);
    expect(failures.map(formatFailure)).toEqual([]);
  });
});

describe("deep nesting", () => {
  it("is refused: 60,000 levels (120 KB, no credential needed) answer 400", async () => {
    // The other fuzz cases nest 1000 to 5000 levels; this one is deep enough that work quadratic
    // in the depth (16 s at 40,000 levels, once) would run into the test's timeout, and still far
    // below what the body limit allows. `npm run fuzz` reports slow answers; no duration is asserted here.
    const depth = 60_000;
    const res = await send(await handlerOf(startCliAuth), {
      method: "POST",
      url: "/cli/auth/start",
      headers: { "content-type": "application/json" },
      body: `{"client_name":${"[".repeat(depth)}${"]".repeat(depth)}}`,
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error.code).toBe("invalid_request");
  });
});
