// Markets end to end (issue #33) against the built server: in Chromium, the market picker on the
// prompt and fanout forms, the market on the batch, run and fanout pages (screenshots at 1280 and
// 390 px); with the real `geoscope` binary, --country/--city/--language and --location on prompt,
// fanout estimate and fanout create, a fanout across two countries read back by country, runs
// listed by country, and a bad code refused naming its field.
import path from "node:path";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { apiWith, approveCliLogin, BIN, cliAs, cliEnv, onlyEngines, ROOT, signIn } from "./support";
import { screenshots } from "./screens";

test.describe.configure({ mode: "serial" });

const EMAIL = `markets-${Date.now()}@example.com`;
const CONFIG_DIR = mkdtempSync(path.join(tmpdir(), "geoscope-markets-cli-"));

let context: BrowserContext;
let page: Page;
let projectId = "";
let token = "";
let twoCountryFanout = "";

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

test("the prompt form's market picker: the batch and its runs show the market, and what reached each engine", async ({}, testInfo) => {
  test.setTimeout(120_000);
  await signIn(page, EMAIL);
  const projects = page.locator("#projects");
  await projects.getByLabel("Project name").fill("Markets");
  await projects.getByRole("button", { name: "Create project" }).click();
  await projects.getByRole("link", { name: "Markets" }).click();
  projectId = new URL(page.url()).pathname.split("/").pop()!;
  expect(projectId).toMatch(/^pr_/);

  const form = page.getByTestId("prompt-form");
  const picker = form.getByTestId("market-picker");
  await expect(picker).toHaveAttribute("data-ready", "true");
  await form.getByLabel("Prompt").fill("best crm for a small team");
  await onlyEngines(form, ["chatgpt", "claude", "gemini"]);
  await expect(picker.getByLabel("City")).toBeDisabled();
  await picker.getByLabel("Country").selectOption("DE");
  await picker.getByLabel("City").fill("Munich");
  await picker.getByLabel("Language").selectOption("de-DE");
  await screenshots(page, testInfo, "markets-prompt-form");
  await form.getByTestId("start-prompt").click();
  await page.waitForURL(/\/batches\/rq_[0-9A-Z]{26}$/);
  await expect(page.getByTestId("market")).toHaveText("Market: Germany · Munich · German (de-DE)");
  await expect(page.getByTestId("batch-run").and(page.locator('[data-status="completed"]'))).toHaveCount(3, { timeout: 60_000 });
  await screenshots(page, testInfo, "markets-batch");

  const gemini = page.getByTestId("batch-run").filter({ hasText: "Gemini (API)" });
  await gemini.getByTestId("open-run").click();
  await page.waitForURL(/\/runs\/dr_/);
  await expect(page.getByTestId("market")).toContainText("Germany · Munich");
  await expect(page.getByTestId("locale-applied")).toHaveText("Gemini (API) was sent the location and language");
  await screenshots(page, testInfo, "markets-run");
  await page.goBack();
  const chatgpt = page.getByTestId("batch-run").filter({ hasText: "ChatGPT (API)" });
  await chatgpt.getByTestId("open-run").click();
  // The language was asked for too: ChatGPT's web search takes none, and the page says so.
  await expect(page.getByTestId("locale-applied")).toHaveText("ChatGPT (API) was sent the location, not the language");
});

test("the fanout form's market picker: the estimate follows it, the fanout page shows each prompt's market", async ({}, testInfo) => {
  test.setTimeout(120_000);
  await page.goto(`/projects/${projectId}`);
  await page.getByTestId("start-fanout-panel").locator("summary").click();
  const form = page.getByTestId("fanout-form");
  await expect(form.getByTestId("market-picker")).toHaveAttribute("data-ready", "true");
  await form.getByTestId("fanout-prompts").fill("best crm for a small team\ncrm pricing");
  await onlyEngines(form, ["chatgpt", "claude", "gemini"]);
  await form.getByTestId("fanout-runs").fill("1");
  await form.getByTestId("market-picker").getByLabel("Country").selectOption("BR");
  await form.getByTestId("market-picker").getByLabel("Language").selectOption("pt-BR");
  await expect(form.getByTestId("fanout-estimate")).toHaveAttribute("data-state", "ready");
  await expect(form.getByTestId("estimate-executions")).toHaveAttribute("data-executions", "6");
  await screenshots(page, testInfo, "markets-fanout-form");
  await form.getByTestId("start-fanout").click();
  await page.waitForURL(/\/fanouts\/fo_/);
  await expect(page.getByTestId("prompt-market").first()).toHaveText("Brazil · Portuguese (pt-BR)");
  await expect(page.getByTestId("matrix-cell").and(page.locator('[data-status="completed"]'))).toHaveCount(6, { timeout: 60_000 });
  await screenshots(page, testInfo, "markets-fanout");
});

test("the CLI: --country/--city/--language and --location on prompt and fanouts, a fanout across countries by country, runs by country", async () => {
  test.setTimeout(180_000);
  const login = await approveCliLogin(page, process.execPath, [BIN], {
    cwd: ROOT,
    env: cliEnv({ configDir: CONFIG_DIR }),
  });
  expect(login.code, login.stderr).toBe(0);
  token = JSON.parse((await import("node:fs")).readFileSync(path.join(CONFIG_DIR, "config.json"), "utf8")).token;

  const prompt = await cli(["prompt", "best crm for a small team", "--project", projectId, "--country", "de", "--city", "Munich", "--language", "pt-br", "--engines", "chatgpt,claude,gemini", "--wait", "--json"]);
  expect(prompt.code, prompt.stderr).toBe(0);
  const batch = JSON.parse(prompt.stdout);
  expect(batch.batch.input).toMatchObject({ location: { country: "DE", city: "Munich" }, language: "pt-BR" });
  expect(batch.runs.map((r: any) => r.result.locale_applied.location)).toEqual([true, true, true]);

  const human = await cli(["prompt", "best crm", "--project", projectId, "--location", '{"country":"fr","city":"Lyon","timezone":"europe/paris"}', "--engines", "gemini", "--wait"]);
  expect(human.code, human.stderr).toBe(0);
  expect(human.stdout).toContain("market: FR · Lyon");
  expect(human.stdout).toContain("sent to gemini: location");

  const bad = await cli(["prompt", "best crm", "--project", projectId, "--country", "XX"]);
  expect(bad.code).not.toBe(0);
  expect(bad.stderr).toContain('location.country: unknown country "XX"');
  const mixed = await cli(["prompt", "best crm", "--project", projectId, "--country", "DE", "--location", '{"country":"US"}']);
  expect(mixed.code).toBe(2);
  expect(mixed.stderr).toContain("give --location, or --country and --city, not both");

  const estimate = await cli(["fanout", "estimate", "best crm for a small team", "--project", projectId, "--country", "DE,US", "--runs", "2", "--engines", "chatgpt,claude,gemini", "--json"]);
  expect(estimate.code, estimate.stderr).toBe(0);
  expect(JSON.parse(estimate.stdout)).toMatchObject({ prompts: 2, executions: 12, identical_prompts: 0 });

  const created = await cli(["fanout", "create", "best crm for a small team", "--project", projectId, "--country", "DE,US", "--runs", "2", "--engines", "chatgpt,claude,gemini", "--wait", "--json"]);
  expect(created.code, created.stderr).toBe(0);
  const fanout = JSON.parse(created.stdout);
  expect(fanout.status).toBe("completed");
  expect(fanout.prompts.map((p: any) => p.location.country)).toEqual(["DE", "US"]);
  twoCountryFanout = fanout.id;

  const byCountry = await cli(["fanout", "queries", fanout.id, "--by-country"]);
  expect(byCountry.code, byCountry.stderr).toBe(0);
  expect(byCountry.stdout).toMatch(/chatgpt\s+DE/);
  expect(byCountry.stdout).toMatch(/chatgpt\s+US/);
  const report = await cli(["fanout", "queries", fanout.id, "--json"]);
  const direct = await api("GET", `/fanouts/${fanout.id}/queries`);
  expect(report.stdout).toBe(direct.text);
  const rows = JSON.parse(report.stdout).by_country.filter((r: any) => r.engine === "chatgpt");
  expect(rows.map((r: any) => [r.country, r.completed_runs])).toEqual([["DE", 2], ["US", 2]]);

  const csv = await cli(["fanout", "queries", fanout.id, "--format", "csv"]);
  expect(csv.stdout.split("\r\n")[0]).toBe("prompt_index,prompt,country,language,engine,run_id,run_index,position,search_call,query");
  expect(csv.stdout).toMatch(/\r\n1,best crm for a small team,DE,,/);

  const listed = await cli(["runs", "list", "--fanout", fanout.id, "--country", "us", "--json"]);
  expect(listed.code, listed.stderr).toBe(0);
  expect(listed.stdout).toBe((await api("GET", `/runs?fanout=${fanout.id}&country=us`)).text);
  expect(JSON.parse(listed.stdout).items).toHaveLength(6);
});

test("a citation analysis of the two-country fanout shows its answers by country", async ({}, testInfo) => {
  test.setTimeout(60_000);
  await page.goto(`/fanouts/${twoCountryFanout}`);
  await expect(page.getByTestId("prompt-market")).toHaveText(["Germany", "United States of America", "Germany", "United States of America"]);
  // The same prompt's searches side by side per country, each engine in both markets.
  await expect(page.getByTestId("country-comparison")).toHaveCount(1);
  await expect(page.getByTestId("country-cell")).toHaveCount(6);
  await expect(page.locator('[data-testid="country-cell"][data-engine="chatgpt"][data-country="DE"]')).toContainText("ChatGPT (API) · Germany");
  await screenshots(page, testInfo, "markets-fanout-by-country");
  await page.getByRole("button", { name: "Analyse citations of this fanout" }).click();
  await page.waitForURL(/\/analyses\/ca_/);
  const rows = page.getByTestId("country-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toHaveAttribute("data-country", "DE");
  await expect(rows.first()).toContainText("Germany (DE)");
  await expect(rows.nth(1)).toContainText("United States of America (US)");
  await screenshots(page, testInfo, "markets-citations-by-country");
});
