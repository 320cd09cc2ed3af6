// Plain words (issue #42) through the built server: a visibility analysis's summary leads its
// page, its public share page and the real CLI's human output; a monitor's last tick's summary
// leads the monitor's page and `geoscope monitor get`. Every sentence is written out by hand from
// answers known by construction (the simulator's exact-answer directive). Screenshots at 1280 and
// 390 px.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { answerDirective } from "../../lib/engines/simulator/directive";
import { apiWith, approveCliLogin, BIN, cliAs, cliEnv, ROOT, signIn } from "./support";
import { screenshots } from "./screens";

test.describe.configure({ mode: "serial" });

const EMAIL = `words-${Date.now()}@example.com`;
const CONFIG_DIR = mkdtempSync(path.join(tmpdir(), "geoscope-words-cli-"));
const TAG = `w${Date.now()}`;

// ChatGPT and Gemini name Acme CRM, then HubSpot; Claude names only HubSpot; nobody names Pipedrive.
const BOTH = `crm for agencies ${TAG} ${answerDirective("Acme CRM suits agencies best. HubSpot is the popular choice.")}`;
const HUBSPOT = `crm for agencies ${TAG} ${answerDirective("HubSpot is the popular choice for agencies.")}`;

// Wilson 95%: 2 of 3 [0.2077, 0.9385], 3 of 3 [0.4385, 1], 0 of 3 [0, 0.5615]; rounded outward.
const SUMMARY = [
  "Acme CRM is named in 2 of 3 answers (about 67%, 95% interval 20–94%); HubSpot in 3 (about 100%, 43–100%); Pipedrive in 0 (about 0%, 0–57%).",
  "Across engines, Claude (API) names Acme CRM least (0 of 1) and ChatGPT (API) and Gemini (API) most (1 of 1 each).",
  "Acme CRM is named first, before the other tracked names, in 2 of 3 answers (about 67%, 95% interval 20–94%).",
];

let context: BrowserContext;
let page: Page;
let token = "";
let projectId = "";
let analysisId = "";

const cli = cliAs({ configDir: CONFIG_DIR });

const api = apiWith(() => token);

async function finishedBatch(prompt: string, engines: string[]) {
  const queued = await api("POST", "/prompts", { prompt, engines, project: projectId });
  expect(queued.status, queued.text).toBe(202);
  const id = queued.body.batch.id as string;
  await expect.poll(async () => (await api("GET", `/batches/${id}?wait=30`)).body.batch.status, { timeout: 60_000 }).toBe("completed");
  return id;
}

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
});
test.afterAll(async () => {
  await context?.close();
});

test("the CLI's human output leads with the visibility analysis's summary", async () => {
  test.setTimeout(180_000);
  await signIn(page, EMAIL);
  const login = await approveCliLogin(page, process.execPath, [BIN], { cwd: ROOT, env: cliEnv({ configDir: CONFIG_DIR }) });
  expect(login.code, login.stderr).toBe(0);
  token = JSON.parse(readFileSync(path.join(CONFIG_DIR, "config.json"), "utf8")).token;
  const project = await cli(["projects", "create", "Words", "--domain", "acme.example", "--brands", "Acme CRM", "--competitors", "HubSpot,Pipedrive", "--json"]);
  expect(project.code, project.stderr).toBe(0);
  projectId = JSON.parse(project.stdout).id;

  const batches = [await finishedBatch(BOTH, ["chatgpt", "gemini"]), await finishedBatch(HUBSPOT, ["claude"])];
  const created = await cli(["visibility", "create", ...batches]);
  expect(created.code, created.stderr).toBe(0);
  const lines = created.stdout.split("\n");
  expect(lines.slice(0, 4)).toEqual([...SUMMARY, ""]);
  analysisId = /^visibility analysis (va_\w+): completed/.exec(lines[4]!)![1]!;
  // The tables keep the same rounding: whole percents, the interval rounded outward.
  expect(created.stdout).toMatch(/Acme CRM\s+brand\s+2\/3\s+67%\s+20–94%/);

  const again = await cli(["visibility", "get", analysisId]);
  expect(again.stdout.split("\n").slice(0, 3)).toEqual(SUMMARY);
});

test("the visibility page and its public share page lead with the same summary", async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  await page.goto(`/analyses/${analysisId}`);
  const summary = page.getByTestId("summary");
  await expect(summary.getByTestId("summary-sentence")).toHaveText(SUMMARY);
  // It sits in the heading, above the figures.
  const [headingBottom, summaryTop, figuresTop] = await Promise.all([
    page.getByRole("heading", { level: 1 }).evaluate((e) => e.getBoundingClientRect().bottom),
    summary.evaluate((e) => e.getBoundingClientRect().top),
    page.locator("#share-of-voice").evaluate((e) => e.getBoundingClientRect().top),
  ]);
  expect(summaryTop).toBeGreaterThanOrEqual(headingBottom);
  expect(summaryTop).toBeLessThan(figuresTop);
  // The figures beside it read the same way: 2 of 3 as 67%, its interval rounded outward.
  await expect(page.getByTestId("rate-row").and(page.locator('[data-label="Acme CRM"]'))).toContainText("67% (2 of 3; 95% 20–94%)");
  await screenshots(page, testInfo, "plain-words-visibility");

  const share = page.getByTestId("share-control");
  await share.getByRole("button", { name: "Create share link" }).click();
  const url = await share.getByTestId("share-url").inputValue();
  const visitor = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const outside = await visitor.newPage();
  await outside.goto(url.replace(/^http:\/\/[^/]+/, ""));
  await expect(outside.getByTestId("summary-sentence")).toHaveText(SUMMARY);
  await expect(outside.locator('head meta[property="og:description"]')).toHaveAttribute("content", new RegExp(`^${SUMMARY[0]!.slice(0, 40).replace(/[()]/g, "\\$&")}`));
  await visitor.close();
});

test("a monitor's page and `geoscope monitor get` lead with its last tick's summary", async ({}, testInfo) => {
  test.setTimeout(180_000);
  const made = await api("POST", "/monitors", { project: projectId, name: "Words", prompts: [{ text: BOTH }], engines: ["chatgpt", "gemini"], runs: 1 });
  expect(made.status, made.text).toBe(201);
  const id = made.body.id as string;
  const ran = await api("POST", `/monitors/${id}/run`);
  expect(ran.status, ran.text).toBe(202);
  await expect
    .poll(async () => (await api("GET", `/monitors/${id}`)).body.last_tick.summary[0], { timeout: 90_000, intervals: [1000] })
    .toMatch(/^Acme CRM is named/);
  // Wilson 95%: 2 of 2 [0.3424, 1], 0 of 2 [0, 0.6576].
  const tick = [
    "Acme CRM is named in 2 of 2 answers (about 100%, 95% interval 34–100%); HubSpot in 2 (about 100%, 34–100%); Pipedrive in 0 (about 0%, 0–66%).",
    "ChatGPT (API) and Gemini (API) name Acme CRM in every answer (1 of 1 each).",
  ];
  expect((await api("GET", `/monitors/${id}`)).body.last_tick.summary).toEqual(tick);

  const shown = await cli(["monitor", "get", id]);
  expect(shown.code, shown.stderr).toBe(0);
  expect(shown.stdout.split("\n").slice(1, 3)).toEqual(tick.map((s) => `  ${s}`));
  expect(shown.stdout.split("\n")[0]).toMatch(/^last tick mt_\w+ \(.+\):$/);

  await page.goto(`/monitors/${id}`);
  await expect(page.getByTestId("summary-sentence")).toHaveText(tick);
  await expect(page.getByTestId("summary")).toContainText("Last tick,");
  await screenshots(page, testInfo, "plain-words-monitor");
});

test("when no engine names the brand, the summary says so rather than 'equally often'", async () => {
  test.setTimeout(120_000);
  const batch = await finishedBatch(HUBSPOT, ["chatgpt", "gemini"]);
  const created = await cli(["visibility", "create", batch]);
  expect(created.code, created.stderr).toBe(0);
  // Wilson 95%: 0 of 2 [0, 0.6576], 2 of 2 [0.3424, 1].
  expect(created.stdout.split("\n").slice(0, 2)).toEqual([
    "Acme CRM is named in 0 of 2 answers (about 0%, 95% interval 0–66%); HubSpot in 2 (about 100%, 34–100%); Pipedrive in 0 (about 0%, 0–66%).",
    "Neither ChatGPT (API) nor Gemini (API) names Acme CRM (0 of 1 each).",
  ]);
});
