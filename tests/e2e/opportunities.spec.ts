// Opportunities end to end (issue #47) against the built server: in Chromium, "Find opportunities"
// on a visibility analysis's page opens the op_… list's page (the summary, the prompts a
// competitor wins with both rates, the difference's interval and the competitor's sentence, the
// pages to be cited on, the brand's own pages, the searches), "Audit these pages" priced before it
// starts and then started, and the list's public share page; with the real `geoscope` binary,
// `opportunities va_…` (tables led by the summary) and `--format csv --section`. Screenshots at
// 1280 and 390 px.
import path from "node:path";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { apiWith, approveCliLogin, BIN, cliAs, cliEnv, ROOT, signIn } from "./support";
import { screenshots } from "./screens";

test.describe.configure({ mode: "serial" });

const EMAIL = `opportunities-${Date.now()}@example.com`;
const CONFIG_DIR = mkdtempSync(path.join(tmpdir(), "geoscope-opportunities-cli-"));

// Every engine answers exactly this (the simulator's exact-answer directive): Pipedrive, never HubSpot.
const SENTENCE = "Pipedrive is the easiest pipeline tool for small sales teams.";
const directive = (text: string) => `[[sim:answer:${Buffer.from(text, "utf8").toString("base64url")}]]`;
const PROMPT = `best crm for small sales teams ${directive(`${SENTENCE} It starts at $14 a seat.`)}`;

let context: BrowserContext;
let page: Page;
let token = "";
let projectId = "";
let analysisId = "";
let listId = "";

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

test("a visibility analysis of answers that name a competitor and not the brand", async () => {
  test.setTimeout(120_000);
  await signIn(page, EMAIL);
  const projects = page.locator("#projects");
  await projects.getByLabel("Project name").fill("Opportunities");
  await projects.getByRole("button", { name: "Create project" }).click();
  await projects.getByRole("link", { name: "Opportunities" }).click();
  projectId = new URL(page.url()).pathname.split("/").pop()!;
  expect(projectId).toMatch(/^pr_/);
  const login = await approveCliLogin(page, process.execPath, [BIN], { cwd: ROOT, env: cliEnv({ configDir: CONFIG_DIR }) });
  expect(login.code, login.stderr).toBe(0);
  token = JSON.parse(readFileSync(path.join(CONFIG_DIR, "config.json"), "utf8")).token;

  const fo = await api("POST", "/fanouts", { project: projectId, prompts: [{ text: PROMPT }], engines: ["chatgpt", "claude"], runs: 2 });
  expect(fo.status, fo.text).toBe(202);
  const fanout = (await api("GET", `/fanouts/${fo.body.id}?wait=30`)).body;
  expect(fanout.status).toBe("completed");
  const runIds: string[] = fanout.prompts[0].engines.flatMap((e: { runs: { run_id: string }[] }) => e.runs.map((r) => r.run_id));
  const first = (await api("GET", `/runs/${runIds[0]}`)).body;
  const cited = first.result.sources.filter((s: { cited: boolean }) => s.cited).map((s: { url: string }) => s.url);
  expect(cited.length).toBeGreaterThan(0);
  // The brand's domain is a page the answers cite: it shows among its own pages.
  const brandDomain = new URL(cited[0]).hostname.replace(/^www\./, "");
  const va = await api("POST", "/visibility-analyses", {
    ids: [fanout.id],
    entities: [
      { name: "HubSpot", role: "brand", domains: [brandDomain] },
      { name: "Pipedrive", role: "competitor" },
    ],
  });
  expect(va.status, va.text).toBe(201);
  analysisId = va.body.id;
});

test("Find opportunities on the analysis's page: the list's page with its summary, evidence and every figure's n", async ({}, testInfo) => {
  test.setTimeout(120_000);
  await page.goto(`/analyses/${analysisId}`);
  const form = page.getByTestId("opportunities-form");
  await expect(form.getByRole("combobox")).toHaveValue("HubSpot");
  await screenshots(page, testInfo, "opportunities-form");
  await form.getByRole("button", { name: "Find opportunities" }).click();
  await page.waitForURL(/\/analyses\/op_/);
  listId = new URL(page.url()).pathname.split("/").pop()!;
  const summary = page.getByTestId("summary-sentence");
  await expect(summary.first()).toHaveText("Competitors are named more often than HubSpot, beyond what chance explains, on 1 of 1 prompt (4 answers).");
  await expect(summary.nth(1)).toHaveText(
    "On “best crm for small sales teams”, Pipedrive is named in 4 of 4 answers (about 100%, 95% interval 51–100%) and HubSpot in 0 (about 0%, 0–49%): +100 points (95% interval +30 to +100 points).",
  );
  const lost = page.getByTestId("lost-prompt");
  await expect(lost).toHaveCount(1);
  await expect(lost).toContainText("Pipedrive: 100% (4 of 4; 51–100%)");
  await expect(lost).toContainText("+100 points (95% +30 to +100 points)");
  await expect(lost).toContainText(`“${SENTENCE}”`);
  await expect(page.getByTestId("citation-target").first()).toContainText(/\d+ of 4/);
  await expect(page.getByTestId("own-page").first()).toContainText(/\d+ of 4/);
  await screenshots(page, testInfo, "opportunities");

  // Each section downloads as the CLI writes it.
  await expect(page.getByTestId("csv-lost_prompts")).toHaveAttribute("href", `/analyses/${listId}/opportunities.csv?section=lost_prompts`);
  const download = await page.request.get(`/analyses/${listId}/opportunities.csv?section=lost_prompts`);
  expect(download.status()).toBe(200);
  expect((await download.text()).split("\r\n")[1]).toMatch(/^1,best crm for small sales teams .*,4,Pipedrive,4,100%,51%,100%,HubSpot,0,0%,0%,49%,100%,30%,100%,/);
  expect((await page.request.get(`/analyses/${listId}/opportunities.csv?section=pages`)).status()).toBe(400);

  // The API says the same.
  const body = (await api("GET", `/analyses/${listId}`)).body;
  expect(body.kind).toBe("opportunities");
  expect(await page.getByTestId("citation-target").count()).toBe(body.citation_targets.length);
});

test("Audit these pages: priced as pages are ticked, then one audit run per page", async ({}, testInfo) => {
  await page.goto(`/analyses/${listId}`);
  const form = page.getByTestId("audit-pages-form");
  await expect(form.getByTestId("audit-total")).toHaveText("$0.00");
  await expect(form.getByTestId("start-audits")).toBeDisabled();
  const boxes = form.getByRole("checkbox");
  await boxes.nth(0).check();
  await expect(form.getByTestId("audit-total")).toHaveText("$0.01");
  await expect(form.getByTestId("start-audits")).toHaveText("Audit 1 page for $0.01");
  await screenshots(page, testInfo, "opportunities-audit");
  await form.getByTestId("start-audits").click();
  const started = form.getByTestId("audits-started");
  await expect(started).toContainText("Started 1 audit:");
  const runId = (await started.getByRole("link").first().textContent())!;
  const run = await api("GET", `/runs/${runId}`);
  expect([run.body.kind, run.body.input.url]).toEqual(["audit", await boxes.nth(0).getAttribute("value")]);
});

test("the list's public share page, and `geoscope opportunities` with its tables and CSV", async ({}, testInfo) => {
  const shared = await api("POST", `/analyses/${listId}/share`);
  expect(shared.status, shared.text).toBe(200);
  const publicPage = await context.newPage();
  await publicPage.goto(new URL(shared.body.url).pathname);
  await expect(publicPage.getByTestId("summary-sentence").first()).toHaveText(/on 1 of 1 prompt \(4 answers\)/);
  await expect(publicPage.getByTestId("lost-prompt")).toContainText(SENTENCE);
  await screenshots(publicPage, testInfo, "opportunities-shared");
  await publicPage.close();

  const human = await cli(["opportunities", analysisId]);
  expect(human.code, human.stderr).toBe(0);
  expect(human.stdout.split("\n")[0]).toBe("Competitors are named more often than HubSpot, beyond what chance explains, on 1 of 1 prompt (4 answers).");
  expect(human.stdout).toMatch(/Pipedrive\s+4 of 4 \(100%, 51–100%\)\s+0 of 4 \(0%, 0–49%\)\s+\+100 points\s+\+30 to \+100 points/);
  const csv = await cli(["opportunities", "get", listId, "--format", "csv", "--section", "lost_prompts"]);
  expect(csv.code, csv.stderr).toBe(0);
  expect(csv.stdout.split("\r\n")[1]).toMatch(/^1,best crm for small sales teams .*,4,Pipedrive,4,100%,51%,100%,HubSpot,0,0%,0%,49%,100%,30%,100%,/);
});
