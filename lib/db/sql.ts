// Sessions that run typed statements (./statement.ts) on the driver under the Prisma client: the
// pg pool PrismaPg was given, or the PGlite instance (in this thread or its worker). For a one-row
// read Prisma's per-query work (building the query, compiling and interpreting its plan, mapping
// the result) cost several times the query itself (bench/lib/read-path.ts); these statements skip
// it, and on PostgreSQL each is parsed and planned once per connection. Rows come back as arrays
// of text or null; only ./statement.ts decodes them.
import { currentDb, type Db, type Tx } from "./client";

/** A statement as the driver gets it: its text, and the name it is prepared under (unique per text). */
export type Prepared = { readonly name: string; readonly text: string };

export type TextRow = (string | null)[];

// PGlite is one session: a statement is PREPAREd in it once and then EXECUTEd, which spares the
// WASM PostgreSQL the parse and plan of every read. Remembered per PGlite instance, on globalThis
// like the instance itself (lib/db/client.ts), so that a dev-mode reload of this module does not
// PREPARE again what the session already holds.
const preparedIn = ((globalThis as { __geoscopePrepared?: WeakMap<object, Set<string>> }).__geoscopePrepared ??= new WeakMap());

/**
 * `FROM ${ASYNC_COMMIT}` in a statement run on its own (its own transaction) commits it without
 * waiting for the WAL to reach the disk (synchronous_commit off for that transaction alone, set
 * while it runs). Only for writes whose loss in a crash is harmless: leases and claims, which a
 * crash leaves to expire anyway. Whatever commits durably after them (a run's outcome) makes them
 * durable too, as the WAL is written in order.
 */
export const ASYNC_COMMIT = "(SELECT set_config('synchronous_commit', 'off', true)) AS async_commit";

/** Runs a statement on the database, outside any transaction; rows as arrays of text. */
export async function queryText(db: Db, statement: Prepared, values: (string | null)[]): Promise<TextRow[]> {
  if (db.pool) {
    const result = await db.pool.query<TextRow>({ name: statement.name, text: statement.text, values, rowMode: "array" });
    return result.rows;
  }
  const pglite = embedded(db);
  if (!pglite) throw new Error("queryText: a database with neither a pool nor PGlite");
  return executeIn(pglite, pglite, statement, values);
}

/** PGlite's session, in this thread or in its worker's (./pglite-thread.ts): what these statements use of it. */
type PgliteSession = { exec(sql: string, options?: { rowMode: "array" }): Promise<{ rows: unknown[] }[]> };
type Embedded = PgliteSession & { transaction<T>(fn: (tx: PgliteSession) => Promise<T>): Promise<T> };

function embedded(db: Db): Embedded | undefined {
  return db.pglite ?? db.pgliteThread;
}

/** EXECUTEs a statement in PGlite's session (`via`: the instance, or a transaction of it), PREPAREd on first use. */
async function executeIn(pglite: Embedded, via: PgliteSession, statement: Prepared, values: (string | null)[], retried = false): Promise<TextRow[]> {
  let prepared = preparedIn.get(pglite);
  if (!prepared) preparedIn.set(pglite, (prepared = new Set()));
  if (!prepared.has(statement.name)) {
    const types = values.length ? ` (${values.map(() => "text").join(", ")})` : "";
    try {
      await via.exec(`PREPARE ${statement.name}${types} AS ${statement.text}`);
    } catch (error) {
      // Prepared by an earlier copy of this module in the same session: the name is the text's.
      // (Inside a transaction the error has aborted it: the caller's retry finds the name known.)
      if (!/prepared statement .* already exists/.test((error as Error).message)) throw error;
      prepared.add(statement.name);
      if (via !== pglite) throw error;
    }
    prepared.add(statement.name);
  }
  // EXECUTE takes no bound parameters (the extended protocol's are for the statement sent, and
  // EXECUTE declares none): its arguments are written as literals, and it is sent by the simple
  // query protocol, one message instead of the extended protocol's parse, describe, bind and
  // execute (~35% less of PGlite's CPU per statement: ~125 against ~200 µs for a 10 KB row).
  const args = values.map(literal).join(", ");
  try {
    const results = await via.exec(`EXECUTE ${statement.name}${args ? `(${args})` : ""}`, { rowMode: "array" });
    return (results.at(-1)?.rows ?? []) as TextRow[];
  } catch (error) {
    // Dropped behind our back (DEALLOCATE ALL, a reset session): prepared again, once (not
    // inside a transaction, which the error has aborted).
    if (!retried && via === pglite && /prepared statement .* does not exist/.test((error as Error).message)) {
      prepared.delete(statement.name);
      return executeIn(pglite, via, statement, values, true);
    }
    if (/prepared statement .* does not exist/.test((error as Error).message)) prepared.delete(statement.name);
    throw error;
  }
}

/** A text literal (standard_conforming_strings is on in every PostgreSQL since 9.1: only ' is special). */
function literal(value: string | null): string {
  if (value === null) return "NULL";
  if (value.includes("\0")) throw new Error("queryText: a value holds a NUL byte");
  return `'${value.replaceAll("'", "''")}'`;
}

/**
 * Where typed statements run: on their own (`standalone`), in `textTransaction`'s connection, or in
 * a Prisma transaction's (`sqlIn`). Only ./statement.ts calls `query`.
 */
export type SqlSession = { query(statement: Prepared, values: (string | null)[]): Promise<TextRow[]> };

const standalones = new WeakMap<Db, SqlSession>();

/** Statements each on its own, outside any transaction, on `db` (the process's database by default). */
export function standalone(db: Db = currentDb()): SqlSession {
  let session = standalones.get(db);
  if (!session) standalones.set(db, (session = { query: (statement, values) => queryText(db, statement, values) }));
  return session;
}

/**
 * Runs `fn` in a transaction of its own on the driver under Prisma (a pool connection, or
 * PGlite's one session, which queues Prisma's transactions and these behind each other), its
 * statements prepared as queryText's are. Committed when `fn` resolves, rolled back when it throws.
 * For the hot writes (a run's outcome and its charge), where Prisma's per-statement work was
 * most of their cost. With `snapshot`, a read-only transaction whose statements all see one
 * snapshot (REPEATABLE READ): reads that must agree with each other while others write.
 */
export async function textTransaction<T>(db: Db, fn: (sql: SqlSession) => Promise<T>, options: { snapshot?: boolean } = {}): Promise<T> {
  if (db.pool) {
    const client = await db.pool.connect();
    let broken: Error | undefined;
    // A checked-out client has no 'error' listener of the pool's: a connection the server ends
    // mid-transaction (a restart, pg_terminate_backend) would otherwise be an uncaught exception.
    const onError = (error: Error) => (broken ??= error);
    client.on("error", onError);
    try {
      // A snapshot: every statement sees the database as it was at the first, whatever commits
      // meanwhile (reads only).
      await client.query(options.snapshot ? "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY" : "BEGIN");
      try {
        const out = await fn({
          query: async (statement, values) => (await client.query<TextRow>({ name: statement.name, text: statement.text, values, rowMode: "array" })).rows,
        });
        await client.query("COMMIT");
        return out;
      } catch (error) {
        await client.query("ROLLBACK").catch((rollbackError: Error) => (broken = rollbackError));
        throw error;
      }
    } catch (error) {
      // A connection that failed mid-transaction may be dead or in an unknown state: not reused.
      broken ??= isConnectionError(error) ? (error as Error) : undefined;
      throw error;
    } finally {
      if (!broken) client.off("error", onError);
      client.release(broken);
    }
  }
  const pglite = embedded(db);
  if (!pglite) throw new Error("textTransaction: a database with neither a pool nor PGlite");
  // PGlite's one session runs nothing else during a transaction: every transaction there is a snapshot.
  return pglite.transaction((tx) => fn({ query: (statement, values) => executeIn(pglite, tx, statement, values) }));
}

function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  // No SQLSTATE: the socket, not the statement (ECONNRESET, "Connection terminated", a timeout).
  if (typeof code !== "string" || !/^[0-9A-Z]{5}$/.test(code)) return true;
  // Class 08 (connection exception) and 57P01-57P05 (the server ending the session).
  return code.startsWith("08") || /^57P0[1-5]$/.test(code);
}

/**
 * The same statements inside a Prisma transaction (services that hold one: creating work, the
 * analyses' and audits' final writes). Rows come back as objects, in column order (a typed
 * statement names every column, each differently).
 */
export function sqlIn(tx: Tx): SqlSession {
  return {
    async query(statement, values) {
      const rows = await tx.$queryRawUnsafe<Record<string, string | null>[]>(statement.text, ...values);
      return rows.map((row) => Object.values(row));
    },
  };
}
