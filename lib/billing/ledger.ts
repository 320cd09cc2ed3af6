// The ledger: every change to a workspace's credit is an append-only transaction. The
// credit_balances row caches their sums per bucket plus what holds set aside; every writer
// changes it only while holding its row lock, and recomputeBalance() rebuilds it from scratch.
import type { Tx } from "../db/client";
import { newId } from "../db/ids";
import { formatUsd } from "./money";
import { billingSettings } from "./settings";

export type Bucket = "promo" | "purchased";
export type TransactionKindName = "promo_grant" | "purchase" | "usage" | "reversal" | "adjustment";
export type BalanceMicros = { promoMicros: bigint; purchasedMicros: bigint; heldMicros: bigint };

/** Refused credit changes (a negative purchase, an adjustment below zero); the operator reads the message. */
export class LedgerError extends Error {
  override name = "LedgerError";
}

export function availableMicros(b: BalanceMicros): bigint {
  return b.promoMicros + b.purchasedMicros - b.heldMicros;
}

type BalanceRow = { promo: string; purchased: string; held: string };

async function selectForUpdate(tx: Tx, workspaceId: string): Promise<BalanceMicros | null> {
  // ::text because drivers differ on how they hand back int8; BigInt() takes the text exactly.
  const rows = await tx.$queryRaw<BalanceRow[]>`
    SELECT promo_micros::text AS promo, purchased_micros::text AS purchased, held_micros::text AS held
    FROM credit_balances WHERE workspace_id = ${workspaceId} FOR UPDATE`;
  const row = rows[0];
  return row ? { promoMicros: BigInt(row.promo), purchasedMicros: BigInt(row.purchased), heldMicros: BigInt(row.held) } : null;
}

/**
 * Locks the workspace's balance row until the caller's transaction ends, creating it at zero
 * when missing. Every change to credit or holds goes through this lock, which is what keeps
 * concurrent holds from setting aside more than the balance.
 */
export async function lockBalance(tx: Tx, workspaceId: string): Promise<BalanceMicros> {
  const found = await selectForUpdate(tx, workspaceId);
  if (found) return found;
  await tx.$executeRaw`
    INSERT INTO credit_balances (workspace_id, promo_micros, purchased_micros, held_micros, updated_at)
    VALUES (${workspaceId}, 0, 0, 0, now()) ON CONFLICT (workspace_id) DO NOTHING`;
  const created = await selectForUpdate(tx, workspaceId);
  if (!created) throw new Error(`credit balance of ${workspaceId} could not be created`);
  return created;
}

/** The stored balance (zero when the workspace never had credit). */
export async function readBalance(client: Tx, workspaceId: string): Promise<BalanceMicros> {
  const row = await client.creditBalance.findUnique({ where: { workspaceId } });
  return row
    ? { promoMicros: row.promoMicros, purchasedMicros: row.purchasedMicros, heldMicros: row.heldMicros }
    : { promoMicros: 0n, purchasedMicros: 0n, heldMicros: 0n };
}

/** The balance rebuilt from the ledger and the open holds alone, ignoring the cached row. */
export async function recomputeBalance(client: Tx, workspaceId: string): Promise<BalanceMicros> {
  const [byBucket, held] = await Promise.all([
    client.ledgerTransaction.groupBy({ by: ["bucket"], where: { workspaceId }, _sum: { amountMicros: true } }),
    client.creditHold.aggregate({ where: { workspaceId, status: "held" }, _sum: { amountMicros: true } }),
  ]);
  const sum = (bucket: Bucket) => byBucket.find((r) => r.bucket === bucket)?._sum.amountMicros ?? 0n;
  return { promoMicros: sum("promo"), purchasedMicros: sum("purchased"), heldMicros: held._sum.amountMicros ?? 0n };
}

/** What usage cost since `since`, net of reversals: the month's spend. */
export async function spentSince(client: Tx, workspaceId: string, since: Date): Promise<bigint> {
  const net = await client.ledgerTransaction.aggregate({
    where: { workspaceId, kind: { in: ["usage", "reversal"] }, createdAt: { gte: since } },
    _sum: { amountMicros: true },
  });
  return -(net._sum.amountMicros ?? 0n);
}

export type LedgerEntry = {
  kind: TransactionKindName;
  bucket: Bucket;
  amountMicros: bigint;
  description: string;
  operationId?: string | null;
  runId?: string | null;
  holdId?: string | null;
  actorUserId?: string | null;
  apiKeyId?: string | null;
  product?: "prompt" | "questions" | "audit" | "citations" | null;
  engine?: string | null;
  unit?: string | null;
  units?: number | null;
};

/**
 * Appends transactions and moves the cached bucket sums by the same amounts, in one write each
 * (the caller holds the balance lock, so every statement saved shortens the wait of the others).
 * `heldDeltaMicros` moves the held sum in the same update (a settled hold). The caller holds
 * the balance lock (lockBalance) and has checked that no bucket goes below zero.
 */
export async function appendTransactions(
  tx: Tx,
  workspaceId: string,
  entries: LedgerEntry[],
  at: Date = new Date(),
  heldDeltaMicros = 0n,
) {
  const ids = entries.map(() => newId("transaction"));
  const created =
    entries.length === 0
      ? []
      : await tx.ledgerTransaction.createManyAndReturn({
          data: entries.map((entry, i) => ({ id: ids[i]!, workspaceId, createdAt: at, ...entry })),
        });
  const delta = (bucket: Bucket) => entries.filter((e) => e.bucket === bucket).reduce((s, e) => s + e.amountMicros, 0n);
  await tx.creditBalance.update({
    where: { workspaceId },
    data: {
      promoMicros: { increment: delta("promo") },
      purchasedMicros: { increment: delta("purchased") },
      ...(heldDeltaMicros !== 0n ? { heldMicros: { increment: heldDeltaMicros } } : {}),
    },
  });
  // In the order of `entries` (RETURNING does not promise one).
  const byId = new Map(created.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)!);
}

type CreditInput = { workspaceId: string; amountMicros: bigint; description?: string; actorUserId?: string | null };

/** Promotional credit given by the service (signup, goodwill). Spent before purchased credit. */
export async function grantPromo(tx: Tx, input: CreditInput) {
  if (input.amountMicros <= 0n) throw new LedgerError("a promotional grant must be above 0.00");
  await lockBalance(tx, input.workspaceId);
  const [row] = await appendTransactions(tx, input.workspaceId, [
    {
      kind: "promo_grant",
      bucket: "promo",
      amountMicros: input.amountMicros,
      description: input.description ?? "Promotional credit",
      actorUserId: input.actorUserId ?? null,
    },
  ]);
  return row!;
}

/** Purchased credit (recorded by an operator until a payment provider is wired). Never expires. */
export async function recordPurchase(tx: Tx, input: CreditInput) {
  if (input.amountMicros <= 0n) throw new LedgerError("a purchase must be above 0.00");
  await lockBalance(tx, input.workspaceId);
  const [row] = await appendTransactions(tx, input.workspaceId, [
    {
      kind: "purchase",
      bucket: "purchased",
      amountMicros: input.amountMicros,
      description: input.description ?? "Credit purchase",
      actorUserId: input.actorUserId ?? null,
    },
  ]);
  return row!;
}

/**
 * A correction to one bucket, either way. Refused when it would take the bucket below zero or
 * leave less credit than the open holds set aside, since both would let work run unpaid.
 */
export async function adjustCredit(tx: Tx, input: CreditInput & { bucket: Bucket; description: string }) {
  if (input.amountMicros === 0n) throw new LedgerError("an adjustment must not be 0.00");
  if (!input.description.trim()) throw new LedgerError("an adjustment needs a description saying why");
  const balance = await lockBalance(tx, input.workspaceId);
  const bucketNow = input.bucket === "promo" ? balance.promoMicros : balance.purchasedMicros;
  if (bucketNow + input.amountMicros < 0n) {
    throw new LedgerError(
      `the ${input.bucket} bucket holds ${formatUsd(bucketNow)} USD; an adjustment of ${formatUsd(input.amountMicros)} would take it below zero`,
    );
  }
  if (availableMicros(balance) + input.amountMicros < 0n) {
    throw new LedgerError(
      `${formatUsd(balance.heldMicros)} USD is held for queued work and only ${formatUsd(availableMicros(balance))} USD is available; ` +
        `an adjustment of ${formatUsd(input.amountMicros)} would leave the holds unpaid`,
    );
  }
  const [row] = await appendTransactions(tx, input.workspaceId, [
    {
      kind: "adjustment",
      bucket: input.bucket,
      amountMicros: input.amountMicros,
      description: input.description.trim(),
      actorUserId: input.actorUserId ?? null,
    },
  ]);
  return row!;
}

/**
 * The signup grant (SIGNUP_PROMO_USD, default 5.00), called inside the transaction that creates
 * a personal workspace. Granted even while billing is off, so turning billing on later finds
 * every account with its promotional credit. Null when the configured amount is 0.
 */
export async function grantSignupPromo(tx: Tx, workspaceId: string) {
  const amount = billingSettings().signupPromoMicros;
  if (amount === 0n) return null;
  return grantPromo(tx, { workspaceId, amountMicros: amount, description: "Signup promotional credit" });
}
