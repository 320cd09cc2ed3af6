// Gives a test file its own fresh database, installed as the app's, for the whole file; and the
// states of the app the read suites put their objects in.
import { afterAll, beforeAll } from "vitest";
import { db } from "@/lib/db/client";
import { LocalDriver, localDriver } from "@/lib/work/local-driver";
import { freshPglite, freshPostgres, type FreshDb, type FreshPostgres } from "./db";
import { noCapacityDriver } from "./drivers";
import type { Person } from "./people";

export function useTestDatabase(): void {
  let fresh: FreshDb | undefined;
  beforeAll(async () => {
    fresh = await freshPglite();
  });
  afterAll(async () => {
    await fresh?.close();
  });
}

/**
 * The same on a fresh database of the PostgreSQL server (TEST_DATABASE_URL; tests/helpers/pg-database.ts),
 * of `poolSize` connections: every tests/pg file's set-up. Made before the file's own beforeAll
 * hooks (call it first) and, the local driver drained, dropped after its afterAll hooks. Answers
 * the database once made (its url and name, for a file's own connections).
 */
export function usePostgresDatabase(options: { poolSize?: number } = {}): () => FreshPostgres {
  let fresh: FreshPostgres | undefined;
  beforeAll(async () => {
    fresh = await freshPostgres(options);
  });
  afterAll(async () => {
    await localDriver().drained();
    await fresh?.close();
  });
  return () => {
    if (!fresh) throw new Error("usePostgresDatabase(): the database is made in beforeAll; read it from a hook or a test");
    return fresh;
  };
}

/** Work accepted while no run can start: it stays queued, holding its credit, until the real driver sweeps. */
export async function heldBack<T>(start: () => Promise<T>): Promise<T> {
  const drivers = globalThis as { __geoscopeLocalDriver?: LocalDriver };
  const real = localDriver();
  drivers.__geoscopeLocalDriver = noCapacityDriver();
  try {
    return await start();
  } finally {
    drivers.__geoscopeLocalDriver = real;
  }
}

/** `fn` while the person's email is `email` (changed in the database, as an account change would), then back. */
export async function withEmail(who: Person, email: string, fn: () => Promise<void>): Promise<void> {
  await db().user.update({ where: { id: who.id }, data: { email } });
  try {
    await fn();
  } finally {
    await db().user.update({ where: { id: who.id }, data: { email: who.email } });
  }
}
