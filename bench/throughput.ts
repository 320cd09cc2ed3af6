// Benchmark: 1,000 prompt runs through the local driver against the engine simulator with 200 ms
// latency per call, on an in-memory PGlite. The simulator runs as a process of its own, as the
// real engines are elsewhere: its work is not the driver's (BENCH_SIMULATOR=in-process puts it
// back in this process, as `npm start` does without GEOSCOPE_SIMULATOR_URL). The runs are
// created first (with no driver capacity), then one sweep hands them all to a real driver, as
// after a restart.
// Prints total time, runs/s, peak RSS, and the ideal: ceil(runs per engine / ENGINE_CONCURRENCY)
// rounds of one engine call each. Target: within 20% of the ideal.
// Run: npm run bench:throughput [-- runs] [--pg]   (ENGINE_CONCURRENCY and GEOSCOPE_SIMULATOR_LATENCY_MS apply;
// BENCH_CPU_PROFILE=file.cpuprofile writes a CPU profile of the measured part, for Chrome DevTools)
// --pg: on a fresh database of the PostgreSQL server at BENCH_DATABASE_URL, else TEST_DATABASE_URL,
// else postgresql://postgres@127.0.0.1:5432/postgres (dropped at the end), instead of PGlite.
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import os from "node:os";
import path from "node:path";
import { adminQuery as adminQueryOn } from "../tests/helpers/db";
import { freePort, repoRoot } from "../tests/helpers/processes";

for (const key of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GEOSCOPE_SIMULATOR_URL", "INNGEST_EVENT_KEY", "INNGEST_DEV", "DATABASE_URL"]) delete process.env[key];
process.env.GEOSCOPE_ENGINES = "simulated";
process.env.GEOSCOPE_SIMULATOR_LATENCY_MS ??= "200";
process.env.RUNS_IN_FLIGHT_LIMIT ??= "100000";

const simulatorInProcess = process.env.BENCH_SIMULATOR === "in-process";
let simulator: ChildProcess | null = null;
if (!simulatorInProcess) {
  const port = await freePort();
  simulator = spawn(path.join(repoRoot, "node_modules", ".bin", "tsx"), ["lib/engines/simulator/main.ts", "--port", String(port), "--latency-ms", process.env.GEOSCOPE_SIMULATOR_LATENCY_MS], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    simulator!.once("exit", (code) => reject(new Error(`the simulator exited with ${code}`)));
    simulator!.stdout!.on("data", (d: Buffer) => d.toString().includes("listening") && resolve());
  });
  process.env.GEOSCOPE_SIMULATOR_URL = `http://127.0.0.1:${port}`;
  // Also when the benchmark fails half-way: no simulator is left running.
  process.on("exit", () => simulator?.kill());
}

const { ensureUser } = await import("@/lib/accounts/users");
const { recordPurchase } = await import("@/lib/billing/ledger");
const { config } = await import("@/lib/config/env");
const { openDb, PGLITE_MEMORY, setCurrentDb } = await import("@/lib/db/client");
const { applyPendingMigrations } = await import("@/lib/db/migrate");
const { createProject } = await import("@/lib/projects/projects");
const { createPromptBatch } = await import("@/lib/runs/prompts");
const { LocalDriver } = await import("@/lib/work/local-driver");

const args = process.argv.slice(2);
const onPostgres = args.includes("--pg");
const RUNS = Number(args.find((a) => /^\d+$/.test(a)) ?? 1000);
const SERVER_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const adminQuery = (sql: string) => adminQueryOn(SERVER_URL, sql).then(() => undefined);
const dbName = `geoscope_bench_${Date.now().toString(36)}`;
const ENGINES = ["chatgpt", "claude", "gemini"] as const;
const concurrency = config().ENGINE_CONCURRENCY;
const latencyMs = Number(process.env.GEOSCOPE_SIMULATOR_LATENCY_MS);

console.log(`workload: ${RUNS} prompt runs over ${ENGINES.length} engines, simulator latency ${latencyMs} ms (${simulatorInProcess ? "in this process" : "its own process"}), ENGINE_CONCURRENCY ${concurrency}, ${onPostgres ? "PostgreSQL (pool of 10)" : "PGlite in memory"}`);
console.log(`machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), node ${process.version}`);

let database;
if (onPostgres) {
  await adminQuery(`CREATE DATABASE "${dbName}"`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${dbName}`;
  database = openDb({ kind: "postgres", url: url.toString() });
} else {
  database = openDb({ kind: "pglite", dataDir: PGLITE_MEMORY });
}
await applyPendingMigrations(database);
setCurrentDb(database);

const user = await ensureUser("bench@example.com");
const principal = { user: { id: user.id, email: user.email }, credential: { kind: "cli_token" as const, id: "bench", name: "bench" }, workspaceId: null, apiKeyId: null };
await database.prisma.$transaction((tx) => recordPurchase(tx, { workspaceId: user.personalWorkspaceId, amountMicros: 1_000_000_000n }));
const project = (await createProject(principal, { name: "Throughput", workspace_id: user.personalWorkspaceId, context: null })).id;

// Creation is not what is measured: a driver with no capacity accepts the runs and starts none.
const holder = globalThis as { __geoscopeLocalDriver?: InstanceType<typeof LocalDriver> };
holder.__geoscopeLocalDriver = new LocalDriver({ concurrency: () => 0 });
const perEngine = new Map<string, number>();
const createdAt = performance.now();
for (let i = 0; i < RUNS; i++) {
  const engine = ENGINES[i % ENGINES.length]!;
  perEngine.set(engine, (perEngine.get(engine) ?? 0) + 1);
  await createPromptBatch(principal, { prompt: `throughput ${i}`, project, engines: [engine] });
}
console.log(`created ${RUNS} runs in ${((performance.now() - createdAt) / 1000).toFixed(2)} s (not counted)`);

const driver = new LocalDriver({ concurrency: () => concurrency });
holder.__geoscopeLocalDriver = driver;
let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
const profile = process.env.BENCH_CPU_PROFILE ? await startProfile() : null;
const started = performance.now();
const swept = await driver.sweep();
await driver.drained();
const seconds = (performance.now() - started) / 1000;
if (profile) await profile.stop(process.env.BENCH_CPU_PROFILE!);
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss);

const byStatus = await database.prisma.run.groupBy({ by: ["status"], _count: true });
const rounds = Math.max(...[...perEngine.values()].map((n) => Math.ceil(n / concurrency)));
const ideal = (rounds * latencyMs) / 1000;
console.log(`swept ${swept} runs; outcome: ${byStatus.map((s) => `${s.status} ${s._count}`).join(", ")}`);
console.log(`total ${seconds.toFixed(2)} s, ${(RUNS / seconds).toFixed(1)} runs/s, peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB`);
console.log(`ideal ${ideal.toFixed(2)} s (${rounds} rounds x ${latencyMs} ms), ${(RUNS / ideal).toFixed(1)} runs/s; actual/ideal ${(seconds / ideal).toFixed(2)}x`);
await database.close();
// The change listener (PostgreSQL) would otherwise keep the process alive.
const { stopNotifier } = await import("@/lib/changes/notify");
await stopNotifier();
if (onPostgres) await adminQuery(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
simulator?.removeAllListeners("exit");
simulator?.kill();

/** A V8 CPU profile of what runs between start and stop (the sweep, not the set-up). */
async function startProfile() {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  return {
    async stop(file: string) {
      const { profile } = await session.post("Profiler.stop");
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
      console.log(`CPU profile of the sweep: ${file}`);
    },
  };
}
