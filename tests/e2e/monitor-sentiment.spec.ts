// Sentiment over time on monitors (issue #47) with the real binary against the built server: a
// monitor created with `--judge claude`, two ticks closed by the server's own scheduler (each
// judged by the simulator's judge), `monitor series --metric sentiment` as a table and as the
// API's body, and the monitor page's sentiment chart per entity with its sentence, at 1280 and
// 390 px. A monitor without a judge has no sentiment chart.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { answerDirective } from "../../lib/engines/simulator/directive";
import { screenshots } from "./screens";
import { approveCliLogin, BASE, BIN, cliAs, cliEnv, ROOT, signIn, tickNow } from "./support";

test.describe.configure({ mode: "serial" });

const EMAIL = `sentiment-${Date.now()}@example.com`;
const CONFIG_DIR = mkdtempSync(path.join(tmpdir(), "geoscope-sentiment-cli-"));
const TAG = `t${Date.now()}`;

let context: BrowserContext;
let page: Page;

const cli = cliAs({ configDir: CONFIG_DIR });

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
});
test.afterAll(async () => {
  await context?.close();
});

function promptsFile(lines: string[]) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "geoscope-sentiment-file-")), "prompts.txt");
  writeFileSync(file, lines.join("\n"));
  return file;
}

test("a judged monitor: the CLI's sentiment series and the page's sentiment chart per entity", async ({}, testInfo) => {
  test.setTimeout(300_000);
  await signIn(page, EMAIL);
  const login = await approveCliLogin(page, process.execPath, [BIN], {
    cwd: ROOT,
    env: cliEnv({ configDir: CONFIG_DIR }),
  });
  expect(login.code, login.stderr).toBe(0);

  const project = await cli(["projects", "create", "Sentiment", "--domain", "acme.example", "--brands", "Acme CRM", "--competitors", "HubSpot", "--json"]);
  expect(project.code, project.stderr).toBe(0);
  const projectId = JSON.parse(project.stdout).id as string;
  const file = promptsFile([
    `best crm for agencies ${TAG} ${answerDirective("Acme CRM is the best choice for small agencies. HubSpot is expensive for small teams.")}`,
    `crm with a free plan ${TAG} ${answerDirective("Teams love HubSpot for its free plan. Acme CRM is limited in reports.")}`,
    `simple crm ${TAG} ${answerDirective("Acme CRM is great and simple to use.")}`,
  ]);

  const estimate = await cli(["monitor", "estimate", "--file", file, "--project", projectId, "--runs", "2", "--engines", "gemini,chatgpt", "--judge", "claude"]);
  expect(estimate.code, estimate.stderr).toBe(0);
  expect(estimate.stdout).toContain("of which the judge (claude): $0.072 per tick at most (12 runs × $0.006; paid per run judged)");

  const created = await cli(["monitor", "create", "--file", file, "--project", projectId, "--every", "week", "--runs", "2", "--engines", "gemini,chatgpt", "--judge", "claude", "--name", "Judged", "--json"]);
  expect(created.code, created.stderr).toBe(0);
  const monitor = JSON.parse(created.stdout);
  expect(monitor.judge).toEqual({ engine: "claude", sentiment: true });
  const id = monitor.id as string;

  const empty = await cli(["monitor", "series", id, "--metric", "sentiment"]);
  expect(empty.code, empty.stderr).toBe(0);
  expect(empty.stdout).toContain("(no judged tick: sentiment points exist only for ticks the monitor judged;");

  const first = await tickNow(cli, id);
  const second = await tickNow(cli, id);

  const human = await cli(["monitor", "series", id, "--metric", "sentiment"]);
  expect(human.code, human.stderr).toBe(0);
  expect(human.stdout).toContain("Acme CRM · sentiment · all engines · version 1");
  const lines = human.stdout.split("\n");
  expect(lines.find((l: string) => l.startsWith(first))).toBeDefined();
  expect(lines.find((l: string) => l.startsWith(second))).toBeDefined();
  expect(human.stdout).toContain("+/=/-");

  const json = await cli(["monitor", "series", id, "--metric", "sentiment", "--entity", "hubspot", "--json"]);
  expect(json.code, json.stderr).toBe(0);
  const bearer = JSON.parse(readFileSync(path.join(CONFIG_DIR, "config.json"), "utf8")).token as string;
  const api = await fetch(`${BASE}/monitors/${id}/series?metric=sentiment&entity=hubspot`, { headers: { authorization: `Bearer ${bearer}` } });
  expect(api.status).toBe(200);
  expect(json.stdout.trim()).toBe((await api.text()).trim());
  const body = JSON.parse(json.stdout);
  expect(body.points.map((p: { tick_id: string }) => p.tick_id)).toEqual([first, second]);
  for (const p of body.points) {
    expect(p.n).toBeGreaterThan(0);
    expect(p.interval).toHaveLength(2);
  }

  await page.goto(`/monitors/${id}`);
  await expect(page.locator("dl").first()).toContainText("Sentiment judge");
  const charts = page.getByTestId("sentiment-charts");
  await expect(charts).toBeVisible();
  await expect(charts.getByTestId("sentiment-entity")).toHaveCount(2);
  const acme = charts.locator('[data-testid=sentiment-entity][data-entity="Acme CRM"]');
  await expect(acme.getByTestId("trend-point")).toHaveCount(2);
  await expect(acme.getByTestId("sentiment-sentence")).toContainText(/^Answers speak well of Acme CRM in \d+ of \d+ judged mentions? that take a side \((about )?\d+%, 95% interval \d+–\d+%\)/);
  await expect(acme.getByTestId("sentiment-sentence")).toContainText("No change from the judged tick before beyond chance.");
  await charts.scrollIntoViewIfNeeded();
  await screenshots(page, testInfo, "monitor-sentiment");
});

test("a monitor without a judge has no sentiment chart", async () => {
  test.setTimeout(180_000);
  const projects = JSON.parse((await cli(["projects", "list", "--json"])).stdout).items as { id: string; name: string }[];
  const projectId = projects.find((p) => p.name === "Sentiment")!.id;
  const file = promptsFile([`plain crm ${TAG} ${answerDirective("Acme CRM is fine.")}`]);
  const created = await cli(["monitor", "create", "--file", file, "--project", projectId, "--every", "week", "--runs", "1", "--engines", "gemini", "--name", "Unjudged", "--json"]);
  expect(created.code, created.stderr).toBe(0);
  const id = JSON.parse(created.stdout).id as string;
  await tickNow(cli, id);
  await page.goto(`/monitors/${id}`);
  await expect(page.getByTestId("monitor-charts")).toBeVisible();
  await expect(page.getByTestId("sentiment-charts")).toHaveCount(0);
});
