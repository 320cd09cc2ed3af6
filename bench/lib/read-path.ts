// The read path without Next.js: the route handlers of GET /runs/{id}, GET /runs,
// GET /batches/{id}, GET /fanouts/{id} and GET /analyses/{id} called in-process with real Request objects, many times, printing CPU time
// per request (process.cpuUsage, steadier than wall-clock time on a shared machine) and the
// database statements each sends. What bench:api measures through `next start`, minus Next.js,
// the network and the load generator: for deciding what a change to the read path saves.
// Run: npx tsx bench/lib/read-path.ts [--pg] [requests per case, default 3000]
import os from "node:os";
import pg from "pg";
import { openBenchDatabase, simulatedEnvironment } from "./setup";
import { loadAverage, machine, median } from "./rounds";

simulatedEnvironment();
process.env.GEOSCOPE_SIMULATOR_LATENCY_MS = "0";
(process.env as Record<string, string>).NODE_ENV = "production";
const args = process.argv.slice(2);
const onPostgres = args.includes("--pg");
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 3000);

// BENCH_PGLITE_DIR: PGlite in that (empty) folder instead of in memory, as `npm start` has it.
const bench = process.env.BENCH_PGLITE_DIR && !onPostgres ? await pgliteIn(process.env.BENCH_PGLITE_DIR) : await openBenchDatabase(onPostgres);

async function pgliteIn(dir: string) {
  const { openDb, setCurrentDb } = await import("@/lib/db/client");
  const { applyPendingMigrations } = await import("@/lib/db/migrate");
  const database = openDb({ kind: "pglite", dataDir: dir });
  await applyPendingMigrations(database);
  setCurrentDb(database);
  return { database, close: () => database.close() };
}
let statements = 0;
if (onPostgres) {
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...a: unknown[]) {
    statements++;
    return (query as (...x: unknown[]) => unknown).apply(this, a);
  } as typeof query;
} else if (bench.database.pgliteThread) {
  // PGlite in its worker thread (the server's default): every statement is a message to it.
  const thread = bench.database.pgliteThread as unknown as Record<"call" | "callInTransaction", (message: { op: string }) => Promise<unknown>>;
  for (const method of ["call", "callInTransaction"] as const) {
    const original = thread[method].bind(thread);
    thread[method] = (message) => {
      if (["exec", "queryRaw", "executeRaw"].includes(message.op)) statements++;
      return original(message);
    };
  }
} else {
  const lite = bench.database.pglite!;
  for (const method of ["query", "exec"] as const) {
    const original = lite[method].bind(lite) as (...x: unknown[]) => Promise<unknown>;
    (lite as unknown as Record<string, unknown>)[method] = (...a: unknown[]) => {
      statements++;
      return original(...a);
    };
  }
}

const { ensureUser } = await import("@/lib/accounts/users");
const { issueApiKey } = await import("@/lib/auth/api-keys");
const { recordPurchase } = await import("@/lib/billing/ledger");
type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
const runRoute = (await import("@/app/api/v1/runs/[run_id]/route")) as { GET: Handler };
const runsRoute = (await import("@/app/api/v1/runs/route")) as { GET: Handler };
const batchRoute = (await import("@/app/api/v1/batches/[batch_id]/route")) as { GET: Handler };
const promptsRoute = (await import("@/app/api/v1/prompts/route")) as { POST: Handler };
const projectsRoute = (await import("@/app/api/v1/projects/route")) as { POST: Handler };

const user = await ensureUser("bench@example.com");
await bench.database.prisma.$transaction((tx) => recordPurchase(tx, { workspaceId: user.personalWorkspaceId, amountMicros: 1_000_000_000n }));
const key = (await issueApiKey(user.id, user.personalWorkspaceId, "bench")).key;
const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
const base = "http://localhost/api/v1";
const noParams = { params: Promise.resolve({}) };
const project = (await (await projectsRoute.POST(new Request(`${base}/projects`, { method: "POST", headers, body: JSON.stringify({ name: "Bench" }) }), noParams)).json()) as { id: string };
const body = JSON.stringify({ prompt: "best running shoes for flat feet", project: project.id, engines: ["chatgpt", "claude", "gemini"] });
const accepted = (await (await promptsRoute.POST(new Request(`${base}/prompts`, { method: "POST", headers, body }), noParams)).json()) as { batch: { id: string }; runs: { id: string }[] };
const runId = accepted.runs[0]!.id;
const batchId = accepted.batch.id;
for (let i = 0; i < 19; i++) await promptsRoute.POST(new Request(`${base}/prompts`, { method: "POST", headers, body }), noParams);
const waited = await batchRoute.GET(new Request(`${base}/batches/${batchId}?wait=30`, { headers }), { params: Promise.resolve({ batch_id: batchId }) });
if (((await waited.json()) as { batch: { status: string } }).batch.status !== "completed") throw new Error("the batch did not complete");
// A fanout (5 prompts × 3 engines × 2 runs), a questions analysis of 10 questions and a citation
// analysis of the 20 batches' 60 runs, for the research reads.
// The jobs a server installs at start (lib/work/start.ts).
(await import("@/lib/work/local-driver")).installJobs((await import("@/lib/work/registry")).registeredJobs());
const fanoutsRoute = (await import("@/app/api/v1/fanouts/route")) as { POST: Handler };
const fanoutRoute = (await import("@/app/api/v1/fanouts/[fanout_id]/route")) as { GET: Handler };
const questionsRoute = (await import("@/app/api/v1/questions/route")) as { POST: Handler };
const citationsRoute = (await import("@/app/api/v1/citation-analyses/route")) as { POST: Handler };
const analysisRoute = (await import("@/app/api/v1/analyses/[analysis_id]/route")) as { GET: Handler };
const post = async (route: { POST: Handler }, path: string, payload: unknown) =>
  (await (await route.POST(new Request(`${base}${path}`, { method: "POST", headers, body: JSON.stringify(payload) }), noParams)).json()) as { id: string };
const fanoutId = (await post(fanoutsRoute, "/fanouts", {
  prompts: Array.from({ length: 5 }, (_, i) => ({ text: `best running shoes for flat feet, take ${i}` })), engines: ["chatgpt", "claude", "gemini"], runs: 2, project: project.id,
})).id;
const questionsId = (await post(questionsRoute, "/questions", { topic: "running shoes for flat feet", count: 10, project: project.id })).id;
// Every run finished: background work would otherwise be measured with the reads.
await (await import("@/lib/work/local-driver")).localDriver().drained();
const { db } = await import("@/lib/db/client");
const allBatchIds = (await db().batch.findMany({ select: { id: true } })).map((b) => b.id);
const citationsId = (await post(citationsRoute, "/citation-analyses", { ids: allBatchIds, brands: ["Acme"], domains: ["example.com"] })).id;

// Each body is what the presenters make of the rows read through Prisma, byte for byte (also after a cache hit).
{
  const { referenceBatch, referenceFanout, referenceRun, referenceRunList } = await import("../../tests/helpers/references");
  const { getRunBody } = await import("@/lib/runs/read");
  const principal = { user: { id: user.id, email: user.email }, credential: { kind: "api_key" as const, id: "bench", name: "bench" }, workspaceId: user.personalWorkspaceId, apiKeyId: null };
  for (const run of accepted.runs) {
    for (let i = 0; i < 2; i++) {
      if ((await getRunBody(principal, run.id)).text !== (await referenceRun(principal, run.id))) throw new Error(`the body of ${run.id} differs from the presented one`);
    }
  }
  const { listRunsBody } = await import("@/lib/runs/read");
  const { RunsQuery } = await import("@/lib/schemas/runs");
  for (const q of [{ limit: "20" }, { limit: "2" }, { batch: batchId, limit: "50" }, { project: project.id, status: "completed", engine: "claude", limit: "5" }, { workspace: user.personalWorkspaceId }]) {
    let query = RunsQuery.parse(q);
    for (let page = 0; page < 2; page++) {
      const body = (await listRunsBody(principal, query)).text;
      if (body !== (await referenceRunList(principal, query))) throw new Error(`the list ${JSON.stringify(q)} (page ${page + 1}) differs`);
      const next = (JSON.parse(body) as { next_cursor: string | null }).next_cursor;
      if (!next) break;
      query = RunsQuery.parse({ ...q, cursor: next });
    }
  }
  const fanoutText = async () => (await (await fanoutRoute.GET(new Request(`${base}/fanouts/${fanoutId}`, { headers }), { params: Promise.resolve({ fanout_id: fanoutId }) })).text());
  const presentedFanout = await referenceFanout(fanoutId);
  for (let i = 0; i < 2; i++) if ((await fanoutText()) !== presentedFanout) throw new Error(`the body of ${fanoutId} differs from the presented one`);
  const { getAnalysis } = await import("@/lib/analyses/read");
  for (const id of [citationsId, questionsId]) {
    const presented = JSON.stringify(await getAnalysis(principal, id));
    for (let i = 0; i < 2; i++) {
      const text = await (await analysisRoute.GET(new Request(`${base}/analyses/${id}`, { headers }), { params: Promise.resolve({ analysis_id: id }) })).text();
      if (text !== presented) throw new Error(`the body of ${id} differs from the presented one`);
    }
  }
  const { getBatchBody } = await import("@/lib/runs/read");
  for (let i = 0; i < 2; i++) {
    if ((await getBatchBody(principal, batchId)).text !== (await referenceBatch(principal, batchId))) throw new Error(`the body of ${batchId} differs`);
  }
}

const cases: { name: string; send: () => Promise<Response> }[] = [
  { name: "GET /runs/{id}", send: () => runRoute.GET(new Request(`${base}/runs/${runId}`, { headers }), { params: Promise.resolve({ run_id: runId }) }) },
  { name: "GET /runs/{id}?wait=20 (finished)", send: () => runRoute.GET(new Request(`${base}/runs/${runId}?wait=20`, { headers }), { params: Promise.resolve({ run_id: runId }) }) },
  { name: "GET /runs?limit=20", send: () => runsRoute.GET(new Request(`${base}/runs?limit=20`, { headers }), noParams) },
  { name: "GET /runs?batch&wait=20 (finished)", send: () => runsRoute.GET(new Request(`${base}/runs?batch=${batchId}&wait=20`, { headers }), noParams) },
  { name: "GET /batches/{id} (3 runs)", send: () => batchRoute.GET(new Request(`${base}/batches/${batchId}`, { headers }), { params: Promise.resolve({ batch_id: batchId }) }) },
  { name: "GET /fanouts/{id} (30 runs)", send: () => fanoutRoute.GET(new Request(`${base}/fanouts/${fanoutId}`, { headers }), { params: Promise.resolve({ fanout_id: fanoutId }) }) },
  { name: "GET /analyses/{id} (citations, 60 runs)", send: () => analysisRoute.GET(new Request(`${base}/analyses/${citationsId}`, { headers }), { params: Promise.resolve({ analysis_id: citationsId }) }) },
  { name: "GET /analyses/{id} (10 questions)", send: () => analysisRoute.GET(new Request(`${base}/analyses/${questionsId}`, { headers }), { params: Promise.resolve({ analysis_id: questionsId }) }) },
];

console.log(`in-process read path, ${onPostgres ? "PostgreSQL" : bench.database.pgliteThread ? "PGlite in memory, in its worker thread" : "PGlite in memory, in this thread"}, ${N} sequential requests per case, 3 rounds after a warm-up; ${machine()}; load average ${loadAverage()}`);
for (const c of cases.filter((c) => !process.env.BENCH_CASES || process.env.BENCH_CASES.split(",").some((p) => c.name.startsWith(p)))) {
  const first = await c.send();
  const text = await first.text();
  if (first.status !== 200) throw new Error(`${c.name}: ${first.status} ${text}`);
  for (let i = 0; i < 300; i++) await (await c.send()).text();
  const cpu: number[] = [];
  const wall: number[] = [];
  let perRequest = 0;
  for (let round = 0; round < 3; round++) {
    statements = 0;
    const before = process.cpuUsage();
    const started = performance.now();
    // BENCH_CONCURRENCY: that many requests in flight at once, as from a server's many connections.
    const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 1);
    await Promise.all(Array.from({ length: concurrency }, async () => {
      for (let i = 0; i < N / concurrency; i++) await (await c.send()).text();
    }));
    const used = process.cpuUsage(before);
    wall.push(((performance.now() - started) * 1000) / N);
    cpu.push((used.user + used.system) / N);
    perRequest = statements / N;
  }
  console.log(`${c.name.padEnd(36)} CPU ${median(cpu).toFixed(0).padStart(5)} µs/req (${cpu.map((x) => x.toFixed(0)).join(", ")})  wall ${median(wall).toFixed(0).padStart(5)} µs  statements/req ${perRequest.toFixed(2)}  body ${text.length} B`);
}
if (process.env.BENCH_SHOW_BODY) console.log((await (await cases[0]!.send()).text()));
console.log(`load average ${loadAverage()}, ${os.availableParallelism()} cores`);
await bench.close();
process.exit(0);
