// The ledger: every change to a workspace's credit is an append-only transaction. The
// credit_balances row caches their sums per bucket plus what holds set aside; every writer
// changes it only while holding its row lock, and recomputeBalance() rebuilds it from scratch.
import type { Tx } from "../db/client";
import { newId } from "../db/ids";
import { sqlIn, type SqlSession, type Statement } from "../db/sql";
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

const SELECT_BALANCE_FOR_UPDATE: Statement = {
  name: "ledger_balance_for_update_v1",
  // ::text because drivers differ on how they hand back int8; BigInt() takes the text exactly.
  text: `SELECT promo_micros::text AS promo, purchased_micros::text AS purchased, held_micros::text AS held
    FROM credit_balances WHERE workspace_id = $1 FOR UPDATE`,
};

const CREATE_BALANCE: Statement = {
  name: "ledger_create_balance_v1",
  text: `INSERT INTO credit_balances (workspace_id, promo_micros, purchased_micros, held_micros, updated_at)
    VALUES ($1, 0, 0, 0, now() AT TIME ZONE 'UTC') ON CONFLICT (workspace_id) DO NOTHING RETURNING workspace_id`,
};

/** A Prisma transaction, or a session of ../db/sql.ts's (the hot writes): both run the statements below. */
export type LedgerClient = Tx | SqlSession;

export function sessionOf(client: LedgerClient): SqlSession {
  return "$queryRawUnsafe" in client ? sqlIn(client) : client;
}

async function selectForUpdate(sql: SqlSession, workspaceId: string): Promise<BalanceMicros | null> {
  const [row] = await sql.query(SELECT_BALANCE_FOR_UPDATE, [workspaceId]);
  return row ? { promoMicros: BigInt(row[0]!), purchasedMicros: BigInt(row[1]!), heldMicros: BigInt(row[2]!) } : null;
}

/**
 * Locks the workspace's balance row until the caller's transaction ends, creating it at zero
 * when missing. Every change to credit or holds goes through this lock, which is what keeps
 * concurrent holds from setting aside more than the balance.
 */
export async function lockBalance(client: LedgerClient, workspaceId: string): Promise<BalanceMicros> {
  const sql = sessionOf(client);
  const found = await selectForUpdate(sql, workspaceId);
  if (found) return found;
  await sql.query(CREATE_BALANCE, [workspaceId]);
  const created = await selectForUpdate(sql, workspaceId);
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

// The entries arrive as one JSON array (amounts as strings: int8 is wider than a JSON number),
// and the bucket sums move by their totals in the same statement.
const APPEND_TRANSACTIONS: Statement = {
  name: "ledger_append_v1",
  text: `WITH entries AS (
      SELECT * FROM jsonb_to_recordset($2::jsonb) AS e(
        id text, kind text, bucket text, amount_micros bigint, description text, operation_id text, run_id text, hold_id text,
        actor_user_id text, api_key_id text, product text, engine text, unit text, units int)
    ), inserted AS (
      INSERT INTO ledger_transactions (id, workspace_id, kind, bucket, amount_micros, description, operation_id, run_id, hold_id,
        actor_user_id, api_key_id, product, engine, unit, units, created_at)
      SELECT id, $1, kind::"TransactionKind", bucket::"CreditBucket", amount_micros, description, operation_id, run_id, hold_id,
        actor_user_id, api_key_id, product::"BillingProduct", engine, unit, units, $4::timestamptz AT TIME ZONE 'UTC'
      FROM entries
      RETURNING 1
    )
    UPDATE credit_balances SET
      promo_micros = promo_micros + COALESCE((SELECT sum(amount_micros) FROM entries WHERE bucket = 'promo'), 0),
      purchased_micros = purchased_micros + COALESCE((SELECT sum(amount_micros) FROM entries WHERE bucket = 'purchased'), 0),
      held_micros = held_micros + $3::bigint,
      updated_at = $4::timestamptz AT TIME ZONE 'UTC'
    WHERE workspace_id = $1
    RETURNING (SELECT count(*) FROM inserted)::text AS appended`,
};

/**
 * Appends transactions and moves the cached bucket sums by the same amounts, in one statement
 * (the caller holds the balance lock, so every statement saved shortens the wait of the others).
 * `heldDeltaMicros` moves the held sum in the same update (a settled hold). The caller holds
 * the balance lock (lockBalance) and has checked that no bucket goes below zero. Answers the
 * new transactions' ids, in the order of `entries`.
 */
export async function appendTransactions(
  client: LedgerClient,
  workspaceId: string,
  entries: LedgerEntry[],
  at: Date = new Date(),
  heldDeltaMicros = 0n,
): Promise<string[]> {
  const ids = entries.map(() => newId("transaction"));
  const rows = entries.map((entry, i) => ({
    id: ids[i],
    kind: entry.kind,
    bucket: entry.bucket,
    amount_micros: entry.amountMicros.toString(),
    description: entry.description,
    operation_id: entry.operationId ?? null,
    run_id: entry.runId ?? null,
    hold_id: entry.holdId ?? null,
    actor_user_id: entry.actorUserId ?? null,
    api_key_id: entry.apiKeyId ?? null,
    product: entry.product ?? null,
    engine: entry.engine ?? null,
    unit: entry.unit ?? null,
    units: entry.units ?? null,
  }));
  const [updated] = await sessionOf(client).query(APPEND_TRANSACTIONS, [workspaceId, JSON.stringify(rows), heldDeltaMicros.toString(), at.toISOString()]);
  // The caller locked (so created) the balance row: no row here is a caller that did not.
  if (!updated) throw new Error(`appendTransactions: no credit balance row for ${workspaceId} (lockBalance first)`);
  return ids;
}

/** One new transaction, as stored (for the operator's commands, which print it). */
async function appendOne(tx: Tx, workspaceId: string, entry: LedgerEntry) {
  const [id] = await appendTransactions(tx, workspaceId, [entry]);
  return tx.ledgerTransaction.findUniqueOrThrow({ where: { id: id! } });
}

type CreditInput = { workspaceId: string; amountMicros: bigint; description?: string; actorUserId?: string | null };

/** Promotional credit given by the service (signup, goodwill). Spent before purchased credit. */
export async function grantPromo(tx: Tx, input: CreditInput) {
  if (input.amountMicros <= 0n) throw new LedgerError("a promotional grant must be above 0.00");
  await lockBalance(tx, input.workspaceId);
  return appendOne(tx, input.workspaceId, {
    kind: "promo_grant",
    bucket: "promo",
    amountMicros: input.amountMicros,
    description: input.description ?? "Promotional credit",
    actorUserId: input.actorUserId ?? null,
  });
}

/** Purchased credit (recorded by an operator until a payment provider is wired). Never expires. */
export async function recordPurchase(tx: Tx, input: CreditInput) {
  if (input.amountMicros <= 0n) throw new LedgerError("a purchase must be above 0.00");
  await lockBalance(tx, input.workspaceId);
  return appendOne(tx, input.workspaceId, {
    kind: "purchase",
    bucket: "purchased",
    amountMicros: input.amountMicros,
    description: input.description ?? "Credit purchase",
    actorUserId: input.actorUserId ?? null,
  });
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
