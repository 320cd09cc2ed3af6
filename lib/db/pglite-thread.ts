// The embedded database in a worker thread (./pglite-worker.mjs), as the server runs it: PGlite's
// WASM PostgreSQL and its protocol work take the second core, and the request thread only posts
// each statement and reads back its rows. Two faces: a Prisma driver adapter factory, forwarding
// every call of Prisma's to pglite-prisma-adapter in the worker, and the text statements of
// ./sql.ts (`exec`, `transaction`), with the same shapes as PGlite's own.
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import {
  DriverAdapterError,
  type IsolationLevel,
  type SqlDriverAdapter,
  type SqlDriverAdapterFactory,
  type SqlQuery,
  type SqlResultSet,
  type Transaction,
  type TransactionOptions,
} from "@prisma/driver-adapter-utils";
import { log } from "../log";

type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: SerialisedError };
type SerialisedError = { name: string; message: string; stack?: string; cause?: unknown; [field: string]: unknown };

/** A statement's rows as PGlite answers them (only what ./sql.ts reads). */
export type ThreadResult = { rows: unknown[] };
type RowMode = { rowMode?: "array" | "object" };

/** Statements on one session of the worker's PGlite: the instance, or a transaction of it. */
export type ThreadSession = { exec(sql: string, options?: RowMode): Promise<ThreadResult[]> };

/** How long a transaction's statement may take in the worker before the thread is given up as stuck (a thread that died cannot say so while this one is blocked). */
const SYNC_ANSWER_MS = 120_000;

export class PGliteThread implements ThreadSession {
  private readonly worker: Worker;
  // Statements inside an open transaction are answered on this port, the worker raising `signal`
  // (see callInTransaction).
  private readonly syncPort: MessagePort;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private failure: Error | undefined;
  private closing: Promise<void> | undefined;

  /** `loadDataDir`: a `dumpDataDir()` archive to start from, as PGlite's own option. */
  constructor(dataDir: string, loadDataDir?: Blob) {
    const { port1, port2 } = new MessageChannel();
    this.syncPort = port1;
    this.syncPort.unref();
    this.worker = new Worker(new URL("./pglite-worker.mjs", import.meta.url), {
      workerData: { dataDir, loadDataDir, syncPort: port2, signal: this.signal.buffer },
      transferList: [port2],
    });
    this.worker.on("message", (reply: Reply) => this.settle(reply));
    this.worker.on("error", (error) => this.fail(error));
    // A PGlite that cannot start fails every statement sent to it, with PGlite's error.
    this.worker.on("exit", (code) => this.fail(new Error(`the embedded database's thread ended (exit code ${code})`)));
  }

  exec(sql: string, options: RowMode = {}): Promise<ThreadResult[]> {
    return this.call({ op: "exec", sql, rowMode: options.rowMode }) as Promise<ThreadResult[]>;
  }

  /** `fn`'s statements in one transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(fn: (tx: ThreadSession) => Promise<T>): Promise<T> {
    const tx = (await this.call({ op: "begin" })) as number;
    let out: T;
    try {
      out = await fn({
        exec: (sql: string, options: RowMode = {}) => this.callInTransaction({ op: "exec", tx, sql, rowMode: options.rowMode }) as Promise<ThreadResult[]>,
      });
    } catch (error) {
      await this.callInTransaction({ op: "end", tx, commit: false }).catch(() => undefined);
      throw error;
    }
    await this.callInTransaction({ op: "end", tx, commit: true });
    return out;
  }

  /** Prisma's driver adapter, each call carried out by pglite-prisma-adapter in the worker. */
  adapterFactory(): SqlDriverAdapterFactory {
    const call = (message: Record<string, unknown>) => this.call(message);
    const info = { provider: "postgres" as const, adapterName: "pglite-prisma-adapter" };
    const inTransaction = (message: Record<string, unknown>) => this.callInTransaction(message);
    const queryable = (tx?: number) => ({
      ...info,
      queryRaw: (query: SqlQuery) => (tx === undefined ? call : inTransaction)({ op: "queryRaw", tx, query }) as Promise<SqlResultSet>,
      executeRaw: (query: SqlQuery) => (tx === undefined ? call : inTransaction)({ op: "executeRaw", tx, query }) as Promise<number>,
    });
    const adapter: SqlDriverAdapter = {
      ...queryable(),
      executeScript: async (script: string) => {
        await call({ op: "executeScript", script });
      },
      startTransaction: async (isolationLevel?: IsolationLevel): Promise<Transaction> => {
        const { id, options } = (await call({ op: "startTransaction", isolationLevel })) as { id: number; options: TransactionOptions };
        return {
          ...queryable(id),
          options,
          commit: async () => {
            await inTransaction({ op: "commit", tx: id });
          },
          rollback: async () => {
            await inTransaction({ op: "rollback", tx: id });
          },
        };
      },
      getConnectionInfo: () => ({ supportsRelationJoins: true }),
      dispose: async () => undefined,
    };
    return { ...info, connect: async () => adapter };
  }

  /** Closes PGlite (its files flushed) and ends the thread. Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        if (!this.failure) await this.call({ op: "close" }, true);
      } finally {
        await this.worker.terminate();
      }
    })();
    return this.closing;
  }

  private call(message: Record<string, unknown>, closing = false): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closing && !closing) return Promise.reject(new Error("the embedded database is closed"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  /**
   * A statement (or the end) of an open transaction, waited for with this thread blocked, as it
   * would be running PGlite itself. The transaction holds PGlite's one session: answered through
   * the event loop, each statement's answer waited behind whatever else this thread had to do,
   * and every other statement waited for the session meanwhile (1,000 runs took 1.49x the ideal
   * instead of 1.16x). Only inside an open transaction: opening one may wait for another
   * transaction to end, which only this thread can end, so that stays asynchronous.
   */
  private callInTransaction(message: Record<string, unknown>): Promise<unknown> {
    // Not refused while closing: a transaction already open is let finish.
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    Atomics.store(this.signal, 0, 0);
    this.worker.postMessage({ ...message, id, sync: true });
    const deadline = Date.now() + SYNC_ANSWER_MS;
    for (;;) {
      Atomics.wait(this.signal, 0, 0, 1000);
      const received = receiveMessageOnPort(this.syncPort);
      if (received) {
        const reply = received.message as Reply;
        return reply.ok ? Promise.resolve(reply.result) : Promise.reject(revive(reply.error));
      }
      if (Date.now() > deadline) {
        const error = new Error(`the embedded database's thread did not answer a transaction's statement in ${SYNC_ANSWER_MS / 1000} s`);
        this.fail(error);
        return Promise.reject(error);
      }
    }
  }

  private settle(reply: Reply): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (reply.ok) waiting.resolve(reply.result);
    else waiting.reject(revive(reply.error));
  }

  private fail(error: Error): void {
    if (this.failure) return;
    // An exit after close() is the expected end, not a failure.
    if (!this.closing) log.error("the embedded database's thread failed", { error });
    this.failure = this.closing ? new Error("the embedded database is closed") : error;
    for (const waiting of this.pending.values()) waiting.reject(this.failure);
    this.pending.clear();
  }
}

/** The worker's error as an Error of this thread: a DriverAdapterError with its cause for Prisma, else the fields PGlite's DatabaseError carries. */
function revive(data: SerialisedError): Error {
  const { name, message, stack, cause, ...fields } = data;
  const error = name === "DriverAdapterError" && cause ? new DriverAdapterError(cause as ConstructorParameters<typeof DriverAdapterError>[0]) : new Error(message);
  if (!(error instanceof DriverAdapterError)) error.name = name;
  Object.assign(error, fields);
  if (stack) error.stack = `${error.name}: ${message}\n    (in the embedded database's thread)\n${stack.split("\n").slice(1).join("\n")}`;
  return error;
}
