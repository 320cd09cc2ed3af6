// Benchmark: API overhead of the built server (next start) on loopback.
//   Flat out, with autocannon (10 connections): GET /runs/{id}, GET /runs (a page of 20),
//   GET /batches/{id}, GET /fanouts/{id} (a finished fanout of 10 runs), GET /fanouts,
//   GET /analyses/{id} (a citation analysis of 20 runs), GET /analyses, GET /version (no
//   database, no credential: what Next.js itself costs per request) and POST /prompts (one
//   engine, simulator with zero latency). At a fixed 200 req/s:
//   GET /runs/{id}, with an open-loop paced generator (bench/lib/paced.ts: one request every 5 ms,
//   latency counted from when it was due; autocannon's rate mode sends each second's quota in a
//   burst, which measures the burst). Against PGlite and PostgreSQL; and as the floor, a bare
//   node:http + pg server answering GET /runs/{id} with the same row read (same database and row
//   as the PostgreSQL case, app server stopped).
// Every case runs ROUNDS times (default 3) after a warm-up; each round prints its figures, then
// the median (min–max) of the rounds. Besides req/s and latency it prints CPU time per request:
// of the server's process tree ("app µs") and, on PostgreSQL, of the database's backends serving
// it ("db µs"), both from /proc. On a machine shared with other work those vary much less than
// rates and latencies, so they decide what a change saves; the load average is printed before
// and after every round.
// Targets: GET /runs/{id} at 200 req/s on PostgreSQL p99 < 10 ms and within 3x of the floor;
// flat out, GET /runs/{id} at least 50% of GET /version's rate on both databases; PGlite holds
// 200 req/s with p99 < 50 ms.
// Needs `npm run build` first, and a PostgreSQL server (BENCH_DATABASE_URL, else
// TEST_DATABASE_URL, else postgresql://postgres@127.0.0.1:5432/postgres) where it may CREATE DATABASE.
// Run: npm run bench:api [-- seconds-per-case]
//   BENCH_ROUNDS=n (default 3); BENCH_TARGETS=pglite,postgres (default both; the floor comes with
//   postgres); BENCH_CASES=a comma list of prefixes of the case names without their method, to run
//   only some ("runs/{id} max", "runs/{id} @" (the 200/s case), "runs?", "batches", "fanouts",
//   "analyses", "version", "prompts"; "runs/{id}" selects both GET /runs/{id} cases); BENCH_CPU_PROF=dir writes a
//   V8 CPU profile of each server (node --cpu-prof) into dir when it stops.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { adminQuery as adminQueryOn } from "../tests/helpers/pg-database";
import { runToEnd } from "../tests/helpers/processes";
import { serverEnv } from "../scripts/lib/server-env.mjs";
import { paced } from "./lib/paced";
import { cpuMs, loadAverage, machine, median, portIn, spread } from "./lib/rounds";

type AutocannonResult = {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
};
type AutocannonOptions = {
  url: string;
  connections: number;
  duration: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
};
// autocannon ships no types; this is the part of its API used here.
const autocannon = createRequire(import.meta.url)("autocannon") as (options: AutocannonOptions) => Promise<AutocannonResult>;

const root = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
const SECONDS = Number(process.argv[2] && process.argv[2] !== "--floor" ? process.argv[2] : 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGETS = (process.env.BENCH_TARGETS ?? "pglite,postgres").split(",");
const CASES = process.env.BENCH_CASES?.split(",");
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SERVER_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const adminQuery = (sql: string) => adminQueryOn(SERVER_URL, sql);

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}`);
    if (await fetch(url).then((r) => r.status < 500, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within 60 s`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.kill(-child.pid!, "SIGTERM");
  return gone;
}

type Sample = { rps: number; p50: number; p99: number; bad: number; appUs: number; dbUs: number | null };
/** Figures by "target|case", one sample per round. */
const samples = new Map<string, Sample[]>();

/** What is measured about the server while a case runs: its process tree, and its database backends (CPU ms by pid). */
type Server = { pid: number; dbCpuMs: () => Promise<Map<number, number> | null> };

/** CPU ms the backends used between two readings: a backend that came meanwhile counts whole, one that left is lost. */
function dbDelta(before: Map<number, number> | null, after: Map<number, number> | null): number | null {
  if (!before || !after) return null;
  let ms = 0;
  for (const [pid, used] of after) ms += used - (before.get(pid) ?? 0);
  return ms;
}

type Case = {
  name: string;
  /** Called after the case is measured: waits until the work it started is done, so that it does not load the next case. */
  settle?: () => Promise<void>;
  /** A GET to send during the warm-up. */
  warm?: Omit<AutocannonOptions, "connections" | "duration">;
  run: () => Promise<{ rps: number; p50: number; p99: number; bad: number; requests: number }>;
};

function flatOut(name: string, options: Omit<AutocannonOptions, "connections" | "duration">): Case {
  return {
    name,
    warm: options.method ? undefined : options,
    async run() {
      const result = await autocannon({ ...options, connections: CONNECTIONS, duration: SECONDS });
      return {
        rps: Math.round(result.requests.average),
        p50: result.latency.p50,
        p99: result.latency.p99,
        bad: result.non2xx + result.errors,
        requests: result.requests.total,
      };
    },
  };
}

/** GET at a steady 200 req/s, open loop (see bench/lib/paced.ts). */
function atRate(name: string, url: string, headers: Record<string, string> = {}): Case {
  return {
    name,
    async run() {
      const result = await paced({ url, rate: 200, seconds: SECONDS, connections: CONNECTIONS, headers });
      return { rps: result.rps, p50: result.p50, p99: result.p99, bad: result.bad, requests: result.sent };
    },
  };
}

const selected = (c: Case) => !CASES || CASES.some((prefix) => c.name.replace(/^(GET|POST) \//, "").startsWith(prefix));

/** Runs every case once per round, printing each measurement and the load average around the round. */
async function rounds(target: string, server: Server, cases: Case[]): Promise<void> {
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`-- ${target}, round ${round}/${ROUNDS}, load average before ${loadAverage()}`);
    for (const c of cases.filter(selected)) {
      const cpuBefore = cpuMs([server.pid]);
      const dbBefore = await server.dbCpuMs();
      const r = await c.run();
      const appUs = ((cpuMs([server.pid]) - cpuBefore) * 1000) / Math.max(r.requests, 1);
      const dbMs = dbDelta(dbBefore, await server.dbCpuMs());
      const dbUs = dbMs === null ? null : (dbMs * 1000) / Math.max(r.requests, 1);
      const sample = { rps: r.rps, p50: r.p50, p99: r.p99, bad: r.bad, appUs, dbUs };
      const key = `${target}|${c.name}`;
      samples.set(key, [...(samples.get(key) ?? []), sample]);
      await c.settle?.();
      console.log(
        `${target.padEnd(11)} ${c.name.padEnd(22)} ${String(r.rps).padStart(6)} req/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms  ` +
          `app ${appUs.toFixed(0).padStart(5)} µs/req${dbUs === null ? "" : `  db ${dbUs.toFixed(0).padStart(4)} µs/req`}  non-2xx/errors ${r.bad}`,
      );
    }
    console.log(`-- load average after ${loadAverage()}`);
  }
}

async function benchApp(target: "PGlite" | "PostgreSQL"): Promise<void> {
  const port = await portIn();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "geoscope-bench-"));
  const dbName = `geoscope_bench_${Date.now().toString(36)}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    GEOSCOPE_DATA_DIR: dataDir,
    PUBLIC_BASE_URL: base,
    NEXTAUTH_URL: base,
    GEOSCOPE_ENGINES: "simulated",
    GEOSCOPE_SIMULATOR_LATENCY_MS: "0",
    // The bench creates thousands of runs; the in-flight limit is not what is measured.
    RUNS_IN_FLIGHT_LIMIT: "1000000",
  };
  for (const key of ["DATABASE_URL", "INNGEST_EVENT_KEY", "INNGEST_DEV", "GEOSCOPE_SIMULATOR_URL", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY"]) delete env[key];
  if (target === "PostgreSQL") {
    await adminQuery(`CREATE DATABASE "${dbName}"`);
    const u = new URL(SERVER_URL);
    u.pathname = `/${dbName}`;
    env.DATABASE_URL = u.toString();
  }
  let server: ChildProcess | null = null;
  try {
    await runToEnd(bin("tsx"), [path.join(root, "scripts", "db-migrate.ts")], env);
    const created = JSON.parse(await runToEnd(bin("tsx"), [path.join(root, "scripts", "admin.ts"), "user:create", "--email", "bench@example.com", "--api-key", "bench"], env)) as {
      workspace_id: string;
      api_key: { key: string };
    };
    await runToEnd(bin("tsx"), [path.join(root, "scripts", "admin.ts"), "credit:add", "--workspace", created.workspace_id, "--usd", "1000000.00"], env);
    // As `npm start` serves it (scripts/lib/server-env.mjs: V8 helper threads for the core count).
    // --cpu-prof is refused in NODE_OPTIONS, so with BENCH_CPU_PROF node is started with it directly.
    const startArgs = ["start", "-p", String(port), "-H", "127.0.0.1"];
    const [command, args] = process.env.BENCH_CPU_PROF
      ? [process.execPath, ["--cpu-prof", `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`, path.join(root, "node_modules", "next", "dist", "bin", "next"), ...startArgs]]
      : [bin("next"), startArgs];
    server = spawn(command, args, { cwd: root, env: serverEnv(env), stdio: "ignore", detached: true });
    await waitReady(`${base}/api/v1/version`, server);

    const headers = { authorization: `Bearer ${created.api_key.key}`, "content-type": "application/json" };
    const project = ((await (await fetch(`${base}/api/v1/projects`, { method: "POST", headers, body: JSON.stringify({ name: "Bench" }) })).json()) as { id: string }).id;
    const promptBody = JSON.stringify({ prompt: "best running shoes for flat feet", project, engines: ["chatgpt"] });
    const accepted = (await (await fetch(`${base}/api/v1/prompts`, { method: "POST", headers, body: promptBody })).json()) as { batch: { id: string }; runs: { id: string }[] };
    const runId = accepted.runs[0]!.id;
    const run = (await (await fetch(`${base}/api/v1/runs/${runId}?wait=20`, { headers })).json()) as { status: string };
    if (run.status !== "completed") throw new Error(`warm-up run ended ${run.status}`);
    // A page of the list to read: 20 finished runs.
    const batchIds = [accepted.batch.id];
    for (let i = 0; i < 19; i++) {
      const more = (await (await fetch(`${base}/api/v1/prompts`, { method: "POST", headers, body: promptBody })).json()) as { batch: { id: string } };
      batchIds.push(more.batch.id);
    }
    await fetch(`${base}/api/v1/runs?limit=20&batch=${accepted.batch.id}&wait=20`, { headers });
    // A finished fanout of 10 runs (5 prompts × chatgpt × 2) and a citation analysis of the 20 batches.
    const fanoutBody = JSON.stringify({ prompts: Array.from({ length: 5 }, (_, i) => ({ text: `best running shoes for flat feet, take ${i}` })), engines: ["chatgpt"], runs: 2, project });
    const fanoutId = ((await (await fetch(`${base}/api/v1/fanouts`, { method: "POST", headers, body: fanoutBody })).json()) as { id: string }).id;
    const fanout = (await (await fetch(`${base}/api/v1/fanouts/${fanoutId}?wait=30`, { headers })).json()) as { status: string };
    if (fanout.status !== "completed") throw new Error(`warm-up fanout ended ${fanout.status}`);
    await drained(base, headers);
    const analysisBody = JSON.stringify({ ids: batchIds, brands: ["Acme"], domains: ["example.com"] });
    const analysisId = ((await (await fetch(`${base}/api/v1/citation-analyses`, { method: "POST", headers, body: analysisBody })).json()) as { id: string }).id;

    const runUrl = `${base}/api/v1/runs/${runId}`;
    const cases = [
      flatOut("GET /runs/{id} max", { url: runUrl, headers }),
      atRate("GET /runs/{id} @200/s", runUrl, headers),
      flatOut("GET /runs?limit=20 max", { url: `${base}/api/v1/runs?limit=20`, headers }),
      flatOut("GET /batches/{id} max", { url: `${base}/api/v1/batches/${accepted.batch.id}`, headers }),
      flatOut("GET /fanouts/{id} max", { url: `${base}/api/v1/fanouts/${fanoutId}`, headers }),
      flatOut("GET /fanouts?limit=20 max", { url: `${base}/api/v1/fanouts?limit=20`, headers }),
      flatOut("GET /analyses/{id} max", { url: `${base}/api/v1/analyses/${analysisId}`, headers }),
      flatOut("GET /analyses?limit=20 max", { url: `${base}/api/v1/analyses?limit=20`, headers }),
      flatOut("GET /version max", { url: `${base}/api/v1/version` }),
      // Next.js's own paced latency (no database, no credential): what the run read's paced p99 stands on.
      atRate("GET /version @200/s", `${base}/api/v1/version`),
      { ...flatOut("POST /prompts max", { url: `${base}/api/v1/prompts`, method: "POST", headers, body: promptBody }), settle: () => drained(base, headers) },
    ];
    // Warm-up: the first requests compile route chunks, fill the pool and let V8 optimise.
    for (const c of cases.filter(selected)) if (c.warm) await autocannon({ ...c.warm, connections: CONNECTIONS, duration: 2 });

    await rounds(target, { pid: server.pid!, dbCpuMs: target === "PostgreSQL" ? () => backendsCpuMs(dbName) : async () => null }, cases);
    await stop(server);
    if (env.DATABASE_URL) await benchFloor(env.DATABASE_URL, runId, dbName);
  } finally {
    if (server) await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
    if (target === "PostgreSQL") await adminQuery(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => undefined);
  }
}

/** Waits until no run is queued or running: POST /prompts' runs execute after it answered, and would otherwise load the next case. */
async function drained(base: string, headers: Record<string, string>): Promise<void> {
  for (;;) {
    const open = await Promise.all(
      ["queued", "running"].map(async (status) => ((await (await fetch(`${base}/api/v1/runs?status=${status}&limit=1`, { headers })).json()) as { items: unknown[] }).items.length),
    );
    if (open.every((n) => n === 0)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function benchFloor(databaseUrl: string, runId: string, dbName: string): Promise<void> {
  // The same database and run row the PostgreSQL case read, by id, as the app's GET does.
  const port = await portIn();
  const floor = spawn(bin("tsx"), [path.join(root, "bench", "api-overhead.ts"), "--floor", databaseUrl, String(port)], { cwd: root, stdio: "ignore", detached: true });
  try {
    const url = `http://127.0.0.1:${port}/api/v1/runs/${runId}`;
    await waitReady(url, floor);
    await autocannon({ url, connections: CONNECTIONS, duration: 2 });
    await rounds("floor (pg)", { pid: floor.pid!, dbCpuMs: () => backendsCpuMs(dbName) }, [flatOut("GET /runs/{id} max", { url }), atRate("GET /runs/{id} @200/s", url)]);
  } finally {
    await stop(floor);
  }
}

/** CPU ms used so far by each backend connected to the database. */
async function backendsCpuMs(dbName: string): Promise<Map<number, number>> {
  const { rows } = await adminQuery(`SELECT pid FROM pg_stat_activity WHERE datname = '${dbName}' AND pid <> pg_backend_pid()`);
  return new Map(rows.map((r: { pid: number }) => [r.pid, cpuMs([r.pid], false)]));
}

function summarise(): void {
  console.log(`\nmedian (min–max) of ${ROUNDS} rounds:`);
  for (const [key, list] of samples) {
    const [target, name] = key.split("|") as [string, string];
    const db = list.every((s) => s.dbUs !== null) ? `  db ${spread(list.map((s) => s.dbUs!), 0)} µs/req` : "";
    console.log(
      `${target.padEnd(11)} ${name.padEnd(22)} ${spread(list.map((s) => s.rps), 0).padStart(16)} req/s  p50 ${spread(list.map((s) => s.p50))} ms  p99 ${spread(list.map((s) => s.p99))} ms  app ${spread(list.map((s) => s.appUs), 0)} µs/req${db}`,
    );
  }
  const m = (target: string, name: string, field: keyof Sample) => {
    const list = samples.get(`${target}|${name}`);
    return list ? median(list.map((s) => s[field] as number)) : null;
  };
  const app = m("PostgreSQL", "GET /runs/{id} @200/s", "p99");
  const floor = m("floor (pg)", "GET /runs/{id} @200/s", "p99");
  const verdict = (ok: boolean) => (ok ? "met" : "NOT met");
  if (app !== null && floor !== null) {
    const ratio = app / Math.max(floor, 1);
    console.log(`target: PostgreSQL GET /runs/{id} @200/s p99 ${app.toFixed(1)} ms (goal < 10 ms), floor p99 ${floor.toFixed(1)} ms, ratio ${ratio.toFixed(1)}x (goal <= 3x): ${verdict(app < 10 && ratio <= 3)}`);
  }
  const next = m("PostgreSQL", "GET /version @200/s", "p99");
  if (app !== null && next !== null) {
    console.log(`(not a target) PostgreSQL GET /version @200/s p99 ${next.toFixed(1)} ms: the server's own paced tail, no database; GET /runs/{id} is ${(app / Math.max(next, 1)).toFixed(1)}x it`);
  }
  for (const target of ["PostgreSQL", "PGlite"]) {
    const read = m(target, "GET /runs/{id} max", "rps");
    const version = m(target, "GET /version max", "rps");
    if (read !== null && version !== null) {
      console.log(`target: ${target} GET /runs/{id} flat out ${read} req/s = ${((100 * read) / version).toFixed(0)}% of GET /version's ${version} (goal >= 50%): ${verdict(read >= version / 2)}`);
    }
  }
  const pgliteP99 = m("PGlite", "GET /runs/{id} @200/s", "p99");
  const pgliteRps = m("PGlite", "GET /runs/{id} @200/s", "rps");
  if (pgliteP99 !== null && pgliteRps !== null) {
    console.log(`target: PGlite GET /runs/{id} @200/s ${pgliteRps} req/s achieved, p99 ${pgliteP99.toFixed(1)} ms (goal < 50 ms): ${verdict(pgliteRps >= 195 && pgliteP99 < 50)}`);
  }
}

async function main(): Promise<void> {
  console.log(`workload: ${CONNECTIONS} connections, ${SECONDS} s per case, ${ROUNDS} rounds after a warm-up, loopback; "max": autocannon flat out; "@200/s": open-loop paced, latency from when each request was due; next start (production build); simulator latency 0 ms; POST /prompts with one engine; app µs/req: CPU time (user+system) of the server's process tree per request; db µs/req: of the PostgreSQL backends serving it`);
  console.log(`machine: ${machine()}; load generator, server and database share them; server NODE_OPTIONS "${serverEnv({}).NODE_OPTIONS}"`);
  console.log(`load average (1, 5, 15 min) at start: ${loadAverage()}`);
  if (TARGETS.includes("pglite")) await benchApp("PGlite");
  if (TARGETS.includes("postgres")) await benchApp("PostgreSQL");
  summarise();
  console.log(`load average (1, 5, 15 min) at end: ${loadAverage()}`);
}

// ---- The floor: run as a child process, so it gets its own event loop like the real server. ----
if (process.argv[2] === "--floor") {
  const [, , , url, port] = process.argv;
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const server = createHttpServer((req, res) => {
    const match = /^\/api\/v1\/runs\/([^/?]+)/.exec(req.url ?? "");
    if (!match) {
      res.writeHead(404).end();
      return;
    }
    pool.query("SELECT * FROM runs WHERE id = $1", [match[1]]).then(
      ({ rows }) => {
        res.writeHead(rows.length ? 200 : 404, { "content-type": "application/json" }).end(JSON.stringify(rows[0] ?? null));
      },
      () => res.writeHead(500).end(),
    );
  });
  server.listen(Number(port), "127.0.0.1", () => process.stdout.write("ready\n"));
} else {
  await main();
}
