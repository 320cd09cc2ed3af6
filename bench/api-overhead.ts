// Benchmark: API overhead of the built server (next start) on loopback.
//   Flat out, with autocannon (10 connections): GET /runs/{id}, GET /version (no database, no
//   credential: what Next.js itself costs per request) and POST /prompts (one engine, simulator
//   with zero latency). At a fixed 200 req/s: GET /runs/{id}, with an open-loop paced generator
//   (bench/lib/paced.ts: one request every 5 ms, latency counted from when it was due; autocannon's
//   rate mode sends each second's quota in a burst, which measures the burst). Against PGlite
//   and PostgreSQL; and as the floor, a bare node:http + pg server answering GET /runs/{id} with
//   the same row read (same database and row as the PostgreSQL case, app server stopped).
// Target: p99 of GET /runs/{id} under 10 ms at 200 req/s on PostgreSQL, within 3x of the floor.
// Needs `npm run build` first, and a PostgreSQL server (BENCH_DATABASE_URL, else
// TEST_DATABASE_URL, else postgresql://postgres@127.0.0.1:5432/postgres) where it may CREATE DATABASE.
// Run: npm run bench:api [-- seconds-per-case]
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { adminQuery as adminQueryOn } from "../tests/helpers/db";
import { freePort, runToEnd } from "../tests/helpers/processes";
import { serverEnv } from "../scripts/lib/server-env.mjs";
import { paced } from "./lib/paced";

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
const SECONDS = Number(process.argv[2] ?? 8);
const CONNECTIONS = 10;
const SERVER_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const adminQuery = (sql: string) => adminQueryOn(SERVER_URL, sql).then(() => undefined);

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

type Row = { target: string; case: string; rps: number; p50: number; p99: number; bad: number };
const rows: Row[] = [];

async function measure(target: string, name: string, options: AutocannonOptions): Promise<void> {
  const result = await autocannon(options);
  const row = {
    target,
    case: name,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad: result.non2xx + result.errors,
  };
  record(row);
}

function record(row: Row): void {
  rows.push(row);
  console.log(`${row.target.padEnd(12)} ${row.case.padEnd(26)} ${String(row.rps).padStart(6)} req/s  p50 ${String(row.p50).padStart(5)} ms  p99 ${String(row.p99).padStart(5)} ms  non-2xx/errors ${row.bad}`);
}

/** GET at a steady 200 req/s, open loop (see bench/lib/paced.ts). */
async function measurePaced(target: string, url: string, headers: Record<string, string> = {}): Promise<void> {
  const result = await paced({ url, rate: 200, seconds: SECONDS, connections: CONNECTIONS, headers });
  record({ target, case: "GET /runs/{id} @200/s", rps: result.rps, p50: result.p50, p99: result.p99, bad: result.bad });
}

async function benchApp(target: "PGlite" | "PostgreSQL"): Promise<void> {
  const port = await freePort();
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
    server = spawn(bin("next"), ["start", "-p", String(port), "-H", "127.0.0.1"], { cwd: root, env: serverEnv(env), stdio: "ignore", detached: true });
    await waitReady(`${base}/api/v1/version`, server);

    const headers = { authorization: `Bearer ${created.api_key.key}`, "content-type": "application/json" };
    const project = ((await (await fetch(`${base}/api/v1/projects`, { method: "POST", headers, body: JSON.stringify({ name: "Bench" }) })).json()) as { id: string }).id;
    const promptBody = JSON.stringify({ prompt: "best running shoes for flat feet", project, engines: ["chatgpt"] });
    const accepted = (await (await fetch(`${base}/api/v1/prompts`, { method: "POST", headers, body: promptBody })).json()) as { runs: { id: string }[] };
    const runId = accepted.runs[0]!.id;
    const run = (await (await fetch(`${base}/api/v1/runs/${runId}?wait=20`, { headers })).json()) as { status: string };
    if (run.status !== "completed") throw new Error(`warm-up run ended ${run.status}`);

    // Warm-up: the first requests compile route chunks and fill the pool.
    await autocannon({ url: `${base}/api/v1/runs/${runId}`, connections: CONNECTIONS, duration: 2, headers });
    await measure(target, "GET /runs/{id} max", { url: `${base}/api/v1/runs/${runId}`, connections: CONNECTIONS, duration: SECONDS, headers });
    await measurePaced(target, `${base}/api/v1/runs/${runId}`, headers);
    await measure(target, "GET /version max", { url: `${base}/api/v1/version`, connections: CONNECTIONS, duration: SECONDS });
    await measure(target, "POST /prompts max", { url: `${base}/api/v1/prompts`, connections: CONNECTIONS, duration: SECONDS, method: "POST", headers, body: promptBody });
    await stop(server);
    if (env.DATABASE_URL) await benchFloor(env.DATABASE_URL, runId);
  } finally {
    if (server) await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
    if (target === "PostgreSQL") await adminQuery(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => undefined);
  }
}

async function benchFloor(databaseUrl: string, runId: string): Promise<void> {
  // The same database and run row the PostgreSQL case read, by id, as the app's GET does.
  const port = await freePort();
  const floor = spawn(bin("tsx"), [path.join(root, "bench", "api-overhead.ts"), "--floor", databaseUrl, String(port)], { cwd: root, stdio: "ignore", detached: true });
  try {
    const url = `http://127.0.0.1:${port}/api/v1/runs/${runId}`;
    await waitReady(url, floor);
    await autocannon({ url, connections: CONNECTIONS, duration: 2 });
    await measure("floor (pg)", "GET /runs/{id} max", { url, connections: CONNECTIONS, duration: SECONDS });
    await measurePaced("floor (pg)", url);
  } finally {
    await stop(floor);
  }
}

async function main(): Promise<void> {
  console.log(`workload: ${CONNECTIONS} connections, ${SECONDS} s per case, loopback; "max": autocannon flat out; "@200/s": open-loop paced, latency from when each request was due; next start (production build); simulator latency 0 ms; POST /prompts with one engine`);
  console.log(`machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), node ${process.version}; load generator, server and database share them; server NODE_OPTIONS "${serverEnv({}).NODE_OPTIONS}"`);
  await benchApp("PGlite");
  await benchApp("PostgreSQL");
  const app = rows.find((r) => r.target === "PostgreSQL" && r.case === "GET /runs/{id} @200/s");
  const floor = rows.find((r) => r.target === "floor (pg)" && r.case === "GET /runs/{id} @200/s");
  if (app && floor) {
    console.log(`target: GET /runs/{id} p99 at 200 req/s on PostgreSQL ${app.p99} ms (goal < 10 ms); floor p99 ${floor.p99} ms, ratio ${(app.p99 / Math.max(floor.p99, 1)).toFixed(1)}x (goal <= 3x)`);
  }
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
