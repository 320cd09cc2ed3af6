// The answers people see (issue #45) end to end against the built server, with the real
// `geoscope` binary: `geoscope engines` says which engines are APIs and which apps; a fanout across
// `chatgpt` (the API), `chatgpt_app` (what chatgpt.com shows, through DataForSEO) and
// `google_ai_overview` runs, is charged at the rate card's prices, and reports the app's fan-out
// queries; a query for which Google shows no AI Overview completes with `shown: false` and an empty
// answer, and a visibility analysis leaves those runs out as `no_answer`. In Chromium, the fanout
// page names each engine with its surface (screenshots at 1280 and 390 px).
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { answerDirective } from "../../lib/engines/simulator/directive";
import { apiWith, approveCliLogin, BIN, cliAs, cliEnv, ROOT, signIn } from "./support";
import { screenshots } from "./screens";

test.describe.configure({ mode: "serial" });

const EMAIL = `engines-${Date.now()}@example.com`;
const CONFIG_DIR = mkdtempSync(path.join(tmpdir(), "geoscope-engines-cli-"));
const TAG = `e${Date.now()}`;

let context: BrowserContext;
let page: Page;
let token = "";
let fanoutId = "";
let hiddenRun = "";

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

test("the CLI: engines listed with their surface, a fanout on an API, an app and Google's AI Overview, and the runs without an overview left out of visibility", async () => {
  test.setTimeout(240_000);
  await signIn(page, EMAIL);
  const login = await approveCliLogin(page, process.execPath, [BIN], {
    cwd: ROOT,
    env: cliEnv({ configDir: CONFIG_DIR }),
  });
  expect(login.code, login.stderr).toBe(0);
  token = JSON.parse(readFileSync(path.join(CONFIG_DIR, "config.json"), "utf8")).token;

  const engines = await cli(["engines"]);
  expect(engines.code, engines.stderr).toBe(0);
  expect(engines.stdout).toMatch(/chatgpt\s+ChatGPT \(API\)\s+api\s+openai\s+yes/);
  expect(engines.stdout).toMatch(/chatgpt_app\s+ChatGPT \(app\)\s+app\s+dataforseo\s+yes\s+ai_optimization\/chat_gpt\/llm_scraper\/live\/advanced/);
  expect(engines.stdout).toMatch(/google_ai_overview\s+Google AI Overview \(app\)\s+app\s+dataforseo/);
  // --json is the API's body, which needs no credential.
  expect((await cli(["engines", "--json"])).stdout).toBe((await api("GET", "/engines", undefined, null)).text);

  const project = await cli(["projects", "create", "Apps and APIs", "--brands", "HubSpot", "--competitors", "Pipedrive", "--json"]);
  expect(project.code, project.stderr).toBe(0);
  const projectId = JSON.parse(project.stdout).id as string;

  // Known answers, so every mention is known; Google shows an overview for the first query only.
  const shown = `best crm for a small team ${TAG} ${answerDirective("HubSpot and Pipedrive are the usual picks for a small team.")}`;
  const hidden = `which crm do agencies use ${TAG} ${answerDirective("Pipedrive is popular with agencies.")} [[sim:no_overview]]`;
  const engineList = "chatgpt,chatgpt_app,google_ai_overview";
  const estimate = await cli(["fanout", "estimate", shown, hidden, "--project", projectId, "--engines", engineList, "--runs", "2", "--json"]);
  expect(estimate.code, estimate.stderr).toBe(0);
  // 2 prompts × 2 runs on each: 4 × (0.02 + 0.03 + 0.01).
  expect(JSON.parse(estimate.stdout)).toMatchObject({ executions: 12, total_usd: "0.24" });
  // And how precise: 4 answers per engine, Wilson's 95% half-width at 50% is 0.35; said in words by the CLI.
  expect(JSON.parse(estimate.stdout).margin).toMatchObject({ runs_per_engine: 4, at_half: 0.35, at_last_rate: null });
  const said = await cli(["fanout", "estimate", shown, hidden, "--project", projectId, "--engines", engineList, "--runs", "2"]);
  expect(said.stdout).toContain("About ±35 points per engine (4 runs each); to reach ±5, 385 runs per engine.");

  const created = await cli(["fanout", "create", shown, hidden, "--project", projectId, "--engines", engineList, "--runs", "2", "--wait", "--json"]);
  expect(created.code, created.stderr).toBe(0);
  const fanout = JSON.parse(created.stdout);
  fanoutId = fanout.id;
  expect(fanout.status).toBe("completed");
  expect(fanout.engines).toEqual(["chatgpt", "chatgpt_app", "google_ai_overview"]);
  // How often Google showed an AI Overview at all: 2 of 4 runs, with Wilson's interval (2/4: 0.15-0.85).
  expect(fanout.shown).toEqual([
    { engine: "chatgpt", completed_runs: 4, runs_shown: 4, rate: 1, interval: [0.5101, 1] },
    { engine: "chatgpt_app", completed_runs: 4, runs_shown: 4, rate: 1, interval: [0.5101, 1] },
    { engine: "google_ai_overview", completed_runs: 4, runs_shown: 2, rate: 0.5, interval: [0.15, 0.85] },
  ]);
  const described = await cli(["fanout", "get", fanoutId]);
  expect(described.stdout).toContain("Google AI Overview (app) showed an answer in 2 of 4 completed runs (about 50%, 95% interval 15–85%).");
  expect(described.stdout).toMatch(/google_ai_overview \(2\/2 runs completed, 0 queries, shown in 0 of 2 runs\)/);

  const runs = JSON.parse((await cli(["runs", "list", "--fanout", fanoutId, "--limit", "50", "--json"])).stdout).items as Array<{ id: string; engine: string; subject: string; status: string }>;
  expect(runs).toHaveLength(12);
  expect(runs.every((r) => r.status === "completed")).toBe(true);
  const noOverview: string[] = [];
  for (const summary of runs) {
    const got = await cli(["runs", "get", summary.id, "--json"]);
    expect(got.code, got.stderr).toBe(0);
    const run = JSON.parse(got.stdout);
    expect(run.charge).toMatchObject({ status: "captured", unit_price_usd: { chatgpt: "0.02", chatgpt_app: "0.03", google_ai_overview: "0.01" }[run.engine as string] });
    if (run.engine === "google_ai_overview" && run.input.prompt.startsWith("which crm")) {
      expect(run.result).toMatchObject({ shown: false, answer: "", sources: [] });
      noOverview.push(run.id);
    } else {
      expect(run.result.shown).toBe(true);
      expect(run.result.answer).toMatch(/Pipedrive/);
    }
    if (run.engine !== "chatgpt") expect(run.result.provider_cost_usd).toMatch(/^0\.\d{2,6}$/);
  }
  expect(noOverview).toHaveLength(2);
  hiddenRun = noOverview[0]!;
  // An overview that was shown names its pages but not its searches: the CLI says so, not "(none)".
  const shownOverview = runs.find((r) => r.engine === "google_ai_overview" && !noOverview.includes(r.id))!;
  const overviewSaid = await cli(["runs", "get", shownOverview.id]);
  expect(overviewSaid.code, overviewSaid.stderr).toBe(0);
  expect(overviewSaid.stdout).toContain("Searches (0):\n  (Google AI Overview (app) does not say which searches it ran)");

  // The app shows its fan-out queries; Google's AI Overview shows none.
  const queries = await cli(["fanout", "queries", fanoutId, "--json"]);
  expect(queries.stdout).toBe((await api("GET", `/fanouts/${fanoutId}/queries`)).text);

  const visibility = await cli(["visibility", "create", fanoutId, "--brand", "HubSpot", "--competitor", "Pipedrive", "--json"]);
  expect(visibility.code, visibility.stderr).toBe(0);
  const analysis = JSON.parse(visibility.stdout);
  expect(analysis.excluded_runs.map((e: { run_id: string; reason: string }) => [e.run_id, e.reason]).sort()).toEqual(noOverview.map((id) => [id, "no_answer"]).sort());
  expect(analysis.totals.runs).toBe(10);
  const pipedrive = analysis.rows.find((r: { name: string }) => r.name === "Pipedrive");
  expect(pipedrive.by_engine.map((e: { engine: string; runs: number; runs_mentioning: number }) => [e.engine, e.runs, e.runs_mentioning])).toEqual([
    ["chatgpt", 4, 4],
    ["chatgpt_app", 4, 4],
    ["google_ai_overview", 2, 2],
  ]);
  const human = await cli(["visibility", "get", analysis.id]);
  // Left out by reason, with their ids.
  expect(human.stdout).toMatch(new RegExp(`excluded: no_answer \\(2\\): (${noOverview[0]}, ${noOverview[1]}|${noOverview[1]}, ${noOverview[0]})`));
});

test("the fanout page names each engine with its surface, so an API's figures are never read as an app's; a run without an overview says so", async ({}, testInfo) => {
  test.setTimeout(60_000);
  await page.goto(`/fanouts/${fanoutId}`);
  const matrix = page.getByTestId("fanout-matrix");
  for (const label of ["ChatGPT (API)", "ChatGPT (app)", "Google AI Overview (app)"]) await expect(matrix.getByRole("columnheader", { name: label })).toBeVisible();
  await expect(page.getByTestId("matrix-cell").and(page.locator('[data-status="completed"]'))).toHaveCount(6);
  // No query shown is not no search: Google does not say which it ran.
  await expect(page.locator('[data-testid="matrix-cell"][data-engine="google_ai_overview"]').first().getByTestId("cell-query-count")).toHaveText("queries not shown");
  await expect(page.locator('[data-testid="cell-queries"][data-engine="google_ai_overview"]').first()).toContainText("Google AI Overview (app) does not say which searches it ran.");
  await expect(page.getByTestId("fanout-shown")).toHaveText("Google AI Overview (app) showed an answer in 2 of 4 completed runs (about 50%, 95% interval 15–85%).");
  await screenshots(page, testInfo, "engines-fanout");

  await page.goto(`/runs/${hiddenRun}`);
  await expect(page.getByTestId("not-shown")).toHaveText("Google showed no AI Overview for this query: there is no answer to read, and analyses leave this run out.");
  await screenshots(page, testInfo, "engines-run-not-shown");
});
