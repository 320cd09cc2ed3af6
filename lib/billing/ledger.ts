// The ledger: every change to a workspace's credit is an append-only transaction. The
// credit_balances row caches their sums per bucket plus what holds set aside; every writer
// changes it only while holding its row lock, and recomputeBalance() rebuilds it from scratch.
import type { Tx } from "../db/client";
import { sqlIn } from "../db/sql";
import { formatUsd } from "./money";
import { billingSettings } from "./settings";
import { appendTransactions, balanceOf, lockBalance, recomputedBalance, spentSince as spentIn, transactionById, type BalanceMicros, type Bucket, type LedgerEntry } from "./store";

export type { BalanceMicros, Bucket, LedgerEntry };

/** Refused credit changes (a negative purchase, an adjustment below zero); the operator reads the message. */
export class LedgerError extends Error {
  override name = "LedgerError";
}

export function availableMicros(b: BalanceMicros): bigint {
  return b.promoMicros + b.purchasedMicros - b.heldMicros;
}

/** The stored balance (zero when the workspace never had credit). */
export async function readBalance(client: Tx, workspaceId: string): Promise<BalanceMicros> {
  return balanceOf(sqlIn(client), workspaceId);
}

/** The balance rebuilt from the ledger and the open holds alone, ignoring the stored row. */
export async function recomputeBalance(client: Tx, workspaceId: string): Promise<BalanceMicros> {
  return recomputedBalance(sqlIn(client), workspaceId);
}

/** What usage cost since `since`, net of reversals: the month's spend. */
export async function spentSince(client: Tx, workspaceId: string, since: Date): Promise<bigint> {
  return spentIn(sqlIn(client), workspaceId, since);
}

/** One new transaction, as stored (for the operator's commands, which print it), the balance locked first. */
async function appendOne(tx: Tx, workspaceId: string, entry: LedgerEntry) {
  const sql = sqlIn(tx);
  const [id] = await appendTransactions(sql, workspaceId, [entry]);
  return (await transactionById(sql, workspaceId, id!))!;
}

type CreditInput = { workspaceId: string; amountMicros: bigint; description?: string; actorUserId?: string | null };

/** What each way of adding credit writes: its bucket and the words of its refusal and default description. */
const CREDIT_ADDED = {
  promo_grant: { bucket: "promo", what: "a promotional grant", description: "Promotional credit" },
  purchase: { bucket: "purchased", what: "a purchase", description: "Credit purchase" },
} as const;

async function addCredit(tx: Tx, kind: keyof typeof CREDIT_ADDED, input: CreditInput) {
  const { bucket, what, description } = CREDIT_ADDED[kind];
  if (input.amountMicros <= 0n) throw new LedgerError(`${what} must be above 0.00`);
  await lockBalance(sqlIn(tx), input.workspaceId);
  return appendOne(tx, input.workspaceId, {
    kind,
    bucket,
    amountMicros: input.amountMicros,
    description: input.description ?? description,
    actorUserId: input.actorUserId ?? null,
  });
}

/** Promotional credit given by the service (signup, goodwill). Spent before purchased credit. */
export const grantPromo = (tx: Tx, input: CreditInput) => addCredit(tx, "promo_grant", input);

/** Purchased credit (recorded by an operator until a payment provider is wired). Never expires. */
export const recordPurchase = (tx: Tx, input: CreditInput) => addCredit(tx, "purchase", input);

/**
 * A correction to one bucket, either way. Refused when it would take the bucket below zero or
 * leave less credit than the open holds set aside, since both would let work run unpaid.
 */
export async function adjustCredit(tx: Tx, input: CreditInput & { bucket: Bucket; description: string }) {
  if (input.amountMicros === 0n) throw new LedgerError("an adjustment must not be 0.00");
  if (!input.description.trim()) throw new LedgerError("an adjustment needs a description saying why");
  const balance = await lockBalance(sqlIn(tx), input.workspaceId);
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
  return appendOne(tx, input.workspaceId, {
    kind: "adjustment",
    bucket: input.bucket,
    amountMicros: input.amountMicros,
    description: input.description.trim(),
    actorUserId: input.actorUserId ?? null,
  });
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
