// `npm start`: checks the configuration, applies pending migrations, builds the app when the
// build is missing or older than the sources, then serves it (default http://localhost:3000).
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { run, say } from "./lib/run.mjs";
import { serverEnv } from "./lib/server-env.mjs";

process.env.NEXT_TELEMETRY_DISABLED = "1";
const root = path.resolve(import.meta.dirname, "..");
const tsx = path.join(root, "node_modules", ".bin", "tsx");
const next = path.join(root, "node_modules", ".bin", "next");

function newestMtime(entry) {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(entry)) {
    if (child === "node_modules" || child === "generated" || child.startsWith(".")) continue;
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

function buildIsStale() {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  const sources = ["app", "lib", "inngest", "public", "instrumentation.ts", "next.config.mjs", "package.json", "prisma/schema.prisma"];
  return sources.some((s) => existsSync(path.join(root, s)) && newestMtime(path.join(root, s)) > built);
}

async function main() {
  say("checking configuration and applying database migrations");
  if ((await run(tsx, [path.join(root, "scripts", "db-migrate.ts")], { cwd: root })) !== 0) process.exit(1);

  if (buildIsStale()) {
    say("building the app (first start, or sources changed since the last build)");
    if ((await run("node", [path.join(root, "scripts", "prisma-generate.mjs")], { cwd: root })) !== 0) process.exit(1);
    if ((await run(next, ["build"], { cwd: root })) !== 0) process.exit(1);
  }

  // Empty counts as unset, as in lib/config/env.ts, which derives the same base URL for links.
  const port = process.env.PORT || "3000";
  const base = (process.env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, "");
  say(`serving on port ${port}; links (sign-in, device login, invitations) use ${base}`);
  say(`API: ${base}/api/v1   explorer: ${base}/api/v1/docs   account: ${base}/account`);
  const code = await run(next, ["start", "-p", port], { cwd: root, env: serverEnv() });
  process.exit(code);
}

main();
