// `geoscope audit` end to end: the real CLI (cli/geoscope.mjs) against the built server, auditing
// pages of a small site this file serves on 127.0.0.1 (E2E_PORT + 1, which the e2e server lets
// through with AUDIT_ALLOW_HOSTS): a good article, a page that answers 404 and a page that asks not
// to be indexed. One URL with --wait prints the fetch and the failing findings with their evidence,
// its finished line once; --file (and --file - for standard input) starts several and waits for them
// all; --json prints the runs' bodies, one a line; `runs get` prints the same report. A page that
// gives no HTTP answer (a private address) is a failed audit that says so, nothing charged.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type TestInfo } from "@playwright/test";
import { approveCliLogin, BIN, cliAs, cliEnv, E2E_PORT, type Outcome, ROOT, runProcess, signIn } from "./support";

const EMAIL = `cli-audit-${Date.now()}@example.com`;
const CONFIG_DIR = mkdtempSync(path.join(tmpdir(), "geoscope-cli-audit-"));
/** The site's port: fixed, because the server's AUDIT_ALLOW_HOSTS must name it before it starts. */
const SITE_PORT = E2E_PORT + 1;
const SITE = `http://127.0.0.1:${SITE_PORT}`;
const ARTICLE = `${SITE}/guides/choosing-a-crm`;
const MISSING = `${SITE}/gone`;
const NOINDEX = `${SITE}/internal/draft`;

test.describe.configure({ mode: "serial" });

const paragraph = (topic: string) =>
  `<p>Choosing a CRM for a small team comes down to ${topic}: who enters the data, what the CRM must connect to, and what the team can pay per seat every month. ` +
  "A tool the sales people do not open is worth nothing, so start from the daily work of the people who will use it, then list the systems it must talk to, then compare prices for the seats you need this year and next.</p>";

const ARTICLE_HTML = `<!doctype html>
<html lang="en"><head>
<meta charset="utf-8"><title>Choosing a CRM for a small B2B team | Acme</title>
<meta name="description" content="Three questions that decide which CRM a ten-person B2B team should pick, with prices compared side by side.">
<link rel="canonical" href="${ARTICLE}">
<meta property="og:title" content="Choosing a CRM for a small B2B team"><meta property="og:type" content="article">
<meta property="article:published_time" content="2026-10-12T09:00:00Z"><meta property="article:modified_time" content="${new Date().toISOString()}">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"Choosing a CRM for a small B2B team","author":{"@type":"Person","name":"Ada Lovelace"},"publisher":{"@type":"Organization","name":"Acme"},"datePublished":"2026-10-12T09:00:00Z"}</script>
</head><body>
<header><nav><a href="/">Home</a> <a href="/guides">Guides</a></nav></header>
<main><article>
<h1>Choosing a CRM for a small B2B team</h1>
${paragraph("three questions")}
<h2>Who enters the data</h2>
${paragraph("the people")}${paragraph("habits")}
<h2>What it must connect to</h2>
${paragraph("integrations")}${paragraph("mail and calendars")}
<h2>What you can pay</h2>
${paragraph("price")}<p>See <a href="https://www.example.com/crm-prices">a price comparison</a>.</p>
</article></main>
<footer><a href="/about">About</a></footer>
</body></html>`;

const NOINDEX_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Draft: pricing page for the sales team</title>
<meta name="robots" content="noindex, nofollow"></head>
<body><main><h1>Draft pricing</h1>${paragraph("a draft")}</main></body></html>`;

let site: Server;

test.beforeAll(async () => {
  site = createServer((req, res) => {
    const url = req.url ?? "/";
    if (url === "/robots.txt") return void res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n");
    if (url === "/guides/choosing-a-crm") return void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(ARTICLE_HTML);
    if (url === "/internal/draft") return void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(NOINDEX_HTML);
    res.writeHead(404, { "content-type": "text/html; charset=utf-8" }).end("<!doctype html><title>Not found</title><h1>Not found</h1>");
  });
  await new Promise<void>((resolve, reject) => site.once("error", reject).listen(SITE_PORT, "127.0.0.1", resolve));
});
test.afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

const ENV = cliEnv({ configDir: CONFIG_DIR });

const cli = cliAs({ configDir: CONFIG_DIR });

/** Runs the CLI with `input` on its standard input (runProcess leaves it open, and `--file -` reads it to its end). */
function cliWithInput(args: string[], input: string): Promise<Outcome> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: ENV });
  const output = { stdout: "", stderr: "" };
  child.stdout.on("data", (c) => (output.stdout += c));
  child.stderr.on("data", (c) => (output.stderr += c));
  child.stdin.end(input);
  return new Promise((resolve, reject) => child.on("error", reject).on("close", (code) => resolve({ code, ...output })));
}

/** Writes what the CLI printed into the test's output folder, to read beside the screenshots. */
async function keep(testInfo: TestInfo, name: string, text: string) {
  const file = testInfo.outputPath(name);
  writeFileSync(file, text);
  await testInfo.attach(name, { path: file, contentType: "text/plain" });
}

/** The report's section from `title` to the next blank line. */
function section(report: string, title: string): string {
  const start = report.indexOf(`\n${title}`);
  expect(start, `no ${title} in:\n${report}`).toBeGreaterThan(-1);
  const end = report.indexOf("\n\n", start + 1);
  return report.slice(start + 1, end === -1 ? undefined : end);
}

let project = "";
let missingRun = "";

test("login, then audit URL --wait: the fetch summary and the failing findings of a page that answers 404", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await signIn(page, EMAIL);
  const login = await approveCliLogin(page, process.execPath, [BIN], { cwd: ROOT, env: ENV });
  expect(login.code, login.stderr).toBe(0);
  const created = await cli(["projects", "create", "CLI audit", "--json"]);
  expect(created.code, created.stderr).toBe(0);
  project = (JSON.parse(created.stdout) as { id: string }).id;

  const result = await cli(["audit", MISSING, "--project", project, "--wait"]);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout, `the e2e server must run with AUDIT_ALLOW_HOSTS=127.0.0.1:${SITE_PORT} (playwright.config.ts webServer.env)`).not.toContain("Fetch: blocked");
  const report = result.stdout;
  await keep(testInfo, "report-404.txt", report);
  const lines = report.trimEnd().split("\n");
  expect(lines[0]).toMatch(new RegExp(`^audit dr_\\w+: completed · ${MISSING.replace(/\./g, "\\.")}$`));
  missingRun = /^audit (dr_\w+)/.exec(lines[0]!)![1]!;
  // Progress on stderr while it is unfinished; the finished line is the report's first, printed once
  // (a terminal shows both streams: it used to read as two audits).
  expect(result.stderr).toMatch(new RegExp(`audit ${missingRun}: queued · `));
  expect(`${result.stderr}${result.stdout}`.match(new RegExp(`audit ${missingRun}: completed`, "g"))).toHaveLength(1);
  expect(report).toMatch(/\nFetch: client_error · HTTP 404 · \d+ ms · text\/html; charset=utf-8\n/);
  expect(report).toContain(`\n  robots.txt: allows the page (${SITE}/robots.txt, HTTP 200)\n`);
  const failing = section(report, "Failing (");
  expect(failing.split("\n")[1]).toMatch(/^✗ \[critical\] Page could not be loaded — The page answered HTTP 404/);
  expect(failing).toMatch(/\n {6}HTTP status: 404 {2}\(fetch\)\n/);
  expect(failing).toMatch(/\n {2}Fix: /);
  expect(report).toMatch(/\nNot applicable \(\d+\): /);
  for (const line of lines.slice(1)) expect(line.length, line).toBeLessThanOrEqual(80);

  // The stored run prints the same report.
  const got = await cli(["runs", "get", missingRun]);
  expect(got.code, got.stderr).toBe(0);
  expect(got.stdout).toBe(report);
});

test("audit a page that asks not to be indexed: noindex fails first, with the tag as evidence", async ({}, testInfo) => {
  test.setTimeout(90_000);
  const result = await cli(["audit", NOINDEX, "--project", project, "--wait"]);
  expect(result.code, result.stderr).toBe(0);
  await keep(testInfo, "report-noindex.txt", result.stdout);
  expect(result.stdout).toMatch(/\nFetch: success · HTTP 200 · /);
  const failing = section(result.stdout, "Failing (");
  expect(failing.split("\n")[1]).toMatch(/^✗ \[critical\] Page asks not to be indexed — /);
  expect(failing).toMatch(/noindex, nofollow {2}\(.+\)/);
  expect(failing).not.toContain("Page could not be loaded");
  expect(result.stdout).toContain("\n  lang: en · robots: meta noindex, nofollow · noindex: yes · nofollow: yes\n");
});

test("--file with several URLs (a comment, a blank line) starts them all, waits for all, a table then each report", async ({}, testInfo) => {
  test.setTimeout(120_000);
  const file = path.join(mkdtempSync(path.join(tmpdir(), "geoscope-audit-urls-")), "urls.txt");
  writeFileSync(file, `# three pages\n${ARTICLE}\n\n${MISSING}\n${NOINDEX}\n`);
  const result = await cli(["audit", "--file", file, "--project", project, "--wait"]);
  expect(result.code, result.stderr).toBe(0);
  await keep(testInfo, "reports.txt", result.stdout);
  const [summary, ...reports] = result.stdout.trimEnd().split(`\n\n${"=".repeat(80)}\n`);
  const rows = summary!.split("\n");
  expect(rows[0]).toMatch(/^STATUS +FETCH +HTTP +FAIL +WARN +URL$/);
  expect(rows.slice(1)).toEqual([
    expect.stringMatching(new RegExp(`^completed +success +200 +\\d+ +\\d+ +${ARTICLE}$`)),
    expect.stringMatching(new RegExp(`^completed +client_error +404 +\\d+ +\\d+ +${MISSING}$`)),
    expect.stringMatching(new RegExp(`^completed +success +200 +\\d+ +\\d+ +${NOINDEX}$`)),
  ]);
  expect(reports.map((r) => r.split("\n")[0])).toEqual([ARTICLE, MISSING, NOINDEX].map((url) => expect.stringMatching(new RegExp(`^audit dr_\\w+: completed · ${url}$`))));
  // The good article: fetched, read as an article, its outline in order, nothing critical failing.
  const article = reports[0]!;
  expect(article).toMatch(/\nFetch: success · HTTP 200 · /);
  expect(article).toMatch(/\nContent: article · \d+ words · /);
  expect(article).toContain("\n  h1 Choosing a CRM for a small B2B team\n    h2 Who enters the data\n    h2 What it must connect to\n    h2 What you can pay");
  expect(article).toMatch(/\n {2}JSON-LD: Article\b.* \(1 block, 0 errors\)\n/);
  expect(article).not.toContain("[critical]");
});

test("--file - reads the URLs from standard input; --json prints each run's body on a line of its own", async () => {
  test.setTimeout(90_000);
  const result = await cliWithInput(["audit", "--file", "-", "--project", project, "--wait", "--json"], `${ARTICLE}\n${MISSING}\n`);
  expect(result.code, result.stderr).toBe(0);
  const lines = result.stdout.trimEnd().split("\n");
  expect(lines).toHaveLength(2);
  const runs = lines.map((line) => JSON.parse(line) as { id: string; kind: string; status: string; input: { url: string }; result: { page: { url: string }; fetch: { status: string } } });
  expect(runs.map((r) => [r.kind, r.status, r.input.url, r.result.page.url, r.result.fetch.status])).toEqual([
    ["audit", "completed", ARTICLE, ARTICLE, "success"],
    ["audit", "completed", MISSING, MISSING, "client_error"],
  ]);
});

test("a page that gives no HTTP answer: the audit fails, says the page could not be fetched and why, charges nothing", async ({}, testInfo) => {
  test.setTimeout(90_000);
  const PRIVATE = "http://192.168.0.1/router";
  const result = await cli(["audit", PRIVATE, "--project", project, "--wait"]);
  await keep(testInfo, "report-not-fetched.txt", `${result.stdout}\n--- stderr ---\n${result.stderr}`);
  expect(result.code, result.stderr).toBe(1);
  const lines = result.stdout.trimEnd().split("\n");
  expect(lines[0]).toMatch(/^audit dr_\w+: failed · http:\/\/192\.168\.0\.1\/router$/);
  const id = /^audit (dr_\w+)/.exec(lines[0]!)![1]!;
  expect(lines[1]).toMatch(/ · nothing charged \(hold released\) · /);
  expect(result.stdout).toContain("\nThe page could not be fetched: 192.168.0.1 is a private or reserved address.");
  expect(result.stdout).toContain("\n(page_blocked; asking again will not help)\n");
  expect(result.stdout).not.toContain("Failing (");
  for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
  expect(`${result.stderr}${result.stdout}`.match(new RegExp(`audit ${id}: failed`, "g"))).toHaveLength(1);

  // The API's body: failed, no result, the error and the released hold.
  const json = await cli(["runs", "get", id, "--json"]);
  expect(json.code, json.stderr).toBe(0);
  const body = JSON.parse(json.stdout) as { status: string; result: unknown; error: { code: string; retryable: boolean; message: string }; charge: { status: string; amount_usd: string } };
  expect([body.status, body.result, body.error.code, body.error.retryable, body.charge.status]).toEqual(["failed", null, "page_blocked", false, "released"]);
  expect(body.error.message).toMatch(/^The page could not be fetched: /);

  // Several at once: the table names the code where a fetch status would be.
  const both = await cli(["audit", PRIVATE, MISSING, "--project", project, "--wait"]);
  expect(both.code).toBe(1);
  const rows = both.stdout.split(`\n\n${"=".repeat(80)}\n`)[0]!.split("\n");
  expect(rows.slice(1)).toEqual([
    expect.stringMatching(new RegExp(`^failed +page_blocked +- +- +- +${PRIVATE}$`)),
    expect.stringMatching(new RegExp(`^completed +client_error +404 +\\d+ +\\d+ +${MISSING}$`)),
  ]);
});

test("refuses a URL that is not http(s) before starting anything", async () => {
  const result = await cli(["audit", ARTICLE, "file:///etc/passwd", "--project", project, "--wait"]);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain("not an absolute http(s) URL: file:///etc/passwd; nothing was started");
  const listed = await cli(["runs", "list", "--project", project, "--json"]);
  const items = (JSON.parse(listed.stdout) as { items: { kind: string }[] }).items;
  expect(items.filter((r) => r.kind === "audit")).toHaveLength(10);
});
