// Gives a test file its own fresh database, installed as the app's, for the whole file; and the
// states of the app the read suites put their objects in.
import { afterAll, beforeAll } from "vitest";
import { db } from "@/lib/db/client";
import { LocalDriver, localDriver } from "@/lib/work/local-driver";
import { freshPglite, freshPostgres, type FreshDb } from "./db";
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

/** The same on a fresh database of the PostgreSQL server (TEST_DATABASE_URL), the local driver drained before it closes. */
export function usePostgresDatabase(): void {
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    close = (await freshPostgres()).close;
  });
  afterAll(async () => {
    await localDriver().drained();
    await close?.();
  });
}

/** Work accepted while no run can start: it stays queued, holding its credit, until the real driver sweeps. */
export async function heldBack<T>(start: () => Promise<T>): Promise<T> {
  const drivers = globalThis as { __geoscopeLocalDriver?: LocalDriver };
  const real = localDriver();
  drivers.__geoscopeLocalDriver = new LocalDriver({ concurrency: () => 0 });
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
