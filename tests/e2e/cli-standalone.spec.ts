// The CLI on its own: `npm run pack:cli` builds dist/geoscope-cli-<version>.tgz, which is
// installed into an empty prefix with no registry (`--offline`) and run from a folder outside the
// repository against the built server. Only the tarball leaves the repository, so whatever the
// installed `geoscope` needs (lib/schemas, zod, semver, its version) must be inside its one file.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { apiWith, approveCliLogin, BASE, ROOT, runProcess, signIn } from "./support";

const VERSION = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const TARBALL = `geoscope-cli-${VERSION}.tgz`;
const EMAIL = `cli-standalone-${Date.now()}@example.com`;

// A temporary folder outside the repository (made in the worker, not when the runner lists the tests).
let WORK = "";
let PREFIX = "";
let CWD = "";
let CONFIG_DIR = "";
let BIN = "";
let INSTALLED = "";

test.describe.configure({ mode: "serial" });
test.beforeAll(() => {
  WORK = mkdtempSync(path.join(tmpdir(), "geoscope-cli-standalone-"));
  PREFIX = path.join(WORK, "prefix");
  CWD = path.join(WORK, "elsewhere");
  CONFIG_DIR = path.join(WORK, "config");
  BIN = path.join(PREFIX, "bin", "geoscope");
  INSTALLED = path.join(PREFIX, "lib", "node_modules", "geoscope-cli");
});
test.afterAll(() => {
  if (WORK) rmSync(WORK, { recursive: true, force: true });
});

/** The environment without npm's lifecycle variables, NODE_PATH or NODE_OPTIONS, and with no repository folder on PATH. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_|NODE_PATH$|NODE_OPTIONS$|GEOSCOPE_)/i.test(key)) env[key] = value;
  }
  const dirs = (process.env.PATH ?? "").split(path.delimiter).filter((dir) => dir && !path.resolve(dir).startsWith(ROOT + path.sep));
  env.PATH = [path.dirname(process.execPath), ...dirs].join(path.delimiter);
  return { ...env, ...extra } as NodeJS.ProcessEnv;
}

const run = (command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) => runProcess(command, args, { cwd, env });

const geoscopeEnv = (extra: Record<string, string> = {}) =>
  cleanEnv({ GEOSCOPE_CONFIG_DIR: CONFIG_DIR, GEOSCOPE_BASE_URL: BASE, NO_COLOR: "1", ...extra });

/** The installed `geoscope`, executed as a user would (its shebang), from a folder outside the repository. */
const geoscope = (args: string[], extra: Record<string, string> = {}) => run(BIN, args, CWD, geoscopeEnv(extra));

/** The API with no token; a call names the token it sends. */
const api = apiWith(() => null);

test("npm run pack:cli makes a tarball of one file and no dependencies that installs with no registry", async () => {
  test.setTimeout(120_000);
  const packed = await run("npm", ["run", "pack:cli"], ROOT, cleanEnv());
  expect(packed.code, packed.stderr).toBe(0);
  const tarball = path.join(ROOT, "dist", TARBALL);
  expect(existsSync(tarball)).toBe(true);
  const listed = await run("tar", ["-tzf", tarball], WORK, cleanEnv());
  expect(listed.stdout.trim().split("\n").sort()).toEqual(["package/README.md", "package/THIRD-PARTY-LICENSES.txt", "package/geoscope.mjs", "package/package.json"]);

  // Only the tarball leaves the repository; npm may not reach a registry.
  copyFileSync(tarball, path.join(WORK, TARBALL));
  const installed = await run("npm", ["install", "-g", "--prefix", PREFIX, `./${TARBALL}`, "--offline", "--no-audit", "--no-fund"], WORK, cleanEnv());
  expect(installed.code, installed.stderr).toBe(0);
  expect(installed.stdout).toMatch(/added 1 package\b/);
  expect(readdirSync(path.join(PREFIX, "lib", "node_modules"))).toEqual(["geoscope-cli"]);
  expect(readdirSync(INSTALLED).sort()).toEqual(["README.md", "THIRD-PARTY-LICENSES.txt", "geoscope.mjs", "package.json"]);
  expect(realpathSync(BIN)).toBe(realpathSync(path.join(INSTALLED, "geoscope.mjs")));

  const pkg = JSON.parse(readFileSync(path.join(INSTALLED, "package.json"), "utf8"));
  expect(pkg).toMatchObject({ name: "geoscope-cli", version: VERSION, type: "module", bin: { geoscope: "geoscope.mjs" }, engines: { node: ">=20.19" } });
  for (const field of ["dependencies", "optionalDependencies", "peerDependencies", "bundleDependencies", "scripts"]) expect(pkg[field], field).toBeUndefined();

  // Every module the file imports is a Node builtin (zod, semver and lib/schemas are inside it).
  const source = readFileSync(path.join(INSTALLED, "geoscope.mjs"), "utf8");
  expect(source.startsWith("#!/usr/bin/env node\n")).toBe(true);
  const specifiers = [
    ...source.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']/gm),
    ...source.matchAll(/^\s*import\s*["']([^"']+)["']/gm),
    ...source.matchAll(/(?:require|import)\(\s*["']([^"']+)["']\s*\)/g),
  ].map((m) => m[1]!);
  expect(specifiers).toContain("node:fs");
  expect(specifiers.filter((s) => !s.startsWith("node:"))).toEqual([]);
  expect(source).not.toContain("../lib/schemas");
});

test("the installed geoscope, run outside the repository: --version, version, login, whoami, prompt --wait", async ({ page }) => {
  test.setTimeout(180_000);
  mkdirSync(CWD, { recursive: true });
  // Nothing to resolve a bare import from: no node_modules in the working folder or above it.
  for (let dir = CWD; ; dir = path.dirname(dir)) {
    expect(existsSync(path.join(dir, "node_modules")), dir).toBe(false);
    if (path.dirname(dir) === dir) break;
  }

  // The version is built in: no package.json is read, no server asked.
  expect(await geoscope(["--version"])).toEqual({ code: 0, stdout: `geoscope-cli ${VERSION}\n`, stderr: "" });
  const version = await geoscope(["version", "--json"]);
  expect(version.code, version.stderr).toBe(0);
  expect(version.stdout).toBe((await api("GET", "/version")).text);
  const versionHuman = await geoscope(["version"]);
  expect(versionHuman.code, versionHuman.stderr).toBe(0);
  expect(versionHuman.stdout).toBe(`geoscope-cli ${VERSION}\nserver ${BASE}: min_cli_version ${JSON.parse(version.stdout).min_cli_version}\n`);
  // Outdated, the standalone CLI says how to upgrade a package, not a checkout.
  const old = await geoscope(["pricing"], { GEOSCOPE_CLI_VERSION_OVERRIDE: "0.0.1" });
  expect(old.code).toBe(7);
  expect(old.stderr).toContain("install a newer geoscope-cli package (npm run pack:cli");

  // Device login, approved in the browser; the token saved in the temporary config folder.
  await signIn(page, EMAIL);
  const login = await approveCliLogin(page, BIN, [], { cwd: CWD, env: geoscopeEnv() });
  expect(login.code, login.stderr).toBe(0);
  expect(login.stdout).toBe(`Logged in as ${EMAIL}\n`);
  const token = (JSON.parse(readFileSync(path.join(CONFIG_DIR, "config.json"), "utf8")) as { token: string }).token;
  expect(token).toMatch(/^gsc_/);

  // whoami with the token given in the environment, and with none saved for this server.
  const whoami = await geoscope(["whoami", "--json"], { GEOSCOPE_TOKEN: token, GEOSCOPE_CONFIG_DIR: path.join(WORK, "empty-config") });
  expect(whoami.stderr).toBe("");
  expect(whoami.code).toBe(0);
  expect(whoami.stdout).toBe((await api("GET", "/me", undefined, token)).text);
  expect(JSON.parse(whoami.stdout)).toMatchObject({ email: EMAIL, credential: { kind: "cli_token" } });

  // A prompt waited for on two simulated engines: stdout is the final GET /batches body.
  const project = JSON.parse((await api("POST", "/projects", { name: "Standalone CLI" }, token)).text) as { id: string };
  expect(project.id).toMatch(/^pr_/);
  const waited = await geoscope(["prompt", "best crm for a startup", "--project", project.id, "--engines", "chatgpt,claude", "--wait", "--json"]);
  expect(waited.code, waited.stderr).toBe(0);
  const batch = JSON.parse(waited.stdout);
  expect(batch.batch.status).toBe("completed");
  expect(batch.runs.map((r: { engine: string }) => r.engine).sort()).toEqual(["chatgpt", "claude"]);
  expect(waited.stdout).toBe((await api("GET", `/batches/${batch.batch.id}`, undefined, token)).text);
});
