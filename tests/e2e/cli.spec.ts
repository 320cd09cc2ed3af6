// The real `geoscope` binary (cli/geoscope.mjs) as a subprocess against the built server: device
// login approved in Chromium, prompts on the simulated engines, every command's `--json` output
// compared byte for byte with the same API call's body, exit codes, and the version gate.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { apiWith, approveCliLogin, BASE, BIN, cliAs, cliEnv, ROOT, runProcess, signIn } from "./support";

const EMAIL = `cli-${Date.now()}@example.com`;
const CONFIG_DIR = mkdtempSync(path.join(tmpdir(), "geoscope-cli-config-"));
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;

test.describe.configure({ mode: "serial" });

const baseEnv = () => cliEnv({ configDir: CONFIG_DIR });
const cli = cliAs({ configDir: CONFIG_DIR });

let token = "";
const api = apiWith(() => token);

/** `geoscope … --json` prints exactly the body of the same GET. */
async function sameAsApi(args: string[], pathname: string) {
  const result = await cli([...args, "--json"]);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  const direct = await api("GET", pathname);
  expect(direct.status).toBe(200);
  expect(result.stdout).toBe(direct.text);
  return JSON.parse(result.stdout);
}

test("geoscope login: the code is approved in the browser, the token saved with mode 0600", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, EMAIL);

  const login = await approveCliLogin(page, process.execPath, [BIN], { cwd: ROOT, env: baseEnv() });
  expect(login.code, login.stderr).toBe(0);
  expect(login.stdout).toBe(`Logged in as ${EMAIL}\n`);
  const file = path.join(CONFIG_DIR, "config.json");
  expect(statSync(file).mode & 0o777).toBe(0o600);
  const saved = JSON.parse(readFileSync(file, "utf8"));
  expect(saved).toMatchObject({ base_url: BASE, email: EMAIL });
  expect(saved.token).toMatch(/^gsc_/);
  token = saved.token;

  const me = await sameAsApi(["whoami"], "/me");
  expect(me.credential.kind).toBe("cli_token");
  const human = await cli(["whoami"]);
  expect(human.code).toBe(0);
  expect(human.stdout).toContain(EMAIL);
  expect(human.stdout).toContain("(engines simulated)");
});

test("prompt --wait on the simulated engines, then every command's --json equals the API's body", async () => {
  test.setTimeout(240_000);
  expect(token).not.toBe("");

  // Projects: POST compared by shape, then the object by GET.
  const created = await cli(["projects", "create", "CLI research", "--domain", "acme.com", "--brands", "Acme,AcmeCRM", "--competitors", "Globex", "--json"]);
  expect(created.code).toBe(0);
  const project = JSON.parse(created.stdout);
  expect(project).toMatchObject({ name: "CLI research", context: { primary_domain: "acme.com", brands: ["Acme", "AcmeCRM"], competitors: ["Globex"] } });
  expect(project.id).toMatch(/^pr_/);
  await sameAsApi(["projects", "get", project.id], `/projects/${project.id}`);
  await sameAsApi(["projects", "list"], "/projects");
  const updated = await cli(["projects", "update", project.id, "--name", "CLI research 2", "--context-json", '{"primary_domain":"acme.io"}', "--json"]);
  expect(updated.code).toBe(0);
  expect(JSON.parse(updated.stdout)).toMatchObject({ id: project.id, name: "CLI research 2", context: { primary_domain: "acme.io" } });
  expect(updated.stdout).toBe((await api("GET", `/projects/${project.id}`)).text);

  // A prompt on the three simulated model APIs, waited for: readable answers with sources.
  const human = await cli(["prompt", "best crm for a startup", "--project", project.id, "--engines", "chatgpt,claude,gemini", "--wait"]);
  expect(human.code, human.stderr).toBe(0);
  expect(human.stderr).toMatch(/runs finished/);
  for (const engine of ["chatgpt", "claude", "gemini"]) expect(human.stdout).toMatch(new RegExp(`== ${engine} \\(\\S+-simulated\\): completed ==`));
  expect(human.stdout).toMatch(/Sources \(\d+ cited, \d+ in all\):/);
  expect(human.stdout).toMatch(/Searches \(\d+\):/);

  // The same with --json: the final GET /batches body, which pipes into a JSON parser.
  const waited = await cli(["prompt", "best crm for a startup", "--project", project.id, "--engines", "chatgpt,claude", "--wait", "--json"]);
  expect(waited.code, waited.stderr).toBe(0);
  const batch = JSON.parse(waited.stdout);
  expect(batch.batch.status).toBe("completed");
  expect(batch.runs.map((r: { engine: string }) => r.engine).sort()).toEqual(["chatgpt", "claude"]);
  expect(waited.stdout).toBe((await api("GET", `/batches/${batch.batch.id}`)).text);
  await sameAsApi(["batches", "get", batch.batch.id, "--wait", "1"], `/batches/${batch.batch.id}`);
  const runId = batch.runs[0].id;
  await sameAsApi(["runs", "get", runId], `/runs/${runId}`);
  await sameAsApi(["runs", "list"], "/runs");
  await sameAsApi(["runs", "list", "--batch", batch.batch.id, "--limit", "1"], `/runs?batch=${batch.batch.id}&limit=1`);
  await sameAsApi(["runs", "list", "--project", project.id], `/runs?project=${project.id}`);

  // Without --wait: the 202 body of POST /prompts.
  const queued = await cli(["prompt", "crm with email sync", "--project", project.id, "--engines", "gemini", "--json"]);
  expect(queued.code).toBe(0);
  const q = JSON.parse(queued.stdout);
  expect(q.batch.id).toMatch(/^rq_/);
  expect(q.runs).toHaveLength(1);
  const after = await cli(["batches", "get", q.batch.id, "--wait", "30", "--json"]);
  expect(JSON.parse(after.stdout).batch.status).toBe("completed");

  // --pretty reindents the same body.
  const pretty = await cli(["runs", "get", runId, "--pretty"]);
  expect(pretty.stdout).toBe(JSON.stringify(JSON.parse((await api("GET", `/runs/${runId}`)).text), null, 2) + "\n");

  // Workspaces.
  const ws = await cli(["workspaces", "create", "CLI team", "--json"]);
  expect(ws.code).toBe(0);
  const workspace = JSON.parse(ws.stdout);
  expect(workspace).toMatchObject({ name: "CLI team", kind: "team", role: "admin" });
  await sameAsApi(["workspaces", "get", workspace.id], `/workspaces/${workspace.id}`);
  const renamed = await cli(["workspaces", "rename", workspace.id, "CLI team 2", "--json"]);
  expect(renamed.stdout).toBe((await api("GET", `/workspaces/${workspace.id}`)).text);
  await sameAsApi(["workspaces", "list"], "/workspaces");

  // Members and invitations.
  const members = await sameAsApi(["members", "list", workspace.id], `/workspaces/${workspace.id}/members`);
  const me = members.items[0];
  const role = await cli(["members", "role", workspace.id, String(me.id), "admin", "--json"]);
  expect(role.code, role.stderr).toBe(0);
  expect(JSON.parse(role.stdout)).toMatchObject({ id: me.id, role: "admin" });
  const inv = await cli(["invitations", "create", workspace.id, "friend@example.com", "--role", "member", "--json"]);
  expect(inv.code, inv.stderr).toBe(0);
  const invitation = JSON.parse(inv.stdout);
  expect(invitation).toMatchObject({ email: "friend@example.com", role: "member", status: "pending" });
  expect(invitation.url).toMatch(/^http/);
  await sameAsApi(["invitations", "list", workspace.id], `/workspaces/${workspace.id}/invitations`);
  const revokedInv = await cli(["invitations", "revoke", workspace.id, invitation.id, "--json"]);
  expect(revokedInv).toEqual({ code: 0, stdout: "", stderr: "" });
  expect(JSON.parse((await api("GET", `/workspaces/${workspace.id}/invitations`)).text).items[0].status).toBe("revoked");
  // The last admin cannot leave: 409 conflict, exit 8.
  const leave = await cli(["members", "remove", workspace.id, String(me.id)]);
  expect(leave.code).toBe(8);
  expect(leave.stdout).toBe("");

  // API keys.
  const key = await cli(["keys", "create", "from the cli", "--workspace", workspace.id, "--json"]);
  expect(key.code, key.stderr).toBe(0);
  const apiKey = JSON.parse(key.stdout);
  expect(apiKey).toMatchObject({ name: "from the cli", workspace_id: workspace.id });
  expect(apiKey.key).toMatch(/^gsk_/);
  await sameAsApi(["keys", "list"], "/api-keys");
  const keyHuman = await cli(["keys", "create", "shown once"]);
  expect(keyHuman.stdout).toMatch(/^gsk_\S+\n$/);
  const revokedKey = await cli(["keys", "revoke", apiKey.id, "--json"]);
  expect(revokedKey).toEqual({ code: 0, stdout: "", stderr: "" });
  const keys = JSON.parse((await api("GET", "/api-keys")).text);
  expect(keys.items.find((k: { id: string }) => k.id === apiKey.id).revoked_at).not.toBeNull();
  // The CLI works with an API key too (GEOSCOPE_TOKEN), acting in its one workspace.
  const withKey = await cli(["whoami", "--json"], { GEOSCOPE_TOKEN: keyHuman.stdout.trim() });
  expect(JSON.parse(withKey.stdout).credential.kind).toBe("api_key");

  // Billing and the service.
  await sameAsApi(["billing", "summary"], "/billing");
  await sameAsApi(["billing", "summary", "--workspace", workspace.id], `/billing?workspace=${workspace.id}`);
  await sameAsApi(["billing", "transactions", "--limit", "5"], "/billing/transactions?limit=5");
  const usage = await sameAsApi(["billing", "usage", "--days", "7"], "/billing/usage?days=7");
  expect(usage.rows.length).toBeGreaterThan(0);
  await sameAsApi(["pricing"], "/pricing");
  const version = await sameAsApi(["version"], "/version");
  expect(version).toEqual({ min_cli_version: expect.any(String) });
  const versionHuman = await cli(["version"]);
  expect(versionHuman.stdout).toContain(`geoscope-cli ${VERSION}`);
  for (const args of [["billing", "summary"], ["billing", "usage"], ["billing", "transactions"], ["pricing"], ["runs", "list"], ["keys", "list"], ["workspaces", "list"], ["projects", "list"]]) {
    const result = await cli(args);
    expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(0);
    expect(result.stdout.length).toBeGreaterThan(0);
  }
});

test("fanout: created from a file with --wait (progress on stderr, the queries per prompt and engine), then exported as CSV", async () => {
  const project = JSON.parse((await api("POST", "/projects", { name: "CLI fanouts" })).text) as { id: string };
  const dir = mkdtempSync(path.join(tmpdir(), "geoscope-fanout-"));
  const file = path.join(dir, "prompts.txt");
  // Comments and blank lines are skipped, as audit --file skips them.
  writeFileSync(file, "# CRM prompts\nbest crm for a startup\n\n  # vs pages\nhubspot vs salesforce\n");

  const estimate = await cli(["fanout", "estimate", "--file", file, "--project", project.id, "--engines", "chatgpt,gemini", "--runs", "2", "--json"]);
  expect(estimate.code, estimate.stderr).toBe(0);
  expect(JSON.parse(estimate.stdout)).toMatchObject({ prompts: 2, engines: ["chatgpt", "gemini"], runs: 2, executions: 8 });
  // The human estimate lists the prompts it parsed, numbered, engines in the registry's order.
  const human = await cli(["fanout", "estimate", "--file", file, "--project", project.id, "--engines", "gemini,chatgpt", "--runs", "2"]);
  expect(human.code, human.stderr).toBe(0);
  expect(human.stdout).toMatch(/^prompts \(2\):\n1\. best crm for a startup\n2\. hubspot vs salesforce\n\n2 prompts × 2 engines \(chatgpt, gemini\) × 2 runs = 8 executions\n/);

  const created = await cli(["fanout", "create", "--file", file, "--project", project.id, "--engines", "chatgpt,gemini", "--runs", "2", "--wait"]);
  expect(created.code, created.stderr).toBe(0);
  expect(created.stderr).toMatch(/fanout fo_\w+: completed, 8\/8 runs finished/);
  expect(created.stdout).toMatch(/^fanout fo_\w+: completed · best crm for a startup/);
  expect(created.stdout).toContain("1. best crm for a startup");
  expect(created.stdout).toContain("2. hubspot vs salesforce");
  expect(created.stdout).toMatch(/ {3}chatgpt \(2\/2 runs completed, \d+ quer(?:y|ies)\)/);
  const id = /fanout (fo_\w+)/.exec(created.stdout)![1]!;

  const detail = await sameAsApi(["fanout", "get", id], `/fanouts/${id}`);
  await sameAsApi(["fanout", "queries", id], `/fanouts/${id}/queries`);
  await sameAsApi(["fanout", "list", "--project", project.id], `/fanouts?project=${project.id}`);

  // CSV: a header, then one row per run × query, exactly the detail's observed queries.
  const csv = await cli(["fanout", "queries", id, "--format", "csv"]);
  expect(csv.code, csv.stderr).toBe(0);
  const lines = csv.stdout.trimEnd().split("\r\n");
  expect(lines[0]).toBe("prompt_index,prompt,country,language,engine,run_id,run_index,position,search_call,query");
  const cell = (v: unknown) => (/[",\r\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
  const expected = detail.prompts.flatMap((p: any) =>
    p.engines.flatMap((e: any) =>
      // No market: country and language empty.
      e.runs.flatMap((r: any) => r.queries.map((q: any) => [p.index, p.text, "", "", e.engine, r.run_id, r.run_index, q.position ?? "", q.search_call ?? "", q.text].map(cell).join(","))),
    ),
  );
  expect(expected.length).toBeGreaterThan(0);
  expect(lines.slice(1)).toEqual(expected);
});

test("citations: an analysis of a batch as tables, its --json the stored analysis byte for byte, one table as CSV", async () => {
  test.setTimeout(120_000);
  const project = JSON.parse((await api("POST", "/projects", { name: "CLI citations" })).text) as { id: string };
  const batch = JSON.parse((await api("POST", "/prompts", { prompt: "best crm for a startup", project: project.id, engines: ["chatgpt", "claude", "gemini"] })).text) as { batch: { id: string } };
  const done = JSON.parse((await api("GET", `/batches/${batch.batch.id}?wait=30`)).text) as { batch: { status: string; run_ids: string[] }; runs: { result: { sources: { domain: string | null; cited: boolean | null }[] } | null }[] };
  expect(done.batch.status).toBe("completed");
  const domain = done.runs.flatMap((r) => r.result?.sources ?? []).find((s) => s.cited && s.domain)?.domain ?? "example.com";

  const human = await cli(["citations", batch.batch.id, "--brand", "HubSpot", "--brand", "Salesforce", "--domain", domain]);
  expect(human.code, human.stderr).toBe(0);
  expect(human.stdout).toMatch(/^citation analysis ca_\w+: completed · best crm for a startup/);
  expect(human.stdout).toContain(`${done.batch.run_ids.length} runs, 1 prompt, `);
  expect(human.stdout).toContain("top domains");
  expect(human.stdout).toMatch(new RegExp(`${domain.replace(/\./g, "\\.")} +all +\\d+/${done.batch.run_ids.length} +[\\d.]+% +[\\d.]+–[\\d.]+%`));
  expect(human.stdout).toMatch(/HubSpot +\d+\/\d+/);

  const json = await cli(["citations", batch.batch.id, done.batch.run_ids[0]!, "--domain", domain, "--json"]);
  expect(json.code, json.stderr).toBe(0);
  const analysis = JSON.parse(json.stdout) as { id: string; excluded_runs: { reason: string }[]; target_domains: string[] };
  expect(analysis.excluded_runs).toEqual([{ run_id: done.batch.run_ids[0], reason: "duplicate" }]);
  expect(analysis.target_domains).toEqual([domain]);
  expect((await api("GET", `/analyses/${analysis.id}`)).text).toBe(json.stdout);
  await sameAsApi(["analysis", "get", analysis.id], `/analyses/${analysis.id}`);
  await sameAsApi(["analysis", "list", "--kind", "citations", "--project", project.id], `/analyses?kind=citations&project=${project.id}`);

  const csv = await cli(["analysis", "get", analysis.id, "--format", "csv", "--table", "coverage"]);
  expect(csv.code, csv.stderr).toBe(0);
  const lines = csv.stdout.trimEnd().split("\r\n");
  expect(lines[0]).toBe("domain,engine,runs,cited_runs,unknown_runs,cited_rate,low,high,citations,prompts,cited_prompts");
  expect(lines[1]).toMatch(new RegExp(`^${domain.replace(/\./g, "\\.")},all,${done.batch.run_ids.length},`));

  const missing = await cli(["citations", "rq_01M7W4N5HXERYES03KX8C5YJ5Z"]);
  expect(missing.code).not.toBe(0);
  expect(missing.stderr).toContain('No such batch "rq_01M7W4N5HXERYES03KX8C5YJ5Z".');
});

test("errors: exit code per class, the message on stderr, the envelope on stdout with --json", async () => {
  test.setTimeout(120_000);
  // 401 with an unknown token.
  const bad = "gsc_" + "x".repeat(40);
  const unauth = await cli(["whoami", "--json"], { GEOSCOPE_TOKEN: bad });
  expect(unauth.code).toBe(3);
  expect(unauth.stdout).toBe((await api("GET", "/me", undefined, bad)).text);
  expect(JSON.parse(unauth.stdout).error.code).toBe("unauthenticated");
  expect(unauth.stderr).toMatch(/^error: /);
  const unauthHuman = await cli(["whoami", "--token", bad]);
  expect(unauthHuman.code).toBe(3);
  expect(unauthHuman.stdout).toBe("");

  // 404 for a well-formed id that does not exist.
  const missing = "dr_01JAAAAAAAAAAAAAAAAAAAAAAA";
  const notFound = await cli(["runs", "get", missing, "--json"]);
  expect(notFound.code).toBe(4);
  expect(notFound.stdout).toBe((await api("GET", `/runs/${missing}`)).text);
  const notFoundHuman = await cli(["projects", "get", "pr_01JAAAAAAAAAAAAAAAAAAAAAAA"]);
  expect(notFoundHuman.code).toBe(4);
  expect(notFoundHuman.stdout).toBe("");
  expect(notFoundHuman.stderr).toMatch(/^error: /);

  // 400 for a field the server refuses.
  const invalid = await cli(["prompt", "x", "--project", "not-a-project", "--json"]);
  expect(invalid.code).toBe(8);
  expect(JSON.parse(invalid.stdout).error.code).toBe("invalid_request");
  const invalidDays = await cli(["billing", "usage", "--days", "999", "--json"]);
  expect(invalidDays.code).toBe(8);
  expect(invalidDays.stdout).toBe((await api("GET", "/billing/usage?days=999")).text);

  // Usage errors: exit 2, nothing on stdout, nothing sent.
  for (const args of [["frobnicate"], ["runs"], ["runs", "get"], ["prompt", "no project"], ["keys", "list", "--bogus"], ["runs", "get", "dr_x", "--wait", "soon"], ["projects", "update", "pr_x"], ["members", "role", "ws_x", "1", "owner"], []]) {
    const result = await cli(args);
    expect(result.code, args.join(" ")).toBe(2);
    expect(result.stdout).toBe("");
  }
  const help = await cli(["--help"]);
  expect(help.code).toBe(0);
  expect(help.stdout).toContain("Exit codes");
  expect(await cli(["--version"])).toEqual({ code: 0, stdout: `geoscope-cli ${VERSION}\n`, stderr: "" });

  // Unreachable server: exit 1, and --json still prints an envelope.
  const down = await cli(["pricing", "--json"], { GEOSCOPE_BASE_URL: "http://127.0.0.1:9/api/v1" });
  expect(down.code).toBe(1);
  expect(JSON.parse(down.stdout).error.code).toBe("unreachable");
});

test("an outdated CLI is told which version the server needs and how to upgrade", async () => {
  const old = await cli(["whoami"], { GEOSCOPE_CLI_VERSION_OVERRIDE: "0.0.1" });
  const min = JSON.parse((await api("GET", "/version")).text).min_cli_version;
  expect(old.code).toBe(7);
  expect(old.stdout).toBe("");
  expect(old.stderr).toContain(`needs ${min} or newer`);
  expect(old.stderr).toContain("git pull && npm install");
  const oldJson = await cli(["pricing", "--json"], { GEOSCOPE_CLI_VERSION_OVERRIDE: "0.0.1" });
  expect(oldJson.code).toBe(7);
  expect(JSON.parse(oldJson.stdout).error.code).toBe("cli_outdated");
  // `geoscope version` still reads GET /version (never gated), names both versions, and exits 7.
  const version = await cli(["version"], { GEOSCOPE_CLI_VERSION_OVERRIDE: "0.0.1" });
  expect(version.stdout).toContain("geoscope-cli 0.0.1\n");
  expect(version.stdout).toContain(`min_cli_version ${min}`);
  expect(version.stderr).toContain(`needs ${min} or newer`);
  expect(version.code).toBe(7);
  // A newer CLI than the minimum is answered as usual.
  const newer = await cli(["pricing", "--json"], { GEOSCOPE_CLI_VERSION_OVERRIDE: "99.0.0" });
  expect(newer.code).toBe(0);
});

test("`npx geoscope` runs the package.json bin from the checkout", async () => {
  const result = await runProcess("npx", ["--no-install", "geoscope", "pricing", "--json"], { cwd: ROOT, env: baseEnv() });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toBe((await api("GET", "/pricing", undefined, null)).text);
});

test("login against a stub server: slow_down adds 5 s to the interval; denied and expired exit 3", async () => {
  test.setTimeout(60_000);

  let script: string[] = [];
  const polls: number[] = [];
  let clientName = "";
  let userAgent = "";
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      res.setHeader("Content-Type", "application/json");
      if (req.url === "/api/v1/cli/auth/start") {
        clientName = JSON.parse(body).client_name;
        userAgent = req.headers["user-agent"] ?? "";
        res.end(JSON.stringify({ device_code: "dc", user_code: "BCDF-GHJK", verification_uri: "http://stub/device", verification_uri_complete: "http://stub/device?code=BCDF-GHJK", expires_in: 600, interval: 1 }));
        return;
      }
      polls.push(Date.now());
      const status = script.shift() ?? "pending";
      const approved = status === "approved";
      res.end(JSON.stringify({ status, token: approved ? "gsc_stub" : null, token_id: approved ? "ct_01JAAAAAAAAAAAAAAAAAAAAAAA" : null, email: approved ? "stub@example.com" : null }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const dir = mkdtempSync(path.join(tmpdir(), "geoscope-cli-stub-"));
  const env = { GEOSCOPE_BASE_URL: `http://127.0.0.1:${port}/api/v1`, GEOSCOPE_CONFIG_DIR: dir };
  try {
    script = ["slow_down", "approved"];
    const ok = await cli(["login"], env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(clientName).toMatch(/^geoscope CLI on /);
    expect(userAgent).toBe(`geoscope-cli/${VERSION}`);
    expect(ok.stderr).toContain("BCDF-GHJK");
    expect(polls).toHaveLength(2);
    expect(polls[1]! - polls[0]!).toBeGreaterThanOrEqual(6_000);
    expect(JSON.parse(readFileSync(path.join(dir, "config.json"), "utf8"))).toMatchObject({ token: "gsc_stub", base_url: env.GEOSCOPE_BASE_URL });

    script = ["denied"];
    const denied = await cli(["login", "--json"], { ...env, GEOSCOPE_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), "geoscope-cli-stub-")) });
    expect(denied.code).toBe(3);
    expect(JSON.parse(denied.stdout).status).toBe("denied");
    expect(denied.stderr).toMatch(/denied/i);

    script = ["pending", "expired"];
    const expired = await cli(["login"], { ...env, GEOSCOPE_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), "geoscope-cli-stub-")) });
    expect(expired.code).toBe(3);
    expect(expired.stdout).toBe("");
    expect(expired.stderr).toMatch(/expired/);
  } finally {
    server.close();
  }
});

test("geoscope logout revokes the token and forgets it", async () => {
  const out = await cli(["logout"]);
  expect(out.code, out.stderr).toBe(0);
  expect((await api("GET", "/me")).status).toBe(401);
  expect(JSON.parse(readFileSync(path.join(CONFIG_DIR, "config.json"), "utf8")).token).toBeUndefined();
  const after = await cli(["whoami"]);
  expect(after.code).toBe(3);
  expect(after.stderr).toContain("geoscope login");
});
