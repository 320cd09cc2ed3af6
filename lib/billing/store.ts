// The credit tables (credit_balances, credit_holds, ledger_transactions): the one module that reads
// or writes them, by typed statements (lib/db/statement.ts) on one kind of session. The rules
// (what may be held, captured, granted) are in ./holds.ts and ./ledger.ts; the reads of runs,
// fanouts and analyses take a run's hold through `holdJoin` and `holdShape` below.
//
// Every change to credit or holds is made while holding the workspace's balance row lock
// (`lockBalance`), the first lock taken by anything that moves money.
import { atUtc, date, defineStatement, group, int, micros, optional, text, type RowOf } from "../db/statement";
import type { SqlSession } from "../db/sql";
import { newId } from "../db/ids";
import type { Price } from "./rate-card";

export type BillingProductName = Price["product"];
export type Bucket = "promo" | "purchased";
export type TransactionKindName = "promo_grant" | "purchase" | "usage" | "reversal" | "adjustment";
export type BalanceMicros = { promoMicros: bigint; purchasedMicros: bigint; heldMicros: bigint };

/** A hold's columns (alias `h`): the one column list of credit_holds. */
export const holdColumns = (h: string) => ({
  id: text(`${h}.id`),
  workspaceId: text(`${h}.workspace_id`),
  runId: text(`${h}.run_id`).nullable,
  analysisId: text(`${h}.analysis_id`).nullable,
  operationId: text(`${h}.operation_id`),
  product: text<BillingProductName>(`${h}.product`),
  engine: text(`${h}.engine`).nullable,
  unit: text(`${h}.unit`),
  units: int(`${h}.units`),
  unitPriceMicros: micros(`${h}.unit_price_micros`),
  amountMicros: micros(`${h}.amount_micros`),
  capturedMicros: micros(`${h}.captured_micros`).nullable,
  capturedUnits: int(`${h}.captured_units`).nullable,
  pricingVersion: text(`${h}.pricing_version`),
  status: text<"held" | "captured" | "released">(`${h}.status`),
  actorUserId: text(`${h}.actor_user_id`).nullable,
  apiKeyId: text(`${h}.api_key_id`).nullable,
});

/** A hold as stored: placed, then settled. */
export type HoldRow = RowOf<ReturnType<typeof holdColumns>>;

/** The hold of a run (alias `h`) in another table's read: `LEFT JOIN`ed on the run id expression `runId`. */
export const holdJoin = (h: string, runId: string) => `LEFT JOIN credit_holds ${h} ON ${h}.run_id = ${runId}`;
/** The hold joined by holdJoin, or null when the run has none. */
export const holdShape = (h: string) => optional(holdColumns(h), `${h}.id IS NOT NULL`);
/** The version of the hold joined by holdJoin (changed by every write to it), or '-' when none. */
export const holdVersionSql = (h: string) => `COALESCE(${h}.xmin::text, '-')`;
/**
 * What one hold paid, as a scalar subquery (alias `h`) on the hold id expression `holdId`: its
 * captured micro-dollars, or null when it is not captured (or there is no such hold).
 */
export const capturedOfHoldSql = (h: string, holdId: string) => `(SELECT ${h}.captured_micros FROM credit_holds ${h} WHERE ${h}.id = ${holdId} AND ${h}.status = 'captured')`;
/**
 * Sums (SQL aggregates, micro-dollars) over the holds joined by holdJoin(h): what they hold now,
 * what they paid, and what they paid since the timestamp `since` (a monitor's month).
 */
export const holdSumsSql = (h: string, since: string) => ({
  held: `COALESCE(sum(${h}.amount_micros) FILTER (WHERE ${h}.status = 'held'), 0)`,
  captured: `COALESCE(sum(${h}.captured_micros) FILTER (WHERE ${h}.status = 'captured'), 0)`,
  capturedSince: `COALESCE(sum(${h}.captured_micros) FILTER (WHERE ${h}.status = 'captured' AND ${h}.settled_at >= ${since}), 0)`,
});

const balanceColumns = (b: string) => ({
  promoMicros: micros(`${b}.promo_micros`),
  purchasedMicros: micros(`${b}.purchased_micros`),
  heldMicros: micros(`${b}.held_micros`),
});

const BALANCE = defineStatement({
  label: "credit_balance",
  params: ["workspace", "lock"],
  columns: balanceColumns("b"),
  sql: ({ select, p, given }) => `SELECT ${select} FROM credit_balances b WHERE b.workspace_id = ${p.workspace}${given.lock ? " FOR UPDATE" : ""}`,
});

const CREATE_BALANCE = defineStatement({
  label: "credit_balance_create",
  params: ["workspace"],
  sql: ({ p }) =>
    `INSERT INTO credit_balances (workspace_id, promo_micros, purchased_micros, held_micros, updated_at)
    VALUES (${p.workspace}, 0, 0, 0, now() AT TIME ZONE 'UTC') ON CONFLICT (workspace_id) DO NOTHING`,
});

/**
 * Locks the workspace's balance row until the session's transaction ends, creating it at zero when
 * missing. Every change to credit or holds goes through this lock, which is what keeps concurrent
 * holds from setting aside more than the balance.
 */
export async function lockBalance(sql: SqlSession, workspaceId: string): Promise<BalanceMicros> {
  const found = await BALANCE.first(sql, { workspace: workspaceId, lock: true });
  if (found) return found;
  await CREATE_BALANCE.query(sql, { workspace: workspaceId });
  const created = await BALANCE.first(sql, { workspace: workspaceId, lock: true });
  if (!created) throw new Error(`credit balance of ${workspaceId} could not be created`);
  return created;
}

/** The stored balance (zero when the workspace never had credit). */
export async function balanceOf(sql: SqlSession, workspaceId: string): Promise<BalanceMicros> {
  return (await BALANCE.first(sql, { workspace: workspaceId })) ?? { promoMicros: 0n, purchasedMicros: 0n, heldMicros: 0n };
}

const RECOMPUTED = defineStatement({
  label: "credit_balance_recomputed",
  params: ["workspace"],
  columns: (p) => {
    const sum = (from: string, where: string) => micros(`COALESCE((SELECT sum(x.amount_micros) FROM ${from} x WHERE x.workspace_id = ${p.workspace} AND ${where}), 0)`);
    return {
      promoMicros: sum("ledger_transactions", "x.bucket = 'promo'"),
      purchasedMicros: sum("ledger_transactions", "x.bucket = 'purchased'"),
      heldMicros: sum("credit_holds", "x.status = 'held'"),
    };
  },
  sql: ({ select }) => `SELECT ${select}`,
});

/** The balance rebuilt from the ledger and the open holds alone, ignoring the stored row. */
export async function recomputedBalance(sql: SqlSession, workspaceId: string): Promise<BalanceMicros> {
  return (await RECOMPUTED.first(sql, { workspace: workspaceId }))!;
}

const SPENT = defineStatement({
  label: "credit_spent_since",
  params: ["workspace", "since"],
  columns: { net: micros("COALESCE(sum(t.amount_micros), 0)") },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM ledger_transactions t
    WHERE t.workspace_id = ${p.workspace} AND t.kind IN ('usage', 'reversal') AND t.created_at >= ${atUtc(p.since)}`,
});

/** What usage cost since `since`, net of reversals: the month's spend. */
export async function spentSince(sql: SqlSession, workspaceId: string, since: Date): Promise<bigint> {
  return -(await SPENT.first(sql, { workspace: workspaceId, since }))!.net;
}

// Holds

/** A hold to place: what ./holds.ts priced. */
export type NewHold = Pick<HoldRow, "id" | "runId" | "analysisId" | "product" | "engine" | "unit" | "units" | "unitPriceMicros" | "amountMicros" | "pricingVersion">;

// The holds arrive as one JSON array (amounts as strings: int8 is wider than a JSON number), and
// the balance's held sum moves by their total in the same statement.
const PLACE_HOLDS = defineStatement({
  label: "credit_holds_place",
  params: ["workspace", "operation", "holds", "actor", "key", "at"],
  columns: { placed: int("(SELECT count(*) FROM placed)") },
  sql: ({ select, p }) =>
    `WITH placed AS (
      INSERT INTO credit_holds (id, workspace_id, run_id, analysis_id, operation_id, product, engine, unit, units, unit_price_micros,
        amount_micros, pricing_version, status, actor_user_id, api_key_id, created_at)
      SELECT h.id, ${p.workspace}, h.run_id, h.analysis_id, ${p.operation}, h.product::"BillingProduct", h.engine, h.unit, h.units,
        h.unit_price_micros, h.amount_micros, h.pricing_version, 'held', ${p.actor}, ${p.key}, ${atUtc(p.at)}
      FROM jsonb_to_recordset(${p.holds}::jsonb) AS h(id text, run_id text, analysis_id text, product text, engine text, unit text,
        units int, unit_price_micros bigint, amount_micros bigint, pricing_version text)
      RETURNING amount_micros
    )
    UPDATE credit_balances SET held_micros = held_micros + (SELECT COALESCE(sum(amount_micros), 0) FROM placed), updated_at = ${atUtc(p.at)}
    WHERE workspace_id = ${p.workspace}
    RETURNING ${select}`,
});

/** Places holds and adds them to the balance's held sum (the caller holds the balance lock and checked the credit). */
export async function placeHolds(
  sql: SqlSession,
  place: { workspaceId: string; operationId: string; actorUserId: string | null; apiKeyId: string | null; holds: NewHold[] },
): Promise<void> {
  const holds = place.holds.map((h) => ({
    id: h.id, run_id: h.runId, analysis_id: h.analysisId, product: h.product, engine: h.engine, unit: h.unit, units: h.units,
    unit_price_micros: h.unitPriceMicros.toString(), amount_micros: h.amountMicros.toString(), pricing_version: h.pricingVersion,
  }));
  const [placed] = await PLACE_HOLDS.query(sql, {
    workspace: place.workspaceId, operation: place.operationId, holds: JSON.stringify(holds),
    actor: place.actorUserId, key: place.apiKeyId, at: new Date(),
  });
  if (placed?.placed !== holds.length) throw new Error(`placeHolds: no credit balance row for ${place.workspaceId} (lockBalance first)`);
}

/** A hold named by its own id, or by the run it pays for. */
export type HoldKey = { holdId: string } | { runId: string };

const HOLD = defineStatement({
  label: "credit_hold",
  params: ["hold", "run", "workspace"],
  columns: holdColumns("h"),
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM credit_holds h WHERE ${given.hold ? `h.id = ${p.hold}` : `h.run_id = ${p.run}`}` +
    (given.workspace ? ` AND h.workspace_id = ${p.workspace}` : ""),
});

const keyOf = (key: HoldKey) => ("holdId" in key ? { hold: key.holdId } : { run: key.runId });

/** The hold `key`, of the workspace when given; null when there is none. */
export async function findHold(sql: SqlSession, key: HoldKey, workspaceId?: string): Promise<HoldRow | null> {
  return (await HOLD.first(sql, { ...keyOf(key), workspace: workspaceId })) ?? null;
}

// The usual settlement, of a workspace's hold (the caller knows the workspace): its balance row
// locked and the hold read in one statement. The hold comes from the statement's snapshot, taken
// before any wait for the lock: what another settlement committed meanwhile shows when the
// conditional update (SETTLE_HOLD) then finds the hold no longer held.
const BALANCE_AND_HOLD = defineStatement({
  label: "credit_balance_and_hold",
  params: ["workspace", "hold", "run"],
  columns: { balance: group(balanceColumns("b")), hold: holdShape("h") },
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM credit_balances b
    LEFT JOIN credit_holds h ON ${given.hold ? `h.id = ${p.hold}` : `h.run_id = ${p.run}`} AND h.workspace_id = b.workspace_id
    WHERE b.workspace_id = ${p.workspace} FOR UPDATE OF b`,
});

/** The workspace's balance, locked, and its hold `key` (null: none); null when the workspace has no balance row yet. */
export async function lockBalanceWithHold(sql: SqlSession, key: HoldKey, workspaceId: string): Promise<{ balance: BalanceMicros; hold: HoldRow | null } | null> {
  return (await BALANCE_AND_HOLD.first(sql, { workspace: workspaceId, ...keyOf(key) })) ?? null;
}

const SETTLE_HOLD = defineStatement({
  label: "credit_hold_settle",
  params: ["hold", "status", "micros", "units", "at"],
  columns: { id: text("id") },
  sql: ({ select, p }) =>
    `UPDATE credit_holds SET status = ${p.status}::text::"HoldStatus", captured_micros = ${p.micros}::bigint, captured_units = ${p.units}::int,
    settled_at = ${atUtc(p.at)} WHERE id = ${p.hold} AND status = 'held' RETURNING ${select}`,
});

/** Settles a hold still held (conditional: false when it was settled meanwhile). */
export async function settleHoldRow(
  sql: SqlSession,
  holdId: string,
  settlement: { status: "captured" | "released"; capturedMicros: bigint; capturedUnits: number },
  at: Date,
): Promise<boolean> {
  const changed = await SETTLE_HOLD.query(sql, { hold: holdId, status: settlement.status, micros: settlement.capturedMicros, units: settlement.capturedUnits, at });
  return changed.length === 1;
}

// The ledger

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
  product?: BillingProductName | null;
  engine?: string | null;
  unit?: string | null;
  units?: number | null;
};

// The entries arrive as one JSON array (amounts as strings), and the bucket sums move by their
// totals in the same statement.
const APPEND_TRANSACTIONS = defineStatement({
  label: "ledger_append",
  params: ["workspace", "entries", "held", "at"],
  columns: { appended: int("(SELECT count(*) FROM inserted)") },
  sql: ({ select, p }) =>
    `WITH entries AS (
      SELECT * FROM jsonb_to_recordset(${p.entries}::jsonb) AS e(
        id text, kind text, bucket text, amount_micros bigint, description text, operation_id text, run_id text, hold_id text,
        actor_user_id text, api_key_id text, product text, engine text, unit text, units int)
    ), inserted AS (
      INSERT INTO ledger_transactions (id, workspace_id, kind, bucket, amount_micros, description, operation_id, run_id, hold_id,
        actor_user_id, api_key_id, product, engine, unit, units, created_at)
      SELECT id, ${p.workspace}, kind::"TransactionKind", bucket::"CreditBucket", amount_micros, description, operation_id, run_id, hold_id,
        actor_user_id, api_key_id, product::"BillingProduct", engine, unit, units, ${atUtc(p.at)}
      FROM entries
      RETURNING 1
    )
    UPDATE credit_balances SET
      promo_micros = promo_micros + COALESCE((SELECT sum(amount_micros) FROM entries WHERE bucket = 'promo'), 0),
      purchased_micros = purchased_micros + COALESCE((SELECT sum(amount_micros) FROM entries WHERE bucket = 'purchased'), 0),
      held_micros = held_micros + ${p.held}::bigint,
      updated_at = ${atUtc(p.at)}
    WHERE workspace_id = ${p.workspace}
    RETURNING ${select}`,
});

/**
 * Appends transactions and moves the stored bucket sums by the same amounts, in one statement
 * (the caller holds the balance lock, so every statement saved shortens the wait of the others).
 * `heldDeltaMicros` moves the held sum in the same update (a settled hold). The caller holds the
 * balance lock (lockBalance) and has checked that no bucket goes below zero. Answers the new
 * transactions' ids, in the order of `entries`.
 */
export async function appendTransactions(sql: SqlSession, workspaceId: string, entries: LedgerEntry[], at: Date = new Date(), heldDeltaMicros = 0n): Promise<string[]> {
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
  const [updated] = await APPEND_TRANSACTIONS.query(sql, { workspace: workspaceId, entries: JSON.stringify(rows), held: heldDeltaMicros, at });
  // The caller locked (so created) the balance row: no row here is a caller that did not.
  if (!updated) throw new Error(`appendTransactions: no credit balance row for ${workspaceId} (lockBalance first)`);
  return ids;
}

const transactionColumns = {
  id: text("t.id"),
  kind: text<TransactionKindName>("t.kind"),
  bucket: text<Bucket>("t.bucket"),
  amountMicros: micros("t.amount_micros"),
  description: text("t.description"),
  createdAt: date("t.created_at"),
  operationId: text("t.operation_id").nullable,
  runId: text("t.run_id").nullable,
  apiKeyId: text("t.api_key_id").nullable,
  actor: optional({ email: text("a.email") }, "a.id IS NOT NULL"),
};

/** A ledger transaction as the API shows it (lib/billing/present.ts). */
export type TransactionRow = RowOf<typeof transactionColumns>;

const TRANSACTIONS = defineStatement({
  label: "ledger_transactions",
  params: ["workspace", "id", "before", "limit"],
  columns: transactionColumns,
  sql: ({ select, p, given }) =>
    `SELECT ${select} FROM ledger_transactions t LEFT JOIN users a ON a.id = t.actor_user_id WHERE t.workspace_id = ${p.workspace}` +
    (given.id ? ` AND t.id = ${p.id}` : "") +
    (given.before ? ` AND t.id < ${p.before}` : "") +
    ` ORDER BY t.id DESC` +
    (given.limit ? ` LIMIT ${p.limit}::int` : ""),
});

/** A workspace's transactions newest first, before the id `before` when given; `limit` of them. */
export async function transactionsOf(sql: SqlSession, workspaceId: string, page: { before?: string; limit: number }): Promise<TransactionRow[]> {
  return TRANSACTIONS.query(sql, { workspace: workspaceId, before: page.before, limit: page.limit });
}

/** One transaction of a workspace. */
export async function transactionById(sql: SqlSession, workspaceId: string, id: string): Promise<TransactionRow | undefined> {
  return TRANSACTIONS.first(sql, { workspace: workspaceId, id });
}

// settled_at is a UTC timestamp without zone (Prisma's DateTime), so its date is the UTC day;
// `since` goes in as text cast to the same type, so the session's TimeZone plays no part.
// Captures of zero units (a questions analysis that produced none) delivered nothing and are left out.
const USAGE = defineStatement({
  label: "credit_usage",
  params: ["workspace", "since"],
  columns: {
    day: text("to_char(h.settled_at, 'YYYY-MM-DD')"),
    product: text<BillingProductName>("h.product"),
    engine: text("h.engine").nullable,
    unit: text("h.unit"),
    operations: int("count(*)"),
    units: int("sum(h.captured_units)"),
    chargedMicros: micros("sum(h.captured_micros)"),
  },
  sql: ({ select, p }) =>
    `SELECT ${select} FROM credit_holds h
    WHERE h.workspace_id = ${p.workspace} AND h.status = 'captured' AND h.settled_at >= ${p.since}::timestamp AND h.captured_units > 0
    GROUP BY 1, 2, 3, 4
    ORDER BY 1 DESC, 2, 3 NULLS FIRST, 4`,
});

/** What was charged since `since`, by UTC day of capture, product, engine and unit. */
export async function usageSince(sql: SqlSession, workspaceId: string, since: Date) {
  return USAGE.query(sql, { workspace: workspaceId, since: since.toISOString() });
}
