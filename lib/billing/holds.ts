// Holds: credit set aside for queued work in the same transaction that queues it, then captured
// (paid) when the work completes or released when it fails. This is the interface the run,
// fanout, questions and audit services call.
//
// Lock order, everywhere: the workspace's credit_balances row first, then the hold. Holding the
// balance row is what makes concurrent holds unable to overdraw; the conditional
// `status = 'held'` update is what makes capture and release mutually exclusive.
import type { Principal } from "../auth/principal";
import { currentDb, type Tx } from "../db/client";
import { textTransaction, type SqlSession, type Statement } from "../db/sql";
import { newId } from "../db/ids";
import { ApiError } from "../http/errors";
import { appendTransactions, availableMicros, lockBalance, sessionOf, type BalanceMicros, type LedgerClient, type LedgerEntry } from "./ledger";
import { formatUsd } from "./money";
import { priceOf, type LoadedRateCard, type Price } from "./rate-card";
import { billingSettings, currentRateCard } from "./settings";

export type BillingProductName = Price["product"];

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

export type PlacedHold = {
  id: string;
  runId: string | null;
  analysisId: string | null;
  product: BillingProductName;
  engine: string | null;
  unit: string;
  units: number;
  unitPriceMicros: bigint;
  amountMicros: bigint;
  pricingVersion: string;
};

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
 * work), all or nothing: when the workspace's available credit does not cover the total it
 * throws 402 `insufficient_credit` and the caller's transaction rolls back with it. The
 * workspace's balance stays locked until that transaction ends, so keep the transaction short.
 * While billing is off it holds nothing and answers `enabled: false`.
 */
export async function holdCredit(tx: Tx, request: HoldRequest): Promise<HoldOutcome> {
  const settings = billingSettings();
  if (!settings.enabled) return { enabled: false, holds: [], totalMicros: 0n };
  const { lines, totalMicros } = priceLines(request.lines, request.rateCard);
  if (lines.length === 0) return { enabled: true, holds: [], totalMicros: 0n };

  const balance = await lockBalance(tx, request.workspaceId);
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
  await tx.creditHold.createMany({
    data: holds.map((h) => ({
      ...h,
      workspaceId: request.workspaceId,
      operationId: request.operationId,
      status: "held" as const,
      actorUserId: request.actor.userId,
      apiKeyId: request.actor.apiKeyId,
    })),
  });
  if (totalMicros > 0n) {
    await tx.creditBalance.update({ where: { workspaceId: request.workspaceId }, data: { heldMicros: { increment: totalMicros } } });
  }
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
  /**
   * Run inside this transaction (e.g. the one marking the run completed): a Prisma one, or a
   * session of ../db/sql.ts's textTransaction; otherwise in a transaction of its own.
   */
  tx?: LedgerClient;
  /**
   * The workspace the hold belongs to, when the caller knows it: the balance is then locked
   * first and the hold read once, under the lock. A hold of another workspace is not settled.
   */
  workspaceId?: string;
};

/** A hold as stored (placed, then settled). */
type HoldRow = Omit<PlacedHold, "pricingVersion"> & {
  workspaceId: string;
  operationId: string;
  capturedMicros: bigint | null;
  capturedUnits: number | null;
  status: "held" | "captured" | "released";
  actorUserId: string | null;
  apiKeyId: string | null;
};

/** A hold's columns as text, in holdRowOf's order (`h.`: of the alias h). */
function holdColumns(alias = ""): string {
  const c = (name: string) => `${alias}${name}`;
  return `${c("id")}, ${c("workspace_id")}, ${c("run_id")}, ${c("analysis_id")}, ${c("operation_id")}, ${c("product")}::text AS product, ${c("engine")},
  ${c("unit")}, ${c("units")}::text AS units, ${c("unit_price_micros")}::text AS unit_price_micros, ${c("amount_micros")}::text AS amount_micros,
  ${c("captured_micros")}::text AS captured_micros, ${c("captured_units")}::text AS captured_units, ${c("status")}::text AS status,
  ${c("actor_user_id")}, ${c("api_key_id")}`;
}

// $2: the workspace, or null for any (then the caller locks the hold's workspace and reads again).
const HOLD_BY_ID: Statement = { name: "hold_by_id_v1", text: `SELECT ${holdColumns()} FROM credit_holds WHERE id = $1 AND ($2::text IS NULL OR workspace_id = $2)` };
const HOLD_BY_RUN: Statement = { name: "hold_by_run_v1", text: `SELECT ${holdColumns()} FROM credit_holds WHERE run_id = $1 AND ($2::text IS NULL OR workspace_id = $2)` };

// The usual settlement, of a workspace's hold (the caller knows the workspace): its balance row
// locked and the hold read in one statement. The hold comes from the statement's snapshot, taken
// before any wait for the lock: what another settlement committed meanwhile shows when this one's
// conditional update finds the hold no longer held (settle reads it again then).
const BALANCE_AND_HOLD = (by: "id" | "run_id"): Statement => ({
  name: `hold_with_balance_by_${by}_v1`,
  text: `SELECT b.promo_micros::text AS promo, b.purchased_micros::text AS purchased, b.held_micros::text AS held, ${holdColumns("h.")}
    FROM credit_balances b LEFT JOIN credit_holds h ON h.${by} = $2 AND h.workspace_id = b.workspace_id
    WHERE b.workspace_id = $1 FOR UPDATE OF b`,
});
const BALANCE_AND_HOLD_BY_ID = BALANCE_AND_HOLD("id");
const BALANCE_AND_HOLD_BY_RUN = BALANCE_AND_HOLD("run_id");

/** The workspace's balance, locked, and its hold `ref` (null: none); null when the workspace has no balance row yet. */
async function lockBalanceWithHold(sql: SqlSession, ref: HoldRef, workspaceId: string): Promise<{ balance: BalanceMicros; row: HoldRow | null } | null> {
  const where = whereOf(ref);
  const [found] = await sql.query("id" in where ? BALANCE_AND_HOLD_BY_ID : BALANCE_AND_HOLD_BY_RUN, [workspaceId, "id" in where ? where.id : where.runId]);
  if (!found) return null;
  const balance = { promoMicros: BigInt(found[0]!), purchasedMicros: BigInt(found[1]!), heldMicros: BigInt(found[2]!) };
  return { balance, row: found[3] ? holdRowOf(found.slice(3)) : null };
}

const SETTLE_HOLD: Statement = {
  name: "hold_settle_v1",
  text: `UPDATE credit_holds SET status = $2::text::"HoldStatus", captured_micros = $3::bigint, captured_units = $4::int,
    settled_at = $5::timestamptz AT TIME ZONE 'UTC' WHERE id = $1 AND status = 'held' RETURNING id`,
};

function holdRowOf(row: (string | null)[]): HoldRow {
  const r = (i: number) => row[i] ?? null;
  return {
    id: r(0)!,
    workspaceId: r(1)!,
    runId: r(2),
    analysisId: r(3),
    operationId: r(4)!,
    product: r(5) as BillingProductName,
    engine: r(6),
    unit: r(7)!,
    units: Number(r(8)),
    unitPriceMicros: BigInt(r(9)!),
    amountMicros: BigInt(r(10)!),
    capturedMicros: r(11) === null ? null : BigInt(r(11)!),
    capturedUnits: r(12) === null ? null : Number(r(12)),
    status: r(13) as HoldRow["status"],
    actorUserId: r(14),
    apiKeyId: r(15),
  };
}

async function findHold(sql: SqlSession, ref: HoldRef, workspaceId: string | null): Promise<HoldRow | null> {
  const where = whereOf(ref);
  const [row] = await sql.query("id" in where ? HOLD_BY_ID : HOLD_BY_RUN, ["id" in where ? where.id : where.runId, workspaceId]);
  return row ? holdRowOf(row) : null;
}

function whereOf(ref: HoldRef): { id: string } | { runId: string } {
  if (typeof ref !== "string") return "holdId" in ref ? { id: ref.holdId } : { runId: ref.runId };
  return ref.startsWith("ch_") ? { id: ref } : { runId: ref };
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
  if (options.tx) return fn(sessionOf(options.tx));
  return textTransaction(currentDb(), fn);
}

/**
 * Settles a hold exactly once. The first of capture and release to get here wins; every later
 * call, of either kind, changes nothing and answers the hold as it was settled (changed: false).
 * Null when there is no such hold: billing was off when the work was queued, or it is not billable.
 */
async function settle(ref: HoldRef, options: SettleOptions, decide: (row: HoldRow) => { units: number; micros: bigint } | null) {
  return inTransaction(options, async (sql) => {
    let balance: BalanceMicros;
    let row: HoldRow | null;
    if (options.workspaceId) {
      const locked = await lockBalanceWithHold(sql, ref, options.workspaceId);
      balance = locked?.balance ?? (await lockBalance(sql, options.workspaceId));
      row = locked ? locked.row : await findHold(sql, ref, options.workspaceId);
      if (!row) return null;
    } else {
      const found = await findHold(sql, ref, null);
      if (!found) return null;
      balance = await lockBalance(sql, found.workspaceId);
      // Read again under the lock: a settlement that committed while we waited is visible now.
      row = await findHold(sql, { holdId: found.id }, null);
      if (!row) throw new Error(`hold ${found.id} vanished under the balance lock`);
    }
    if (row.status !== "held") return settled(row, false);

    const capture = decide(row);
    const now = new Date();
    const data = capture
      ? { status: "captured" as const, capturedMicros: capture.micros, capturedUnits: capture.units }
      : { status: "released" as const, capturedMicros: 0n, capturedUnits: 0 };
    const changed = await sql.query(SETTLE_HOLD, [row.id, data.status, data.capturedMicros.toString(), String(data.capturedUnits), now.toISOString()]);
    if (changed.length !== 1) {
      // Settled by a transaction that committed while this one waited for the balance lock: as it now is.
      const current = await findHold(sql, { holdId: row.id }, null);
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

/** The hold paying for a run, for presenting its RunCharge; null when the run is not billed. */
export async function holdOfRun(client: Tx, runId: string) {
  return client.creditHold.findUnique({ where: { runId } });
}
