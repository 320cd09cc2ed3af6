// A project's monitor overview (issue #47) through the built server, the real CLI and Chromium:
// a monitor whose two ticks differ for real (its Acme prompts are refused by the engine simulator
// at the first tick and answer at the second) and one without a tick; `geoscope monitor overview`
// prints the summary and each monitor's table, --json is the API's body; the page, reached from the
// project page and from the monitor page, shows a card per monitor with each entity's latest figure
// (value, interval, n), its sparkline and its changes in words, at 1280 and 390 px with nothing
// wider than the window. Both ticks run now, so neither is a week older than the other: the page
// says so instead of a change (the API test moves ticks in time to test the changes).
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { answerDirective } from "../../lib/engines/simulator/directive";
import { screenshots } from "./screens";
import { approveCliLogin, BASE, BIN, cliAs, cliEnv, ROOT, signIn, tickNow } from "./support";

test.describe.configure({ mode: "serial" });

const EMAIL = `overview-${Date.now()}@example.com`;
const CONFIG_DIR = mkdtempSync(path.join(tmpdir(), "geoscope-overview-cli-"));
const TAG = `t${Date.now()}`;

let context: BrowserContext;
let page: Page;
let projectId: string;
let monitorId: string;

const cli = cliAs({ configDir: CONFIG_DIR });

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
});
test.afterAll(async () => {
  await context?.close();
});

test("the CLI: monitor overview prints the summary and a table per monitor; --json is the API's body", async () => {
  test.setTimeout(240_000);
  await signIn(page, EMAIL);
  const login = await approveCliLogin(page, process.execPath, [BIN], {
    cwd: ROOT,
    env: cliEnv({ configDir: CONFIG_DIR }),
  });
  expect(login.code, login.stderr).toBe(0);

  const project = await cli(["projects", "create", "Benchmark", "--domain", "acme.example", "--brands", "Acme CRM", "--competitors", "HubSpot,Pipedrive", "--json"]);
  expect(project.code, project.stderr).toBe(0);
  projectId = JSON.parse(project.stdout).id as string;

  const empty = await cli(["monitor", "overview", projectId]);
  expect(empty.code, empty.stderr).toBe(0);
  expect(empty.stdout.trim()).toBe("This project has no monitor yet, so there is nothing to follow over time.");

  const acme = answerDirective("Acme CRM is the best pick for agencies.");
  const file = path.join(mkdtempSync(path.join(tmpdir(), "geoscope-overview-file-")), "prompts.txt");
  writeFileSync(
    file,
    [
      `which crm should an agency pick ${TAG} ${acme} [[sim:bad_request*10]]`,
      `which crm suits a small agency ${TAG} ${acme} [[sim:bad_request*10]]`,
      `most popular crm ${TAG} ${answerDirective("HubSpot is the most popular CRM.")}`,
    ].join("\n"),
  );
  const created = await cli(["monitor", "create", "--file", file, "--project", projectId, "--every", "week", "--runs", "10", "--engines", "gemini", "--name", "CRM for agencies, weekly", "--json"]);
  expect(created.code, created.stderr).toBe(0);
  monitorId = JSON.parse(created.stdout).id as string;
  const other = await cli(["monitor", "create", "best crm for dentists", "--project", projectId, "--runs", "1", "--engines", "gemini", "--name", "Dentists", "--json"]);
  expect(other.code, other.stderr).toBe(0);

  await tickNow(cli, monitorId);
  await tickNow(cli, monitorId);

  const human = await cli(["monitor", "overview", projectId]);
  expect(human.code, human.stderr).toBe(0);
  const lines = human.stdout.split("\n");
  expect(lines[0]).toBe(`On the monitor "CRM for agencies, weekly", Acme CRM is named in 20 of 30 answers at the latest tick (about 67%, 95% interval 48–81%).`);
  expect(lines[1]).toBe("No change is measured yet: no monitor has a tick a week before its latest (30 answers at the latest tick).");
  expect(human.stdout).toContain(`CRM for agencies, weekly (${monitorId}) · active · Gemini (API) · version 1 · last tick`);
  expect(human.stdout).toMatch(/\nAcme CRM\s+brand\s+67%\s+48–81%\s+30\s+▁▇\s+-\s+-\n/);
  expect(human.stdout).toMatch(/\nHubSpot\s+competitor\s+33%\s+\d+–\d+%\s+30\s+█▃\s+-\s+-\n/);
  expect(human.stdout).toMatch(/Dentists \(mo_\w+\) · active · Gemini \(API\) · version 1 · no tick yet\n/);
  expect(human.stdout).toMatch(/\nAcme CRM\s+brand\s+-\s+-\s+-\s+-\s+-\s+-\n/);

  const json = await cli(["monitor", "overview", projectId, "--json"]);
  expect(json.code, json.stderr).toBe(0);
  const bearer = JSON.parse(readFileSync(path.join(CONFIG_DIR, "config.json"), "utf8")).token as string;
  const api = await fetch(`${BASE}/projects/${projectId}/monitor-overview`, { headers: { authorization: `Bearer ${bearer}` } });
  expect(api.status).toBe(200);
  expect(json.stdout.trim()).toBe((await api.text()).trim());
});

test("the page: a card per monitor, each entity's latest figure with n, its sparkline and its changes in words, at 1280 and 390 px", async ({}, testInfo) => {
  test.setTimeout(120_000);
  // Reached from the project page and from the monitor page.
  await page.goto(`/projects/${projectId}`);
  await page.getByTestId("monitor-overview-link").click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/monitors$`));
  await page.goto(`/monitors/${monitorId}`);
  await page.getByTestId("monitor-overview-link").click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/monitors$`));

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Benchmark: every monitor side by side");
  await expect(page.getByTestId("summary-sentence").first()).toHaveText(/Acme CRM is named in 20 of 30 answers at the latest tick/);
  const cards = page.getByTestId("overview-monitor");
  await expect(cards).toHaveCount(2);
  const card = page.locator(`[data-monitor="${monitorId}"]`);
  await expect(card.getByRole("link", { name: "CRM for agencies, weekly" })).toHaveAttribute("href", `/monitors/${monitorId}`);
  const acme = card.locator('[data-entity="Acme CRM"]');
  await expect(acme.getByTestId("latest")).toHaveText(/67%\s*95% 48–81% · n 30/);
  await expect(acme.getByTestId("sparkline")).toHaveAttribute("aria-label", /from 0% \(n 10\) on \d{4}-\d\d-\d\d to 67% \(n 30\)/);
  await expect(acme.getByTestId("since-week")).toHaveText("no tick a week before");
  await expect(acme.getByTestId("since-month")).toHaveText("no tick a month before");
  await expect(card.getByTestId("sparkline")).toHaveCount(3);
  const dentists = cards.filter({ hasText: "Dentists" });
  await expect(dentists.getByTestId("latest").first()).toHaveText("no figure yet");
  // Without a figure, no sparkline and no change to speak of.
  await expect(dentists.getByTestId("sparkline")).toHaveCount(0);
  await expect(dentists.getByTestId("since-week")).toHaveCount(0);
  await screenshots(page, testInfo, "monitor-overview");
});
