// What the work benchmarks share: the engine simulator in a process of its own (the real engines
// are elsewhere, so their work is not the driver's), and a fresh migrated database, PGlite in
// memory or a throwaway database on a PostgreSQL server (--pg), installed as the process's.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { adminQuery as adminQueryOn } from "../../tests/helpers/pg-database";
import { freePort, repoRoot } from "../../tests/helpers/processes";

/** Simulated engines, nothing external; call before anything reads the configuration. */
export function simulatedEnvironment(): void {
  for (const key of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GEOSCOPE_SIMULATOR_URL", "INNGEST_EVENT_KEY", "INNGEST_DEV", "DATABASE_URL"]) delete process.env[key];
  process.env.GEOSCOPE_ENGINES = "simulated";
  process.env.GEOSCOPE_SIMULATOR_LATENCY_MS ??= "200";
  process.env.RUNS_IN_FLIGHT_LIMIT ??= "100000";
}

/** Starts the simulator as its own process and points the engines at it (BENCH_SIMULATOR=in-process: not). */
export async function startSimulator(options: { port?: number } = {}): Promise<{ inProcess: boolean; stop(): void }> {
  if (process.env.BENCH_SIMULATOR === "in-process") return { inProcess: true, stop: () => undefined };
  const port = options.port ?? (await freePort());
  const child: ChildProcess = spawn(
    path.join(repoRoot, "node_modules", ".bin", "tsx"),
    ["lib/engines/simulator/main.ts", "--port", String(port), "--latency-ms", process.env.GEOSCOPE_SIMULATOR_LATENCY_MS ?? "200"],
    { cwd: repoRoot, stdio: ["ignore", "pipe", "inherit"] },
  );
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the simulator exited with ${code}`)));
    child.stdout!.on("data", (d: Buffer) => d.toString().includes("listening") && resolve());
  });
  process.env.GEOSCOPE_SIMULATOR_URL = `http://127.0.0.1:${port}`;
  // Also when the benchmark fails half-way: no simulator is left running.
  process.on("exit", () => child.kill());
  return {
    inProcess: false,
    stop() {
      child.removeAllListeners("exit");
      child.kill();
    },
  };
}

/** A fresh migrated database installed as `db()`; `close()` also drops it on PostgreSQL. */
export async function openBenchDatabase(onPostgres: boolean) {
  const { openDb, PGLITE_MEMORY, setCurrentDb } = await import("@/lib/db/client");
  const { applyPendingMigrations } = await import("@/lib/db/migrate");
  const serverUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
  const name = `geoscope_bench_${Date.now().toString(36)}`;
  let database;
  let dataDir: string | null = null;
  let databaseUrl: string | null = null;
  if (onPostgres) {
    await adminQueryOn(serverUrl, `CREATE DATABASE "${name}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    database = openDb({ kind: "postgres", url: databaseUrl });
  } else {
    // BENCH_PGLITE=disk: in a temporary folder, as `npm start` keeps it (default: in memory).
    dataDir = process.env.BENCH_PGLITE === "disk" ? mkdtempSync(path.join(tmpdir(), "geoscope-bench-pglite-")) : null;
    database = openDb({ kind: "pglite", dataDir: dataDir ?? PGLITE_MEMORY });
  }
  await applyPendingMigrations(database);
  // As the server runs PGlite: in a worker thread, or in this one with GEOSCOPE_PGLITE_THREAD=inline
  // (migrated here, where the runner needs it, then opened again from its folder or a copy).
  const inWorker = !onPostgres && process.env.GEOSCOPE_PGLITE_THREAD?.trim() !== "inline";
  if (inWorker) {
    const migrated = database;
    const archive = dataDir ? undefined : await migrated.pglite!.dumpDataDir("none");
    await migrated.close();
    database = openDb({ kind: "pglite", dataDir: dataDir ?? PGLITE_MEMORY }, { pgliteThread: true, ...(archive ? { pgliteLoadDataDir: archive } : {}) });
  }
  setCurrentDb(database);
  const where = onPostgres ? "PostgreSQL (pool of 10)" : dataDir ? `PGlite in ${dataDir}` : "PGlite in memory";
  return {
    database,
    /** The database's URL on PostgreSQL (for a worker thread of a benchmark to open it too); null on PGlite. */
    url: databaseUrl,
    label: onPostgres ? where : `${where}, ${inWorker ? "in a worker thread" : "in this thread (GEOSCOPE_PGLITE_THREAD=inline)"}`,
    async close() {
      await database.close();
      // The change listener (PostgreSQL) would otherwise keep the process alive.
      const { stopNotifier } = await import("@/lib/changes/notify");
      await stopNotifier();
      if (onPostgres) await adminQueryOn(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Median and spread of a sample, for "median of N rounds (min–max)". */
export function summary(values: number[], digits = 2): string {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return `median ${median.toFixed(digits)} (${sorted[0]!.toFixed(digits)}–${sorted[sorted.length - 1]!.toFixed(digits)}, ${sorted.length} rounds)`;
}
