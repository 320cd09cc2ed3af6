// Judged visibility end to end (issue #35) against the built server: the real `geoscope` binary
// asks for a judged analysis (--judge-engine, --sentiment, --discover, --wait) and prints the
// judge's tables; in Chromium, the analysis page's sentiment bars with their quotes and the
// discovered competitors, one of which is added to the project's competitors with one click.
// Screenshots at 1280 and 390 px.
import path from "node:path";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { apiWith, approveCliLogin, BIN, cliAs, cliEnv, ROOT, signIn } from "./support";
import { screenshots } from "./screens";

test.describe.configure({ mode: "serial" });

const EMAIL = `judge-${Date.now()}@example.com`;
const CONFIG_DIR = mkdtempSync(path.join(tmpdir(), "geoscope-judge-cli-"));

// Every engine gives this answer: Acme praised, HubSpot criticised, Salesforce named in passing.
const ANSWER = "Acme CRM is the best choice for small agencies.\nHubSpot is expensive for small teams.\nSalesforce is another option.";
const PROMPT = `crm for a small agency [[sim:answer:${Buffer.from(ANSWER, "utf8").toString("base64url")}]]`;

let context: BrowserContext;
let page: Page;
let token = "";
let projectId = "";
let analysisId = "";

const cli = cliAs({ configDir: CONFIG_DIR });

const api = apiWith(() => token);

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<title>cited page</title>" }));
  page = await context.newPage();
});
test.afterAll(async () => {
  await context?.close();
});

test("the CLI asks for a judged analysis and prints sentiment, discovered names and agreement", async () => {
  test.setTimeout(120_000);
  await signIn(page, EMAIL);
  const login = await approveCliLogin(page, process.execPath, [BIN], { cwd: ROOT, env: cliEnv({ configDir: CONFIG_DIR }) });
  expect(login.code, login.stderr).toBe(0);
  token = JSON.parse(readFileSync(path.join(CONFIG_DIR, "config.json"), "utf8")).token;
  const me = await api("GET", "/me");
  const project = await api("POST", "/projects", { name: "Acme", workspace_id: me.body.workspaces[0].id, context: { brands: ["Acme CRM"], competitors: ["HubSpot"] } });
  expect(project.status, project.text).toBe(201);
  projectId = project.body.id;
  const queued = await api("POST", "/prompts", { prompt: PROMPT, engines: ["chatgpt", "gemini"], project: projectId });
  expect(queued.status, queued.text).toBe(202);
  const batchId = queued.body.batch.id;
  await expect.poll(async () => (await api("GET", `/batches/${batchId}?wait=30`)).body.batch.status, { timeout: 60_000 }).toBe("completed");

  const judged = await cli(["visibility", "create", batchId, "--judge-engine", "claude", "--sentiment", "--discover", "--wait"]);
  expect(judged.code, judged.stderr).toBe(0);
  analysisId = /visibility analysis (va_\w+): completed/.exec(judged.stdout)![1]!;
  expect(judged.stdout).toMatch(/judged by claude \(.*simulated\), prompt v1 sha256 [0-9a-f]{12}… · 2\/2 runs judged · 0 quotes rejected/);
  // Acme praised in both answers, HubSpot criticised in both.
  expect(judged.stdout).toMatch(/Acme CRM\s+2\s+0\s+0\s+100%\s+34–100%\s+Acme CRM is the best choice/);
  expect(judged.stdout).toMatch(/HubSpot\s+0\s+0\s+2\s+0%\s+0–66%\s+HubSpot is expensive/);
  expect(judged.stdout).toMatch(/Salesforce\s+2\/2\s+100%/);
  expect(judged.stdout).toContain(`judge vs rules on "mentioned": 2/2 runs agree, 4/4 run x entity pairs, Cohen's kappa undefined`);

  const json = await cli(["visibility", "get", analysisId, "--json"]);
  const body = JSON.parse(json.stdout);
  expect(body.charge).toMatchObject({ status: "captured", unit: "run", units: 2, amount_usd: "0.012" });
});

test("the analysis page shows sentiment bars with their quotes, and one click tracks a discovered competitor", async ({}, testInfo) => {
  test.setTimeout(120_000);
  await page.goto(`/analyses/${analysisId}`);
  const judge = page.getByTestId("judged");
  await expect(judge).toContainText("2 of 2");
  const rows = page.getByTestId("sentiment-row");
  await expect(rows).toHaveCount(2);
  // Counts first, the score over the answers taking a side after them (issue #42).
  await expect(rows.nth(0)).toContainText("2 of 2 answers naming Acme CRM are positive and none negative · of the 2 taking a side, 100% positive (95% 34–100%)");
  await expect(rows.nth(0)).toContainText("“Acme CRM is the best choice for small agencies.”");
  await expect(rows.nth(1)).toContainText("2 negative");
  await expect(rows.nth(1)).toContainText("“HubSpot is expensive for small teams.”");
  const discovered = page.getByTestId("discovered-list");
  await expect(discovered).toContainText("Salesforce");
  await expect(discovered).toContainText("2 of 2 runs · 100%");
  await screenshots(page, testInfo, "visibility-judged");

  await discovered.getByRole("button", { name: "Track as competitor" }).click();
  await page.waitForURL(/outcome=added/);
  await expect(page.getByTestId("competitor-outcome")).toContainText("Salesforce is now a competitor of the project");
  await expect(page.getByTestId("discovered-list")).toContainText("tracked");
  await expect(page.getByTestId("discovered-list").getByRole("button", { name: "Track as competitor" })).toHaveCount(0);
  const project = await api("GET", `/projects/${projectId}`);
  expect(project.body.context.competitors).toEqual(["HubSpot", "Salesforce"]);
  expect(project.body.context.brands).toEqual(["Acme CRM"]);
  await screenshots(page, testInfo, "visibility-judged-added");
});

test("its public page shows the sentiment, quotes and discovered names, with nothing to change", async ({ browser, request }, testInfo) => {
  await page.goto(`/analyses/${analysisId}`);
  const share = page.getByTestId("share-control");
  await share.getByRole("button", { name: "Create share link" }).click();
  const shareUrl = (await share.getByTestId("share-url").inputValue()).replace(/^http:\/\/[^/]+/, "");
  const visitor = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const outside = await visitor.newPage();
  await outside.goto(shareUrl);
  await expect(outside.getByTestId("sentiment-row")).toHaveCount(2);
  await expect(outside.getByTestId("sentiment-row").nth(0)).toContainText("“Acme CRM is the best choice for small agencies.”");
  await expect(outside.getByTestId("discovered-list")).toContainText("Salesforce");
  await expect(outside.getByRole("button", { name: "Track as competitor" })).toHaveCount(0);
  await screenshots(outside, testInfo, "visibility-judged-shared");
  const shared = await (await request.get(`${shareUrl}.json`)).json();
  const own = (await api("GET", `/analyses/${analysisId}`)).body;
  expect(shared).toEqual({ ...own, project_id: null, created_by: null, charge: null });
  expect(shared.rows[0].sentiment.quotes[0].quote).toBe("Acme CRM is the best choice for small agencies.");
  await visitor.close();
});
