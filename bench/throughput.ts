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
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import os from "node:os";
import { openBenchDatabase, simulatedEnvironment, startSimulator } from "./lib/setup";

simulatedEnvironment();
const simulator = await startSimulator();

const { ensureUser } = await import("@/lib/accounts/users");
const { recordPurchase } = await import("@/lib/billing/ledger");
const { config } = await import("@/lib/config/env");
const { createProject } = await import("@/lib/projects/projects");
const { createPromptBatch } = await import("@/lib/runs/prompts");
const { LocalDriver } = await import("@/lib/work/local-driver");

const args = process.argv.slice(2);
const onPostgres = args.includes("--pg");
const RUNS = Number(args.find((a) => /^\d+$/.test(a)) ?? 1000);
const ENGINES = ["chatgpt", "claude", "gemini"] as const;
const concurrency = config().ENGINE_CONCURRENCY;
const latencyMs = Number(process.env.GEOSCOPE_SIMULATOR_LATENCY_MS);

console.log(`workload: ${RUNS} prompt runs over ${ENGINES.length} engines, simulator latency ${latencyMs} ms (${simulator.inProcess ? "in this process" : "its own process"}), ENGINE_CONCURRENCY ${concurrency}, ${onPostgres ? "PostgreSQL (pool of 10)" : "PGlite in memory"}`);
console.log(`machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), node ${process.version}`);

const bench = await openBenchDatabase(onPostgres);
const database = bench.database;

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
await bench.close();
simulator.stop();

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
