// Prepared statements for the hottest reads (GET /runs/{id}, lists, batches), sent straight to
// the driver under the Prisma client: the pg pool PrismaPg was given, or the PGlite instance.
// For a one-row read Prisma's per-query work (building the query, compiling and interpreting
// its plan, mapping the result) cost several times the query itself (bench/lib/read-path.ts);
// these statements skip it, and on PostgreSQL each is parsed and planned once per connection.
// Every column a statement returns must be text (cast with ::text in the SQL): rows come back as
// arrays of strings or nulls on both drivers, and the caller converts what it needs.
import type { Db } from "./client";

export type Statement = {
  /** Unique per statement text (bump its version when the text changes): the session keeps the parsed statement under it. */
  readonly name: string;
  readonly text: string;
};

export type TextRow = (string | null)[];

// PGlite is one session: a statement is PREPAREd in it once and then EXECUTEd, which spares the
// WASM PostgreSQL the parse and plan of every read. Remembered per PGlite instance, on globalThis
// like the instance itself (lib/db/client.ts), so that a dev-mode reload of this module does not
// PREPARE again what the session already holds.
const preparedIn = ((globalThis as { __geoscopePrepared?: WeakMap<object, Set<string>> }).__geoscopePrepared ??= new WeakMap());

/** Runs a statement on the database, outside any transaction; rows as arrays of text. */
export async function queryText(db: Db, statement: Statement, values: (string | null)[], retried = false): Promise<TextRow[]> {
  if (db.pool) {
    const result = await db.pool.query<TextRow>({ name: statement.name, text: statement.text, values, rowMode: "array" });
    return result.rows;
  }
  const pglite = db.pglite;
  if (!pglite) throw new Error("queryText: a database with neither a pool nor PGlite");
  let prepared = preparedIn.get(pglite);
  if (!prepared) preparedIn.set(pglite, (prepared = new Set()));
  if (!prepared.has(statement.name)) {
    const types = values.map(() => "text").join(", ");
    try {
      await pglite.exec(`PREPARE ${statement.name} (${types}) AS ${statement.text}`);
    } catch (error) {
      // Prepared by an earlier copy of this module in the same session: the name is the text's.
      if (!/prepared statement .* already exists/.test((error as Error).message)) throw error;
    }
    prepared.add(statement.name);
  }
  // EXECUTE takes no bound parameters (the extended protocol's are for the statement sent, and
  // EXECUTE declares none): its arguments are written as literals.
  const args = values.map(literal).join(", ");
  try {
    const result = await pglite.query<TextRow>(`EXECUTE ${statement.name}${args ? `(${args})` : ""}`, [], { rowMode: "array" });
    return result.rows;
  } catch (error) {
    // Dropped behind our back (DEALLOCATE ALL, a reset session): prepared again, once.
    if (!retried && /prepared statement .* does not exist/.test((error as Error).message)) {
      prepared.delete(statement.name);
      return queryText(db, statement, values, true);
    }
    throw error;
  }
}

/** A text literal (standard_conforming_strings is on in every PostgreSQL since 9.1: only ' is special). */
function literal(value: string | null): string {
  if (value === null) return "NULL";
  if (value.includes("\0")) throw new Error("queryText: a value holds a NUL byte");
  return `'${value.replaceAll("'", "''")}'`;
}
