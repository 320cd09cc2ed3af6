// The Prisma client factory: embedded PGlite under the data folder by default, a PostgreSQL
// server when DATABASE_URL is set. One database per process, kept on globalThis so that
// Next's dev-mode reloads reuse it instead of opening the PGlite folder a second time.
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { log } from "../log";
import { type Prisma, PrismaClient } from "./generated/client";
import { PGliteThread } from "./pglite-thread";

/** How long a transaction on embedded PGlite may wait for the one session before it fails. */
export const PGLITE_TRANSACTION_MAX_WAIT_MS = 15_000;

/** Where a database lives. `dataDir: "memory://"` is an in-memory PGlite (tests). */
export type DbTarget = { kind: "pglite"; dataDir: string } | { kind: "postgres"; url: string };

export type Db = {
  readonly prisma: PrismaClient;
  readonly target: DbTarget;
  /** The PGlite instance behind `prisma`, for the migration runner: PGlite is one connection per process. */
  readonly pglite?: PGlite;
  /** PGlite in a worker thread (`pgliteThread`), behind `prisma` and the statements of ./sql.ts; no migrations through it. */
  readonly pgliteThread?: PGliteThread;
  /** PostgreSQL: the pool behind `prisma`, for the prepared statements of the hot reads (./sql.ts). */
  readonly pool?: pg.Pool;
  /** Disconnects Prisma, closes PGlite and frees its folder for other processes. Safe to call twice. */
  close(): Promise<void>;
};

/** The PGlite folder is held by another process (or already open in this one). */
export class DatabaseInUseError extends Error {
  override name = "DatabaseInUseError";
}

export const PGLITE_MEMORY = "memory://";

/**
 * The database the environment asks for: DATABASE_URL when set, otherwise PGlite in
 * `<GEOSCOPE_DATA_DIR>/pglite` (GEOSCOPE_DATA_DIR defaults to `.data`, as in lib/config/env.ts).
 */
export function dbTargetFromEnv(env: Record<string, string | undefined> = process.env): DbTarget {
  // Empty means unset, as in lib/config/env.ts: `DATABASE_URL= npm start` uses PGlite.
  const url = env.DATABASE_URL?.trim();
  if (url) return { kind: "postgres", url };
  const dataDir = env.GEOSCOPE_DATA_DIR?.trim() || ".data";
  return { kind: "pglite", dataDir: path.resolve(dataDir, "pglite") };
}

/** A description of the target safe for logs (no password). */
export function describeDbTarget(target: DbTarget): string {
  if (target.kind === "pglite") {
    return target.dataDir.startsWith("memory://") ? "PGlite (in memory)" : `PGlite in ${target.dataDir}`;
  }
  try {
    const u = new URL(target.url);
    if (u.password) u.password = "***";
    return `PostgreSQL at ${u.toString()}`;
  } catch {
    return "PostgreSQL (DATABASE_URL is not a valid URL)";
  }
}

/**
 * PostgreSQL: how long a transaction may sit open with nothing sent before the server ends its
 * session (idle_in_transaction_session_timeout), rolling it back and freeing its locks. A
 * transaction here is a few statements (docs/decisions.md "One style per table, one transaction
 * API"); one whose holder stopped sending (a hung await, a frozen process) would otherwise keep a
 * workspace's lock, and every request waiting for it, forever. Its next statement then fails and
 * the connection is not reused (./sql.ts textTransaction).
 */
export const IDLE_IN_TRANSACTION_MS = 60_000;

export type OpenDbOptions = {
  /** PostgreSQL: connections in the pool (pg's default is 10). */
  poolSize?: number;
  /** PostgreSQL: IDLE_IN_TRANSACTION_MS unless given (tests give a second). */
  idleInTransactionMs?: number;
  /** PGlite: start from a copy of this `PGlite.dumpDataDir()` archive instead of an empty cluster (fast test databases). */
  pgliteLoadDataDir?: Blob;
  /** PGlite: run it in a worker thread (./pglite-thread.ts), as the server does unless GEOSCOPE_PGLITE_THREAD=inline. */
  pgliteThread?: boolean;
};

/**
 * PGlite that lets the event loop turn once before each standalone statement and each
 * transaction. PGlite runs a statement synchronously in this thread and its promise settles as a
 * microtask, so a chain of statements (a thousand runs created one after another, a sweep, a big
 * fanout) kept every timer and socket waiting until it ended: 10.7 s of run creation fired no
 * 100 ms timer, then the engine connections closed meanwhile by the other side were reused and
 * failed. `setImmediate` lets timers and the poll for sockets run in between. Statements inside
 * a transaction do not wait: the transaction holds the one session, and letting the rest of the
 * server run in the middle of it kept everyone else waiting longer (docs/decisions.md).
 */
class FairPGlite extends PGlite {
  override async _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    return super._runExclusiveTransaction(fn);
  }
}

/** Opens a database. Callers own it and must `close()` it; `db()` is the process-wide one. */
export function openDb(target: DbTarget, options: OpenDbOptions = {}): Db {
  if (target.kind === "postgres") {
    // The pool is made here, not by the adapter, so that ./sql.ts can send prepared statements
    // over the same connections Prisma uses.
    const pool = new pg.Pool({
      connectionString: target.url,
      idle_in_transaction_session_timeout: options.idleInTransactionMs ?? IDLE_IN_TRANSACTION_MS,
      ...(options.poolSize ? { max: options.poolSize } : {}),
    });
    // An idle connection the server ends (restart, pg_terminate_backend, a cut network) is an
    // 'error' on the pool; unhandled it would end the process. The pool replaces the connection.
    pool.on("error", (error) => log.warn("idle database connection lost; the pool replaces it", { error }));
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    return {
      prisma,
      target,
      pool,
      close: once(async () => {
        try {
          await prisma.$disconnect();
        } finally {
          await pool.end();
        }
      }),
    };
  }

  const inMemory = target.dataDir.startsWith("memory://");
  const releaseLock = inMemory ? () => undefined : lockDataDir(target.dataDir);
  // PGlite in this thread, or in a worker thread (./pglite-thread.ts); the same Db either way.
  let embedded: { pglite?: PGlite; pgliteThread?: PGliteThread; adapter: SqlDriverAdapterFactory; shutdown(): Promise<void> };
  try {
    if (!inMemory) mkdirSync(target.dataDir, { recursive: true });
    if (options.pgliteThread) {
      const thread = new PGliteThread(target.dataDir, options.pgliteLoadDataDir);
      embedded = { pgliteThread: thread, adapter: thread.adapterFactory(), shutdown: () => thread.close() };
      log.info("embedded database: PGlite in a worker thread", { database: describeDbTarget(target) });
    } else {
      const pglite = new FairPGlite(target.dataDir, options.pgliteLoadDataDir ? { loadDataDir: options.pgliteLoadDataDir } : {});
      // Start-up failures surface on the first query; without this they would also crash the
      // process as an unhandled rejection before any query had a chance to report them.
      pglite.waitReady.catch(() => undefined);
      embedded = { pglite, adapter: new PrismaPGlite(pglite), shutdown: async () => (pglite.closed ? undefined : pglite.close()) };
    }
  } catch (error) {
    releaseLock();
    throw error;
  }
  // PGlite has one session, so every transaction waits for the ones before it: Prisma's default 2 s
  // to start one turned a burst (or a worker thread still booting on a loaded machine) into 500s.
  const prisma = new PrismaClient({ adapter: embedded.adapter, transactionOptions: { maxWait: PGLITE_TRANSACTION_MAX_WAIT_MS } });
  return {
    prisma,
    target,
    ...(embedded.pglite ? { pglite: embedded.pglite } : {}),
    ...(embedded.pgliteThread ? { pgliteThread: embedded.pgliteThread } : {}),
    close: once(async () => {
      try {
        await prisma.$disconnect();
        await embedded.shutdown();
      } finally {
        releaseLock();
      }
    }),
  };
}

type DbGlobal = { __geoscopeDb?: Db };
const holder = globalThis as unknown as DbGlobal;

/** The process's database, opened from the environment on first use. */
export function currentDb(): Db {
  if (!holder.__geoscopeDb) {
    if (process.env.VITEST) {
      // A test that reached the app's database without a fresh one would write into the
      // developer's ./.data (and fail while a dev server holds it).
      throw new Error("No test database: call freshPglite() or freshPostgres() from tests/helpers/db.ts first.");
    }
    holder.__geoscopeDb = openDb(dbTargetFromEnv(), { pgliteThread: pgliteInWorker() });
  }
  return holder.__geoscopeDb;
}

/**
 * The server (Next.js's Node runtime) runs PGlite in a worker thread unless
 * GEOSCOPE_PGLITE_THREAD=inline; scripts (migrations, admin) run it inline, in their only thread.
 */
function pgliteInWorker(env: Record<string, string | undefined> = process.env): boolean {
  return env.NEXT_RUNTIME === "nodejs" && env.GEOSCOPE_PGLITE_THREAD?.trim() !== "inline";
}

/** The client a service gets inside `db().$transaction(async (tx) => …)`, which every domain passes around. */
export type Tx = Prisma.TransactionClient;

/** The process's Prisma client. */
export function db(): PrismaClient {
  return currentDb().prisma;
}

/**
 * Makes `next` the process's database (tests install a fresh one per file) and returns the
 * one it replaces, which the caller still owns. `undefined` uninstalls.
 */
export function setCurrentDb(next: Db | undefined): Db | undefined {
  const previous = holder.__geoscopeDb;
  holder.__geoscopeDb = next;
  return previous;
}

/** Closes the process's database, if one was opened; the next `db()` opens it again. */
export async function closeDb(): Promise<void> {
  const current = holder.__geoscopeDb;
  holder.__geoscopeDb = undefined;
  await current?.close();
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}

// PGlite runs PostgreSQL in single-user mode and takes no lock of its own: a second process
// opening the same folder would silently corrupt it. So we keep a lock file next to the folder.
type LockHolder = { pid: number; host: string; since: string };
// On globalThis, like the client: a dev-mode reload of this module must still see what is open.
const openInThisProcess = ((globalThis as { __geoscopePgliteDirs?: Set<string> }).__geoscopePgliteDirs ??= new Set<string>());

function inUseMessage(dataDir: string, who: string): string {
  return (
    `The embedded database in ${dataDir} is in use by ${who}. PGlite allows one process at a time: ` +
    `stop the geoscope server (or the other command using it) and try again, ` +
    `or set DATABASE_URL to use a PostgreSQL server, which any number of processes can share.`
  );
}

function lockDataDir(dataDir: string): () => void {
  const dir = path.resolve(dataDir);
  if (openInThisProcess.has(dir)) throw new DatabaseInUseError(inUseMessage(dir, "this process already (close it first)"));
  const lockPath = `${dir}.lock`;
  mkdirSync(path.dirname(lockPath), { recursive: true });
  const me: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };

  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(lockPath, "wx");
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw error;
      const holderInfo = readLock(lockPath);
      if (holderInfo && lockIsLive(holderInfo)) {
        throw new DatabaseInUseError(inUseMessage(dir, `another process (pid ${holderInfo.pid}, since ${holderInfo.since})`));
      }
      // Left behind by a process that died without cleaning up.
      rmSync(lockPath, { force: true });
    }
  }

  openInThisProcess.add(dir);
  const release = () => {
    process.off("exit", release);
    if (!openInThisProcess.delete(dir)) return;
    if (readLock(lockPath)?.pid === process.pid) rmSync(lockPath, { force: true });
  };
  process.on("exit", release);
  return release;
}

function readLock(lockPath: string): LockHolder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(lockPath, "utf8")) as Partial<LockHolder>;
    return typeof parsed.pid === "number" ? (parsed as LockHolder) : undefined;
  } catch {
    return undefined;
  }
}

function lockIsLive(lock: LockHolder): boolean {
  // Another machine sharing the folder (a network mount): we cannot see its processes, so trust it.
  if (lock.host !== hostname()) return true;
  if (lock.pid === process.pid) return false;
  try {
    process.kill(lock.pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  // After a container restart a pid can belong to something else entirely.
  try {
    const cmdline = readFileSync(`/proc/${lock.pid}/cmdline`, "utf8");
    return /node|tsx|next/.test(cmdline);
  } catch {
    return true;
  }
}
