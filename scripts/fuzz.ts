// `npm run fuzz`: the fuzzers of tests/api/fuzz.test.ts with more cases, on a fresh in-memory
// database. Every failure is printed with the request, the response and the command that replays
// exactly that case.
//   npm run fuzz -- [--seed N] [--cases N] [--endpoint OPERATION_ID]... [--case I]
// --seed     base seed (default: a new one, printed); each endpoint's cases derive from it
// --cases    cases per endpoint (default 200); case i applies mutation i mod the endpoint's mutations
// --endpoint only these operations (repeat or comma-separate)
// --case     only case I (with --endpoint): replays one failure
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    seed: { type: "string" },
    cases: { type: "string", default: "200" },
    endpoint: { type: "string", multiple: true },
    case: { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});
if (values.help) {
  console.log("npm run fuzz -- [--seed N] [--cases N] [--endpoint OPERATION_ID]... [--case I]");
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
const only = values.case === undefined ? undefined : integer("case", values.case, 0);
const wanted = new Set((values.endpoint ?? []).flatMap((e) => e.split(",")).map((e) => e.trim()).filter(Boolean));
if (only !== undefined && wanted.size !== 1) {
  console.error("--case replays one case of one endpoint: give exactly one --endpoint");
  process.exit(2);
}

// As for the API test suite (tests/helpers/setup-api.ts, useSimulatedEngines): set before anything reads the configuration.
process.env.GEOSCOPE_VALIDATE_RESPONSES = "true";
const { useSimulatedEngines } = await import("../tests/helpers/engines");
useSimulatedEngines({ billing: true });
const { freshPglite } = await import("../tests/helpers/db");
const fuzz = await import("../tests/helpers/fuzz");

const targets = fuzz.fuzzedEndpoints().filter((e) => wanted.size === 0 || wanted.has(e.operationId));
const unknown = [...wanted].filter((w) => !targets.some((t) => t.operationId === w));
if (unknown.length) {
  console.error(`no fuzzed endpoint named ${unknown.join(", ")}; they are: ${fuzz.fuzzedEndpoints().map((e) => e.operationId).join(", ")}`);
  process.exit(2);
}

console.log(`fuzz: seed ${seed}, ${only === undefined ? `${cases} cases` : `case ${only}`} per endpoint, ${targets.length} endpoints`);
const database = await freshPglite();
const started = Date.now();
let total = 0;
const failures: import("../tests/helpers/fuzz").FuzzFailure[] = [];
try {
  const world = await fuzz.prepareFuzzWorld();
  for (const endpoint of targets) {
    const t0 = Date.now();
    const result = await fuzz.fuzzEndpoint(await fuzz.fuzzTarget(endpoint, world), { seed, count: cases, only, slowMs: fuzz.SLOW_MS });
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

for (const failure of failures) console.log(`\n${fuzz.formatFailure(failure)}`);
console.log(`\nfuzz: ${total} cases in ${((Date.now() - started) / 1000).toFixed(1)} s, ${failures.length} failed (seed ${seed})`);
process.exit(failures.length ? 1 : 0);
