// The one PostgreSQL helper of the tests: the server of TEST_DATABASE_URL, and throwaway databases
// on it — made, named, swept and dropped only here. Plain `pg`, no app code, so it loads anywhere:
// the e2e specs that start real servers on PostgreSQL use createTestDatabase(); the vitest suites
// (tests/pg) get a migrated one installed as db() by usePostgresDatabase() (tests/helpers/app.ts),
// which is freshPostgres() (tests/helpers/db.ts) on top of it.
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

/** The PostgreSQL server the tests use: TEST_DATABASE_URL, else the local one. */
export function testServerUrl(): string {
  return process.env.TEST_DATABASE_URL || DEFAULT_TEST_DATABASE_URL;
}

/** `url` with its database name replaced by `name`. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(name)}`;
  return u.toString();
}

/** A new database's name: the time it was made in it, so an abandoned one can be told by its age. */
function newDatabaseName(): string {
  return `geoscope_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
}

const ABANDONED_AFTER_MS = 6 * 60 * 60 * 1000;
const sweptServers = new Set<string>();

/**
 * A run killed before it dropped its database leaves it behind. Names carry their creation
 * time, so once per process we drop those old enough that no live run can still use them.
 */
export async function dropAbandonedDatabases(serverUrl = testServerUrl()): Promise<void> {
  if (sweptServers.has(serverUrl)) return;
  sweptServers.add(serverUrl);
  const { rows } = await adminQuery(serverUrl, `SELECT datname FROM pg_database WHERE datname LIKE 'geoscope\\_test\\_%'`);
  for (const { datname } of rows as { datname: string }[]) {
    const created = parseInt(datname.split("_")[2] ?? "", 36);
    if (Number.isFinite(created) && Date.now() - created > ABANDONED_AFTER_MS) {
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => undefined);
    }
  }
}

/** A new, empty database on the server (apply migrations with scripts/db-migrate.ts, or use freshPostgres()). */
export async function createTestDatabase(serverUrl = testServerUrl()): Promise<TestDatabase & { name: string }> {
  const name = newDatabaseName();
  await adminQuery(serverUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(withDatabase(serverUrl, name));
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2, application_name: "geoscope-test" });
  // pool.end() answers as soon as it has asked each connection to end, not once they have: a DROP
  // … WITH (FORCE) right after could end one still open, whose error then came out of the pool as
  // an uncaught 'error' event and failed the test that was only tidying up. So its connections are
  // counted, and drop() waits for the last to have closed before dropping.
  let open = 0;
  pool.on("connect", () => void open++);
  pool.on("remove", () => void open--);
  const close = async () => {
    const closed = new Promise<void>((resolve) => {
      if (open === 0) resolve();
      else pool.on("remove", () => open === 0 && resolve());
    });
    await pool.end();
    await closed;
  };
  return {
    name,
    url: url.toString(),
    urlAs(applicationName) {
      const named = new URL(url);
      named.searchParams.set("application_name", applicationName);
      return named.toString();
    },
    query: async (sql, params) => (await pool.query(sql, params)).rows,
    drop: async () => {
      await close();
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}
