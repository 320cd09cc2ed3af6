// Monitors end to end against the built server (issue #36). In Chromium: "Track these prompts"
// from a fanout and from a questions cluster, "New monitor" of prompts typed, the monitor page (its empty state before the first
// tick, run now, the ticks table linking each tick's fanout, pause and resume, the settings that
// keep its series, what it measures changed as a new version, a prompt spanning several lines
// edited in a box of its own, delete after a confirmation), the
// project page's list; screenshots at 1280 and 390 px. With the real
// `geoscope` binary: monitor create --file, list, get, ticks, run, pause, resume, delete.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { approveCliLogin, BIN, cliAs, cliEnv, onlyEngines, ROOT, signIn } from "./support";
import { screenshots } from "./screens";

test.describe.configure({ mode: "serial" });

const EMAIL = `monitors-${Date.now()}@example.com`;
const CONFIG_DIR = mkdtempSync(path.join(tmpdir(), "geoscope-monitors-cli-"));

let context: BrowserContext;
let page: Page;
let projectId = "";
/** The questions cluster's monitor and how many questions it tracks (its prompts changed on its page, read by the CLI test). */
let clusterMonitor = { id: "", questions: 0 };

const cli = cliAs({ configDir: CONFIG_DIR });

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<title>cited page</title>" }));
  page = await context.newPage();
});
test.afterAll(async () => {
  await context?.close();
});

test("a fanout's prompts tracked: the new monitor's page before its first tick, a tick run now with its fanout, pause, resume and delete", async ({}, testInfo) => {
  test.setTimeout(240_000);
  await signIn(page, EMAIL);
  const create = page.getByTestId("project-create");
  await create.getByLabel("Project name").fill("Monitored");
  await create.getByLabel("Primary domain").fill("acme.example");
  await create.getByLabel("Brands").fill("Acme CRM");
  await create.getByLabel("Competitors").fill("HubSpot, Pipedrive");
  await create.getByRole("button", { name: "Create project" }).click();
  await page.locator("#projects").getByRole("link", { name: "Monitored" }).click();
  projectId = new URL(page.url()).pathname.split("/").pop()!;
  expect(projectId).toMatch(/^pr_/);
  await expect(page.getByTestId("no-monitors")).toBeVisible();

  // A fanout, then "Track these prompts" on its page.
  await page.getByTestId("start-fanout-panel").locator("summary").click();
  const form = page.getByTestId("fanout-form");
  await form.getByTestId("fanout-prompts").fill("best crm for a small agency\npipedrive vs hubspot");
  await onlyEngines(form, ["chatgpt", "claude", "gemini"]);
  await form.getByTestId("fanout-runs").fill("1");
  await expect(form.getByTestId("fanout-estimate")).toHaveAttribute("data-state", "ready");
  await form.getByTestId("start-fanout").click();
  await page.waitForURL(/\/fanouts\/fo_/);
  const fanoutId = new URL(page.url()).pathname.split("/").pop()!;
  await page.getByTestId("track-prompts").click();
  await page.waitForURL(/\/monitors\/new\?from=fo_/);
  await expect(page.getByTestId("tracked-prompts").locator("li")).toHaveText([/best crm for a small agency/, /pipedrive vs hubspot/]);
  await expect(page.getByTestId("tracked-entities")).toHaveText(/Acme CRM.*HubSpot.*Pipedrive/);
  const monitorForm = page.getByTestId("monitor-form");
  await monitorForm.getByLabel("Name", { exact: true }).fill("CRM visibility");
  await monitorForm.getByTestId("monitor-every").selectOption("week");
  await monitorForm.getByTestId("monitor-weekday").selectOption("3");
  await monitorForm.getByTestId("monitor-at").fill("07:30");
  await monitorForm.getByLabel("Gemini (API)").uncheck();
  await screenshots(page, testInfo, "monitor-new");

  // A refusal in the form's words keeps what was typed.
  await monitorForm.getByLabel("Monthly budget (USD, optional)").fill("lots");
  await monitorForm.getByTestId("create-monitor").click();
  // Said once: the amount fails two checks that word their rule alike.
  await expect(monitorForm.getByTestId("monitor-refusal")).toHaveText(/^Monthly budget: must be an amount in USD [^;]*$/);
  await expect(monitorForm.getByLabel("Name", { exact: true })).toHaveValue("CRM visibility");
  await monitorForm.getByLabel("Monthly budget (USD, optional)").fill("5.00");
  // What it would cost and could see, before anything is made: 2 prompts × 1 run on two engines, weekly.
  await monitorForm.getByTestId("estimate-monitor").click();
  await expect(monitorForm.getByTestId("monitor-estimate")).toContainText("4 runs per tick: $0.10 a tick, at most $0.50 a month (5 ticks); the $5.00 budget pays for 5 of them.");
  await expect(monitorForm.getByTestId("monitor-estimate-precision")).toHaveText(
    "About ±41 points per engine (2 runs each); to reach ±5, 385 runs per engine. With so few runs per tick, not even a 50-point change between two ticks (from 50%) is alerted 8 times in 10; add prompts or runs.",
  );
  await expect(monitorForm.getByLabel("Name", { exact: true })).toHaveValue("CRM visibility");
  await monitorForm.getByTestId("create-monitor").click();
  // Made: its webhook secret is shown this once, then its page.
  await expect(page.getByTestId("monitor-created").getByTestId("webhook-secret")).toHaveText(/^whsec_[0-9A-Za-z]{40}$/);
  await page.getByTestId("open-monitor").click();
  await page.waitForURL(/\/monitors\/mo_[0-9A-Z]{26}$/);
  const monitorId = new URL(page.url()).pathname.split("/").pop()!;

  // Before the first tick: when it will be, and the way to run one now.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("CRM visibility");
  await expect(page.getByTestId("no-ticks")).toContainText("No tick yet.");
  await expect(page.getByTestId("no-ticks")).toContainText("every Wednesday at 07:30 UTC");
  await expect(page.getByText("2 prompts × ChatGPT (API), Claude (API) × 1 = 4 runs")).toBeVisible();
  await expect(page.getByTestId("monitor-entities")).toContainText("Acme CRM");
  await screenshots(page, testInfo, "monitor-empty");

  // Run now: a tick whose fanout is linked, then completed once the fanout finished.
  await page.getByTestId("run-now").click();
  await expect(page.getByTestId("monitor-action-outcome")).toContainText("A tick is running now");
  await expect(page.getByTestId("tick-row")).toHaveCount(1);
  const tickFanout = await page.getByTestId("tick-fanout").getAttribute("href");
  expect(tickFanout).toMatch(/^\/fanouts\/fo_/);
  expect(tickFanout).not.toBe(`/fanouts/${fanoutId}`);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("tick-row")).toHaveAttribute("data-status", "completed", { timeout: 1000 });
  }).toPass({ timeout: 90_000 });
  await screenshots(page, testInfo, "monitor-ticks");
  await page.getByTestId("tick-fanout").click();
  await page.waitForURL(new RegExp(`${tickFanout}$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText("CRM visibility ·");
  await page.goBack();

  // Pause and resume.
  await page.getByTestId("pause").click();
  await expect(page.getByTestId("monitor-action-outcome")).toContainText("Paused");
  await expect(page.getByTestId("resume")).toBeVisible();
  await page.getByTestId("resume").click();
  await expect(page.getByTestId("monitor-action-outcome")).toContainText("Resumed");
  await expect(page.getByTestId("pause")).toBeVisible();

  // Settings that keep the series: the schedule, the budget and the judge; a refusal in the form's words.
  const fact = (label: string) => page.locator("dt", { hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::dd");
  const settings = page.getByTestId("monitor-settings");
  await settings.locator("summary").click();
  await expect(settings.getByTestId("settings-weekday")).toHaveValue("3");
  await settings.getByTestId("settings-budget").fill("ten dollars");
  await settings.getByTestId("save-settings").click();
  await expect(page.getByTestId("settings-outcome")).toContainText(/^Monthly budget: /);
  await settings.getByTestId("settings-budget").fill("40");
  await settings.getByTestId("settings-weekday").selectOption("5");
  await settings.getByTestId("settings-at").fill("08:15");
  await settings.getByTestId("settings-judge").selectOption("claude");
  await screenshots(page, testInfo, "monitor-settings-form");
  await settings.getByTestId("save-settings").click();
  await expect(page.getByTestId("settings-outcome")).toContainText("Settings saved; the monitor's series goes on (same version).");
  await page.reload();
  await expect(fact("Schedule")).toHaveText("every Friday at 08:15 UTC");
  await expect(fact("Spent this month")).toContainText(" of $40.00");
  await expect(fact("Sentiment judge")).toHaveText("Claude (API), charged per answer judged");
  await expect(fact("Series")).toHaveText("version 1");
  await screenshots(page, testInfo, "monitor-settings");
  // Saved again unchanged: nothing is sent. Then the budget and the judge taken away.
  await page.getByTestId("monitor-settings").locator("summary").click();
  await page.getByTestId("save-settings").click();
  await expect(page.getByTestId("settings-outcome")).toContainText("Nothing changed.");
  await page.getByTestId("settings-budget").fill("");
  await page.getByTestId("settings-judge").selectOption("");
  await page.getByTestId("save-settings").click();
  await expect(page.getByTestId("settings-outcome")).toContainText("Settings saved");
  await page.reload();
  await expect(fact("Spent this month")).toContainText("(no budget)");
  await expect(fact("Sentiment judge")).toHaveText("none");
  await expect(fact("Schedule")).toHaveText("every Friday at 08:15 UTC");

  // What it measures, changed from the page: a refusal first (nothing changes), then what a tick
  // of the fields as typed would cost, then prompts, runs and market saved as version 2.
  const measure = page.getByTestId("monitor-measure");
  await measure.locator("summary").click();
  await expect(measure.getByTestId("measure-prompts")).toHaveValue("best crm for a small agency\npipedrive vs hubspot");
  await expect(measure.getByTestId("measure-runs")).toHaveValue("1");
  await expect(measure.getByTestId("market-picker")).toHaveAttribute("data-ready", "true");
  await measure.getByTestId("measure-prompts").fill("  \n");
  await measure.getByTestId("save-measure").click();
  await expect(page.getByTestId("measure-outcome")).toHaveText("Prompts: give at least one prompt, one per line.");
  await measure.getByTestId("measure-prompts").fill("best crm for a small agency\npipedrive vs hubspot\ncrm for a design studio");
  await measure.getByTestId("measure-runs").fill("2");
  await measure.getByTestId("market-picker").getByLabel("Country").selectOption("DE");
  await measure.getByTestId("market-picker").getByLabel("Language").selectOption("de-DE");
  await measure.getByTestId("estimate-measure").click();
  // 3 prompts × 2 engines × 2 runs, at the $0.025 a run of the tick above; nothing changed yet.
  await expect(measure.getByTestId("measure-estimate")).toContainText("12 runs per tick: $0.30 a tick");
  await expect(measure.getByTestId("measure-estimate")).toContainText("nothing is changed until you save");
  await screenshots(page, testInfo, "monitor-measure-form");
  await measure.getByTestId("save-measure").click();
  await expect(page.getByTestId("measure-outcome")).toHaveText(
    "What it measures changed: version 2, a new series from the next tick. Version 1's series stays readable on this page (Version, above the charts).",
  );
  await page.reload();
  await expect(fact("Series")).toHaveText("version 2");
  await expect(fact("Each tick")).toHaveText("3 prompts × ChatGPT (API), Claude (API) × 2 = 12 runs");
  await expect(fact("Market")).toHaveText("Germany · German (de-DE)");
  // Its ticks' prompts kept their market and question; the settings kept theirs.
  await expect(fact("Schedule")).toHaveText("every Friday at 08:15 UTC");
  await expect(page.getByTestId("tick-row")).toHaveCount(1);
  // Saved again as drawn: nothing is sent, the version stays.
  await page.getByTestId("monitor-measure").locator("summary").click();
  await expect(page.getByTestId("monitor-measure").getByLabel("Country")).toHaveValue("DE");
  await expect(page.getByTestId("monitor-measure").getByTestId("measure-entities")).toContainText("The same as the project's.");
  await page.getByTestId("save-measure").click();
  await expect(page.getByTestId("measure-outcome")).toHaveText("Nothing changed.");

  // A competitor added to the project: the monitor offers to measure the project's list as it is now.
  await page.goto(`/projects/${projectId}`);
  await page.locator("#entity-name-3").fill("Salesforce");
  await page.getByTestId("save-entities").click();
  await expect(page.getByTestId("entities-outcome")).toBeVisible();
  await page.goto(`/monitors/${monitorId}`);
  await expect(page.getByTestId("monitor-entities")).not.toContainText("Salesforce");
  await page.getByTestId("monitor-measure").locator("summary").click();
  await expect(page.getByTestId("measure-entity-changes")).toHaveText("Added: Salesforce");
  await page.getByTestId("measure-take-project-entities").check();
  await screenshots(page, testInfo, "monitor-measure-entities");
  await page.getByTestId("save-measure").click();
  await expect(page.getByTestId("measure-outcome")).toContainText("What it measures changed: version 3");
  await page.reload();
  await expect(fact("Series")).toHaveText("version 3");
  await expect(page.getByTestId("monitor-entities")).toContainText("Salesforce");
  await expect(fact("Each tick")).toHaveText("3 prompts × ChatGPT (API), Claude (API) × 2 = 12 runs");
  // The project's list as it was (the CLI test below reads its brands and competitors).
  await page.goto(`/projects/${projectId}`);
  await expect(page.locator("#entity-name-3")).toHaveValue("Salesforce");
  await page.locator("#entity-name-3").fill("");
  await page.getByTestId("save-entities").click();
  await expect(page.getByTestId("entities-outcome")).toBeVisible();

  // The project lists it.
  await page.goto(`/projects/${projectId}`);
  await expect(page.getByTestId("monitor-item")).toHaveCount(1);
  await expect(page.getByTestId("monitor-item")).toContainText("CRM visibility");
  await expect(page.getByTestId("monitor-item")).toContainText("every Friday at 08:15 UTC");
  await screenshots(page, testInfo, "project-monitors");

  // Delete, after a confirmation: gone (404), its tick's fanout stays.
  await page.getByTestId("monitor-item").getByRole("link").click();
  await page.getByTestId("delete").click();
  await expect(page.getByTestId("delete-confirm")).toContainText("The fanouts its ticks made stay");
  await screenshots(page, testInfo, "monitor-delete-confirm");
  await page.getByTestId("delete-confirmed").click();
  await page.waitForURL(new RegExp(`/projects/${projectId}`));
  await expect(page.getByTestId("no-monitors")).toBeVisible();
  expect((await page.goto(`/monitors/${monitorId}`))!.status()).toBe(404);
  expect((await page.goto(tickFanout!))!.status()).toBe(200);
});

test("a questions cluster's prompts tracked: each question a prompt, linked to its question", async ({}, testInfo) => {
  test.setTimeout(180_000);
  await page.goto(`/projects/${projectId}`);
  await page.getByTestId("start-questions-panel").locator("summary").click();
  const form = page.getByTestId("questions-form");
  await form.getByLabel("Topic").fill("crm for small agencies");
  await form.getByLabel("Questions").fill("6");
  await form.getByTestId("start-questions").click();
  await page.waitForURL(/\/analyses\/fa_[0-9A-Z]{26}$/);
  await expect(page.getByTestId("track-cluster").first()).toBeVisible({ timeout: 60_000 });
  const cluster = page.getByTestId("cluster").first();
  const questions = await cluster.getByTestId("question").allInnerTexts();
  await screenshots(page, testInfo, "questions-track");
  await cluster.getByTestId("track-cluster").click();
  await page.waitForURL(/\/monitors\/new\?from=fa_.*&cluster=c\d+/);
  await expect(page.getByTestId("tracked-prompts").locator("li")).toHaveCount(questions.length);
  await screenshots(page, testInfo, "monitor-new-cluster");
  await page.getByTestId("create-monitor").click();
  await page.getByTestId("open-monitor").click();
  await page.waitForURL(/\/monitors\/mo_[0-9A-Z]{26}$/);
  await expect(page.getByTestId("no-ticks")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Questions: ");
  clusterMonitor = { id: new URL(page.url()).pathname.split("/").pop()!, questions: questions.length };

  // A prompt added on the page: the questions kept as they were stay linked to their questions
  // (read through the CLI below, once it is signed in).
  const measure = page.getByTestId("monitor-measure");
  await measure.locator("summary").click();
  const box = measure.getByTestId("measure-prompts");
  await box.fill(`${await box.inputValue()}\ncrm pricing for agencies`);
  await measure.getByTestId("save-measure").click();
  await expect(page.getByTestId("measure-outcome")).toContainText("What it measures changed: version 2");
});

test("a new monitor of prompts typed on the project page, with its market", async ({}, testInfo) => {
  test.setTimeout(120_000);
  await page.goto(`/projects/${projectId}`);
  await page.getByTestId("new-monitor").click();
  await page.waitForURL(new RegExp(`/monitors/new\\?from=${projectId}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("A monitor of Monitored");
  await expect(page.getByTestId("tracked-entities")).toHaveText(/Acme CRM.*HubSpot.*Pipedrive/);
  const form = page.getByTestId("monitor-form");
  await expect(form.getByTestId("market-picker")).toHaveAttribute("data-ready", "true");
  // No prompt typed: refused in the form's words, nothing made.
  await form.getByTestId("create-monitor").click();
  await expect(form.getByTestId("monitor-refusal")).toHaveText("Prompts: give at least one prompt, one per line.");
  await form.getByTestId("monitor-prompts").fill("beste crm für agenturen\n\n  crm mit e-mail-tracking \n");
  await form.getByTestId("market-picker").getByLabel("Country").selectOption("DE");
  await form.getByTestId("market-picker").getByLabel("City").fill("Munich");
  await form.getByTestId("market-picker").getByLabel("Language").selectOption("de-DE");
  await onlyEngines(form, ["chatgpt"]);
  await form.getByLabel("Runs of each prompt on each engine").fill("1");
  await form.getByTestId("estimate-monitor").click();
  await expect(form.getByTestId("monitor-estimate")).toContainText("2 runs per tick");
  await screenshots(page, testInfo, "monitor-new-typed");
  await form.getByTestId("create-monitor").click();
  await expect(page.getByTestId("monitor-created").getByTestId("webhook-secret")).toHaveText(/^whsec_/);
  await page.getByTestId("open-monitor").click();
  await page.waitForURL(/\/monitors\/mo_[0-9A-Z]{26}$/);
  // Named after its first prompt; the market is the monitor's, the prompts as typed (trimmed).
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("beste crm für agenturen");
  const fact = (label: string) => page.locator("dt", { hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::dd");
  await expect(fact("Market")).toHaveText("Germany · Munich · German (de-DE)");
  await expect(fact("Each tick")).toHaveText("2 prompts × ChatGPT (API) × 1 = 2 runs");
  await expect(page.locator("#prompts li")).toHaveText([/^1\.\s*beste crm für agenturen$/, /^2\.\s*crm mit e-mail-tracking$/]);
});

test("a fanout across two countries tracked: each line keeps its own market when the prompts are changed", async ({}, testInfo) => {
  test.setTimeout(120_000);
  await page.goto(`/projects/${projectId}`);
  await page.getByTestId("start-fanout-panel").locator("summary").click();
  const fanoutForm = page.getByTestId("fanout-form");
  await fanoutForm.getByTestId("fanout-prompts").fill("best crm for a small agency");
  await onlyEngines(fanoutForm, ["chatgpt"]);
  await fanoutForm.getByTestId("fanout-runs").fill("1");
  const picker = fanoutForm.getByTestId("market-picker");
  await expect(picker).toHaveAttribute("data-ready", "true");
  await picker.getByLabel("Country", { exact: true }).selectOption("DE");
  await picker.getByTestId("add-country").click();
  await picker.getByLabel("Country 2", { exact: true }).selectOption("US");
  await expect(fanoutForm.getByTestId("fanout-estimate")).toHaveAttribute("data-state", "ready");
  await fanoutForm.getByTestId("start-fanout").click();
  await page.waitForURL(/\/fanouts\/fo_/);
  await page.getByTestId("track-prompts").click();
  await page.waitForURL(/\/monitors\/new\?from=fo_/);
  await page.getByTestId("create-monitor").click();
  await page.getByTestId("open-monitor").click();
  await page.waitForURL(/\/monitors\/mo_[0-9A-Z]{26}$/);

  // The same text twice, once per country: the box says which line has which market.
  const measure = page.getByTestId("monitor-measure");
  await measure.locator("summary").click();
  await expect(measure.getByTestId("measure-prompts")).toHaveValue("best crm for a small agency\nbest crm for a small agency");
  await expect(measure.getByTestId("measure-prompt-markets")).toHaveText(
    "Lines with a market of their own: 1. Germany; 2. United States of America. The same text on two lines keeps each line's market in this order.",
  );
  await screenshots(page, testInfo, "monitor-measure-markets");
  // A prompt added: both lines keep their markets, in order; the new one has none of its own.
  await measure.getByTestId("measure-prompts").fill("best crm for a small agency\nbest crm for a small agency\ncrm for a design studio");
  await measure.getByTestId("save-measure").click();
  await expect(page.getByTestId("measure-outcome")).toContainText("What it measures changed: version 2");
  await page.reload();
  await expect(page.locator("#prompts li")).toHaveText([
    /^1\.\s*best crm for a small agency\s*Germany$/,
    /^2\.\s*best crm for a small agency\s*United States of America$/,
    /^3\.\s*crm for a design studio$/,
  ]);
});

test("the CLI: monitor create --file, list, get, ticks, run, pause, resume and delete against the built server", async () => {
  test.setTimeout(180_000);
  const login = await approveCliLogin(page, process.execPath, [BIN], {
    cwd: ROOT,
    env: cliEnv({ configDir: CONFIG_DIR }),
  });
  expect(login.code, login.stderr).toBe(0);

  // The cluster's monitor, its prompts changed on its page: each question kept keeps its source.
  const clustered = await cli(["monitor", "get", clusterMonitor.id, "--json"]);
  expect(clustered.code, clustered.stderr).toBe(0);
  const kept = (JSON.parse(clustered.stdout) as { prompts: { text: string; source: { kind: string } | null }[] }).prompts;
  expect(kept.map((p) => p.source?.kind ?? null)).toEqual([...Array<string>(clusterMonitor.questions).fill("question"), null]);
  expect(kept.at(-1)!.text).toBe("crm pricing for agencies");

  const file = path.join(mkdtempSync(path.join(tmpdir(), "geoscope-monitor-file-")), "prompts.txt");
  writeFileSync(file, "# tracked\nbest crm for a small agency\n\n  crm with email tracking \n");
  const created = await cli(["monitor", "create", "--file", file, "--project", projectId, "--every", "week", "--weekday", "tue", "--at", "08:15", "--runs", "1", "--engines", "gemini", "--name", "CLI monitor"]);
  expect(created.code, created.stderr).toBe(0);
  const secret = /webhook secret: (whsec_[0-9A-Za-z]{40})/.exec(created.stdout)?.[1];
  expect(secret).toBeDefined();
  expect(created.stdout).toContain("every Tuesday at 08:15 UTC");
  expect(created.stdout).toContain("2 prompts × gemini × 1 run = 2 executions per tick");
  const id = /monitor (mo_[0-9A-Z]{26}):/.exec(created.stdout)![1]!;

  const listed = await cli(["monitor", "list", "--project", projectId, "--json"]);
  expect(listed.code, listed.stderr).toBe(0);
  const items = JSON.parse(listed.stdout).items as { id: string; prompt_count: number }[];
  expect(items.find((m) => m.id === id)?.prompt_count).toBe(2);
  expect(listed.stdout).not.toContain(secret!);

  const got = await cli(["monitor", "get", id]);
  expect(got.stdout).toContain("1. best crm for a small agency");
  expect(got.stdout).toContain("2. crm with email tracking");
  expect(got.stdout).toContain("no tick yet");
  expect(got.stdout).not.toContain(secret!);

  const ran = await cli(["monitor", "run", id, "--json"]);
  expect(ran.code, ran.stderr).toBe(0);
  const tick = JSON.parse(ran.stdout);
  expect(tick).toMatchObject({ monitor_id: id, trigger: "manual", skip_reason: null });
  const waited = await cli(["fanout", "get", tick.fanout_id, "--wait", "30", "--json"]);
  expect(JSON.parse(waited.stdout).execution_count).toBe(2);
  const ticks = await cli(["monitor", "ticks", id]);
  expect(ticks.code).toBe(0);
  expect(ticks.stdout).toContain(tick.id);
  expect(ticks.stdout).toContain(tick.fanout_id);

  // The tick's analysis, made when the scheduler closes the tick, is stored without a body and
  // presented when first read: the figures a visibility analysis of the same runs (the project's
  // entities, as the monitor's) has, each prompt's row with its n and interval, and the same text read again.
  let analysisId: string | null = null;
  await expect(async () => {
    const listed = JSON.parse((await cli(["monitor", "ticks", id, "--json"])).stdout) as { items: { id: string; analysis_id: string | null }[] };
    analysisId = listed.items.find((t) => t.id === tick.id)?.analysis_id ?? null;
    expect(analysisId).toMatch(/^va_/);
  }).toPass({ timeout: 90_000 });
  const read = await cli(["visibility", "get", analysisId!, "--json"]);
  expect(read.code, read.stderr).toBe(0);
  const fresh = await cli(["visibility", "create", tick.fanout_id, "--json"]);
  expect(fresh.code, fresh.stderr).toBe(0);
  type Shown = { rows: { name: string; by_prompt: { prompt: string; runs: number; visibility_interval: [number, number] }[] }[] };
  const [tickRows, freshRows] = [read, fresh].map((r) => (JSON.parse(r.stdout) as Shown).rows);
  expect(tickRows!.map((r) => r.name)).toEqual(["Acme CRM", "HubSpot", "Pipedrive"]);
  expect(tickRows![0]!.by_prompt.map((p) => [p.prompt, p.runs])).toEqual([["best crm for a small agency", 1], ["crm with email tracking", 1]]);
  expect(tickRows![0]!.by_prompt[0]!.visibility_interval).toHaveLength(2);
  expect(JSON.stringify(tickRows)).toBe(JSON.stringify(freshRows));
  expect((await cli(["visibility", "get", analysisId!, "--json"])).stdout).toBe(read.stdout);
  const shown = await cli(["visibility", "get", analysisId!]);
  expect(shown.code, shown.stderr).toBe(0);
  expect(shown.stdout).toContain("Acme CRM");

  // What it measures changed while a monitor's first tick runs: that tick, of version 1, is
  // analysed with version 1's entities all the same and is version 1's point (it was made, and
  // paid for, without figures: version 1 had no analysed tick to take its entities from).
  // Its prompt's first attempt is refused with a 429 asking for 5 s, so the tick is still running when the change comes.
  const slowFile = path.join(path.dirname(file), "slow.txt");
  writeFileSync(slowFile, "best crm for a small agency [[sim:rate_limit:5*1]]\n");
  const midTick = /monitor (mo_[0-9A-Z]{26}):/.exec((await cli(["monitor", "create", "--file", slowFile, "--project", projectId, "--runs", "1", "--engines", "gemini", "--name", "Changed mid-tick"])).stdout)![1]!;
  const running = JSON.parse((await cli(["monitor", "run", midTick, "--json"])).stdout) as { id: string };
  const changed = await cli(["monitor", "update", midTick, "--brand", "Acme CRM", "--competitor", "Zoho CRM"]);
  expect(changed.code, changed.stderr).toBe(0);
  expect(changed.stderr).toContain("What it measures changed: version 2");
  await expect(async () => {
    const listed = JSON.parse((await cli(["monitor", "ticks", midTick, "--json"])).stdout) as { items: { id: string; analysis_id: string | null }[] };
    expect(listed.items.find((t) => t.id === running.id)?.analysis_id).toMatch(/^va_/);
  }).toPass({ timeout: 90_000 });
  const versionOne = await cli(["monitor", "series", midTick, "--version", "1", "--entity", "HubSpot", "--json"]);
  expect(versionOne.code, versionOne.stderr).toBe(0);
  expect((JSON.parse(versionOne.stdout) as { points: { tick_id: string }[] }).points.map((p) => p.tick_id)).toEqual([running.id]);
  expect((await cli(["monitor", "delete", midTick])).code).toBe(0);

  const paused = await cli(["monitor", "pause", id]);
  expect(paused.stdout).toContain(`Paused ${id}`);
  expect(JSON.parse((await cli(["monitor", "get", id, "--json"])).stdout).status).toBe("paused");
  const resumed = await cli(["monitor", "resume", id]);
  expect(resumed.stdout).toContain(`Resumed ${id}`);

  const deleted = await cli(["monitor", "delete", id]);
  expect(deleted.code, deleted.stderr).toBe(0);
  const gone = await cli(["monitor", "get", id]);
  expect(gone.code).toBe(4);
  expect(gone.stderr).toContain(`No such monitor "${id}"`);
  expect(readFileSync(path.join(CONFIG_DIR, "config.json"), "utf8")).not.toContain(secret!);
});

test("a prompt spanning several lines: What it measures gives each prompt a box of its own, and keeps what is left as it was", async ({}, testInfo) => {
  test.setTimeout(120_000);
  const spanning = "Context: a design agency of 12 people.\nWhich CRM fits it best?";
  const made = await cli(["monitor", "create", spanning, "best crm for a clinic", "--project", projectId, "--runs", "1", "--engines", "gemini", "--name", "Several lines", "--json"]);
  expect(made.code, made.stderr).toBe(0);
  const id = JSON.parse(made.stdout).id as string;

  await page.goto(`/monitors/${id}`);
  const measure = page.getByTestId("monitor-measure");
  await measure.locator("summary").click();
  // No one-per-line box, which would split the first prompt in two: a box each.
  await expect(measure.getByTestId("measure-prompts")).toHaveCount(0);
  await expect(measure.getByTestId("measure-prompt-box")).toHaveCount(2);
  await expect(measure.getByLabel("Prompt 1", { exact: true })).toHaveValue(spanning);
  await expect(measure.getByLabel("Prompt 2", { exact: true })).toHaveValue("best crm for a clinic");
  await screenshots(page, testInfo, "monitor-measure-boxes");

  // Saved untouched (the browser sends the line break as CRLF): nothing changes.
  await measure.getByTestId("save-measure").click();
  await expect(page.getByTestId("measure-outcome")).toContainText("Nothing changed.");

  // The first prompt edited, the second removed, one added.
  const edited = "Context: a design agency of 15 people.\nWhich CRM fits it best?";
  await measure.getByLabel("Prompt 1", { exact: true }).fill(edited);
  await measure.getByRole("button", { name: "Remove prompt 2" }).click();
  await measure.getByTestId("measure-add-prompt").click();
  await measure.getByLabel("Prompt 2", { exact: true }).fill("crm for an architecture studio");
  await measure.getByTestId("save-measure").click();
  await expect(page.getByTestId("measure-outcome")).toContainText("What it measures changed: version 2");
  const after = JSON.parse((await cli(["monitor", "get", id, "--json"])).stdout) as { version: number; prompts: { text: string }[] };
  expect(after.version).toBe(2);
  expect(after.prompts.map((p) => p.text)).toEqual([edited, "crm for an architecture studio"]);

  // Every box emptied: refused in the form's words, nothing changed.
  await page.reload();
  await measure.locator("summary").click();
  await measure.getByLabel("Prompt 1", { exact: true }).fill("");
  await measure.getByLabel("Prompt 2", { exact: true }).fill(" ");
  await measure.getByTestId("save-measure").click();
  await expect(page.getByTestId("measure-outcome")).toContainText("Prompts: give at least one prompt.");
  expect(JSON.parse((await cli(["monitor", "get", id, "--json"])).stdout).version).toBe(2);
  expect((await cli(["monitor", "delete", id])).code).toBe(0);
});
