// Benchmark: 1,000 prompt runs through the local driver against the engine simulator with 200 ms
// latency per call, on an in-memory PGlite. The simulator runs as a process of its own, as the
// real engines are elsewhere: its work is not the driver's (BENCH_SIMULATOR=in-process puts it
// back in this process, as `npm start` does without GEOSCOPE_SIMULATOR_URL). The runs are
// created first (with no driver capacity), then one sweep hands them all to a real driver, as
// after a restart.
// Prints total time, runs/s, peak RSS, CPU time of this process per run, statements per run (--pg), and the ideal:
// ceil(runs per engine / ENGINE_CONCURRENCY) rounds of one engine call each. Target: within 20% of
// the ideal. A warm-up round of a tenth of the runs first, then BENCH_ROUNDS rounds (default 3) of
// fresh runs in the same database, each printed, then the median (min–max); the load average is
// printed before and after every round.
// Run: npm run bench:throughput [-- runs] [--pg]   (ENGINE_CONCURRENCY and GEOSCOPE_SIMULATOR_LATENCY_MS apply;
// BENCH_CPU_PROFILE=file.cpuprofile writes a CPU profile of the measured part, for Chrome DevTools)
// BENCH_PGLITE=disk: PGlite in a temporary folder, as `npm start` keeps it, instead of in memory;
// in a worker thread as the server runs it, or in this thread with GEOSCOPE_PGLITE_THREAD=inline.
// --pg: on a fresh database of the PostgreSQL server at BENCH_DATABASE_URL, else TEST_DATABASE_URL,
// else postgresql://postgres@127.0.0.1:5432/postgres (dropped at the end), instead of PGlite.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import pg from "pg";
import { loadAverage, machine, median, spread } from "./lib/rounds";
import { openBenchDatabase, simulatedEnvironment, startSimulator } from "./lib/setup";

simulatedEnvironment();

// Statements sent to PostgreSQL (--pg), counted at the driver: every query of the pool and of the
// change listener's connection, Prisma's and the prepared ones alike.
let statements = 0;
const sendQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements += 1;
  return (sendQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof sendQuery;
const simulator = await startSimulator();

const { ensureUser } = await import("@/lib/accounts/users");
const { recordPurchase } = await import("@/lib/billing/ledger");
const { config } = await import("@/lib/config/env");
const { createProject } = await import("@/lib/projects/create");
const { createPromptBatch } = await import("@/lib/runs/create");
const { LocalDriver, installJobs } = await import("@/lib/work/local-driver");
// The jobs a server installs at start (lib/work/start.ts).
installJobs((await import("@/lib/work/registry")).registeredJobs());

const args = process.argv.slice(2);
const onPostgres = args.includes("--pg");
const RUNS = Number(args.find((a) => /^\d+$/.test(a)) ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ENGINES = ["chatgpt", "claude", "gemini"] as const;
const concurrency = config().ENGINE_CONCURRENCY;
const latencyMs = Number(process.env.GEOSCOPE_SIMULATOR_LATENCY_MS);

console.log(`machine: ${machine()}; load average at start ${loadAverage()}`);

const bench = await openBenchDatabase(onPostgres);
const database = bench.database;
console.log(`workload: ${RUNS} prompt runs over ${ENGINES.length} engines, simulator latency ${latencyMs} ms (${simulator.inProcess ? "in this process" : "its own process"}), ENGINE_CONCURRENCY ${concurrency}, ${bench.label}`);

const user = await ensureUser("bench@example.com");
const principal = { user: { id: user.id, email: user.email }, credential: { kind: "cli_token" as const, id: "bench", name: "bench" }, workspaceId: null, apiKeyId: null };
await database.prisma.$transaction((tx) => recordPurchase(tx, { workspaceId: user.personalWorkspaceId, amountMicros: 1_000_000_000n }));
const project = (await createProject(principal, { name: "Throughput", workspace_id: user.personalWorkspaceId, context: null })).id;

const holder = globalThis as { __geoscopeLocalDriver?: InstanceType<typeof LocalDriver> };
type Round = { seconds: number; ideal: number; cpuMsPerRun: number; peakRss: number };

/** Creates `runs` runs (not measured), then times one sweep of a real driver through all of them. */
async function round(runs: number, profiled: boolean): Promise<Round> {
  // Creation is not what is measured: a driver with no capacity accepts the runs and starts none.
  holder.__geoscopeLocalDriver = new LocalDriver({ concurrency: () => 0 });
  const perEngine = new Map<string, number>();
  const createdAt = performance.now();
  for (let i = 0; i < runs; i++) {
    const engine = ENGINES[i % ENGINES.length]!;
    perEngine.set(engine, (perEngine.get(engine) ?? 0) + 1);
    await createPromptBatch(principal, { prompt: `throughput ${i}`, project, engines: [engine] });
  }
  console.log(`created ${runs} runs in ${((performance.now() - createdAt) / 1000).toFixed(2)} s (not counted)`);

  const driver = new LocalDriver({ concurrency: () => concurrency });
  holder.__geoscopeLocalDriver = driver;
  let peakRss = process.memoryUsage.rss();
  // memoryUsage.rss(), not memoryUsage(): the heap statistics of the full call cost this process ~5% of its CPU at this rate.
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 20);
  const profile = profiled ? await startProfile() : null;
  const cpu = process.cpuUsage();
  const statementsBefore = statements;
  const started = performance.now();
  const swept = await driver.sweep();
  await driver.drained();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  if (profile) await profile.stop(process.env.BENCH_CPU_PROFILE!);
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  const rounds = Math.max(...[...perEngine.values()].map((n) => Math.ceil(n / concurrency)));
  const ideal = (rounds * latencyMs) / 1000;
  const cpuMsPerRun = (used.user + used.system) / 1000 / runs;
  const perRun = onPostgres ? `, ${((statements - statementsBefore) / runs).toFixed(1)} statements/run` : "";
  console.log(`swept ${swept} runs: total ${seconds.toFixed(2)} s, ${(runs / seconds).toFixed(1)} runs/s, ideal ${ideal.toFixed(2)} s (${rounds} rounds x ${latencyMs} ms), actual/ideal ${(seconds / ideal).toFixed(2)}x, CPU ${cpuMsPerRun.toFixed(2)} ms/run (this process)${perRun}, peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB`);
  return { seconds, ideal, cpuMsPerRun, peakRss };
}

console.log(`warm-up round (${Math.ceil(RUNS / 10)} runs, not counted), load average ${loadAverage()}`);
await round(Math.ceil(RUNS / 10), false);
const results: Round[] = [];
for (let i = 1; i <= ROUNDS; i++) {
  console.log(`-- round ${i}/${ROUNDS}, load average before ${loadAverage()}`);
  results.push(await round(RUNS, Boolean(process.env.BENCH_CPU_PROFILE) && i === ROUNDS));
  console.log(`-- load average after ${loadAverage()}`);
}
const byStatus = await database.prisma.run.groupBy({ by: ["status"], _count: true });
console.log(`outcome of every run: ${byStatus.map((s) => `${s.status} ${s._count}`).join(", ")}`);
console.log(
  `median (min–max) of ${ROUNDS} rounds: total ${spread(results.map((r) => r.seconds), 2)} s; actual/ideal ${spread(results.map((r) => r.seconds / r.ideal), 2)}x (target <= 1.2x: ${median(results.map((r) => r.seconds / r.ideal)) <= 1.2 ? "met" : "NOT met"}); ` +
    `CPU ${spread(results.map((r) => r.cpuMsPerRun), 2)} ms/run; peak RSS ${spread(results.map((r) => r.peakRss / 2 ** 20), 0)} MiB`,
);
console.log(`load average at end ${loadAverage()}`);
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
