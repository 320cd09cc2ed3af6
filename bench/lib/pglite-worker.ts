// Measures what running PGlite in a worker thread would change for the request thread: the same
// prepared read (GET /runs/{id}'s statement shape, on a table of 10 KB JSON rows) EXECUTEd on a
// PGlite in this thread, and on one in a worker_threads Worker reached by postMessage. Prints, for
// each, the request (main) thread's CPU per read, from /proc, and the reads per second with 10 in flight.
// Run: npx tsx bench/lib/pglite-worker.ts [reads per round, default 4000]
import { readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { loadAverage, machine, median } from "./rounds";

const SETUP = `
CREATE TABLE runs (id text PRIMARY KEY, workspace_id text NOT NULL, status text NOT NULL, result jsonb, created_at timestamp(3) NOT NULL DEFAULT now());
CREATE TABLE memberships (workspace_id text, user_id text, PRIMARY KEY (workspace_id, user_id));
INSERT INTO memberships VALUES ('ws_1', 'us_1');
INSERT INTO runs (id, workspace_id, status, result)
  SELECT 'dr_' || i, 'ws_1', 'completed', jsonb_build_object('answer', repeat('lorem ipsum ', 200), 'sources', (SELECT jsonb_agg(jsonb_build_object('url', 'https://example.com/' || j, 'cited', j % 2 = 0)) FROM generate_series(1, 40) j))
  FROM generate_series(1, 1000) i;
PREPARE run_by_id (text, text) AS SELECT r.id, r.status, r.result::text, to_char(r.created_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') FROM runs r
  WHERE r.id = $1 AND EXISTS (SELECT 1 FROM memberships m WHERE m.workspace_id = r.workspace_id AND m.user_id = $2);`;

async function open(): Promise<PGlite> {
  const db = new PGlite();
  await db.exec(SETUP);
  return db;
}

const read = (db: PGlite, i: number) => db.query(`EXECUTE run_by_id('dr_${(i % 1000) + 1}', 'us_1')`, [], { rowMode: "array" }).then((r) => r.rows);

// The worker's body as plain JavaScript (a worker does not get tsx's loader).
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
import("@electric-sql/pglite").then(async ({ PGlite }) => {
  const db = new PGlite();
  await db.exec(workerData.setup);
  parentPort.on("message", async (m) => {
    const r = await db.query("EXECUTE run_by_id('dr_" + ((m.i % 1000) + 1) + "', 'us_1')", [], { rowMode: "array" });
    parentPort.postMessage({ id: m.id, rows: r.rows });
  });
  parentPort.postMessage({ ready: true });
});`;

/** CPU ms of this process's main thread (the one that serves requests), from /proc. */
function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

{
  const N = Number(process.argv[2] ?? 4000);
  console.log(`PGlite in this thread vs in a worker thread: ${N} prepared reads of a 10 KB JSON row per round, 10 in flight, 3 rounds after a warm-up; ${machine()}; load average ${loadAverage()}`);
  const local = await open();
  const worker = new Worker(WORKER, { eval: true, workerData: { setup: SETUP } });
  const pending = new Map<number, (rows: unknown) => void>();
  let next = 0;
  await new Promise<void>((resolve) => worker.once("message", () => resolve()));
  worker.on("message", (m: { id: number; rows: unknown }) => {
    pending.get(m.id)?.(m.rows);
    pending.delete(m.id);
  });
  const remote = (i: number) => new Promise((resolve) => {
    const id = next++;
    pending.set(id, resolve);
    worker.postMessage({ id, i });
  });
  for (const [name, one] of [["in this thread", (i: number) => read(local, i)], ["in a worker", remote]] as const) {
    const cpu: number[] = [];
    const rate: number[] = [];
    for (let round = -1; round < 3; round++) {
      const before = mainThreadCpuMs();
      const started = performance.now();
      let i = 0;
      await Promise.all(Array.from({ length: 10 }, async () => {
        while (i < N) await one(i++);
      }));
      const used = mainThreadCpuMs() - before;
      if (round < 0) continue;
      cpu.push((used * 1000) / N);
      rate.push(N / ((performance.now() - started) / 1000));
    }
    console.log(`${name.padEnd(15)} request thread CPU ${median(cpu).toFixed(0)} µs/read (${cpu.map((c) => c.toFixed(0)).join(", ")})  ${median(rate).toFixed(0)} reads/s (${rate.map((r) => r.toFixed(0)).join(", ")})`);
  }
  await worker.terminate();
  await local.close();
}
