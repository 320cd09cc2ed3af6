// `geoscope share` end to end: the real CLI (cli/geoscope.mjs) against the built server and the
// simulated engines. Signed in by device login, it shares a finished run (the URL alone on stdout,
// under the server's address, a page anyone can fetch), reads its status, rotates it (the old URL
// then answers 404), revokes it (the new one answers 404, the status says so), shares a
// citation analysis of the run through the analysis endpoints, and the prompt's batch (rq_…) and
// a fanout (fo_…) through theirs: share, status, rotate and revoke each, human and --json.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { approveCliLogin, BIN, cliAs, cliEnv, ORIGIN, ROOT, signIn } from "./support";

const EMAIL = `cli-share-${Date.now()}@example.com`;
const CONFIG_DIR = mkdtempSync(path.join(tmpdir(), "geoscope-cli-share-"));
const ENV = cliEnv({ configDir: CONFIG_DIR });

test.describe.configure({ mode: "serial" });

const cli = cliAs({ configDir: CONFIG_DIR });

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
let batch = "";
let project = "";

test("login, then a prompt on chatgpt waited for", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, EMAIL);
  const login = await approveCliLogin(page, process.execPath, [BIN], { cwd: ROOT, env: ENV });
  expect(login.code, login.stderr).toBe(0);
  project = (JSON.parse(await ok(["projects", "create", "CLI share", "--json"])) as { id: string }).id;
  const made = JSON.parse(await ok(["prompt", "best crm for a startup", "--project", project, "--engines", "chatgpt", "--wait", "--json"])) as {
    batch: { id: string };
    runs: { id: string; status: string }[];
  };
  expect(made.runs.map((r) => r.status)).toEqual(["completed"]);
  run = made.runs[0]!.id;
  batch = made.batch.id;
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

/** share, --status, --rotate (the old link then 404), --revoke (the new one 404) of one id, human and --json. */
async function walkShare(id: string, noun: string, kind: string) {
  const shared = await cli(["share", id]);
  expect(shared.code, shared.stderr).toBe(0);
  expect(shared.stdout).toMatch(SHARE_URL);
  expect(shared.stderr).toMatch(new RegExp(`^shared ${noun} ${id} \\(sh_\\w+\\); anyone with this link can read it\\. Revoke it with: geoscope share ${id} --revoke\\n$`));
  const first = shared.stdout.trim();
  expect(await statusOf(first)).toBe(200);
  expect(await statusOf(`${first}.json`)).toBe(200);
  expect(await ok(["share", id, "--status"])).toMatch(new RegExp(`^shared: ${first} \\(since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ\\)\\n$`));
  const status = JSON.parse(await ok(["share", id, "--status", "--json"])) as { shared: boolean; share: { url: string; target_id: string; target_kind: string } };
  expect(status).toMatchObject({ shared: true, share: { url: first, target_id: id, target_kind: kind } });

  const rotated = JSON.parse(await ok(["share", id, "--rotate", "--json"])) as { url: string; rotated_from: string; target_kind: string };
  expect(rotated.target_kind).toBe(kind);
  expect(rotated.url).not.toBe(first);
  expect(await statusOf(first)).toBe(404);
  expect(await statusOf(rotated.url)).toBe(200);

  expect(await ok(["share", id, "--revoke"])).toBe(`revoked: the link to ${id} no longer works\n`);
  expect(await statusOf(rotated.url)).toBe(404);
  expect(await statusOf(`${rotated.url}.json`)).toBe(404);
  expect(await ok(["share", id, "--status"])).toMatch(/^not shared \(last link revoked \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ\)\n$/);
  const nothing = await cli(["share", id, "--rotate"]);
  expect(nothing.code).toBe(8);
  expect(nothing.stderr).toBe(`error: The ${noun} "${id}" is not shared, so there is no link to rotate; share it first.\n`);
}

test("a prompt batch (rq_…) is shared, rotated and revoked through the batch endpoints", async () => {
  test.setTimeout(60_000);
  await walkShare(batch, "prompt batch", "batch");
});

test("a fanout (fo_…) is shared, rotated and revoked through the fanout endpoints", async () => {
  test.setTimeout(120_000);
  const fanout = JSON.parse(await ok(["fanout", "create", "best crm for a small team", "crm with email sync", "--project", project, "--engines", "chatgpt", "--runs", "1", "--wait", "--json"])) as {
    id: string;
    status: string;
  };
  expect(fanout.status).toBe("completed");
  await walkShare(fanout.id, "fanout", "fanout");
});
