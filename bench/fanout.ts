// Benchmark: fanouts of 1,000 executions (100 prompts × chatgpt, gemini × 5 runs), each round on
// the same fresh database:
//   1. POST /fanouts: creating the fanout, its 1,000 runs, holds and jobs in one transaction
//      (through the route handler, with a driver that starts nothing). Target: under 1 s on PostgreSQL.
//   2. the 1,000 runs through the local driver against the simulator (its own process) at 200 ms
//      per call, compared with the ideal: ceil(runs per engine / ENGINE_CONCURRENCY) rounds of one
//      call. Target: within 1.2x of the ideal.
//   3. GET /fanouts/{id} of the finished fanout, 20 times (route handler in process: parse, read,
//      present, serialise; from the second read on, the body remembered for the rows' versions).
//      Target: under 200 ms. The first read is printed apart.
// Prints each round and the median of the rounds with their spread.
// Run: npm run bench:fanout [-- --pg] [--rounds N]   (ENGINE_CONCURRENCY, GEOSCOPE_SIMULATOR_LATENCY_MS apply)
import os from "node:os";
import { openBenchDatabase, simulatedEnvironment, startSimulator, summary } from "./lib/setup";

simulatedEnvironment();
const simulator = await startSimulator();

const { ensureUser } = await import("@/lib/accounts/users");
const { issueApiKey } = await import("@/lib/auth/api-keys");
const { recordPurchase } = await import("@/lib/billing/ledger");
const { config } = await import("@/lib/config/env");
const { createProject } = await import("@/lib/projects/create");
const { LocalDriver, installJobs } = await import("@/lib/work/local-driver");
// The jobs a server installs at start (lib/work/start.ts).
installJobs((await import("@/lib/work/registry")).registeredJobs());
const fanoutsRoute = await import("@/app/api/v1/fanouts/route");
const fanoutRoute = await import("@/app/api/v1/fanouts/[fanout_id]/route");

const args = process.argv.slice(2);
const onPostgres = args.includes("--pg");
const roundsArg = args.indexOf("--rounds");
const ROUNDS = roundsArg >= 0 ? Number(args[roundsArg + 1]) : 3;
const PROMPTS = 100;
const ENGINES = ["chatgpt", "gemini"];
const RUNS = 5;
const EXECUTIONS = PROMPTS * ENGINES.length * RUNS;
const concurrency = config().ENGINE_CONCURRENCY;
const latencyMs = Number(process.env.GEOSCOPE_SIMULATOR_LATENCY_MS);

const bench = await openBenchDatabase(onPostgres);
console.log(`workload: fanouts of ${PROMPTS} prompts × ${ENGINES.join(", ")} × ${RUNS} runs = ${EXECUTIONS} executions, ${ROUNDS} rounds; simulator latency ${latencyMs} ms (${simulator.inProcess ? "in this process" : "its own process"}), ENGINE_CONCURRENCY ${concurrency}, ${bench.label}`);
console.log(`machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), node ${process.version}`);

const user = await ensureUser("bench@example.com");
const principal = { user: { id: user.id, email: user.email }, credential: { kind: "cli_token" as const, id: "bench", name: "bench" }, workspaceId: null, apiKeyId: null };
await bench.database.prisma.$transaction((tx) => recordPurchase(tx, { workspaceId: user.personalWorkspaceId, amountMicros: 1_000_000_000n }));
const project = (await createProject(principal, { name: "Fanouts", workspace_id: user.personalWorkspaceId, context: null })).id;
const key = (await issueApiKey(user.id, user.personalWorkspaceId, "bench")).key;
const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };

const holder = globalThis as { __geoscopeLocalDriver?: InstanceType<typeof LocalDriver> };
const created: number[] = [];
const executed: number[] = [];
const detail: number[] = [];
const firstDetail: number[] = [];
const ideal = (Math.ceil((PROMPTS * RUNS) / concurrency) * latencyMs) / 1000;

for (let round = 1; round <= ROUNDS; round++) {
  // 1. Creation, with a driver that accepts the jobs and starts none.
  holder.__geoscopeLocalDriver = new LocalDriver({ concurrency: () => 0 });
  const body = JSON.stringify({
    prompts: Array.from({ length: PROMPTS }, (_, i) => ({ text: `round ${round}: what is the best crm for team ${i}?` })),
    engines: ENGINES,
    runs: RUNS,
    project,
  });
  let t = performance.now();
  const response = await fanoutsRoute.POST(new Request("http://localhost/api/v1/fanouts", { method: "POST", headers, body }));
  const fanout = (await response.json()) as { id: string; execution_count: number };
  const createMs = performance.now() - t;
  if (response.status !== 202) throw new Error(`POST /fanouts answered ${response.status}: ${JSON.stringify(fanout)}`);
  created.push(createMs);

  // 2. Execution: one sweep hands the queued runs to a real driver, as after a restart.
  const driver = new LocalDriver({ concurrency: () => concurrency });
  holder.__geoscopeLocalDriver = driver;
  t = performance.now();
  await driver.sweep();
  await driver.drained();
  const runSeconds = (performance.now() - t) / 1000;
  executed.push(runSeconds / ideal);

  // 3. The finished detail.
  const reads: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 20; i++) {
    t = performance.now();
    const res = await fanoutRoute.GET(new Request(`http://localhost/api/v1/fanouts/${fanout.id}`, { headers }), {
      params: Promise.resolve({ fanout_id: fanout.id }),
    });
    const text = await res.text();
    reads.push(performance.now() - t);
    bytes = text.length;
    if (i === 0 && !/"status":"(completed|partial)"/.test(text)) throw new Error(`fanout not finished: ${text.slice(0, 200)}`);
  }
  // The first read makes the body from the rows; the others find it remembered for the same versions.
  const first = reads[0]!;
  firstDetail.push(first);
  reads.sort((a, b) => a - b);
  detail.push(reads[10]!);
  console.log(
    `round ${round}: create ${createMs.toFixed(0)} ms; execute ${runSeconds.toFixed(2)} s = ${(runSeconds / ideal).toFixed(2)}x ideal (${ideal.toFixed(2)} s); ` +
      `GET detail first ${first.toFixed(1)} ms, median ${reads[10]!.toFixed(1)} ms, max ${reads[19]!.toFixed(1)} ms (${(bytes / 1024).toFixed(0)} KiB)`,
  );
}

console.log(`POST /fanouts (${EXECUTIONS} executions), ms: ${summary(created, 0)}   target < 1000 on PostgreSQL`);
console.log(`execution, actual/ideal: ${summary(executed)}   target <= 1.20`);
console.log(`GET /fanouts/{id} finished, first read, ms: ${summary(firstDetail, 1)}   target < 200`);
console.log(`GET /fanouts/{id} finished, ms (median of 20 per round): ${summary(detail, 1)}   target < 200`);
await bench.close();
simulator.stop();
