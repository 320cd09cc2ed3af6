// A throwaway database on the PostgreSQL server of TEST_DATABASE_URL, for tests that start real
// servers on PostgreSQL (tests/e2e): plain `pg`, no app code, so it loads anywhere. Named like
// tests/helpers/db.ts's, so a run killed before dropping it is swept by the next freshPostgres().
import { randomBytes } from "node:crypto";
import pg from "pg";

export const DEFAULT_TEST_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/postgres";

export type TestDatabase = {
  /** Connection string of the new, empty database (apply migrations with scripts/db-migrate.ts). */
  url: string;
  /** The same with an application_name, so a test can tell one server's connections from another's. */
  urlAs(applicationName: string): string;
  /** Runs SQL on the database (the test's own view of it). */
  query<R extends pg.QueryResultRow = any>(sql: string, params?: unknown[]): Promise<R[]>;
  drop(): Promise<void>;
};

/** Runs one statement on the server's maintenance connection (CREATE/DROP DATABASE cannot run elsewhere). */
export async function adminQuery(serverUrl: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: serverUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `Cannot reach the PostgreSQL server of TEST_DATABASE_URL (${serverUrl}): ${(error as Error).message}. ` +
        "Start one (npm test does it for you) or point TEST_DATABASE_URL at a server where this user may CREATE DATABASE.",
    );
  }
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(serverUrl = process.env.TEST_DATABASE_URL || DEFAULT_TEST_DATABASE_URL): Promise<TestDatabase> {
  const name = `geoscope_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  await adminQuery(serverUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2, application_name: "geoscope-test" });
  return {
    url: url.toString(),
    urlAs(applicationName) {
      const named = new URL(url);
      named.searchParams.set("application_name", applicationName);
      return named.toString();
    },
    query: async (sql, params) => (await pool.query(sql, params)).rows,
    drop: async () => {
      await pool.end();
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}
