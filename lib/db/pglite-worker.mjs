// The embedded database in a worker thread of the server (lib/db/pglite-thread.ts): PGlite, and
// Prisma's PGlite driver adapter over it, run here, so that PostgreSQL's WASM and its protocol
// handling take the second core instead of the thread answering requests. Plain JavaScript, not
// TypeScript: a worker entry Node loads as it is, under `next start`, vitest and tsx alike.
//
// Messages in: { id, op, ...arguments }; out: { id, ok: true, result } or { id, ok: false, error }.
// Transactions (Prisma's and lib/db/sql.ts's) live here under a number the main thread holds; the
// main thread sends nothing for a transaction it does not own, and ends each one it opened.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";

const pglite = new PGlite(workerData.dataDir, workerData.loadDataDir ? { loadDataDir: workerData.loadDataDir } : {});
// A start-up failure is every statement's answer (PGlite rejects each with it), as in the main thread.
pglite.waitReady.catch(() => undefined);
const adapter = new PrismaPGlite(pglite).connect();
/** @type {Map<number, { prisma?: any, sql?: any, end?: () => void, done?: Promise<unknown> }>} */
const transactions = new Map();
let nextTransaction = 1;

/** The session a message names: the instance, or one of its open transactions. */
function session(message) {
  if (message.tx === undefined) return null;
  const open = transactions.get(message.tx);
  if (!open) throw new Error(`Transaction ${message.tx} is closed`);
  return open;
}

async function handle(message) {
  switch (message.op) {
    // Prisma's driver adapter (SqlDriverAdapter), as pglite-prisma-adapter implements it.
    case "queryRaw":
      return (session(message)?.prisma ?? (await adapter)).queryRaw(message.query);
    case "executeRaw":
      return (session(message)?.prisma ?? (await adapter)).executeRaw(message.query);
    case "executeScript":
      return (await adapter).executeScript(message.script);
    case "startTransaction": {
      const tx = await (await adapter).startTransaction(message.isolationLevel);
      const id = nextTransaction++;
      transactions.set(id, { prisma: tx });
      return { id, options: tx.options };
    }
    case "commit":
    case "rollback": {
      const open = session(message);
      transactions.delete(message.tx);
      return message.op === "commit" ? open.prisma.commit() : open.prisma.rollback();
    }
    // lib/db/sql.ts: text statements, and transactions that BEGIN on open and COMMIT on end.
    case "exec": {
      const on = session(message)?.sql ?? pglite;
      const results = await on.exec(message.sql, { rowMode: message.rowMode ?? "object" });
      return results.map((r) => ({ rows: r.rows }));
    }
    case "begin": {
      const id = nextTransaction++;
      let opened;
      const ready = new Promise((resolve, reject) => (opened = { resolve, reject }));
      // PGlite's transaction holds the session until its callback settles: it settles on "end".
      const done = pglite.transaction(
        (tx) =>
          new Promise((end) => {
            transactions.set(id, { sql: tx, end });
            opened.resolve();
          }),
      );
      done.catch((error) => opened.reject(error)); // BEGIN failed: no transaction to end
      await ready;
      transactions.get(id).done = done;
      return id;
    }
    case "end": {
      const open = session(message);
      transactions.delete(message.tx);
      try {
        if (!message.commit) await open.sql.rollback();
      } finally {
        open.end(); // whatever happened, the session is freed
      }
      await open.done;
      return null;
    }
    case "close":
      if (!pglite.closed) await pglite.close();
      return null;
    default:
      throw new Error(`pglite-worker: unknown operation ${message.op}`);
  }
}

/** An error as data: the main thread makes it an Error again, DriverAdapterError's cause kept for Prisma. */
function serialise(error) {
  if (!(error instanceof Error)) return { name: "Error", message: String(error) };
  const out = { name: error.name, message: error.message, stack: error.stack };
  for (const key of ["code", "detail", "hint", "severity", "schema", "table", "column", "constraint"]) {
    if (typeof error[key] === "string") out[key] = error[key];
  }
  if (error.name === "DriverAdapterError" && error.cause && typeof error.cause === "object") {
    try {
      out.cause = structuredClone(error.cause);
    } catch {
      out.cause = { kind: "GenericJs", id: 0, message: error.message };
    }
  }
  return out;
}

// A statement of an open transaction (`sync`) is answered on the sync port, and the waiting main
// thread woken through the shared signal.
const signal = new Int32Array(workerData.signal);
function send(message, reply) {
  if (!message.sync) return parentPort.postMessage(reply);
  workerData.syncPort.postMessage(reply);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
}

/** Every message is answered: a result that cannot be copied to the main thread is answered as an error. */
function answer(message, reply) {
  try {
    send(message, reply);
  } catch (error) {
    send(message, { id: message.id, ok: false, error: { name: "Error", message: `pglite-worker: could not send the answer: ${error?.message ?? error}` } });
  }
}

parentPort.on("message", (message) => {
  handle(message).then(
    (result) => answer(message, { id: message.id, ok: true, result }),
    (error) => answer(message, { id: message.id, ok: false, error: serialise(error) }),
  );
});
