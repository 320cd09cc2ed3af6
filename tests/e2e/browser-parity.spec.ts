// The browser does what the API does (issue #42), against the built server in Chromium: a
// visibility analysis's figures as CSV (byte for byte the real CLI's, with every rate's interval)
// and its answers judged from its page with the price shown first (and a 402 said in words); the
// market picker's regional languages by name and a fanout in several countries; every figure
// visible at 1280 px, every table a column of labelled cells at 390 px and a cue where one
// scrolls; the project form naming every bad item; a monitor made in the browser showing its
// webhook secret once (a ping verifies with it) and a new one on rotation; chart labels clear of
// the plot; a shared monitor's skipped tick without why; a run page saying what of the market
// did not reach the engine, and Gemini's searches. Screenshots at 1280 and 390 px.
import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { readmeVerifier, startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { apiAs, cliAs, E2E_PORT } from "./support";
import { screenshots } from "./screens";
import { pathOf, signedInKey, signedOut } from "./share-checks";

test.describe.configure({ mode: "serial" });

const unique = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
const EMAIL = `parity-${unique}@example.com`;
const BROKE = `parity-broke-${unique}@example.com`;
const directive = (text: string) => `[[sim:answer:${Buffer.from(text, "utf8").toString("base64url")}]]`;
// Acme named first in both answers, HubSpot second, Salesforce never.
const ANSWER = "Acme CRM is the best choice for small agencies.\nHubSpot is expensive for small teams.";
const PROMPT = `crm for a small agency ${directive(ANSWER)}`;
const hook = (p: string) => `http://127.0.0.1:${E2E_PORT + 1}${p}`;

type Tick = { id: string; status: string; analysis_id: string | null; skip_reason: string | null };

let context: BrowserContext;
let page: Page;
let auth: Record<string, string> = {};
let projectId = "";
let analysisId = "";
const api = apiAs(() => auth);

const cli = cliAs({ token: () => auth.Authorization!.replace(/^Bearer /, "") });

async function batchOf(request: APIRequestContext, body: unknown): Promise<{ batch: { id: string }; runs: { id: string; engine: string }[] }> {
  const queued = await api<{ batch: { id: string }; runs: { id: string; engine: string }[] }>(request, "POST", "/prompts", body, 202);
  await expect.poll(async () => (await api<{ batch: { status: string } }>(request, "GET", `/batches/${queued.batch.id}?wait=30`)).batch.status, { timeout: 60_000 }).toBe("completed");
  return queued;
}

/** Whether an element's content is wider than its box (it scrolls sideways). */
const overflows = (l: Locator) => l.evaluate((el) => el.scrollWidth > el.clientWidth + 1);

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: `http://127.0.0.1:${E2E_PORT}` });
  page = await context.newPage();
  auth = await signedInKey(page, EMAIL, "parity");
});
test.afterAll(async () => {
  await context?.close();
});

test("a visibility analysis's page: its figures as the CLI's CSV, every figure in view at 1280 px, labelled cells at 390 px, a cue where a table scrolls", async ({ request }, testInfo) => {
  test.setTimeout(120_000);
  projectId = (await api<{ id: string }>(request, "POST", "/projects", { name: "Parity", context: { brands: ["Acme CRM"], competitors: ["HubSpot", "Salesforce"] } }, 201)).id;
  const { batch } = await batchOf(request, { prompt: PROMPT, engines: ["chatgpt", "gemini"], project: projectId });
  analysisId = (await api<{ id: string }>(request, "POST", "/visibility-analyses", { ids: [batch.id] }, 201)).id;

  await page.goto(`/analyses/${analysisId}`);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("figures-csv").click()]);
  expect(download.suggestedFilename()).toBe(`${analysisId}-figures.csv`);
  const csv = readFileSync((await download.path())!, "utf8");
  const lines = csv.split("\r\n");
  expect(lines[0]).toContain(",runs_top1,top1_rate,top1_rate_low,top1_rate_high,runs_top3,top3_rate,top3_rate_low,top3_rate_high,");
  // Acme named first in both runs: top 1 in 2 of 2, its interval beside it.
  const header = lines[0]!.split(",");
  const acme = lines[1]!.split(",");
  expect([acme[0], acme[header.indexOf("top1_rate")], acme[header.indexOf("top1_rate_low")], acme[header.indexOf("top1_rate_high")]]).toEqual(["Acme CRM", "100%", "34%", "100%"]);
  // One definition: the CLI writes the same bytes.
  const fromCli = await cli(["visibility", "get", analysisId, "--format", "csv"]);
  expect(fromCli.code, fromCli.stderr).toBe(0);
  expect(fromCli.stdout).toBe(csv);
  const anonymous = await request.get(`/analyses/${analysisId}/figures.csv`, { headers: {} });
  expect(anonymous.status()).toBe(401);

  // 1280 px: every figure in view, no column hidden past the table's edge.
  const figures = page.locator('.scroll-table[aria-label="Every figure"]');
  expect(await overflows(figures)).toBe(false);
  await expect(figures.locator(".scroll-table-hint")).toBeHidden();
  // Narrower, where the figures cannot fit, the table says it scrolls.
  await page.setViewportSize({ width: 760, height: 900 });
  expect(await overflows(figures)).toBe(true);
  await expect(figures.locator(".scroll-table-hint")).toBeVisible();
  // 390 px: no table scrolls sideways; each row is its cells under their columns' labels.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const region of await page.locator(".scroll-table").all()) expect(await overflows(region), (await region.getAttribute("aria-label")) ?? "").toBe(false);
  const cell = figures.getByTestId("figures-row").first().locator("td").nth(1);
  expect(await cell.evaluate((td) => getComputedStyle(td, "::before").content)).toBe('"Visibility"');
  const box = (await cell.boundingBox())!;
  expect([box.x >= 0, box.x + box.width <= 390]).toEqual([true, true]);
  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshots(page, testInfo, "parity-visibility");
});

test("its answers judged from its page: the price on each engine first, then a judged analysis of the same answers", async ({ request }, testInfo) => {
  test.setTimeout(120_000);
  await page.goto(`/analyses/${analysisId}`);
  const judge = page.locator("#judge-answers");
  await expect(judge.getByTestId("judge-price").and(page.locator('[data-engine="chatgpt"]'))).toHaveText("$0.004 an answer × 2 = $0.008");
  await expect(judge.getByTestId("judge-price").and(page.locator('[data-engine="claude"]'))).toHaveText("$0.006 an answer × 2 = $0.012");
  await judge.getByLabel("Claude").check();
  await expect(judge.getByTestId("judge-total")).toHaveText("$0.012");
  await expect(judge.getByTestId("judge-estimate")).toHaveAttribute("data-sufficient", "true");
  await judge.getByLabel("Other brands named").check();
  await screenshots(page, testInfo, "parity-judge-offered");
  await judge.getByTestId("start-judge").click();
  await page.waitForURL((url) => /^\/analyses\/va_/.test(url.pathname) && !url.pathname.endsWith(analysisId));
  const judgedId = new URL(page.url()).pathname.split("/").pop()!;
  const judged = await api<{ status: string; run_ids: string[]; judge: { engine: string; discover: boolean } }>(request, "GET", `/analyses/${judgedId}?wait=30`);
  expect(judged).toMatchObject({ status: "completed", judge: { engine: "claude", discover: true } });
  expect(judged.run_ids).toEqual((await api<{ run_ids: string[] }>(request, "GET", `/analyses/${analysisId}`)).run_ids);
  // The judged analysis offers no second judging.
  await page.reload();
  await expect(page.getByTestId("judge-form")).toHaveCount(0);
});

test("judging that credit cannot pay: the page says so before, and the refusal is in words with the way to billing", async ({ browser, request }, testInfo) => {
  test.setTimeout(240_000);
  const broke = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const brokePage = await broke.newPage();
  const brokeAuth = await signedInKey(brokePage, BROKE, "parity broke");
  const as = apiAs(() => brokeAuth);
  const project = (await as<{ id: string }>(request, "POST", "/projects", { name: "Spent", context: { brands: ["Acme CRM"], competitors: ["HubSpot"] } }, 201)).id;
  // 150 Claude answers at $0.03: $4.50 of the $5.00 of credit a new workspace has; $0.50 is left.
  const fanout = await as<{ id: string }>(request, "POST", "/fanouts", { project, prompts: Array.from({ length: 10 }, () => ({ text: PROMPT })), engines: ["claude"], runs: 15 }, 202);
  await expect.poll(async () => (await as<{ status: string }>(request, "GET", `/fanouts/${fanout.id}?wait=30`)).status, { timeout: 180_000 }).toBe("completed");
  const analysis = (await as<{ id: string }>(request, "POST", "/visibility-analyses", { ids: [fanout.id] }, 201)).id;
  await brokePage.goto(`/analyses/${analysis}`);
  const judge = brokePage.locator("#judge-answers");
  // Gemini judges 150 answers for $0.45, which the credit covers; Claude for $0.90, which it does not.
  await judge.getByLabel("Gemini").check();
  await expect(judge.getByTestId("judge-estimate")).toHaveAttribute("data-sufficient", "true");
  await judge.getByLabel("Claude").check();
  await expect(judge.getByTestId("judge-total")).toHaveText("$0.90");
  await expect(judge.getByTestId("judge-estimate")).toHaveAttribute("data-sufficient", "false");
  await expect(judge.getByTestId("judge-estimate")).toContainText("Available credit: $0.50");
  await judge.getByTestId("start-judge").click();
  const refusal = judge.getByTestId("start-refusal");
  await expect(refusal).toContainText("Not enough credit: this needs 0.90 USD and 0.50 USD is available. Nothing was started.");
  await expect(refusal).not.toContainText(/https?:\/\//);
  await expect(refusal.getByRole("link", { name: "Go to billing" })).toHaveAttribute("href", "/account#billing");
  expect(new URL(brokePage.url()).pathname).toBe(`/analyses/${analysis}`);
  await screenshots(brokePage, testInfo, "parity-judge-refused");
  await broke.close();
});

test("the market picker: regional languages by name, and a fanout in several countries, each prompt once in each", async ({ request }, testInfo) => {
  test.setTimeout(120_000);
  await page.goto(`/projects/${projectId}`);
  await page.getByTestId("start-fanout-panel").locator("summary").click();
  const form = page.getByTestId("fanout-form");
  const picker = form.getByTestId("market-picker");
  await expect(picker).toHaveAttribute("data-ready", "true");
  const language = picker.getByTestId("market-language");
  const options = await language.locator("option").allTextContents();
  for (const name of ["Portuguese (Brazil) · pt-BR", "English (United Kingdom) · en-GB", "German (Austria) · de-AT", "Sango · sg", "Tok Pisin · tpi"]) expect(options).toContain(name);
  // No language is shown by its code alone ("sg (sg)").
  expect(options.filter((o) => /^(\S+) (\(\1\)|· \1)$/.test(o))).toEqual([]);

  await form.getByTestId("fanout-prompts").fill("best crm for a small agency\ncrm with email tracking");
  // Gemini's API alone: every other engine unchecked.
  for (const box of await form.locator('input[name="engines"]').all()) if ((await box.getAttribute("value")) !== "gemini") await box.uncheck();
  await form.getByTestId("fanout-runs").fill("1");
  await picker.getByTestId("market-country").first().selectOption("DE");
  await expect(language.locator('optgroup[label="Spoken in this country"] option')).toHaveText(["German (Germany) · de-DE"]);
  await picker.getByTestId("add-country").click();
  await picker.getByTestId("market-country").nth(1).selectOption("AT");
  await expect(picker.getByTestId("market-city")).toBeDisabled();
  await language.selectOption("de-AT");
  await expect(form.getByTestId("estimate-executions")).toHaveAttribute("data-executions", "4");
  await expect(form.getByTestId("estimate-executions")).toContainText("4 prompts (2 × 2 countries)");
  // How precise: 4 answers per engine (Wilson's half-width at 50%: 0.35), and at Acme CRM's last visibility (2 of 2): 0.245.
  await expect(form.getByTestId("estimate-margin")).toHaveText(
    "About ±35 points per engine (4 runs each); to reach ±5, 385 runs per engine. At Acme CRM's last visibility (100%), about ±24 points.",
  );
  await screenshots(page, testInfo, "parity-fanout-countries");
  await form.getByTestId("start-fanout").click();
  await page.waitForURL(/\/fanouts\/fo_/);
  const fanout = await api<{ prompts: { text: string; location: { country: string } | null; language: string | null }[] }>(request, "GET", `/fanouts/${new URL(page.url()).pathname.split("/").pop()}`);
  expect(fanout.prompts.map((p) => [p.text, p.location?.country, p.language])).toEqual([
    ["best crm for a small agency", "DE", "de-AT"],
    ["best crm for a small agency", "AT", "de-AT"],
    ["crm with email tracking", "DE", "de-AT"],
    ["crm with email tracking", "AT", "de-AT"],
  ]);
});

test("the project forms name every bad item: a list's blank one and too long one as typed, every bad row of the brands and competitors", async ({}, testInfo) => {
  await page.goto("/account");
  const create = page.getByTestId("project-create");
  await create.getByLabel("Project name").fill("Bad lists");
  await create.getByLabel("Competitors").fill(`HubSpot, , ${"x".repeat(300)}`);
  await create.getByRole("button", { name: "Create project" }).click();
  await expect(create.getByRole("alert")).toHaveText(
    "Competitors (item 2): must be 1 to 100 characters after trimming spaces; Competitors (item 3): must be 1 to 100 characters after trimming spaces",
  );
  await screenshots(page, testInfo, "parity-project-refused");

  // The project page's brands and competitors: every bad row, each once.
  await page.goto(`/projects/${projectId}`);
  const entities = page.getByTestId("entities-form");
  await entities.locator("#entity-aliases-3").fill("Zoho");
  await entities.getByLabel("Name (row 5)").fill("Pipedrive");
  await entities.locator("#entity-domains-4").fill("not a domain");
  await entities.getByTestId("save-entities").click();
  await expect(entities.getByTestId("entities-outcome")).toHaveText(
    'Row 4, Name: give the name these other names and domains belong to. Row 5, Domains: "not a domain" must be a domain name like acme.com (a URL is cut to its host).',
  );
});

test("a monitor made in the browser shows its webhook secret once, with copy; a ping verifies with it; a new secret replaces it", async ({ request }, testInfo) => {
  test.setTimeout(180_000);
  const receiver: Receiver = await startReceiver(E2E_PORT + 1);
  try {
    const verify = await readmeVerifier();
    const fanout = await api<{ id: string }>(request, "POST", "/fanouts", { project: projectId, prompts: [{ text: PROMPT }], engines: ["gemini"], runs: 1 }, 202);
    await expect.poll(async () => (await api<{ status: string }>(request, "GET", `/fanouts/${fanout.id}?wait=30`)).status, { timeout: 60_000 }).toBe("completed");
    await page.goto(`/monitors/new?from=${fanout.id}`);
    const form = page.getByTestId("monitor-form");
    await form.getByLabel("Name", { exact: true }).fill("Parity monitor");
    await form.getByTestId("create-monitor").click();
    const created = page.getByTestId("monitor-created");
    const shown = created.getByTestId("webhook-secret");
    await expect(shown).toHaveText(/^whsec_[0-9A-Za-z]{40}$/);
    const secret = (await shown.textContent())!;
    await created.getByRole("button", { name: "Copy" }).click();
    await expect(created.getByRole("button", { name: "Copied" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await screenshots(page, testInfo, "parity-monitor-created");
    await created.getByTestId("open-monitor").click();
    await page.waitForURL(/\/monitors\/mo_[0-9A-Z]{26}$/);
    // Shown once: the monitor's page does not show it.
    await expect(page.getByText(secret)).toHaveCount(0);

    const section = page.locator("#alerts");
    await section.getByTestId("alert-webhook-url").fill(hook("/parity"));
    await section.getByTestId("save-alerts").click();
    await expect(section.getByTestId("alert-action-outcome")).toContainText("Alert settings saved.");
    await section.getByTestId("test-webhook").click();
    await expect(section.getByTestId("alert-action-outcome")).toContainText("Test webhook delivered");
    const first = receiver.to("/parity")[0]!;
    expect(verify(first.body, first.headers["geoscope-signature"] as string, secret)).toBe(true);

    // A new secret, asked first, shown once: the next ping verifies with it and not with the old one.
    await section.getByTestId("rotate-secret").click();
    await section.getByTestId("confirm-rotate-secret").click();
    const renewed = section.getByTestId("webhook-secret");
    await expect(renewed).toHaveText(/^whsec_[0-9A-Za-z]{40}$/);
    const next = (await renewed.textContent())!;
    expect(next).not.toBe(secret);
    await screenshots(page, testInfo, "parity-monitor-rotated");
    await section.getByTestId("test-webhook").click();
    await expect(section.getByTestId("alert-action-outcome")).toContainText("Test webhook delivered");
    const second = receiver.to("/parity")[1]!;
    expect(verify(second.body, second.headers["geoscope-signature"] as string, next)).toBe(true);
    expect(verify(second.body, second.headers["geoscope-signature"] as string, secret)).toBe(false);
    await page.reload();
    await expect(page.getByTestId("webhook-secret")).toHaveCount(0);
  } finally {
    await receiver.close();
  }
});

/** The y axis's labels stand left of every chart's plot, where no line or point is drawn. */
async function expectAxisLabelsClear(target: Page) {
  const charts = target.locator('[data-testid="trend-chart"]:not([data-empty])');
  expect(await charts.count()).toBeGreaterThan(0);
  for (const chart of await charts.all()) {
    const plot = (await chart.getByTestId("trend-svg").boundingBox())!;
    const labels = chart.getByTestId("axis-label");
    expect(await labels.count()).toBeGreaterThan(1);
    for (const label of await labels.all()) {
      const box = (await label.boundingBox())!;
      expect(box.x + box.width, `${await label.textContent()} ends at ${box.x + box.width}, the plot starts at ${plot.x}`).toBeLessThanOrEqual(plot.x);
    }
  }
}

test("a monitor's charts keep their axis labels clear of the plot, signed in and shared; a shared skipped tick says skipped, not why", async ({ browser, request }, testInfo) => {
  test.setTimeout(240_000);
  const monitor = await api<{ id: string }>(
    request,
    "POST",
    "/monitors",
    { project: projectId, name: "Charted", prompts: [{ text: PROMPT }], engines: ["gemini", "chatgpt"], runs: 1, entities: [{ name: "Acme CRM", role: "brand" }, { name: "HubSpot", role: "competitor" }] },
    201,
  );
  for (let i = 0; i < 2; i++) {
    const tick = await api<Tick>(request, "POST", `/monitors/${monitor.id}/run`, undefined, 202);
    await expect
      .poll(async () => (await api<{ items: Tick[] }>(request, "GET", `/monitors/${monitor.id}/ticks`)).items.find((t) => t.id === tick.id), { timeout: 120_000, intervals: [1000] })
      .toMatchObject({ status: "completed", analysis_id: expect.stringMatching(/^va_/) });
  }
  // A budget the month has passed: the next tick is skipped for it.
  const patched = await request.fetch(`/api/v1/monitors/${monitor.id}`, { method: "PATCH", headers: auth, data: { monthly_budget_usd: "0.01" } });
  expect(patched.status()).toBe(200);
  expect(await api<Tick>(request, "POST", `/monitors/${monitor.id}/run`, undefined, 202)).toMatchObject({ status: "skipped", skip_reason: "budget_exhausted" });

  await page.goto(`/monitors/${monitor.id}`);
  await expectAxisLabelsClear(page);
  await screenshots(page, testInfo, "parity-monitor-charts");

  const share = await api<{ url: string }>(request, "POST", `/monitors/${monitor.id}/share`);
  const reader = await signedOut(browser);
  const shared = await reader.newPage();
  await shared.goto(pathOf(share));
  await expectAxisLabelsClear(shared);
  await expect(shared.getByText(/\(skipped\)/)).toBeVisible();
  expect(await shared.locator("body").innerText()).not.toMatch(/budget|credit/i);
  const json = await (await shared.request.get(`${pathOf(share)}.json`)).json();
  expect(json.last_tick).toMatchObject({ status: "skipped", skip_reason: null, charged_usd: null });
  expect(JSON.stringify(json)).not.toContain("budget_exhausted");
  await screenshots(shared, testInfo, "parity-monitor-shared");
  await reader.close();
});

test("a run page says what of the market reached the engine and what did not; Gemini's usage counts its searches as the batch page does", async ({ request }, testInfo) => {
  test.setTimeout(120_000);
  const { batch, runs } = await batchOf(request, { prompt: "best crm for a small agency", engines: ["chatgpt", "gemini"], project: projectId, location: { country: "DE", city: "Munich" }, language: "de" });
  const chatgpt = runs.find((r) => r.engine === "chatgpt")!;
  const gemini = runs.find((r) => r.engine === "gemini")!;
  await page.goto(`/runs/${chatgpt.id}`);
  await expect(page.getByTestId("locale-applied")).toHaveText("ChatGPT (API) was sent the location, not the language");
  await page.goto(`/runs/${gemini.id}`);
  await expect(page.getByTestId("locale-applied")).toHaveText("Gemini (API) was sent the location and language");
  const searches = (await api<{ result: { searches: unknown[] }; usage: { web_searches: number | null } }>(request, "GET", `/runs/${gemini.id}`));
  expect(searches.usage.web_searches).toBeNull();
  const n = searches.result.searches.length;
  expect(n).toBeGreaterThan(0);
  await expect(page.getByText(new RegExp(`· ${n} searches?$`))).toBeVisible();
  await screenshots(page, testInfo, "parity-run-gemini");
  await page.goto(`/batches/${batch.id}`);
  await expect(page.locator('[data-testid="batch-run"][data-engine="gemini"]')).toContainText(`· ${n} searches`);
});

