// Holds under real concurrency on a PostgreSQL server: many transactions on a pool of
// connections racing for one workspace's credit must never set aside more than its balance,
// and a hold's capture and release racing each other must settle it exactly once.
import { describe, expect, it } from "vitest";
import { captureHold, holdCredit, releaseHold, type SettledHold } from "@/lib/billing/holds";
import { sqlIn } from "@/lib/db/sql";
import { availableMicros, grantPromo, readBalance, recomputeBalance, recordPurchase } from "@/lib/billing/ledger";
import type { LoadedRateCard } from "@/lib/billing/rate-card";
import { newId } from "@/lib/db/ids";
import { ApiError } from "@/lib/http/errors";
import { db } from "@/lib/db/client";
import { usePostgresDatabase } from "../helpers/app";

const POOL_SIZE = 24;
const HOLDS = 200;
const SEEDS = Array.from({ length: 20 }, (_, i) => 0x9e3779b9 ^ (i * 2654435761));
// Waiting for the workspace's balance lock behind up to 199 others takes a while.
const TX_OPTIONS = { maxWait: 60_000, timeout: 60_000 };

/** mulberry32: a small seeded generator, so a failing seed can be replayed. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return { next, int, micros: (min: number, max: number) => BigInt(int(min, max)) };
}

function cardWithPrice(unitPriceMicros: bigint): LoadedRateCard {
  return {
    version: "concurrency-test",
    effectiveFrom: "2026-01-01T00:00:00Z",
    currency: "USD",
    prices: [{ product: "audit", engine: null, unit: "url", unitPriceMicros }],
  };
}


// A real pg.Pool of POOL_SIZE connections behind @prisma/adapter-pg.
usePostgresDatabase({ poolSize: POOL_SIZE });

/** Server connections open to this database: the pool's, once a burst has filled it. */
async function openConnections(): Promise<number> {
  const [row] = await db().$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database()`;
  return row!.n;
}

async function workspaceWith(balanceMicros: bigint): Promise<string> {
  const ws = await db().workspace.create({ data: { id: newId("workspace"), name: "race", kind: "team" } });
  if (balanceMicros > 0n) await db().$transaction((tx) => recordPurchase(tx, { workspaceId: ws.id, amountMicros: balanceMicros }));
  return ws.id;
}

/** Every price held at once, each in its own transaction on the pool. */
async function holdAll(workspaceId: string, prices: bigint[]) {
  const results = await Promise.allSettled(
    prices.map((price) =>
      db().$transaction(
        (tx) =>
          holdCredit(sqlIn(tx), {
            workspaceId,
            operationId: newId("run"),
            lines: [{ product: "audit", units: 1 }],
            actor: { userId: null, apiKeyId: null },
            rateCard: cardWithPrice(price),
          }),
        TX_OPTIONS,
      ),
    ),
  );
  const accepted: bigint[] = [];
  const refused: bigint[] = [];
  results.forEach((r, i) => {
    if (r.status === "fulfilled") accepted.push(prices[i]!);
    else {
      expect(r.reason).toBeInstanceOf(ApiError);
      expect((r.reason as ApiError).code).toBe("insufficient_credit");
      refused.push(prices[i]!);
    }
  });
  return { accepted, refused };
}

const sum = (xs: bigint[]) => xs.reduce((s, x) => s + x, 0n);

async function expectConsistent(workspaceId: string) {
  const stored = await readBalance(db(), workspaceId);
  expect(await recomputeBalance(db(), workspaceId)).toEqual(stored);
  expect(availableMicros(stored) >= 0n).toBe(true);
  return stored;
}

describe.each(SEEDS.map((seed, i) => ({ seed, round: i + 1 })))("round $round (seed $seed)", ({ seed }) => {
  it(`accepts exactly the affordable number of ${HOLDS} concurrent holds at one price`, async () => {
    const r = rng(seed);
    const price = r.micros(1_000, 100_000);
    const affordable = r.int(1, HOLDS - 1);
    // Anything short of one more hold: the remainder must not buy an extra one.
    const balance = price * BigInt(affordable) + r.micros(0, Number(price) - 1);
    const ws = await workspaceWith(balance);

    const { accepted, refused } = await holdAll(ws, Array<bigint>(HOLDS).fill(price));
    expect(accepted).toHaveLength(affordable);
    expect(refused).toHaveLength(HOLDS - affordable);
    const stored = await expectConsistent(ws);
    expect(stored.heldMicros).toBe(price * BigInt(affordable));
    expect(await db().creditHold.count({ where: { workspaceId: ws } })).toBe(affordable);
    // The holds really ran side by side on many connections, not one after another on one.
    expect(await openConnections()).toBeGreaterThanOrEqual(20);
  });

  it(`never sets aside more than the balance for ${HOLDS} concurrent holds at random prices`, async () => {
    const r = rng(seed ^ 0x5bd1e995);
    const prices = Array.from({ length: HOLDS }, () => r.micros(1, 200_000));
    const balance = (sum(prices) * BigInt(r.int(10, 90))) / 100n;
    const ws = await workspaceWith(balance);

    const { accepted, refused } = await holdAll(ws, prices);
    expect(sum(accepted) <= balance).toBe(true);
    expect(refused.length).toBeGreaterThan(0);
    const stored = await expectConsistent(ws);
    expect(stored.heldMicros).toBe(sum(accepted));
    // Holds only ever shrank what was available, so each refusal still could not fit at the end:
    // none was refused while credit for it remained.
    const smallestRefused = refused.reduce((m, p) => (p < m ? p : m));
    expect(availableMicros(stored) < smallestRefused).toBe(true);
  });

  it("settles a hold exactly once when captures and releases race on it", async () => {
    const r = rng(seed ^ 0x27d4eb2f);
    const ws = await workspaceWith(10_000_000n);
    // Some promotional credit too, so captures split across buckets while racing.
    await db().$transaction((tx) => grantPromo(tx, { workspaceId: ws, amountMicros: r.micros(1, 300_000) }));
    for (let round = 0; round < 5; round++) {
      const units = r.int(1, 10);
      const placed = await db().$transaction(
        (tx) =>
          holdCredit(sqlIn(tx), {
            workspaceId: ws,
            operationId: newId("questionsAnalysis"),
            lines: [{ product: "audit", units }],
            actor: { userId: null, apiKeyId: null },
            rateCard: cardWithPrice(r.micros(1, 50_000)),
          }),
        TX_OPTIONS,
      );
      const holdId = placed.holds[0]!.id;
      const contenders: (() => Promise<SettledHold | null>)[] = [];
      const captures = r.int(1, 3);
      const releases = r.int(1, 3);
      for (let i = 0; i < captures; i++) {
        const actualUnits = r.int(0, units + 2);
        contenders.push(() => db().$transaction((tx) => captureHold(holdId, { tx: sqlIn(tx), actualUnits }), TX_OPTIONS));
      }
      for (let i = 0; i < releases; i++) contenders.push(() => db().$transaction((tx) => releaseHold(holdId, { tx: sqlIn(tx) }), TX_OPTIONS));
      contenders.sort(() => r.next() - 0.5);

      const results = (await Promise.all(contenders.map((c) => c()))).map((x) => x!);
      const winners = results.filter((x) => x.changed);
      expect(winners).toHaveLength(1);
      const winner = winners[0]!;
      for (const x of results) expect({ status: x.status, capturedMicros: x.capturedMicros }).toEqual({ status: winner.status, capturedMicros: winner.capturedMicros });

      const row = await db().creditHold.findUniqueOrThrow({ where: { id: holdId } });
      expect(row.status).toBe(winner.status);
      const charged = await db().ledgerTransaction.aggregate({ where: { holdId }, _sum: { amountMicros: true } });
      expect(-(charged._sum.amountMicros ?? 0n)).toBe(winner.status === "captured" ? winner.capturedMicros : 0n);
      expect(winner.capturedMicros <= placed.holds[0]!.amountMicros).toBe(true);
    }
    const stored = await expectConsistent(ws);
    expect(stored.heldMicros).toBe(0n);
  });
});
