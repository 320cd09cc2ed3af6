// `npm test`: the whole suite. Type check, unit + integration + API tests (PGlite, engine
// simulator), the PostgreSQL suite (starting a server if none answers), then the end-to-end
// tests against the built server with Debian's Chromium (installing it if missing); some of
// those run the built server on that PostgreSQL server too.
import path from "node:path";
import { ensureChromium } from "./lib/ensure-chromium.mjs";
import { ensurePostgres } from "./lib/ensure-postgres.mjs";
import { run, say } from "./lib/run.mjs";

process.env.NEXT_TELEMETRY_DISABLED = "1";
const root = path.resolve(import.meta.dirname, "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const failures = [];
// One server for the PostgreSQL suite and for the e2e specs that run the built app on PostgreSQL
// (two instances on one database, a SIGKILL on PostgreSQL); started at most once.
let postgres;
const postgresUrl = () => (postgres ??= ensurePostgres());

async function step(name, fn) {
  say(`${name}`);
  const started = Date.now();
  try {
    const code = await fn();
    if (code !== 0) failures.push(name);
    say(`${name}: ${code === 0 ? "ok" : `FAILED (exit ${code})`} in ${Math.round((Date.now() - started) / 1000)} s`);
  } catch (error) {
    failures.push(name);
    say(`${name}: FAILED: ${error instanceof Error ? error.message : error}`);
  }
}

await step("type check (tsc --noEmit)", () => run(bin("tsc"), ["--noEmit", "-p", "tsconfig.json"], { cwd: root }));
await step("unit, integration and API tests (vitest on PGlite)", () =>
  run(bin("vitest"), ["run", "--project", "unit", "--project", "integration", "--project", "api"], { cwd: root }),
);
await step("PostgreSQL suite (vitest, tests/pg)", async () => {
  const url = await postgresUrl();
  return run(bin("vitest"), ["run", "--project", "pg"], { cwd: root, env: { ...process.env, TEST_DATABASE_URL: url } });
});
await step("end-to-end tests (built server, Chromium, CLI)", async () => {
  const chromium = await ensureChromium();
  const built = await run("node", [path.join(root, "scripts", "prisma-generate.mjs")], { cwd: root });
  if (built !== 0) return built;
  const build = await run(bin("next"), ["build"], { cwd: root });
  if (build !== 0) return build;
  const url = await postgresUrl();
  return run(bin("playwright"), ["test"], { cwd: root, env: { ...process.env, CHROMIUM_PATH: chromium, TEST_DATABASE_URL: url } });
});

if (failures.length) {
  say(`FAILED: ${failures.join("; ")}`);
  process.exit(1);
}
say("all test suites passed");
