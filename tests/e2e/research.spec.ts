// Research in the browser (issue #20), as a person does it in Chromium: sign in by the emailed
// link, create a project, start a prompt on three engines and watch it finish without reloading,
// open a run and follow a citation link, download its envelope, analyse the citations of the
// prompt's runs, create a fanout from its estimate, generate questions and send some to a fanout,
// audit a page, analyse the citations of the fanout's runs, share that analysis and open the link
// signed out; and someone else's pages are the 404 page. Screenshots of every page at 1280 and 390 px are kept in test-results/.
import { createServer, type Server } from "node:http";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { E2E_PORT, onlyEngines, signIn } from "./support";
import { screenshots } from "./screens";

test.describe.configure({ mode: "serial" });

const unique = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
const EMAIL = `research-${unique}@example.com`;
// The simulator refuses each engine's first attempt with a 2 s Retry-After, so the prompt's page
// surely shows its runs unfinished before they end.
const PROMPT = "best crm for a small b2b startup [[sim:rate_limit:2*1]]";
const AUDITED_PATH = "/guides/choosing-a-crm";
const AUDITED = `http://127.0.0.1:${E2E_PORT + 1}${AUDITED_PATH}`;

let context: BrowserContext;
let page: Page;
let projectUrl = "";
let runUrl = "";
let fanoutUrl = "";
let site: Server | undefined;

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  // Pages the engines cite are on the web, which this machine does not reach: answer them here.
  await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<title>cited page</title><h1>A cited page</h1>" }));
  page = await context.newPage();
  site = createServer((req, res) => {
    if (req.url === AUDITED_PATH) {
      return void res
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Choosing a CRM</title></head><body><main><h1>Choosing a CRM</h1><p>${"Who enters the data decides which CRM a small team should pick. ".repeat(8)}</p></main></body></html>`);
    }
    res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  });
  await new Promise<void>((resolve, reject) => site!.once("error", reject).listen(E2E_PORT + 1, "127.0.0.1", resolve));
});

test.afterAll(async () => {
  await context?.close();
  await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
});

test("signs in by the emailed link, creates a project and finds its empty research page", async ({}, testInfo) => {
  await signIn(page, EMAIL, "/account");
  const projects = page.locator("#projects");
  await projects.getByLabel("Project name").fill("CRM research");
  await projects.getByLabel("Primary domain").fill("hubspot.com");
  await projects.getByLabel("Brands").fill("HubSpot, Pipedrive");
  await projects.getByRole("button", { name: "Create project" }).click();
  await projects.getByRole("link", { name: "CRM research" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "CRM research" })).toBeVisible();
  projectUrl = new URL(page.url()).pathname;
  expect(projectUrl).toMatch(/^\/projects\/pr_[0-9A-Z]{26}$/);
  await expect(page.getByText(/No prompts yet/)).toBeVisible();
  await screenshots(page, testInfo, "project-empty");

  await page.goto("/projects");
  await expect(page.getByTestId("project-link")).toHaveCount(1);
  await screenshots(page, testInfo, "projects");
});

test("starts a prompt on three engines and watches it finish without reloading", async ({}, testInfo) => {
  await page.goto(projectUrl);
  const form = page.getByTestId("prompt-form");
  await form.getByLabel("Prompt").fill(PROMPT);
  // Every enabled engine is ticked; this prompt asks the three model APIs.
  for (const engine of ["ChatGPT (API)", "ChatGPT (app)", "Perplexity (API)", "Google AI Overview (app)"]) await expect(form.getByLabel(engine)).toBeChecked();
  await onlyEngines(form, ["chatgpt", "claude", "gemini"]);
  await form.getByTestId("start-prompt").click();
  await page.waitForURL(/\/batches\/rq_[0-9A-Z]{26}$/);
  const runs = page.getByTestId("batch-run");
  await expect(runs).toHaveCount(3);
  // Rendered unfinished, following its runs live.
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-state", "live");
  expect(await page.locator('[data-testid="batch-run"][data-status="completed"]').count()).toBeLessThan(3);
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  await page.screenshot({ path: testInfo.outputPath("batch-unfinished-1280.png") });
  await expect(page.locator('[data-testid="batch-run"][data-status="completed"]')).toHaveCount(3, { timeout: 45_000 });
  // The same document all along: updated in place, never reloaded.
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  await expect(page.getByTestId("live-status")).toHaveCount(0);
  await screenshots(page, testInfo, "batch");
});

test("opens a run, follows a citation link and downloads the raw envelope", async ({}, testInfo) => {
  const chatgpt = page.getByTestId("batch-run").filter({ has: page.getByRole("heading", { name: "ChatGPT (API)" }) });
  await chatgpt.getByTestId("open-run").click();
  await page.waitForURL(/\/runs\/dr_[0-9A-Z]{26}$/);
  runUrl = new URL(page.url()).pathname;
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(PROMPT);
  expect(await page.getByTestId("source-row").count()).toBeGreaterThan(0);
  await expect(page.getByTestId("searches").locator("li").first()).toBeVisible();

  const mark = page.getByTestId("citation-link").first();
  await expect(mark).toHaveText(/^\[\d+\]$/);
  const href = await mark.getAttribute("href");
  const n = Number((await mark.textContent())!.slice(1, -1));
  // The mark's number is the cited page's row in the sources table.
  await expect(page.getByTestId("source-row").nth(n - 1).getByRole("link").first()).toHaveAttribute("href", href!);
  const [popup] = await Promise.all([page.waitForEvent("popup"), mark.click()]);
  await popup.waitForLoadState();
  expect(popup.url()).toBe(href);
  await popup.close();

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("envelope-download").click()]);
  expect(download.suggestedFilename()).toBe(`${runUrl.split("/").at(-1)}-envelope.json`);
  const envelope = JSON.parse(await (await import("node:fs/promises")).readFile((await download.path())!, "utf8"));
  expect(envelope).toMatchObject({ engine: "chatgpt", exchanges: expect.any(Array) });
  expect(envelope.exchanges.length).toBeGreaterThan(0);
  await screenshots(page, testInfo, "run");
});

test("the project page shows the prompt with its runs at a glance, filtered by engine", async ({}, testInfo) => {
  await page.goto(projectUrl);
  const batch = page.getByTestId("batch-item");
  await expect(batch).toHaveCount(1);
  await expect(batch.getByTestId("run-link")).toHaveCount(3);
  // The context names hubspot.com and HubSpot: every run says whether they were cited or named.
  await expect(batch.getByTestId("glance")).toHaveCount(3);
  await expect(batch.getByTestId("glance").first()).toContainText(/your domain (not )?cited/);
  await page.getByRole("navigation", { name: "Engine" }).getByRole("link", { name: "Claude (API)" }).click();
  await expect(page.getByTestId("batch-item").getByTestId("run-link")).toHaveText(["Claude (API)"]);
  await screenshots(page, testInfo, "project");

  // Tick the prompt (all its runs) and analyse what they cited.
  await page.getByRole("navigation", { name: "Engine" }).getByRole("link", { name: "All" }).click();
  await page.getByTestId("batch-item").getByRole("checkbox", { name: "Include all runs of this prompt" }).check();
  await page.getByTestId("start-citations").click();
  await page.waitForURL(/\/analyses\/ca_[0-9A-Z]{26}$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("What 3 answers cited");
  await expect(page.getByTestId("domains-chart")).toBeVisible();
});

test("creates a fanout from its live estimate and reads its matrix", async ({}, testInfo) => {
  await page.goto(projectUrl);
  await page.getByTestId("start-fanout-panel").locator("summary").click();
  const panel = page.getByTestId("start-fanout-panel");
  await panel.getByLabel(/Prompts/).fill("best crm for startups\ncrm with email sync");
  await onlyEngines(panel, ["chatgpt", "claude", "gemini"]);
  await panel.getByLabel(/Repeats|Runs/).fill("1");
  await expect(panel.getByTestId("fanout-estimate")).toContainText("6");
  await expect(panel.getByTestId("estimate-total")).toHaveText(/\d+\.\d+/);
  await panel.getByTestId("start-fanout").click();
  await page.waitForURL(/\/fanouts\/fo_[0-9A-Z]{26}$/);
  fanoutUrl = new URL(page.url()).pathname;
  await expect(page.getByTestId("fanout-matrix")).toBeVisible();
  await expect(page.getByText(/^completed$/).first()).toBeVisible({ timeout: 45_000 });
  await expect(page.getByTestId("live-status")).toHaveCount(0, { timeout: 45_000 });
  const csv = page.getByRole("link", { name: /CSV/ });
  const [download] = await Promise.all([page.waitForEvent("download"), csv.click()]);
  const text = await (await import("node:fs/promises")).readFile((await download.path())!, "utf8");
  expect(text.split("\n")[0]).toMatch(/prompt/);
  await screenshots(page, testInfo, "fanout");
});

test("generates questions and sends the ticked ones to a fanout estimate", async ({}, testInfo) => {
  await page.goto(projectUrl);
  await page.getByTestId("start-questions-panel").locator("summary").click();
  const form = page.getByTestId("questions-form");
  await form.getByLabel("Topic").fill("crm for small teams");
  await form.getByLabel("Questions").fill("6");
  await form.getByTestId("start-questions").click();
  await page.waitForURL(/\/analyses\/fa_[0-9A-Z]{26}$/);
  await expect(page.getByTestId("question-checkbox").first()).toBeVisible({ timeout: 45_000 });
  // The simulator, like a model, writes one question twice: the page says why 5 came back of 6.
  await expect(page.getByTestId("question-checkbox")).toHaveCount(5);
  await expect(page.getByTestId("fewer-questions")).toHaveText(
    "The engine's answer held 5 different questions, not 6 (a question written twice counts once); only those 5 are paid for.",
  );
  await page.getByTestId("question-checkbox").nth(0).check();
  await page.getByTestId("question-checkbox").nth(1).check();
  await page.getByTestId("send-to-fanout").click();
  await expect(page.getByTestId("fanout-estimate")).toBeVisible();
  await expect(page.getByTestId("estimate-total")).toHaveText(/\d+\.\d+/);
  await screenshots(page, testInfo, "questions");
});

test("audits a page and reads its findings", async ({}, testInfo) => {
  await page.goto(projectUrl);
  await page.getByTestId("start-audit-panel").locator("summary").click();
  await page.getByTestId("audit-form").getByLabel("Page URL").fill(AUDITED);
  await page.getByTestId("start-audit").click();
  await page.waitForURL(/\/runs\/dr_[0-9A-Z]{26}$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(AUDITED, { timeout: 45_000 });
  await expect(page.getByText(/failing|passed|Findings/i).first()).toBeVisible({ timeout: 45_000 });
  await expect(page.getByTestId("live-status")).toHaveCount(0, { timeout: 45_000 });
  await screenshots(page, testInfo, "audit");
});

test("analyses the citations of the fanout's runs, shares the analysis and opens the link signed out", async ({ browser }, testInfo) => {
  await page.goto(fanoutUrl);
  await page.getByRole("button", { name: "Analyse citations of this fanout" }).click();
  await page.waitForURL(/\/analyses\/ca_[0-9A-Z]{26}$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("What 6 answers cited");
  await expect(page.getByTestId("domains-chart")).toBeVisible();
  await page.getByRole("button", { name: "Create share link" }).click();
  const url = await page.getByTestId("share-url").inputValue();
  expect(url).toMatch(/\/s\/[0-9A-Za-z]{43}$/);
  await screenshots(page, testInfo, "citations");

  const anonymous = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const reader = await anonymous.newPage();
  const response = await reader.goto(new URL(url).pathname);
  expect(response?.status()).toBe(200);
  await expect(reader.getByRole("heading", { level: 1 })).toHaveText("What 6 answers cited");
  await screenshots(reader, testInfo, "citations-shared");

  // Stop sharing, once confirmed: the link is dead at once.
  await page.getByRole("button", { name: "Stop sharing" }).click();
  await page.getByTestId("share-confirm").getByRole("button", { name: "Stop sharing" }).click();
  await expect(page.getByRole("button", { name: "Create share link" })).toBeVisible();
  expect((await reader.goto(new URL(url).pathname))?.status()).toBe(404);
  await anonymous.close();
});

test("someone else's project, run and analysis are the 404 page", async ({ browser }) => {
  const other = await browser.newContext();
  const stranger = await other.newPage();
  await signIn(stranger, `stranger-${unique}@example.com`, "/account");
  for (const path of [projectUrl, runUrl, `${runUrl}/envelope.json`]) {
    const response = await stranger.goto(path);
    expect(response?.status(), path).toBe(404);
  }
  const live = await stranger.request.get(`/live?ids=${projectUrl.split("/").at(-1)}`);
  expect(live.status()).toBe(400);
  await other.close();
});
