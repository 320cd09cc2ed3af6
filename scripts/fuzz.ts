// `npm run fuzz`: the fuzzers of tests/api/fuzz.test.ts with more cases. Every failure is printed
// with the request, the response and the command that replays exactly that case.
//   npm run fuzz -- [--seed N] [--cases N | --rounds N] [--endpoint OPERATION_ID]... [--case I]
//                   [--server URL --database-url postgresql://…]
// --seed     base seed (default: a new one, printed); each endpoint's cases derive from it
// --cases    cases per endpoint (default 200); case i applies mutation i mod the endpoint's mutations
// --rounds   instead of --cases: every mutation of each endpoint N times
// --endpoint only these operations (repeat or comma-separate)
// --case     only case I (with --endpoint): replays one failure
// --server   send the cases over HTTP to a running server (the built app, `next start`) instead of
//            calling the route handlers in this process; it must use the PostgreSQL database of
//            --database-url (already migrated), which this process seeds and reads to check that
//            a refused request changed nothing. Without --server: a fresh in-memory database.
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    seed: { type: "string" },
    cases: { type: "string", default: "200" },
    rounds: { type: "string" },
    endpoint: { type: "string", multiple: true },
    case: { type: "string" },
    server: { type: "string" },
    "database-url": { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});
const USAGE = "npm run fuzz -- [--seed N] [--cases N | --rounds N] [--endpoint OPERATION_ID]... [--case I] [--server URL --database-url postgresql://…]";
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const integer = (name: string, text: string | undefined, fallback: number) => {
  if (text === undefined) return fallback;
  if (!/^-?\d+$/.test(text)) {
    console.error(`--${name} must be a whole number, not ${JSON.stringify(text)}`);
    process.exit(2);
  }
  return Number(text);
};
const seed = integer("seed", values.seed, Math.floor(Math.random() * 2 ** 31));
const cases = integer("cases", values.cases, 200);
const rounds = values.rounds === undefined ? undefined : integer("rounds", values.rounds, 1);
const only = values.case === undefined ? undefined : integer("case", values.case, 0);
const wanted = new Set((values.endpoint ?? []).flatMap((e) => e.split(",")).map((e) => e.trim()).filter(Boolean));
if (only !== undefined && wanted.size !== 1) {
  console.error("--case replays one case of one endpoint: give exactly one --endpoint");
  process.exit(2);
}
const server = values.server?.replace(/\/+$/, "");
const databaseUrl = values["database-url"];
if (server !== undefined && !databaseUrl?.startsWith("postgres")) {
  console.error(`--server needs --database-url: the server's PostgreSQL database, which the fuzzer seeds and reads\n${USAGE}`);
  process.exit(2);
}

// As for the API test suite (tests/helpers/setup-api.ts, useSimulatedEngines): set before anything reads the configuration.
process.env.GEOSCOPE_VALIDATE_RESPONSES = "true";
const { useSimulatedEngines } = await import("../tests/helpers/engines");
useSimulatedEngines({ billing: true });
const { freshPglite } = await import("../tests/helpers/db");
const { openDb, setCurrentDb } = await import("../lib/db/client");
const fuzz = await import("../tests/helpers/fuzz");
// The jobs the server installs at start (lib/work/start.ts), as the API tests' setup does: the
// seeded world's runs, fanouts and analyses finish in this process (since #43 nothing else installs them here).
const { installJobs } = await import("../lib/work/local-driver");
installJobs((await import("../lib/work/registry")).registeredJobs());

const targets = fuzz.fuzzedEndpoints().filter((e) => wanted.size === 0 || wanted.has(e.operationId));
const unknown = [...wanted].filter((w) => !targets.some((t) => t.operationId === w));
if (unknown.length) {
  console.error(`no fuzzed endpoint named ${unknown.join(", ")}; they are: ${fuzz.fuzzedEndpoints().map((e) => e.operationId).join(", ")}`);
  process.exit(2);
}

const countOf = (endpoint: (typeof targets)[number]) => (rounds === undefined ? cases : rounds * fuzz.mutationsOf(endpoint).length);
console.log(
  `fuzz: seed ${seed}, ${only === undefined ? (rounds === undefined ? `${cases} cases` : `${rounds} round${rounds === 1 ? "" : "s"} of every mutation`) : `case ${only}`} per endpoint, ${targets.length} endpoints, ${server ? `over HTTP to ${server}` : "in process"}`,
);
let database: { close(): Promise<void> };
if (server) {
  const db = openDb({ kind: "postgres", url: databaseUrl! });
  setCurrentDb(db);
  database = db;
} else {
  database = await freshPglite();
}

/**
 * Until no job is queued or running (the work a 2xx started has finished on the server's worker,
 * or this process's) and the database has stopped changing for 100 ms: what an analysis keeps
 * after answering (its readings, its answers' structures) is written by the server outside any job.
 */
async function settle(): Promise<void> {
  const { db } = await import("../lib/db/client");
  const { dbFingerprint } = await import("../tests/helpers/fingerprint");
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [row] = await db().$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM "jobs" WHERE "status" IN ('queued', 'running')`);
    if (row!.n === 0n) break;
    if (Date.now() > deadline) throw new Error(`${row!.n} jobs still queued or running after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  let last = JSON.stringify(await dbFingerprint());
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = JSON.stringify(await dbFingerprint());
    if (now === last) return;
    if (Date.now() > deadline) throw new Error("the database was still changing after 60 s");
    last = now;
  }
}

const started = Date.now();
let total = 0;
const failures: import("../tests/helpers/fuzz").FuzzFailure[] = [];
try {
  const world = await fuzz.prepareFuzzWorld();
  const transport = server ? fuzz.overHttp(server, settle) : fuzz.inProcess;
  for (const endpoint of targets) {
    const t0 = Date.now();
    const result = await fuzz.fuzzEndpoint(await fuzz.fuzzTarget(endpoint, world), { seed, count: countOf(endpoint), only, slowMs: fuzz.SLOW_MS, transport });
    total += result.cases;
    failures.push(...result.failures);
    const statuses = Object.entries(result.statuses).map(([s, n]) => `${s}×${n}`).join(" ");
    const seconds = ((Date.now() - t0) / 1000).toFixed(1);
    console.log(`${endpoint.operationId.padEnd(24)} ${String(result.cases).padStart(5)} cases ${String(result.failures.length).padStart(4)} failed  ${seconds} s  [${statuses}]`);
  }
  world.restoreDriver();
} finally {
  await database.close();
}

const replayWith = server ? ` --server ${server} --database-url ${databaseUrl}` : "";
for (const failure of failures) console.log(`\n${fuzz.formatFailure(failure)}${replayWith}`);
console.log(`\nfuzz: ${total} cases in ${((Date.now() - started) / 1000).toFixed(1)} s, ${failures.length} failed (seed ${seed})`);
process.exit(failures.length ? 1 : 0);
