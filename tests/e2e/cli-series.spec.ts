// `geoscope monitor series` with the real binary against the built server (issue #36): a monitor
// whose two ticks differ for real (its Acme prompts are refused by the engine simulator at the
// first tick and answer at the second), each tick closed with its analysis when its last run
// finished, the second followed to its close by `monitor run --wait`'s human output; then the
// series as a table (the change marked significant), as --json (the API's body exactly) and as
// --format csv, and a bad entity refused naming it. Then the monitor changed
// (version 2, one tick) and its page, which charts either version's series.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { answerDirective } from "../../lib/engines/simulator/directive";
import { approveCliLogin, BASE, BIN, cliAs, cliEnv, ROOT, signIn, tickNow } from "./support";
import { screenshots } from "./screens";

test.describe.configure({ mode: "serial" });

const EMAIL = `series-${Date.now()}@example.com`;
const CONFIG_DIR = mkdtempSync(path.join(tmpdir(), "geoscope-series-cli-"));
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

test("the CLI: monitor series as a table, --json (the API's body) and --format csv, over two ticks with a real change", async () => {
  test.setTimeout(240_000);
  await signIn(page, EMAIL);
  const login = await approveCliLogin(page, process.execPath, [BIN], {
    cwd: ROOT,
    env: cliEnv({ configDir: CONFIG_DIR }),
  });
  expect(login.code, login.stderr).toBe(0);

  const project = await cli(["projects", "create", "Series", "--domain", "acme.example", "--brands", "Acme CRM", "--competitors", "HubSpot,Pipedrive", "--json"]);
  expect(project.code, project.stderr).toBe(0);
  const projectId = JSON.parse(project.stdout).id as string;

  const acme = answerDirective("Acme CRM is the best pick for agencies.");
  const file = path.join(mkdtempSync(path.join(tmpdir(), "geoscope-series-file-")), "prompts.txt");
  writeFileSync(
    file,
    [
      `which crm should an agency pick ${TAG} ${acme} [[sim:bad_request*10]]`,
      `which crm suits a small agency ${TAG} ${acme} [[sim:bad_request*10]]`,
      `most popular crm ${TAG} ${answerDirective("HubSpot is the most popular CRM.")}`,
    ].join("\n"),
  );
  const created = await cli(["monitor", "create", "--file", file, "--project", projectId, "--every", "week", "--runs", "10", "--engines", "gemini", "--name", "Series", "--json"]);
  expect(created.code, created.stderr).toBe(0);
  const id = JSON.parse(created.stdout).id as string;

  const empty = await cli(["monitor", "series", id]);
  expect(empty.code, empty.stderr).toBe(0);
  expect(empty.stdout).toContain("(no completed tick yet)");

  const first = await tickNow(cli, id);
  // The second tick as a person runs it: followed to its close (its fanout's progress on stderr), then what it found.
  const waited = await cli(["monitor", "run", id, "--wait"]);
  expect(waited.code, waited.stderr).toBe(0);
  expect(waited.stderr).toMatch(/^fanout fo_\w+: (queued|running), \d+\/30 runs finished/m);
  expect(waited.stderr).toMatch(/^fanout fo_\w+: completed, 30\/30 runs finished, \d+ quer(y|ies) so far$/m);
  const said = waited.stdout.trim().split("\n");
  expect(said[0]).toMatch(/^Acme CRM is named in 20 of 30 answers \(about 67%, 95% interval \d+–\d+%\)/);
  expect(said.at(-1)).toMatch(/^tick mt_\w+ \(manual, version 1\): completed; fanout fo_\w+$/);
  const second = /^tick (mt_\w+)/.exec(said.at(-1)!)![1]!;

  const human = await cli(["monitor", "series", id]);
  expect(human.code, human.stderr).toBe(0);
  expect(human.stdout).toContain("Acme CRM · visibility · all engines · version 1");
  const lines = human.stdout.split("\n");
  expect(lines.find((l) => l.startsWith(first))).toMatch(/\s10\s+10\s+0%\s+0–\d+%\s+-/);
  expect(lines.find((l) => l.startsWith(second))).toMatch(/\s30\s+30\s+67%\s+.*\+67 points \*/);
  expect(human.stdout).toContain("* significant");

  const json = await cli(["monitor", "series", id, "--entity", "hubspot", "--engine", "gemini", "--json"]);
  expect(json.code, json.stderr).toBe(0);
  const bearer = JSON.parse(readFileSync(path.join(CONFIG_DIR, "config.json"), "utf8")).token as string;
  const api = await fetch(`${BASE}/monitors/${id}/series?entity=hubspot&engine=gemini`, { headers: { authorization: `Bearer ${bearer}` } });
  expect(api.status).toBe(200);
  expect(json.stdout.trim()).toBe((await api.text()).trim());
  const body = JSON.parse(json.stdout);
  expect(body).toMatchObject({ metric: "visibility", entity: "HubSpot", engine: "gemini", version: 1 });
  expect(body.points.map((p: { value: number }) => p.value)).toEqual([1, 0.3333]);
  expect(body.points[1].change.significant).toBe(true);

  const csv = await cli(["monitor", "series", id, "--metric", "share_of_voice", "--format", "csv"]);
  expect(csv.code, csv.stderr).toBe(0);
  const rows = csv.stdout.trim().split(/\r?\n/);
  expect(rows[0]).toBe("tick_id,at,runs,n,value,interval_low,interval_high,change_diff,change_low,change_high,significant");
  expect(rows.slice(1).map((r) => r.split(",").slice(0, 5))).toEqual([
    [first, expect.any(String), "10", "10", "0%"],
    [second, expect.any(String), "30", "30", "67%"],
  ]);

  const bad = await cli(["monitor", "series", id, "--entity", "Salesforce"]);
  expect(bad.code).toBe(8);
  expect(bad.stderr).toContain('entity: "Salesforce" is not tracked');
});

test("the monitor page charts an earlier version's series too: changed, the monitor starts version 2, and version 1's ticks stay one link away", async ({}, testInfo) => {
  test.setTimeout(180_000);
  const bearer = JSON.parse(readFileSync(path.join(CONFIG_DIR, "config.json"), "utf8")).token as string;
  const list = JSON.parse((await cli(["monitor", "list", "--json"])).stdout).items as { id: string; name: string }[];
  const id = list.find((m) => m.name === "Series")!.id;
  // A change to what is measured (runs per prompt) starts a new series.
  const patched = await fetch(`${BASE}/monitors/${id}`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
    body: JSON.stringify({ runs: 5 }),
  });
  expect(patched.status).toBe(200);
  expect((await patched.json()).version).toBe(2);
  await tickNow(cli, id);

  await page.goto(`/monitors/${id}`);
  const trends = page.locator("#trends");
  await expect(trends).toContainText("Version 2's series:");
  const versions = page.getByTestId("series-versions");
  await expect(versions.locator("[aria-current=page]")).toHaveText("2 (current)");
  await screenshots(page, testInfo, "monitor-version-current");

  await versions.getByRole("link", { name: "1", exact: true }).click();
  await page.waitForURL(new RegExp(`/monitors/${id}\\?version=1#trends$`));
  await expect(trends).toContainText("Version 1's series, an earlier version");
  await expect(versions.locator("[aria-current=page]")).toHaveText("1");
  await screenshots(page, testInfo, "monitor-version-earlier");

  // A version without figures, or not a version at all, draws the current one.
  for (const asked of ["7", "x"]) {
    await page.goto(`/monitors/${id}?version=${asked}`);
    await expect(trends).toContainText("Version 2's series:");
  }
  await versions.getByRole("link", { name: "1", exact: true }).click();
  await versions.getByRole("link", { name: "2 (current)" }).click();
  await page.waitForURL(new RegExp(`/monitors/${id}#trends$`));
  await expect(trends).toContainText("Version 2's series:");

  // Shared, its public dashboard offers the earlier version as well, signed out.
  const shared = await fetch(`${BASE}/monitors/${id}/share`, { method: "POST", headers: { authorization: `Bearer ${bearer}` } });
  expect(shared.status).toBe(200);
  const publicPath = new URL((await shared.json()).url).pathname;
  const anonymous = await page.context().browser()!.newContext({ viewport: { width: 1280, height: 900 } });
  const reader = await anonymous.newPage();
  await reader.goto(publicPath);
  await expect(reader.locator("#trends")).toContainText("Version 2's series:");
  await reader.getByTestId("series-versions").getByRole("link", { name: "1", exact: true }).click();
  await reader.waitForURL(new RegExp(`${publicPath}\\?version=1#trends$`));
  await expect(reader.locator("#trends")).toContainText("Version 1's series, an earlier version");
  await screenshots(reader, testInfo, "monitor-version-shared");
  await anonymous.close();
});
