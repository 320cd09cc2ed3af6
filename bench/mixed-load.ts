// Benchmark (issue #22, load): N minutes of mixed traffic at a steady rate against the built app
// served by `next start`, as a customer's agents would send it: reads (GET /runs/{id}, GET /runs,
// GET /batches/{id}), prompts (POST /prompts, every enabled engine), fanouts (POST /fanouts) and
// page audits (POST /audits against a local page host, reached through AUDIT_ALLOW_HOSTS), with
// the engines simulated (the simulator in its own process, GEOSCOPE_SIMULATOR_LATENCY_MS, default
// 200 ms). Open loop (as bench/lib/paced.ts): each request is sent when it is due whatever
// happened to the ones before it, and its latency is counted from that moment.
// Criteria, each round (exit code 1 when one fails):
//   - no answer other than 2xx and 429 (no 5xx, no 4xx, no connection error or timeout);
//   - memory flat: the server's RSS (process tree, sampled every 2 s) in the last minute at most 5%
//     above the highest minute of the first half (first and last minute, slope and RSS by minute printed);
//   - p99 of the reads under 50 ms;
//   - once all accepted work has finished: every accepted run exists and has finished, no hold
//     left (API and database), and the ledger's usage equals the runs' captured charges, read
//     from the API (every run's `charge`) and from the database; the balance equals the ledger.
// Needs `npm run build` first; with --pg a PostgreSQL server (BENCH_DATABASE_URL, else
// TEST_DATABASE_URL, else postgresql://postgres@127.0.0.1:5432/postgres) where it may CREATE
// DATABASE; else embedded PGlite in a temporary folder. Ports from BENCH_PORTS (default 4500-4599).
// Run: npm run bench:load [-- --minutes N] [--pg] [--rounds N] [--warmup SECONDS] [--mix runs=30,list=10,...]
// (BENCH_SERVER_CPU_PROFILE=dir: a CPU profile of the server; BENCH_HEAP_SNAPSHOTS=dir: heap snapshots
// of the server after the warm-up and after the load; BENCH_KEEP_DATA=1 keeps its folder and log.)
import { PGlite } from "@electric-sql/pglite";
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { parseUsd } from "@/lib/billing/money";
import { serverEnv } from "../scripts/lib/server-env.mjs";
import { adminQuery } from "../tests/helpers/pg-database";
import { repoRoot, runToEnd } from "../tests/helpers/processes";
import { portInRange } from "./lib/ports";
import { startSimulator, summary } from "./lib/setup";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const MINUTES = option("--minutes", 10);
const ROUNDS = option("--rounds", 1);
const WARMUP_S = option("--warmup", 30);
const onPostgres = args.includes("--pg");
const LATENCY_MS = process.env.GEOSCOPE_SIMULATOR_LATENCY_MS || "200";
const PG_SERVER = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const READ_P99_TARGET_MS = 50;
// Memory flat: the last minute's mean RSS at most 5% above the highest minute of the first half.
// (Not the first minute: the heap grows to its working size over the first minute or two, then
// stays; a leak keeps growing past what the first half reached.)
const MEMORY_GROWTH_LIMIT = 0.05;
const DRAIN_TIMEOUT_MS = 15 * 60_000;
const bin = (name: string) => path.join(repoRoot, "node_modules", ".bin", name);

// ---- The workload -------------------------------------------------------------------------
type Kind = "GET /runs/{id}" | "GET /runs" | "GET /batches/{id}" | "POST /prompts" | "POST /fanouts" | "POST /audits";
const FANOUT = { prompts: 4, runs: 2 };
const MIX: { kind: Kind; perSecond: number; read: boolean }[] = [
  { kind: "GET /runs/{id}", perSecond: 30, read: true },
  { kind: "GET /runs", perSecond: 10, read: true },
  { kind: "GET /batches/{id}", perSecond: 10, read: true },
  { kind: "POST /prompts", perSecond: 3, read: false },
  { kind: "POST /fanouts", perSecond: 0.1, read: false },
  { kind: "POST /audits", perSecond: 2, read: false },
];
// --mix runs=30,list=10,batches=10,prompts=3,fanouts=0.1,audits=2 changes rates (0 leaves a kind out).
const SHORT: Record<string, Kind> = { runs: "GET /runs/{id}", list: "GET /runs", batches: "GET /batches/{id}", prompts: "POST /prompts", fanouts: "POST /fanouts", audits: "POST /audits" };
if (args.includes("--mix")) {
  for (const part of args[args.indexOf("--mix") + 1]!.split(",")) {
    const [name, rate] = part.split("=");
    const entry = MIX.find((m) => m.kind === SHORT[name!]);
    if (!entry || !(Number(rate) >= 0)) throw new Error(`--mix: ${part}? (kinds: ${Object.keys(SHORT).join(", ")})`);
    entry.perSecond = Number(rate);
  }
  MIX.splice(0, MIX.length, ...MIX.filter((m) => m.perSecond > 0));
}
const isRead = (kind: Kind) => MIX.find((m) => m.kind === kind)?.read ?? false;
const AUDIT_PAGES = 200; // /articles/0..199 of bench/lib/page-server.ts: 10, 50, 200, 500, 1024 KiB in turn

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");
const mib = (bytes: number) => bytes / 2 ** 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- Processes --------------------------------------------------------------------------------
async function startPageHost(port: number): Promise<{ origin: string; stop(): void }> {
  const child = spawn(bin("tsx"), ["bench/lib/page-server.ts", "--port", String(port)], { cwd: repoRoot, stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the page host exited with ${code}`)));
    child.stdout!.on("data", (d: Buffer) => /listening \d+/.test(d.toString()) && resolve());
  });
  process.on("exit", () => child.kill());
  return {
    origin: `http://127.0.0.1:${port}`,
    stop() {
      child.removeAllListeners("exit");
      child.kill();
    },
  };
}

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}`);
    if (await fetch(url).then((r) => r.status < 500, () => false)) return;
    await sleep(200);
  }
  throw new Error(`${url} did not answer within 90 s`);
}

function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.kill(-child.pid!, "SIGTERM");
  const timer = setTimeout(() => child.exitCode === null && process.kill(-child.pid!, "SIGKILL"), 20_000);
  return gone.finally(() => clearTimeout(timer));
}

/** CPU seconds (user + system) used so far by a process and its descendants (Linux /proc). */
function treeCpuSeconds(rootPid: number): number {
  let ticks = 0;
  for (const pid of descendants(rootPid)) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
    } catch {
      // exited meanwhile
    }
  }
  return ticks / 100; // USER_HZ is 100 on Linux
}

/** Busy and total CPU ticks of the whole machine, from /proc/stat. */
function machineTicks(): { busy: number; total: number } {
  const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = cpu[3]! + (cpu[4] ?? 0);
  const total = cpu.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

function descendants(rootPid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so split after the last ")".
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // exited meanwhile
    }
  }
  const pids = [rootPid];
  for (let i = 0; i < pids.length; i++) for (const [pid, parent] of parentOf) if (parent === pids[i]) pids.push(pid);
  return pids;
}

/** RSS in bytes of a process and all its descendants (Linux /proc), or null once it is gone. */
function treeRss(rootPid: number): number | null {
  const pids = descendants(rootPid);
  let total = 0;
  for (const pid of pids) {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (match) total += Number(match[1]) * 1024;
    } catch {
      if (pid === rootPid) return null;
    }
  }
  return total;
}

// ---- HTTP ------------------------------------------------------------------------------------
type Answer = { status: number; body: string; error: string | null };

function client(base: string, key: string) {
  // Idle connections are closed by this side after 2 s, well before the server's keep-alive
  // timeout (5 s), so that a request rarely goes out on a connection the server is closing.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 2000 });
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json" };
  const stats = { keepAliveRetries: 0 };
  function send(method: "GET" | "POST", pathAndQuery: string, body?: unknown, resent = 0): Promise<Answer> {
    return new Promise((resolve) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = http.request(`${base}/api/v1${pathAndQuery}`, { method, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), error: null }));
        res.on("error", (e) => resolve({ status: 0, body: "", error: e.message }));
      });
      req.setTimeout(60_000, () => req.destroy(new Error("no answer within 60 s")));
      req.on("error", (e: NodeJS.ErrnoException) => {
        // An idle keep-alive connection the server closed just as this request went out on it:
        // the request did not reach the server, so send it again (as Node's docs advise); the
        // agent may hand out another such connection, hence up to 3 times. Counted and printed.
        // Only on a reused connection: a reset on a new one is an error. (A resent POST that had
        // in fact been accepted would show as more runs listed than accepted.)
        if (resent < 3 && req.reusedSocket && e.code === "ECONNRESET") {
          stats.keepAliveRetries++;
          resolve(send(method, pathAndQuery, body, resent + 1));
        } else resolve({ status: 0, body: "", error: `${e.message}${req.reusedSocket ? " (on a reused connection)" : ""}` });
      });
      req.end(payload);
    });
  }
  return {
    send,
    stats,
    async json<T>(method: "GET" | "POST", pathAndQuery: string, body?: unknown): Promise<T> {
      const answer = await send(method, pathAndQuery, body);
      if (answer.status < 200 || answer.status >= 300) throw new Error(`${method} ${pathAndQuery} answered ${answer.status || answer.error}: ${answer.body.slice(0, 300)}`);
      return JSON.parse(answer.body) as T;
    },
    close: () => agent.destroy(),
  };
}
type Client = ReturnType<typeof client>;

/** Every page of a list endpoint. */
async function allPages<T>(api: Client, pathAndQuery: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const sep = pathAndQuery.includes("?") ? "&" : "?";
    const page: { items: T[]; next_cursor: string | null } = await api.json("GET", `${pathAndQuery}${sep}limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    items.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return items;
}

/** Runs `fn` over `items`, `concurrency` at once. */
async function pool<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await fn(items[next++]!);
  }));
}

// ---- One round ---------------------------------------------------------------------------------
type RoundResult = {
  counts: Map<string, number>;
  errors: string[];
  reads: { p50: number; p95: number; p99: number; max: number; n: number };
  readKinds: Map<Kind, { p50: number; p99: number; n: number }>;
  writes: Map<Kind, { p50: number; p99: number; n: number }>;
  memory: { firstHalfMaxMiB: number; overFirstHalf: number; secondHalfSlope: number; perMinute: number[]; firstMiB: number; lastMiB: number; growth: number; slopeMiBPerMin: number; maxMiB: number; samples: number; windowS: number };
  accepted: number;
  listed: number;
  finished: Map<string, number>;
  drainS: number;
  money: { ledgerUsage: bigint; apiCaptured: bigint; dbCaptured: bigint; dbLedgerUsage: bigint; ledgerTotal: bigint; balance: bigint; dbBalance: bigint; dbLedgerTotal: bigint };
  holdsLeft: { api: number; apiHeldUsd: bigint; db: number; dbHeldMicros: bigint };
  serverErrorLines: string[];
  cpu: { seconds: number; server: number; generator: number; machineBusy: number; database: number; transactions: number };
  keepAliveRetries: number;
  loadBefore: string;
  loadAfter: string;
  failures: string[];
};

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

async function round(n: number, services: { simulatorUrl: string; pageOrigin: string; pagePort: number }): Promise<RoundResult> {
  const loadBefore = load();
  const port = await portInRange();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "geoscope-load-"));
  const dbName = `geoscope_bench_load_${Date.now().toString(36)}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    GEOSCOPE_DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_BASE_URL: base,
    NEXTAUTH_URL: base,
    GEOSCOPE_ENGINES: "simulated",
    GEOSCOPE_SIMULATOR_URL: services.simulatorUrl,
    GEOSCOPE_SIMULATOR_LATENCY_MS: LATENCY_MS,
    AUDIT_ALLOW_HOSTS: `127.0.0.1:${services.pagePort}`,
  };
  for (const k of ["DATABASE_URL", "INNGEST_EVENT_KEY", "INNGEST_DEV", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "BILLING_ENABLED"]) delete env[k];
  let dbUrl: string | null = null;
  if (onPostgres) {
    await adminQuery(PG_SERVER, `CREATE DATABASE "${dbName}"`);
    const u = new URL(PG_SERVER);
    u.pathname = `/${dbName}`;
    dbUrl = u.toString();
    env.DATABASE_URL = dbUrl;
  }
  const logFile = path.join(dataDir, "server.log");
  let server: ChildProcess | null = null;
  try {
    await runToEnd(bin("tsx"), [path.join(repoRoot, "scripts", "db-migrate.ts")], env);
    const created = JSON.parse(
      await runToEnd(bin("tsx"), [path.join(repoRoot, "scripts", "admin.ts"), "user:create", "--email", "load@example.com", "--api-key", "load"], env),
    ) as { workspace_id: string; api_key: { key: string } };
    await runToEnd(bin("tsx"), [path.join(repoRoot, "scripts", "admin.ts"), "credit:add", "--workspace", created.workspace_id, "--usd", "100000.00"], env);
    const logFd = openSync(logFile, "a");
    // BENCH_SERVER_CPU_PROFILE=dir: the server writes a CPU profile there when it stops (for Chrome DevTools).
    const profile = process.env.BENCH_SERVER_CPU_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(process.env.BENCH_SERVER_CPU_PROFILE)}`] : [];
    // BENCH_HEAP_SNAPSHOTS=dir: a heap snapshot of the server after the warm-up and another after the
    // load (outside the measured minutes; compare them with bench/lib/heap-diff.ts).
    if (process.env.BENCH_HEAP_SNAPSHOTS) profile.push("--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${path.resolve(process.env.BENCH_HEAP_SNAPSHOTS)}`);
    server = spawn(process.execPath, [...profile, path.join(repoRoot, "node_modules", "next", "dist", "bin", "next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
      cwd: repoRoot,
      env: serverEnv(env),
      stdio: ["ignore", logFd, logFd],
      detached: true,
    });
    closeSync(logFd);
    await waitReady(`${base}/api/v1/version`, server);
    const serverPid = server.pid!;

    const api = client(base, created.api_key.key);
    const project = (await api.json<{ id: string }>("POST", "/projects", { name: "Load" })).id;

    // What the reads pick from: the newest runs and batches the load created.
    const recentRuns: string[] = [];
    const recentBatches: string[] = [];
    const remember = (list: string[], ids: string[]) => {
      list.push(...ids);
      if (list.length > 2000) list.splice(0, list.length - 1000);
    };
    const pick = (list: string[]) => list[Math.max(0, list.length - 1 - Math.floor(Math.random() * Math.min(list.length, 500)))];
    let accepted = 0;
    let seq = 0;

    const counts = new Map<string, number>();
    const errors: string[] = [];
    const latencies = new Map<Kind, number[]>(MIX.map((m) => [m.kind, []]));
    let measuring = false;
    let minuteReads: number[] = [];

    async function one(kind: Kind, due: number): Promise<void> {
      const i = ++seq;
      let answer: Answer;
      let onAccepted: (body: unknown) => void = () => undefined;
      switch (kind) {
        case "GET /runs/{id}":
          answer = await api.send("GET", `/runs/${pick(recentRuns)}`);
          break;
        case "GET /runs":
          answer = await api.send("GET", `/runs?limit=20`);
          break;
        case "GET /batches/{id}":
          answer = await api.send("GET", `/batches/${pick(recentBatches)}`);
          break;
        case "POST /prompts":
          answer = await api.send("POST", "/prompts", { prompt: `load ${n}.${i}: which CRM suits a team of ${5 + (i % 50)} people?`, project });
          onAccepted = (b) => {
            const batch = b as { batch: { id: string }; runs: { id: string }[] };
            accepted += batch.runs.length;
            remember(recentBatches, [batch.batch.id]);
            remember(recentRuns, batch.runs.map((r) => r.id));
          };
          break;
        case "POST /fanouts":
          answer = await api.send("POST", "/fanouts", {
            prompts: Array.from({ length: FANOUT.prompts }, (_, p) => ({ text: `load ${n}.${i}.${p}: best project tracker for ${["agencies", "schools", "clinics", "shops"][p % 4]}?` })),
            runs: FANOUT.runs,
            project,
          });
          onAccepted = (b) => {
            const ids = runIdsOf(b);
            accepted += ids.length;
            remember(recentRuns, ids);
          };
          break;
        case "POST /audits":
          answer = await api.send("POST", "/audits", { url: `${services.pageOrigin}/articles/${i % AUDIT_PAGES}`, project });
          onAccepted = (b) => {
            accepted += 1;
            remember(recentRuns, [(b as { id: string }).id]);
          };
          break;
      }
      const ms = performance.now() - due;
      if (answer.status === 202) onAccepted(JSON.parse(answer.body));
      if (!measuring) return;
      const key = `${kind} ${answer.status || "no answer"}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      latencies.get(kind)!.push(ms);
      if (isRead(kind)) minuteReads.push(ms);
      const ok = answer.status === 200 || answer.status === 202 || answer.status === 429;
      if (!ok && errors.length < 20) errors.push(`${kind} → ${answer.status || answer.error}: ${answer.body.slice(0, 300)}`);
    }

    // Open-loop schedule: each kind at its own steady interval, the kinds offset from one another.
    async function drive(seconds: number, onSecond?: (s: number) => void): Promise<void> {
      const events: { at: number; kind: Kind }[] = [];
      MIX.forEach((m, k) => {
        const interval = 1000 / m.perSecond;
        for (let t = (k * 7) % Math.min(interval, 50); t < seconds * 1000; t += interval) events.push({ at: t, kind: m.kind });
      });
      events.sort((a, b) => a.at - b.at);
      const start = performance.now() + 20;
      const inflight = new Set<Promise<void>>();
      let lastSecond = -1;
      for (const event of events) {
        const due = start + event.at;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        const promise = one(event.kind, due).finally(() => inflight.delete(promise));
        inflight.add(promise);
        const second = Math.floor(event.at / 1000);
        if (onSecond && second !== lastSecond) onSecond((lastSecond = second));
      }
      await Promise.all(inflight);
    }

    // Warm-up, not counted: a first of everything (routes compiled, pool filled), then the mix.
    const first = await api.json<{ batch: { id: string }; runs: { id: string }[] }>("POST", "/prompts", { prompt: `load ${n}: warm-up`, project });
    accepted += first.runs.length;
    remember(recentBatches, [first.batch.id]);
    remember(recentRuns, first.runs.map((r) => r.id));
    await drive(WARMUP_S);

    const snapshot = async (label: string) => {
      const dir = process.env.BENCH_HEAP_SNAPSHOTS;
      if (!dir) return;
      const before = new Set(readdirSync(dir));
      process.kill(serverPid, "SIGUSR2");
      for (let size = -1; ; ) {
        await sleep(1000);
        const file = readdirSync(dir).find((f) => !before.has(f) && f.endsWith(".heapsnapshot"));
        if (!file) continue;
        const now = statSync(path.join(dir, file)).size;
        if (now === size && now > 0) {
          console.log(`  heap snapshot ${label}: ${path.join(dir, file)} (${mib(now).toFixed(0)} MiB)`);
          return;
        }
        size = now;
      }
    };
    await snapshot("after the warm-up");

    // The measured part.
    const seconds = Math.round(MINUTES * 60);
    const rss: { t: number; bytes: number }[] = [];
    const startedAt = performance.now();
    const sampleRss = () => {
      const bytes = treeRss(serverPid);
      if (bytes !== null) rss.push({ t: (performance.now() - startedAt) / 1000, bytes });
    };
    sampleRss();
    const sampler = setInterval(sampleRss, 2000);
    // PostgreSQL's backends serving this database (the server's pool), by pid, to count their CPU too.
    const backendCpu = async () => {
      if (!onPostgres) return new Map<number, number>();
      const { rows } = await adminQuery(PG_SERVER, `SELECT pid FROM pg_stat_activity WHERE datname = '${dbName}'`);
      return new Map(rows.map((row: { pid: number }) => [row.pid, treeCpuSeconds(row.pid)]));
    };
    const dbStats = async () =>
      onPostgres
        ? ((await adminQuery(PG_SERVER, `SELECT xact_commit + xact_rollback AS xacts FROM pg_stat_database WHERE datname = '${dbName}'`)).rows[0] as { xacts: string }).xacts
        : "0";
    const xactsAtStart = await dbStats();
    const cpuAtStart = { server: treeCpuSeconds(serverPid), self: process.cpuUsage(), machine: machineTicks(), backends: await backendCpu() };
    measuring = true;
    await drive(seconds, (s) => {
      if (s > 0 && s % 60 === 0) {
        const reads = MIX.filter((m) => m.read).flatMap((m) => latencies.get(m.kind)!).sort((a, b) => a - b);
        const minute = minuteReads.sort((a, b) => a - b);
        minuteReads = [];
        const bad = [...counts].filter(([k]) => !/ (200|202|429)$/.test(k)).reduce((sum, [, v]) => sum + v, 0);
        const limited = [...counts].filter(([k]) => k.endsWith(" 429")).reduce((sum, [, v]) => sum + v, 0);
        console.log(
          `  round ${n}, minute ${s / 60}/${MINUTES}: ${[...counts.values()].reduce((a, b) => a + b, 0)} requests (429: ${limited}, errors: ${bad}), ` +
            `reads p99 this minute ${quantile(minute, 0.99).toFixed(1)} ms (so far ${quantile(reads, 0.99).toFixed(1)} ms), server rss ${mib(rss.at(-1)?.bytes ?? 0).toFixed(0)} MiB, load ${load()}`,
        );
      }
    });
    measuring = false;
    const self = process.cpuUsage(cpuAtStart.self);
    const machineNow = machineTicks();
    const cpu = {
      seconds,
      server: treeCpuSeconds(serverPid) - cpuAtStart.server,
      generator: (self.user + self.system) / 1e6,
      machineBusy: (machineNow.busy - cpuAtStart.machine.busy) / (machineNow.total - cpuAtStart.machine.total),
      database: [...(await backendCpu())].reduce((sum, [pid, now]) => sum + now - (cpuAtStart.backends.get(pid) ?? 0), 0),
      // Statistics reach pg_stat_database when a backend goes idle, so this lags by up to a second or so.
      transactions: Number(await dbStats()) - Number(xactsAtStart),
    };
    clearInterval(sampler);
    sampleRss();

    // Memory: the first and the last minute (a third of the run each when shorter than 3 minutes).
    const windowS = Math.min(60, seconds / 3);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const firstMiB = mib(mean(rss.filter((r) => r.t <= windowS).map((r) => r.bytes)));
    const lastMiB = mib(mean(rss.filter((r) => r.t >= seconds - windowS).map((r) => r.bytes)));
    const tMean = mean(rss.map((r) => r.t));
    const yMean = mean(rss.map((r) => mib(r.bytes)));
    const slope =
      rss.reduce((s, r) => s + (r.t - tMean) * (mib(r.bytes) - yMean), 0) / rss.reduce((s, r) => s + (r.t - tMean) ** 2, 0) * 60;
    const half = rss.filter((r) => r.t >= seconds / 2);
    const hMeanT = mean(half.map((r) => r.t));
    const hMeanY = mean(half.map((r) => mib(r.bytes)));
    const secondHalfSlope = (half.reduce((s, r) => s + (r.t - hMeanT) * (mib(r.bytes) - hMeanY), 0) / half.reduce((s, r) => s + (r.t - hMeanT) ** 2, 0)) * 60;
    const perMinute = Array.from({ length: Math.ceil(seconds / 60) }, (_, m) => mib(mean(rss.filter((r) => r.t >= m * 60 && r.t < (m + 1) * 60).map((r) => r.bytes))));
    const windows = Array.from({ length: Math.floor(seconds / 2 / windowS) }, (_, w) =>
      mib(mean(rss.filter((r) => r.t >= w * windowS && r.t < (w + 1) * windowS).map((r) => r.bytes))),
    );
    const firstHalfMaxMiB = Math.max(...windows);
    const memory = {
      firstHalfMaxMiB,
      overFirstHalf: (lastMiB - firstHalfMaxMiB) / firstHalfMaxMiB,
      secondHalfSlope,
      perMinute,
      firstMiB,
      lastMiB,
      growth: (lastMiB - firstMiB) / firstMiB,
      slopeMiBPerMin: slope,
      maxMiB: mib(Math.max(...rss.map((r) => r.bytes))),
      samples: rss.length,
      windowS,
    };

    // Latency figures.
    const stats = (xs: number[]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      return { p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), p99: quantile(sorted, 0.99), max: sorted.at(-1) ?? NaN, n: sorted.length };
    };
    const reads = stats(MIX.filter((m) => m.read).flatMap((m) => latencies.get(m.kind)!));
    const readKinds = new Map(MIX.filter((m) => m.read).map((m) => [m.kind, stats(latencies.get(m.kind)!)]));
    const writes = new Map(MIX.filter((m) => !m.read).map((m) => [m.kind, stats(latencies.get(m.kind)!)]));
    const loadAfter = load();

    // Every accepted piece of work finishes: nothing queued or running.
    const drainStarted = performance.now();
    for (;;) {
      const queued = await api.json<{ items: unknown[] }>("GET", "/runs?status=queued&limit=1");
      const running = await api.json<{ items: unknown[] }>("GET", "/runs?status=running&limit=1");
      if (queued.items.length === 0 && running.items.length === 0) break;
      if (performance.now() - drainStarted > DRAIN_TIMEOUT_MS) throw new Error("accepted work still unfinished 15 minutes after the load");
      await sleep(500);
    }
    const drainS = (performance.now() - drainStarted) / 1000;
    // Taken once nothing is in flight any more, so it holds what the server keeps, not requests.
    await snapshot("after the load, all work finished");

    // The books, through the API: every run's charge, the ledger, the balance.
    const listed = await allPages<{ id: string; status: string }>(api, "/runs");
    const finished = new Map<string, number>();
    for (const r of listed) finished.set(r.status, (finished.get(r.status) ?? 0) + 1);
    let apiCaptured = 0n;
    let apiHolds = 0;
    await pool(listed, 8, async ({ id }) => {
      const run = await api.json<{ charge: { status: string; amount_usd: string } | null }>("GET", `/runs/${id}`);
      if (run.charge?.status === "captured") apiCaptured += parseUsd(run.charge.amount_usd);
      if (run.charge?.status === "held") apiHolds++;
    });
    const transactions = await allPages<{ kind: string; amount_usd: string }>(api, "/billing/transactions");
    let ledgerTotal = 0n;
    let ledgerUsage = 0n;
    for (const t of transactions) {
      const micros = parseUsd(t.amount_usd, { allowNegative: true });
      ledgerTotal += micros;
      if (t.kind === "usage") ledgerUsage += micros;
    }
    const billing = await api.json<{ balance_usd: string; held_usd: string }>("GET", "/billing");
    api.close();

    await stopServer(server);
    server = null;

    // The books, in the database (the server stopped: PGlite allows one process at a time).
    const sql = await openSql(dbUrl, path.join(dataDir, "pglite"));
    const scalar = async (q: string) => BigInt(String(Object.values((await sql.query(q))[0]!)[0] ?? 0));
    const dbHeld = Number(await scalar(`SELECT count(*) FROM credit_holds WHERE status = 'held'`));
    const dbHeldMicros = await scalar(`SELECT coalesce(sum(held_micros), 0) FROM credit_balances`);
    const dbCaptured = await scalar(`SELECT coalesce(sum(h.captured_micros), 0) FROM credit_holds h JOIN runs r ON r.id = h.run_id WHERE h.status = 'captured'`);
    const dbLedgerUsage = await scalar(`SELECT coalesce(sum(amount_micros), 0) FROM ledger_transactions WHERE kind = 'usage'`);
    const dbLedgerTotal = await scalar(`SELECT coalesce(sum(amount_micros), 0) FROM ledger_transactions`);
    const dbBalance = await scalar(`SELECT coalesce(sum(promo_micros + purchased_micros), 0) FROM credit_balances`);
    await sql.close();

    const serverErrorLines = readFileSync(logFile, "utf8")
      .split("\n")
      .filter((line) => /"level":"error"|⨯|Error:/.test(line));

    const money = { ledgerUsage, apiCaptured, dbCaptured, dbLedgerUsage, ledgerTotal, balance: parseUsd(billing.balance_usd), dbBalance, dbLedgerTotal };
    const holdsLeft = { api: apiHolds, apiHeldUsd: parseUsd(billing.held_usd), db: dbHeld, dbHeldMicros };
    const failures: string[] = [];
    const bad = [...counts].filter(([k]) => !/ (200|202|429)$/.test(k));
    if (bad.length) failures.push(`answers other than 2xx/429: ${bad.map(([k, v]) => `${k} ×${v}`).join(", ")}`);
    if (!(memory.overFirstHalf <= MEMORY_GROWTH_LIMIT)) {
      failures.push(`memory grew: last minute ${(memory.overFirstHalf * 100).toFixed(1)}% above the first half's highest (limit ${MEMORY_GROWTH_LIMIT * 100}%)`);
    }
    if (!(reads.p99 < READ_P99_TARGET_MS)) failures.push(`reads p99 ${reads.p99.toFixed(1)} ms (target < ${READ_P99_TARGET_MS})`);
    if (listed.length !== accepted) failures.push(`${accepted} runs accepted, ${listed.length} listed`);
    if ((finished.get("queued") ?? 0) + (finished.get("running") ?? 0) > 0) failures.push("runs left unfinished");
    if (ledgerUsage !== -apiCaptured || dbLedgerUsage !== -dbCaptured || apiCaptured !== dbCaptured || ledgerUsage !== dbLedgerUsage) failures.push("ledger usage ≠ runs' captured charges");
    if (ledgerTotal !== money.balance || dbLedgerTotal !== dbBalance || dbBalance !== money.balance) failures.push("balance ≠ ledger sum");
    if (apiHolds || holdsLeft.apiHeldUsd !== 0n || dbHeld || dbHeldMicros !== 0n) failures.push("holds left");
    return { counts, errors, reads, readKinds, writes, memory, accepted, listed: listed.length, finished, drainS, money, holdsLeft, serverErrorLines, cpu, keepAliveRetries: api.stats.keepAliveRetries, loadBefore, loadAfter, failures };
  } finally {
    if (server) await stopServer(server);
    if (onPostgres) await adminQuery(PG_SERVER, `DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => undefined);
    if (!process.env.BENCH_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
    else console.log(`  kept ${dataDir}`);
  }
}

/** The run ids of a POST /fanouts answer (prompts → engines → runs). */
function runIdsOf(value: unknown): string[] {
  const ids: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (k === "run_id" && typeof x === "string") ids.push(x);
        else walk(x);
      }
    }
  };
  walk(value);
  return ids;
}

async function openSql(url: string | null, pgliteDir: string): Promise<{ query(q: string): Promise<Record<string, unknown>[]>; close(): Promise<void> }> {
  if (url) {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    return { query: async (q) => (await c.query(q)).rows, close: () => c.end() };
  }
  const lite = new PGlite(pgliteDir);
  return { query: async (q) => (await lite.query<Record<string, unknown>>(q)).rows, close: () => lite.close() };
}

// ---- Main ----------------------------------------------------------------------------------
function printRound(n: number, r: RoundResult): void {
  const usd = (micros: bigint) => {
    const neg = micros < 0n;
    const abs = neg ? -micros : micros;
    return `${neg ? "-" : ""}${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, "0")}`;
  };
  console.log(`\nround ${n} of ${ROUNDS}: load average before ${r.loadBefore}, after the load ${r.loadAfter} (1, 5, 15 min)`);
  console.log(`  requests by kind and status: ${[...r.counts].sort().map(([k, v]) => `${k}: ${v}`).join("; ")}`);
  const total = [...r.counts.values()].reduce((a, b) => a + b, 0);
  const limited = [...r.counts].filter(([k]) => k.endsWith(" 429")).reduce((s, [, v]) => s + v, 0);
  console.log(`  ${total} requests in ${MINUTES} min (${(total / (MINUTES * 60)).toFixed(1)}/s), 429: ${limited}, other errors: ${r.errors.length ? r.errors.length : "none"}`);
  for (const e of r.errors) console.log(`    ${e}`);
  console.log(`  reads (${r.reads.n}): p50 ${r.reads.p50.toFixed(1)} ms, p95 ${r.reads.p95.toFixed(1)} ms, p99 ${r.reads.p99.toFixed(1)} ms, max ${r.reads.max.toFixed(1)} ms   target p99 < ${READ_P99_TARGET_MS} ms`);
  for (const [k, s] of r.readKinds) console.log(`    ${k}: p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms (${s.n})`);
  for (const [k, s] of r.writes) console.log(`  ${k}: p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms (${s.n})`);
  const c = r.cpu;
  console.log(
    `  CPU over the ${c.seconds} s: the machine's ${os.availableParallelism()} cores ${(c.machineBusy * 100).toFixed(0)}% busy (everyone's); ` +
      `the server (next start) ${c.server.toFixed(1)} s = ${((c.server / c.seconds) * 100).toFixed(0)}% of one core; ${onPostgres ? `PostgreSQL's backends of this database ${((c.database / c.seconds) * 100).toFixed(0)}% (${(c.transactions / c.seconds).toFixed(0)} transactions/s); ` : ""}the load generator ${((c.generator / c.seconds) * 100).toFixed(0)}%; keep-alive resets resent: ${r.keepAliveRetries}`,
  );
  const m = r.memory;
  console.log(
    `  memory, server RSS (${m.samples} samples every 2 s): first ${m.windowS.toFixed(0)} s ${m.firstMiB.toFixed(1)} MiB, last ${m.windowS.toFixed(0)} s ${m.lastMiB.toFixed(1)} MiB ` +
      `(${m.growth >= 0 ? "+" : ""}${(m.growth * 100).toFixed(1)}%), slope ${m.slopeMiBPerMin.toFixed(2)} MiB/min (second half ${m.secondHalfSlope.toFixed(2)}), max ${m.maxMiB.toFixed(1)} MiB; ` +
      `last ${m.windowS.toFixed(0)} s against the first half's highest ${m.windowS.toFixed(0)} s (${m.firstHalfMaxMiB.toFixed(1)} MiB): ${m.overFirstHalf >= 0 ? "+" : ""}${(m.overFirstHalf * 100).toFixed(1)}% ` +
      `(limit +${MEMORY_GROWTH_LIMIT * 100}%): ${m.overFirstHalf <= MEMORY_GROWTH_LIMIT ? "memory flat" : "MEMORY GROWS"}`,
  );
  console.log(`    RSS by minute, MiB: ${m.perMinute.map((v) => v.toFixed(0)).join(", ")}`);
  console.log(`  work: ${r.accepted} runs accepted, ${r.listed} listed; finished ${[...r.finished].map(([k, v]) => `${k} ${v}`).join(", ")}; the last finished ${r.drainS.toFixed(1)} s after the load`);
  const mo = r.money;
  console.log(`  ledger usage: API ${usd(mo.ledgerUsage)} USD, database ${usd(mo.dbLedgerUsage)}; runs' captured charges: API ${usd(mo.apiCaptured)}, database ${usd(mo.dbCaptured)}: ${mo.ledgerUsage === -mo.apiCaptured && mo.dbLedgerUsage === -mo.dbCaptured && mo.apiCaptured === mo.dbCaptured ? "equal" : "NOT EQUAL"}`);
  console.log(`  balance ${usd(mo.balance)} USD = ledger sum ${usd(mo.ledgerTotal)} (database: ${usd(mo.dbBalance)} = ${usd(mo.dbLedgerTotal)}); holds left: API ${r.holdsLeft.api} runs held, held_usd ${usd(r.holdsLeft.apiHeldUsd)}; database ${r.holdsLeft.db} holds, held ${usd(r.holdsLeft.dbHeldMicros)}`);
  console.log(`  server log: ${r.serverErrorLines.length} error lines${r.serverErrorLines.length ? `, first: ${r.serverErrorLines.slice(0, 3).map((l) => l.slice(0, 400)).join(" | ")}` : ""}`);
  console.log(`  round ${n}: ${r.failures.length ? `FAILED: ${r.failures.join("; ")}` : "every criterion met"}`);
}

const pagePort = await portInRange();
const simulatorPort = await portInRange();
const site = await startPageHost(pagePort);
const simulator = await startSimulator({ port: simulatorPort });
const simulatorUrl = process.env.GEOSCOPE_SIMULATOR_URL!;
const perSecond = MIX.reduce((s, m) => s + m.perSecond, 0);
console.log(
  `workload: ${MINUTES} min per round after a ${WARMUP_S} s warm-up, ${ROUNDS} round(s), open loop at a steady ${perSecond.toFixed(1)} req/s: ` +
    MIX.map((m) => `${m.kind} ${m.perSecond}/s`).join(", ") +
    `; prompts on every enabled engine (3), fanouts of ${FANOUT.prompts} prompts × 3 engines × ${FANOUT.runs} runs, audits of ${AUDIT_PAGES} local pages (10 KiB–1 MiB) on ${site.origin} (own process); ` +
    `engines simulated at ${LATENCY_MS} ms (own process); next start (production build), ${onPostgres ? `PostgreSQL (${new URL(PG_SERVER).host})` : "embedded PGlite (temporary folder)"}, a fresh database per round`,
);
console.log(`machine: ${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? "?"}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}; shared with other engineers' builds and tests; load average ${load()} (1, 5, 15 min)`);

const results: RoundResult[] = [];
for (let n = 1; n <= ROUNDS; n++) {
  const r = await round(n, { simulatorUrl, pageOrigin: site.origin, pagePort });
  results.push(r);
  printRound(n, r);
}
simulator.stop();
site.stop();

if (ROUNDS > 1) {
  console.log(`\n${ROUNDS} rounds, median (min–max):`);
  console.log(`  reads p50 ms ${summary(results.map((r) => r.reads.p50), 1)}; p95 ${summary(results.map((r) => r.reads.p95), 1)}; p99 ${summary(results.map((r) => r.reads.p99), 1)}`);
  console.log(`  memory: last minute over the first half's highest % ${summary(results.map((r) => r.memory.overFirstHalf * 100), 1)}; first→last minute % ${summary(results.map((r) => r.memory.growth * 100), 1)}; slope MiB/min ${summary(results.map((r) => r.memory.slopeMiBPerMin), 2)}; last-minute RSS MiB ${summary(results.map((r) => r.memory.lastMiB), 0)}`);
  console.log(`  runs accepted ${summary(results.map((r) => r.accepted), 0)}; 429s ${summary(results.map((r) => [...r.counts].filter(([k]) => k.endsWith(" 429")).reduce((s, [, v]) => s + v, 0)), 0)}`);
}
const failed = results.flatMap((r, i) => r.failures.map((f) => `round ${i + 1}: ${f}`));
console.log(`\nload average at the end: ${load()}`);
console.log(failed.length ? `FAILED: ${failed.join("; ")}` : `every criterion met in ${ROUNDS} round(s)`);
process.exit(failed.length ? 1 : 0);
