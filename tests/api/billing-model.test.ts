// A model-based test of the ledger and holds: random sequences of grants, purchases,
// adjustments, holds, captures and releases, checked after every step against an in-memory
// model of what a user's balance should be.
import { sqlIn } from "@/lib/db/sql";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/errors";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { captureHold, holdCredit, releaseHold } from "@/lib/billing/holds";
import { adjustCredit, grantPromo, LedgerError, readBalance, recomputeBalance, recordPurchase } from "@/lib/billing/ledger";
import type { LoadedRateCard } from "@/lib/billing/rate-card";
import { freshPglite } from "../helpers/db";

type ModelHold = { units: number; price: bigint; amount: bigint; status: "held" | "captured" | "released"; captured: bigint };
type Model = { promo: bigint; purchased: bigint; held: bigint; holds: ModelHold[]; txCount: number };
type Real = { workspaceId: string; holdIds: string[] };
type Cmd = fc.AsyncCommand<Model, Real>;

const available = (m: Model) => m.promo + m.purchased - m.held;

function cardWithPrice(unitPriceMicros: bigint): LoadedRateCard {
  return {
    version: "model-test",
    effectiveFrom: "2026-01-01T00:00:00Z",
    currency: "USD",
    prices: [{ product: "questions", engine: null, unit: "question", unitPriceMicros }],
  };
}

async function expectMatches(model: Model, real: Real) {
  const stored = await readBalance(db(), real.workspaceId);
  const expected = { promoMicros: model.promo, purchasedMicros: model.purchased, heldMicros: model.held };
  expect(stored).toEqual(expected);
  // The cached row is only a cache: the ledger and the open holds alone give the same balance.
  expect(await recomputeBalance(db(), real.workspaceId)).toEqual(expected);
  const holds = await db().creditHold.findMany({ where: { workspaceId: real.workspaceId } });
  const byId = new Map(holds.map((h) => [h.id, h]));
  expect(holds).toHaveLength(model.holds.length);
  model.holds.forEach((mh, i) => {
    const h = byId.get(real.holdIds[i]!)!;
    expect(h.status).toBe(mh.status);
    expect(h.amountMicros).toBe(mh.amount);
    if (mh.status === "captured") expect(h.capturedMicros).toBe(mh.captured);
  });
  expect(await db().ledgerTransaction.count({ where: { workspaceId: real.workspaceId } })).toBe(model.txCount);
  expect(model.promo >= 0n && model.purchased >= 0n && model.held <= model.promo + model.purchased).toBe(true);
}

class GrantPromo implements Cmd {
  constructor(readonly micros: bigint) {}
  check = () => true;
  async run(m: Model, r: Real) {
    await db().$transaction((tx) => grantPromo(tx, { workspaceId: r.workspaceId, amountMicros: this.micros }));
    m.promo += this.micros;
    m.txCount += 1;
    await expectMatches(m, r);
  }
  toString = () => `grantPromo(${this.micros})`;
}

class Purchase implements Cmd {
  constructor(readonly micros: bigint) {}
  check = () => true;
  async run(m: Model, r: Real) {
    await db().$transaction((tx) => recordPurchase(tx, { workspaceId: r.workspaceId, amountMicros: this.micros }));
    m.purchased += this.micros;
    m.txCount += 1;
    await expectMatches(m, r);
  }
  toString = () => `purchase(${this.micros})`;
}

class Adjust implements Cmd {
  constructor(readonly bucket: "promo" | "purchased", readonly micros: bigint) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const bucketNow = this.bucket === "promo" ? m.promo : m.purchased;
    const allowed = bucketNow + this.micros >= 0n && available(m) + this.micros >= 0n;
    const attempt = db().$transaction((tx) =>
      adjustCredit(tx, { workspaceId: r.workspaceId, bucket: this.bucket, amountMicros: this.micros, description: "model correction" }),
    );
    if (allowed) {
      await attempt;
      if (this.bucket === "promo") m.promo += this.micros;
      else m.purchased += this.micros;
      m.txCount += 1;
    } else {
      await expect(attempt).rejects.toBeInstanceOf(LedgerError);
    }
    await expectMatches(m, r);
  }
  toString = () => `adjust(${this.bucket}, ${this.micros})`;
}

class Hold implements Cmd {
  constructor(readonly units: number, readonly price: bigint) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const amount = this.price * BigInt(this.units);
    const attempt = db().$transaction((tx) =>
      holdCredit(sqlIn(tx), {
        workspaceId: r.workspaceId,
        operationId: newId("questionsAnalysis"),
        lines: [{ product: "questions", units: this.units }],
        actor: { userId: null, apiKeyId: null },
        rateCard: cardWithPrice(this.price),
      }),
    );
    if (amount <= available(m)) {
      const outcome = await attempt;
      expect(outcome.totalMicros).toBe(amount);
      r.holdIds.push(outcome.holds[0]!.id);
      m.holds.push({ units: this.units, price: this.price, amount, status: "held", captured: 0n });
      m.held += amount;
    } else {
      const error = await attempt.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe("insufficient_credit");
    }
    await expectMatches(m, r);
  }
  toString = () => `hold(${this.units} x ${this.price})`;
}

class Capture implements Cmd {
  constructor(readonly pick: number, readonly actualUnits: number | undefined) {}
  check = (m: Readonly<Model>) => m.holds.length > 0;
  async run(m: Model, r: Real) {
    const i = this.pick % m.holds.length;
    const hold = m.holds[i]!;
    const result = await captureHold(r.holdIds[i]!, { actualUnits: this.actualUnits });
    if (hold.status === "held") {
      const units = Math.min(this.actualUnits ?? hold.units, hold.units);
      const cost = hold.price * BigInt(units);
      const fromPromo = cost < m.promo ? cost : m.promo;
      m.promo -= fromPromo;
      m.purchased -= cost - fromPromo;
      m.held -= hold.amount;
      m.txCount += (fromPromo > 0n ? 1 : 0) + (cost - fromPromo > 0n ? 1 : 0);
      hold.status = "captured";
      hold.captured = cost;
      expect(result).toMatchObject({ status: "captured", changed: true, capturedMicros: cost, capturedUnits: units });
    } else {
      expect(result).toMatchObject({ status: hold.status, changed: false });
    }
    await expectMatches(m, r);
  }
  toString = () => `capture(#${this.pick}, ${this.actualUnits ?? "all"})`;
}

class Release implements Cmd {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.holds.length > 0;
  async run(m: Model, r: Real) {
    const i = this.pick % m.holds.length;
    const hold = m.holds[i]!;
    const result = await releaseHold({ holdId: r.holdIds[i]! });
    if (hold.status === "held") {
      m.held -= hold.amount;
      hold.status = "released";
      expect(result).toMatchObject({ status: "released", changed: true, capturedMicros: 0n });
    } else {
      expect(result).toMatchObject({ status: hold.status, changed: false });
    }
    await expectMatches(m, r);
  }
  toString = () => `release(#${this.pick})`;
}

// Amounts small enough that holds regularly run out of credit, so refusals are exercised too.
const money = fc.bigInt({ min: 1n, max: 2_000_000n });
const allCommands = [
  money.map((v) => new GrantPromo(v)),
  money.map((v) => new Purchase(v)),
  fc.tuple(fc.constantFrom("promo" as const, "purchased" as const), fc.bigInt({ min: -2_000_000n, max: 2_000_000n }).filter((v) => v !== 0n))
    .map(([b, v]) => new Adjust(b, v)),
  fc.tuple(fc.integer({ min: 1, max: 40 }), fc.bigInt({ min: 0n, max: 60_000n })).map(([u, p]) => new Hold(u, p)),
  fc.tuple(fc.nat(), fc.option(fc.integer({ min: 0, max: 45 }), { nil: undefined })).map(([i, u]) => new Capture(i, u)),
  fc.nat().map((i) => new Release(i)),
];

describe("billing ledger and holds, against a model", () => {
  let close: () => Promise<void>;
  beforeAll(async () => {
    close = (await freshPglite()).close;
  });
  afterAll(async () => close?.());

  it("keeps the balance, the holds and the ledger equal to the model after every step", async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(allCommands, { maxCommands: 50 }), async (cmds) => {
        const workspace = await db().workspace.create({ data: { id: newId("workspace"), name: "model", kind: "team" } });
        const setup = () => ({
          model: { promo: 0n, purchased: 0n, held: 0n, holds: [], txCount: 0 } as Model,
          real: { workspaceId: workspace.id, holdIds: [] } as Real,
        });
        await fc.asyncModelRun(setup, cmds);
      }),
      { numRuns: 60 },
    );
  });
});
