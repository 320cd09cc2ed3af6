// Comparison analyses (issue #46) through the built server: "Compare engines" on a fanout's page
// (chatgpt against chatgpt_app, the pair it starts with) makes the comparison and opens its page,
// which leads with the summary and shows the two engines side by side (each rate a dot with its
// interval as a band, the difference on its own track) and the two domain lists; the real CLI's
// `geoscope compare fo_… --a chatgpt --b chatgpt_app` answers the same figures (--json the API's
// body, --format csv what the page's download writes); the share page shows it signed out without
// the creator; a monitor's page compares its last tick. Screenshots at 1280 and 390 px.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { apiWith, approveCliLogin, BIN, cliAs, cliEnv, ROOT, signIn } from "./support";
import { screenshots } from "./screens";

test.describe.configure({ mode: "serial" });

const EMAIL = `compare-${Date.now()}@example.com`;
const CONFIG_DIR = mkdtempSync(path.join(tmpdir(), "geoscope-compare-cli-"));
const PROMPTS = ["best crm for small agencies", "crm with the best free plan"];

let context: BrowserContext;
let page: Page;
let token = "";
let projectId = "";
let fanoutId = "";
let comparisonId = "";

const cli = cliAs({ configDir: CONFIG_DIR });

const api = apiWith(() => token);

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
});
test.afterAll(async () => {
  await context?.close();
});

test("Compare engines on a fanout's page opens the comparison: summary, the two engines side by side, intervals as bars, the two domain lists", async ({}, testInfo) => {
  test.setTimeout(240_000);
  await signIn(page, EMAIL);
  const login = await approveCliLogin(page, process.execPath, [BIN], { cwd: ROOT, env: cliEnv({ configDir: CONFIG_DIR }) });
  expect(login.code, login.stderr).toBe(0);
  token = JSON.parse(readFileSync(path.join(CONFIG_DIR, "config.json"), "utf8")).token;
  const project = await cli(["projects", "create", "Compare", "--domain", "hubspot.com", "--brands", "HubSpot", "--competitors", "Pipedrive,Zoho CRM,Salesforce", "--json"]);
  expect(project.code, project.stderr).toBe(0);
  projectId = JSON.parse(project.stdout).id;

  const fanout = await api("POST", "/fanouts", { project: projectId, prompts: PROMPTS.map((text) => ({ text })), engines: ["chatgpt", "chatgpt_app", "claude"], runs: 3 });
  expect(fanout.status, fanout.text).toBe(202);
  fanoutId = fanout.body.id;
  await expect.poll(async () => (await api("GET", `/fanouts/${fanoutId}?wait=30`)).body.status, { timeout: 120_000 }).toBe("completed");

  await page.goto(`/fanouts/${fanoutId}`);
  const form = page.getByTestId("compare-engines");
  await expect(form.getByTestId("compare-a")).toHaveValue("chatgpt");
  await expect(form.getByTestId("compare-b")).toHaveValue("chatgpt_app");
  await form.getByTestId("start-compare").click();
  await page.waitForURL(/\/analyses\/cm_/);
  comparisonId = new URL(page.url()).pathname.split("/").pop()!;

  const body = (await api("GET", `/analyses/${comparisonId}`)).body;
  expect(body).toMatchObject({ kind: "comparison", a: "chatgpt", b: "chatgpt_app", prompts_compared: 2 });
  // The claude runs are no part of it.
  expect(body.excluded_runs.filter((x: { reason: string }) => x.reason === "other_engine")).toHaveLength(6);
  await expect(page.getByTestId("summary-sentence")).toHaveText(body.summary);
  await expect(page.getByTestId("summary-sentence").first()).toHaveText(
    "ChatGPT (API) and ChatGPT (app) are compared on the 2 prompts both answered: 6 answers from ChatGPT (API), 6 from ChatGPT (app).",
  );
  // Each entity: both engines' rates with their n and interval, each a bar, and the difference.
  for (const row of body.rows as { name: string; a: { runs: number; runs_mentioning: number }; b: { runs: number; runs_mentioning: number } }[]) {
    const pair = page.locator(`[data-testid="entity-pair"][data-entity="${row.name}"]`);
    await expect(pair.locator('[data-testid="side-row"][data-engine="chatgpt"]')).toContainText(`(${row.a.runs_mentioning} of ${row.a.runs};`);
    await expect(pair.locator('[data-testid="side-row"][data-engine="chatgpt_app"]')).toContainText(`(${row.b.runs_mentioning} of ${row.b.runs};`);
    await expect(pair.getByTestId("interval-bar")).toHaveCount(2);
    await expect(pair.getByTestId("diff-bar")).toHaveCount(1);
  }
  // The two domain lists, side by side at 1280 px.
  const onlyA = page.getByTestId("only-a");
  const onlyB = page.getByTestId("only-b");
  await expect(onlyA).toContainText("Only ChatGPT (API) cites");
  await expect(onlyB).toContainText("Only ChatGPT (app) cites");
  for (const d of body.sources.only_b.slice(0, 3) as { domain: string }[]) await expect(onlyB).toContainText(d.domain);
  const [boxA, boxB] = [await onlyA.boundingBox(), await onlyB.boundingBox()];
  expect(boxB!.x).toBeGreaterThan(boxA!.x + boxA!.width - 1);
  await expect(page.getByTestId("prompt-row")).toHaveCount(2);
  await screenshots(page, testInfo, "comparison");
  // At 390 px the lists stack and nothing is wider than the page (checked by screenshots()).
  await page.setViewportSize({ width: 390, height: 844 });
  const [narrowA, narrowB] = [await onlyA.boundingBox(), await onlyB.boundingBox()];
  expect(narrowB!.y).toBeGreaterThan(narrowA!.y + narrowA!.height - 1);
  await page.setViewportSize({ width: 1280, height: 900 });
});

test("the CLI's compare answers the same figures: --json the API's body, tables led by the summary, --format csv the page's download", async () => {
  test.setTimeout(120_000);
  const made = await cli(["compare", fanoutId, "--a", "chatgpt", "--b", "chatgpt_app", "--json"]);
  expect(made.code, made.stderr).toBe(0);
  const body = JSON.parse(made.stdout);
  const page1 = (await api("GET", `/analyses/${comparisonId}`)).body;
  const strip = (x: Record<string, unknown>) => ({ ...x, id: null, created_at: null, completed_at: null });
  expect(strip(body)).toEqual(strip(page1));
  expect((await api("GET", `/analyses/${body.id}`)).text).toBe(made.stdout.trim());

  const human = await cli(["compare", "get", comparisonId]);
  expect(human.code, human.stderr).toBe(0);
  expect(human.stdout.split("\n").slice(0, page1.summary.length)).toEqual(page1.summary);
  expect(human.stdout).toContain(`comparison ${comparisonId}: completed · a = chatgpt (ChatGPT (API)), b = chatgpt_app (ChatGPT (app))`);

  const csv = await cli(["compare", "get", comparisonId, "--format", "csv"]);
  expect(csv.code, csv.stderr).toBe(0);
  expect(csv.stdout.split("\r\n")[0]).toBe("prompt,engine_a,engine_b,runs_a,runs_b,jaccard,query_overlap,rbo,entity,visibility_a,visibility_b,diff");
  // One line per prompt and entity, and a header.
  expect(csv.stdout.split("\r\n").filter(Boolean)).toHaveLength(1 + 2 * 4);
  await page.goto(`/analyses/${comparisonId}`);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("comparison-csv").click()]);
  expect(readFileSync((await download.path())!, "utf8")).toBe(csv.stdout);
});

test("a shared comparison's page shows the same figures signed out, without who made it", async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  await page.goto(`/analyses/${comparisonId}`);
  const share = page.getByTestId("share-control");
  await share.getByRole("button", { name: "Create share link" }).click();
  const url = await share.getByTestId("share-url").inputValue();
  const visitor = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const outside = await visitor.newPage();
  await outside.goto(url.replace(/^http:\/\/[^/]+/, ""));
  const body = (await api("GET", `/analyses/${comparisonId}`)).body;
  await expect(outside.getByTestId("summary-sentence")).toHaveText(body.summary);
  await expect(outside.getByTestId("entity-pair")).toHaveCount(4);
  expect(await outside.content()).not.toContain(EMAIL);
  const json = await (await fetch(`${url}.json`)).json();
  expect(json).toEqual({ ...body, project_id: null, created_by: null });
  await screenshots(outside, testInfo, "comparison-shared");
  await visitor.close();
});

test("a monitor of an API and its app links each tick to their comparison; Compare engines on its page compares its last tick", async ({}, testInfo) => {
  test.setTimeout(240_000);
  const monitor = await api("POST", "/monitors", { project: projectId, name: "Both surfaces", prompts: [{ text: PROMPTS[0] }], engines: ["gemini", "google_ai_mode"], runs: 2 });
  expect(monitor.status, monitor.text).toBe(201);
  const tick = await api("POST", `/monitors/${monitor.body.id}/run`);
  expect(tick.status, tick.text).toBe(202);
  await expect
    .poll(async () => (await api("GET", `/monitors/${monitor.body.id}/ticks`)).body.items.find((t: { id: string }) => t.id === tick.body.id)?.status, { timeout: 120_000, intervals: [1000] })
    .toBe("completed");
  await page.goto(`/monitors/${monitor.body.id}`);
  // The tick's own comparison, made when its fanout finished, linked from its row.
  const [linked] = (await api("GET", `/monitors/${monitor.body.id}/ticks`)).body.items[0].comparisons;
  expect(linked).toMatchObject({ a: "gemini", b: "google_ai_mode", analysis_id: expect.stringMatching(/^cm_/) });
  await expect(page.getByTestId("tick-comparison")).toHaveText("Gemini (API) vs Google AI Mode (app)");
  await expect(page.getByTestId("tick-comparison")).toHaveAttribute("href", `/analyses/${linked.analysis_id}`);
  const form = page.getByTestId("compare-engines");
  await expect(form.getByTestId("compare-a")).toHaveValue("gemini");
  await expect(form.getByTestId("compare-b")).toHaveValue("google_ai_mode");
  await screenshots(page, testInfo, "monitor-compare");
  await form.getByTestId("start-compare").click();
  await page.waitForURL(/\/analyses\/cm_/);
  const id = new URL(page.url()).pathname.split("/").pop()!;
  const body = (await api("GET", `/analyses/${id}`)).body;
  expect(body).toMatchObject({ kind: "comparison", a: "gemini", b: "google_ai_mode", prompts_compared: 1, run_count: 4 });
  await expect(page.getByTestId("summary-sentence").first()).toHaveText(body.summary[0]);
});
