// Generates the Prisma client into lib/db/generated/ with no network and no native engines.
// Run by `postinstall` and `build`; extra arguments are passed to `prisma generate`.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const require = createRequire(import.meta.url);

let cli;
try {
  cli = require.resolve("prisma/build/index.js");
} catch {
  console.error("prisma-generate: the `prisma` package is not installed; run `npm install` first.");
  process.exit(1);
}

const schema = path.join(root, "prisma", "schema.prisma");
if (!existsSync(schema)) {
  console.error(`prisma-generate: ${path.relative(process.cwd(), schema)} is missing; nothing to generate.`);
  process.exit(1);
}

const env = {
  ...process.env,
  // Prisma 7's CLI insists on a schema engine binary before any command and would try to
  // download one, which cannot work here. `generate` never runs it, so any existing file
  // satisfies the check. Migrations use @prisma/schema-engine-wasm instead (lib/db/migrate.ts).
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || process.execPath,
  PRISMA_ENGINES_CHECKSUM_IGNORE_MISSING: "1",
  // No telemetry or update checks: they would only time out without internet.
  CHECKPOINT_DISABLE: "1",
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
};

const result = spawnSync(process.execPath, [cli, "generate", ...process.argv.slice(2)], { cwd: root, env, stdio: "inherit" });
if (result.error) {
  console.error(`prisma-generate: could not run prisma: ${result.error.message}`);
  process.exit(1);
}
process.exit(result.status ?? 1);
