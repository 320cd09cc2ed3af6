// `geoscope share` end to end: the real CLI (cli/geoscope.mjs) against the built server and the
// simulated engines. Signed in by device login, it shares a finished run (the URL alone on stdout,
// under the server's address, a page anyone can fetch), reads its status, rotates it (the old URL
// then answers 404), revokes it (the new one answers 404, the status says so), and shares a
// citation analysis of the run through the analysis endpoints.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { approveCliLogin, runProcess, signIn, type Outcome } from "./cli-helpers";
import { E2E_PORT } from "./support";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const BIN = path.join(ROOT, "cli", "geoscope.mjs");
const ORIGIN = `http://127.0.0.1:${E2E_PORT}`;
const EMAIL = `cli-share-${Date.now()}@example.com`;
const CONFIG_DIR = mkdtempSync(path.join(tmpdir(), "geoscope-cli-share-"));
const ENV: NodeJS.ProcessEnv = { ...process.env, GEOSCOPE_CONFIG_DIR: CONFIG_DIR, GEOSCOPE_BASE_URL: `${ORIGIN}/api/v1`, NO_COLOR: "1", GEOSCOPE_TOKEN: undefined, GEOSCOPE_CLI_VERSION_OVERRIDE: undefined };

test.describe.configure({ mode: "serial" });

const cli = (args: string[]): Promise<Outcome> => runProcess(process.execPath, [BIN, ...args], { cwd: ROOT, env: ENV });

/** Runs a command that must succeed and answers its stdout. */
async function ok(args: string[]): Promise<string> {
  const result = await cli(args);
  expect(result.code, `geoscope ${args.join(" ")}: ${result.stderr}`).toBe(0);
  return result.stdout;
}

/** The status of a plain GET of a share URL, as anyone the link was sent to would make it. */
const statusOf = async (url: string) => (await fetch(url, { redirect: "manual" })).status;

const SHARE_URL = new RegExp(`^${ORIGIN.replace(/\./g, "\\.")}/s/[0-9A-Za-z]{43}\\n$`);

let run = "";

test("login, then a prompt on chatgpt waited for", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, EMAIL);
  const login = await approveCliLogin(page, process.execPath, [BIN], { cwd: ROOT, env: ENV });
  expect(login.code, login.stderr).toBe(0);
  const project = (JSON.parse(await ok(["projects", "create", "CLI share", "--json"])) as { id: string }).id;
  const batch = JSON.parse(await ok(["prompt", "best crm for a startup", "--project", project, "--engines", "chatgpt", "--wait", "--json"])) as {
    runs: { id: string; status: string }[];
  };
  expect(batch.runs.map((r) => r.status)).toEqual(["completed"]);
  run = batch.runs[0]!.id;
});

test("share prints the URL alone; --status, --rotate and --revoke follow the link", async () => {
  test.setTimeout(60_000);
  const shared = await cli(["share", run]);
  expect(shared.code, shared.stderr).toBe(0);
  expect(shared.stdout).toMatch(SHARE_URL);
  expect(shared.stderr).toMatch(new RegExp(`^shared run ${run} \\(sh_\\w+\\); anyone with this link can read it\\. Revoke it with: geoscope share ${run} --revoke\\n$`));
  const first = shared.stdout.trim();
  expect(await ok(["share", run])).toBe(shared.stdout);
  expect(await ok(["share", run, "--status"])).toMatch(new RegExp(`^shared: ${first} \\(since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ\\)\\n$`));
  expect(await statusOf(first)).toBe(200);

  const rotated = await cli(["share", run, "--rotate"]);
  expect(rotated.code, rotated.stderr).toBe(0);
  expect(rotated.stdout).toMatch(SHARE_URL);
  expect(rotated.stderr).toMatch(/; the old link no longer works\n$/);
  const second = rotated.stdout.trim();
  expect(second).not.toBe(first);
  expect(await statusOf(first)).toBe(404);
  expect(await statusOf(second)).toBe(200);

  expect(await ok(["share", run, "--revoke"])).toBe(`revoked: the link to ${run} no longer works\n`);
  expect(await statusOf(second)).toBe(404);
  expect(await ok(["share", run, "--status"])).toMatch(/^not shared \(last link revoked \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ\)\n$/);

  const nothing = await cli(["share", run, "--rotate"]);
  expect(nothing.code).toBe(8);
  expect(nothing.stderr).toMatch(/^error: /);
});

test("a citation analysis is shared through the analysis endpoints; --json is the API's body", async () => {
  const analysis = (JSON.parse(await ok(["citations", run, "--json"])) as { id: string }).id;
  expect(analysis).toMatch(/^ca_/);
  const share = JSON.parse(await ok(["share", analysis, "--json"])) as { url: string; target_id: string; target_kind: string };
  expect(share).toMatchObject({ target_id: analysis, target_kind: "analysis" });
  expect(`${share.url}\n`).toMatch(SHARE_URL);
  expect(await statusOf(share.url)).toBe(200);
  expect(JSON.parse(await ok(["share", analysis, "--status", "--json"]))).toEqual({ shared: true, share });
  expect(await ok(["share", analysis, "--revoke", "--json"])).toBe("");
  expect(await statusOf(share.url)).toBe(404);
});
