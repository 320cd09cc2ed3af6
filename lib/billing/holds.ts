// Holds: credit set aside for queued work in the same transaction that queues it, then captured
// (paid) when the work completes or released when it fails. This is the interface the run,
// fanout, questions and audit services call.
//
// Lock order, everywhere: the workspace's credit_balances row first, then the hold. Holding the
// balance row is what makes concurrent holds unable to overdraw; the conditional
// `status = 'held'` update is what makes capture and release mutually exclusive. The rows are
// read and written by ./store.ts.
import type { Principal } from "../auth/principal";
import { currentDb } from "../db/client";
import { textTransaction, type SqlSession } from "../db/sql";
import { newId } from "../db/ids";
import { ApiError } from "../http/errors";
import { availableMicros } from "./ledger";
import { formatUsd } from "./money";
import { priceOf, type LoadedRateCard, type Price } from "./rate-card";
import { billingSettings, currentRateCard } from "./settings";
import {
  appendTransactions, findHold, lockBalance, lockBalanceWithHold, placeHolds, settleHoldRow,
  type BalanceMicros, type BillingProductName, type HoldKey, type HoldRow, type LedgerEntry, type NewHold,
} from "./store";

export type { BillingProductName };

/** Who started the charged work; recorded on the hold and on its usage transactions. */
export type ChargeActor = { userId: string | null; apiKeyId: string | null };

export function actorOf(principal: Principal): ChargeActor {
  return { userId: principal.user.id, apiKeyId: principal.apiKeyId };
}

/** One billable piece of work: a run (runId) or an analysis (analysisId), or neither for work of its own kind. */
export type HoldLine = {
  product: BillingProductName;
  /** Set for prompts, whose price depends on the engine. */
  engine?: string | null;
  /** Whole units to set aside: 1 per prompt run or audited URL, the questions asked for. */
  units: number;
  runId?: string | null;
  analysisId?: string | null;
};

export type HoldRequest = {
  workspaceId: string;
  /** The batch, fanout, analysis or run being paid for (Transaction.operation_id). */
  operationId: string;
  lines: HoldLine[];
  actor: ChargeActor;
  /** The card to price with; defaults to the configured one. A fanout passes the card it estimated with. */
  rateCard?: LoadedRateCard;
};

export type PricedLine = HoldLine & {
  engine: string | null;
  unit: Price["unit"];
  unitPriceMicros: bigint;
  amountMicros: bigint;
  pricingVersion: string;
};

export type PlacedHold = NewHold;

export type HoldOutcome = {
  /** False while billing is off: nothing was held and `holds` is empty. */
  enabled: boolean;
  holds: PlacedHold[];
  totalMicros: bigint;
};

/** Prices lines on a rate card without holding anything (also what an estimate needs). */
export function priceLines(lines: HoldLine[], card: LoadedRateCard = currentRateCard()): { lines: PricedLine[]; totalMicros: bigint } {
  let totalMicros = 0n;
  const priced = lines.map((line) => {
    if (!Number.isSafeInteger(line.units) || line.units < 1) {
      throw new Error(`hold line units must be a whole number of at least 1 (got ${line.units})`);
    }
    const engine = line.engine ?? null;
    const price = priceOf(card, line.product, engine);
    if (!price) throw new Error(`rate card ${card.version} has no price for ${line.product}${engine ? ` on ${engine}` : ""}`);
    const amountMicros = price.unitPriceMicros * BigInt(line.units);
    totalMicros += amountMicros;
    return { ...line, engine, unit: price.unit, unitPriceMicros: price.unitPriceMicros, amountMicros, pricingVersion: card.version };
  });
  return { lines: priced, totalMicros };
}

export function insufficientCredit(neededMicros: bigint, availableMicrosNow: bigint, addCreditUrl: string): ApiError {
  const available = availableMicrosNow < 0n ? 0n : availableMicrosNow;
  return new ApiError(
    "insufficient_credit",
    `Not enough credit: this needs ${formatUsd(neededMicros)} USD and ${formatUsd(available)} USD is available. ` +
      `Nothing was started. Add credit at ${addCreditUrl}`,
    { retryable: false },
  );
}

/**
 * Sets credit aside for every line, inside the caller's transaction (the one that creates the
 * work), all or nothing. First it locks the workspace's balance row, the workspace's one lock,
 * held until that transaction ends (so keep it short), whether or not billing is on; then runs
 * `work` under it (the caller's checks that must be decided one request after another, like the
 * runs in flight, and the rows the holds pay for); then, when the available credit does not cover
 * the total, throws 402 `insufficient_credit` and the caller's transaction rolls back with it.
 * While billing is off it holds nothing and answers `enabled: false`.
 */
export async function holdCredit(sql: SqlSession, request: HoldRequest, work?: () => Promise<void>): Promise<HoldOutcome> {
  const settings = billingSettings();
  const priced = settings.enabled ? priceLines(request.lines, request.rateCard) : null;
  const balance = await lockBalance(sql, request.workspaceId);
  await work?.();
  if (!priced) return { enabled: false, holds: [], totalMicros: 0n };
  const { lines, totalMicros } = priced;
  if (lines.length === 0) return { enabled: true, holds: [], totalMicros: 0n };
  const available = availableMicros(balance);
  if (available < totalMicros) throw insufficientCredit(totalMicros, available, settings.addCreditUrl);

  const holds: PlacedHold[] = lines.map((line) => ({
    id: newId("hold"),
    runId: line.runId ?? null,
    analysisId: line.analysisId ?? null,
    product: line.product,
    engine: line.engine,
    unit: line.unit,
    units: line.units,
    unitPriceMicros: line.unitPriceMicros,
    amountMicros: line.amountMicros,
    pricingVersion: line.pricingVersion,
  }));
  await placeHolds(sql, { workspaceId: request.workspaceId, operationId: request.operationId, actorUserId: request.actor.userId, apiKeyId: request.actor.apiKeyId, holds });
  return { enabled: true, holds, totalMicros };
}

/** A hold named by its own id (`ch_…`) or by the run it pays for (`dr_…`). */
export type HoldRef = string | { holdId: string } | { runId: string };

export type SettledHold = {
  id: string;
  runId: string | null;
  analysisId: string | null;
  operationId: string;
  status: "captured" | "released";
  /** True for the call that settled it; false when it was already settled (by either call). */
  changed: boolean;
  heldMicros: bigint;
  /** What was paid: 0 when released. */
  capturedMicros: bigint;
  capturedUnits: number;
};

export type SettleOptions = {
  /** Run inside this transaction (e.g. the one marking the run completed); otherwise in a transaction of its own. */
  tx?: SqlSession;
  /**
   * The workspace the hold belongs to, when the caller knows it: the balance is then locked
   * first and the hold read once, under the lock. A hold of another workspace is not settled.
   */
  workspaceId?: string;
};

function keyOf(ref: HoldRef): HoldKey {
  if (typeof ref !== "string") return ref;
  return ref.startsWith("ch_") ? { holdId: ref } : { runId: ref };
}

function settled(row: HoldRow, changed: boolean): SettledHold {
  if (row.status === "held") throw new Error(`hold ${row.id} is not settled`);
  return {
    id: row.id,
    runId: row.runId,
    analysisId: row.analysisId,
    operationId: row.operationId,
    status: row.status,
    changed,
    heldMicros: row.amountMicros,
    capturedMicros: row.status === "captured" ? (row.capturedMicros ?? 0n) : 0n,
    capturedUnits: row.status === "captured" ? (row.capturedUnits ?? 0) : 0,
  };
}

async function inTransaction<T>(options: SettleOptions, fn: (sql: SqlSession) => Promise<T>): Promise<T> {
  if (options.tx) return fn(options.tx);
  return textTransaction(currentDb(), fn);
}

/**
 * Settles a hold exactly once. The first of capture and release to get here wins; every later
 * call, of either kind, changes nothing and answers the hold as it was settled (changed: false).
 * Null when there is no such hold: billing was off when the work was queued, or it is not billable.
 */
async function settle(ref: HoldRef, options: SettleOptions, decide: (row: HoldRow) => { units: number; micros: bigint } | null) {
  const key = keyOf(ref);
  return inTransaction(options, async (sql) => {
    let balance: BalanceMicros;
    let row: HoldRow | null;
    if (options.workspaceId) {
      const locked = await lockBalanceWithHold(sql, key, options.workspaceId);
      balance = locked?.balance ?? (await lockBalance(sql, options.workspaceId));
      row = locked ? locked.hold : await findHold(sql, key, options.workspaceId);
      if (!row) return null;
    } else {
      const found = await findHold(sql, key);
      if (!found) return null;
      balance = await lockBalance(sql, found.workspaceId);
      // Read again under the lock: a settlement that committed while we waited is visible now.
      row = await findHold(sql, { holdId: found.id });
      if (!row) throw new Error(`hold ${found.id} vanished under the balance lock`);
    }
    if (row.status !== "held") return settled(row, false);

    const capture = decide(row);
    const now = new Date();
    const data = capture
      ? { status: "captured" as const, capturedMicros: capture.micros, capturedUnits: capture.units }
      : { status: "released" as const, capturedMicros: 0n, capturedUnits: 0 };
    if (!(await settleHoldRow(sql, row.id, data, now))) {
      // Settled by a transaction that committed while this one waited for the balance lock: as it now is.
      const current = await findHold(sql, { holdId: row.id });
      if (current && current.status !== "held") return settled(current, false);
      throw new Error(`hold ${row.id} changed under the balance lock`);
    }

    const entries: LedgerEntry[] = [];
    if (capture && capture.micros > 0n) {
      // Promotional credit is spent first; what it does not cover comes from purchased credit.
      // Both cover it: the hold was within the balance, and the balance cannot shrink below holds.
      const fromPromo = capture.micros < balance.promoMicros ? capture.micros : balance.promoMicros;
      const fromPurchased = capture.micros - fromPromo;
      const common = {
        kind: "usage" as const,
        description: usageDescription(row, capture.units),
        operationId: row.operationId,
        runId: row.runId,
        holdId: row.id,
        actorUserId: row.actorUserId,
        apiKeyId: row.apiKeyId,
        product: row.product,
        engine: row.engine,
        unit: row.unit,
        units: capture.units,
      };
      if (fromPromo > 0n) entries.push({ ...common, bucket: "promo", amountMicros: -fromPromo });
      if (fromPurchased > 0n) entries.push({ ...common, bucket: "purchased", amountMicros: -fromPurchased });
    }
    // The usage rows (if any) and the balance: what was held is no longer held, what was paid is spent.
    await appendTransactions(sql, row.workspaceId, entries, now, -row.amountMicros);
    return settled({ ...row, ...data }, true);
  });
}

function usageDescription(row: HoldRow, units: number): string {
  const what = row.engine ? `${row.product} on ${row.engine}` : row.product;
  return `${what}: ${units} ${row.unit}${units === 1 ? "" : "s"} at ${formatUsd(row.unitPriceMicros)} USD`;
}

/**
 * Pays for completed work. `actualUnits` is what was delivered (a questions analysis pays only
 * for the questions it generated); it is capped at the units held, so nothing ever pays more
 * than was held. Omitted: the units held.
 */
export async function captureHold(ref: HoldRef, options: SettleOptions & { actualUnits?: number } = {}): Promise<SettledHold | null> {
  const { actualUnits } = options;
  if (actualUnits !== undefined && (!Number.isSafeInteger(actualUnits) || actualUnits < 0)) {
    throw new Error(`actualUnits must be a whole number of at least 0 (got ${actualUnits})`);
  }
  return settle(ref, options, (row) => {
    const units = Math.min(actualUnits ?? row.units, row.units);
    return { units, micros: row.unitPriceMicros * BigInt(units) };
  });
}

/** Frees the credit of work that failed; nothing is charged. */
export async function releaseHold(ref: HoldRef, options: SettleOptions = {}): Promise<SettledHold | null> {
  return settle(ref, options, () => null);
}
