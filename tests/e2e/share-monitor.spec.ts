// A monitor shared end to end against the built server (decisions.md "Sharing, wave 3",
// "Monitors"): made with an API key, with a budget, a webhook URL and email alerts. Shared,
// rotated and revoked through the API, through the real `geoscope` binary (mo_…) and through the
// share control on the signed-in monitor page (asking before a new link or stopping). Signed out,
// its page is a live read-only dashboard: the empty state before the first tick, then, after two
// ticks, the signed-in page's trend charts (every metric, visibility per engine) with the series'
// figures and n; no email, project id, charge, budget or webhook URL in the page or its `.json`,
// the share headers and robots meta on both. Screenshots at 1280 and 390 px of the public page
// before and after the ticks and of the signed-in page.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from "@playwright/test";
import { apiAs, approveCliLogin, BIN, cliAs, cliEnv, E2E_PORT, ORIGIN, ROOT } from "./support";
import { screenshots } from "./screens";
import { expectNothingOfTheWorkspace, openShare, pathOf, signedInKey, signedOut } from "./share-checks";
import { percent, percentRange } from "../../lib/words/format";

test.describe.configure({ mode: "serial" });

const EMAIL = `share-monitor-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const CONFIG_DIR = mkdtempSync(path.join(tmpdir(), "geoscope-share-monitor-"));
const ENV = cliEnv({ configDir: CONFIG_DIR });
/** Let through by the server's WEBHOOK_ALLOW_HOSTS; its path is what must never show. */
const HOOK_PATH = "acme-private-hook-7d3f";
const NAME = "CRM visibility, weekly";
const ENTITIES = [
  { name: "HubSpot", role: "brand" },
  { name: "Pipedrive", role: "competitor" },
  { name: "Salesforce", role: "competitor" },
];

type Share = { id: string; url: string; rotated_from: string | null; target_kind: string; target_id: string };
type Tick = { id: string; status: string; analysis_id: string | null };
type Series = { points: { tick_id: string; n: number; value: number | null; interval: [number, number] | null }[] };

let auth: Record<string, string> = {};
let project = "";
let monitorId = "";
let link: Share;
let signedIn: BrowserContext;
let page: Page;
const api = apiAs(() => auth);

const cli = cliAs({ configDir: CONFIG_DIR });
async function ok(args: string[]): Promise<string> {
  const result = await cli(args);
  expect(result.code, `geoscope ${args.join(" ")}: ${result.stderr}`).toBe(0);
  return result.stdout;
}
async function statusOf(request: APIRequestContext, url: string): Promise<number> {
  return (await request.get(pathOf(url), { maxRedirects: 0 })).status();
}
const SHARE_URL = new RegExp(`^${ORIGIN.replace(/\./g, "\\.")}/s/[0-9A-Za-z]{43}\\n$`);

test.afterAll(async () => {
  await signedIn?.close();
});

test("a monitor with a budget, a webhook and email alerts, made with an API key; its page before the first tick", async ({ browser, request }, testInfo) => {
  test.setTimeout(120_000);
  signedIn = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await signedIn.newPage();
  auth = await signedInKey(page, EMAIL, "monitor share");
  project = (await api<{ id: string }>(request, "POST", "/projects", { name: "Monitored brand" }, 201)).id;
  const monitor = await api<{ id: string }>(
    request,
    "POST",
    "/monitors",
    {
      project,
      name: NAME,
      prompts: [{ text: "best crm for a small agency" }, { text: "pipedrive vs hubspot for startups" }],
      engines: ["chatgpt", "claude"],
      runs: 3,
      schedule: { every: "week", at: "07:30", weekday: 1 },
      entities: ENTITIES,
      monthly_budget_usd: "20.00",
      alerts: { webhook_url: `http://127.0.0.1:${E2E_PORT + 1}/${HOOK_PATH}`, email: true, min_change: 10 },
    },
    201,
  );
  monitorId = monitor.id;
  await page.goto(`/monitors/${monitorId}`);
  await expect(page.getByTestId("no-trends")).toContainText("No figures yet.");
  await expect(page.getByTestId("share-control")).toBeVisible();
  await screenshots(page, testInfo, "monitor-signed-in-before-ticks");
});

test("shared, rotated and revoked through the API at any time, before its first tick too", async ({ request }) => {
  const base = `/monitors/${monitorId}/share`;
  expect(await api(request, "GET", base)).toEqual({ shared: false, share: null });
  const first = await api<Share>(request, "POST", base);
  expect(first).toMatchObject({ target_kind: "monitor", target_id: monitorId, rotated_from: null });
  expect(await api<Share>(request, "POST", base)).toEqual(first);
  expect(await statusOf(request, first.url)).toBe(200);
  const rotated = await api<Share>(request, "POST", `${base}/rotate`);
  expect(rotated.rotated_from).toBe(first.id);
  expect(await statusOf(request, first.url)).toBe(404);
  expect(await statusOf(request, rotated.url)).toBe(200);
  await api(request, "DELETE", base, undefined, 204);
  expect(await statusOf(request, rotated.url)).toBe(404);
  expect(await statusOf(request, `${rotated.url}.json`)).toBe(404);
  await api(request, "POST", `${base}/rotate`, undefined, 409);
  link = await api<Share>(request, "POST", base);
  expect(link.url).not.toBe(rotated.url);
});

test("the public dashboard before the first tick says when the figures will come; nothing of the workspace", async ({ browser }, testInfo) => {
  const { context, page: reader } = await openShare(browser, link, `Monitor: ${NAME}`);
  await expect(reader.getByRole("heading", { level: 1 })).toHaveText(NAME);
  await expect(reader.getByTestId("no-trends")).toContainText("The charts start with the first completed tick");
  await expect(reader.getByTestId("monitor-entities")).toContainText("HubSpot");
  await screenshots(reader, testInfo, "monitor-shared-before-ticks");
  await context.close();
});

test("geoscope share mo_… shares, says its status, rotates and revokes through the monitor endpoints", async ({ request }) => {
  test.setTimeout(120_000);
  const login = await approveCliLogin(page, process.execPath, [BIN], { cwd: ROOT, env: ENV });
  expect(login.code, login.stderr).toBe(0);
  // Shared already (the link above): the same link, printed alone.
  const shared = await cli(["share", monitorId]);
  expect(shared.code, shared.stderr).toBe(0);
  expect(shared.stdout).toBe(`${link.url}\n`);
  expect(shared.stderr).toMatch(new RegExp(`^shared monitor ${monitorId} \\(sh_\\w+\\); anyone with this link can read it\\. Revoke it with: geoscope share ${monitorId} --revoke\\n$`));
  expect(await ok(["share", monitorId, "--status"])).toMatch(new RegExp(`^shared: ${link.url} \\(since `));
  const rotated = await cli(["share", monitorId, "--rotate"]);
  expect(rotated.code, rotated.stderr).toBe(0);
  expect(rotated.stdout).toMatch(SHARE_URL);
  expect(await statusOf(request, link.url)).toBe(404);
  expect(await statusOf(request, rotated.stdout.trim())).toBe(200);
  expect(await ok(["share", monitorId, "--revoke"])).toBe(`revoked: the link to ${monitorId} no longer works\n`);
  expect(await statusOf(request, rotated.stdout.trim())).toBe(404);
  expect(await ok(["share", monitorId, "--status"])).toMatch(/^not shared \(last link revoked /);
  const json = JSON.parse(await ok(["share", monitorId, "--json"])) as Share;
  expect(json).toMatchObject({ target_kind: "monitor", target_id: monitorId });
  link = json;
});

test("two ticks later the public dashboard has the signed-in page's charts with the series' figures and n", async ({ browser, request }, testInfo) => {
  test.setTimeout(240_000);
  for (let i = 0; i < 2; i++) {
    const tick = await api<Tick>(request, "POST", `/monitors/${monitorId}/run`, undefined, 202);
    // The scheduler closes a tick (and makes its analysis) at its next look, every 2 s here.
    await expect
      .poll(async () => (await api<{ items: Tick[] }>(request, "GET", `/monitors/${monitorId}/ticks`)).items.find((t) => t.id === tick.id), { timeout: 120_000, intervals: [1000] })
      .toMatchObject({ status: "completed", analysis_id: expect.stringMatching(/^va_/) });
  }
  const series = await api<Series>(request, "GET", `/monitors/${monitorId}/series?metric=visibility&entity=HubSpot`);
  expect(series.points).toHaveLength(2);
  const latest = series.points[1]!;

  // The signed-in page: 5 metrics and 2 engines charted.
  await page.goto(`/monitors/${monitorId}`);
  await expect(page.getByTestId("trend-chart")).toHaveCount(7);
  const signedInPoints = await page.getByTestId("trend-point").count();
  expect(signedInPoints).toBeGreaterThan(0);

  const { context, page: reader } = await openShare(browser, link, `Monitor: ${NAME}`);
  await expect(reader.getByTestId("trend-chart")).toHaveCount(7);
  await expect(reader.getByTestId("engine-multiple")).toHaveCount(2);
  await expect(reader.getByTestId("trend-point")).toHaveCount(signedInPoints);
  // The visibility chart's figures: HubSpot's latest tick as the series says, with its n and interval.
  const visibility = reader.locator('[data-testid="trend-chart"][data-metric="visibility"]').first();
  await expect(visibility.locator("svg title").first()).toContainText("Visibility, all engines, 2 ticks");
  await visibility.getByTestId("figures-table").locator("summary").click();
  const newest = visibility.getByTestId("figures-table").locator("tbody tr").first();
  await expect(newest.locator("td").nth(1)).toContainText(`${percent(latest.value!)} n=${latest.n}`);
  await expect(newest.locator("td").nth(1)).toContainText(`95% ${percentRange(latest.interval!)}`);
  // Nothing of the signed-in page: no controls, ticks' fanouts or analyses, spend.
  for (const id of ["share-control", "ticks-table", "alerts-table", "no-alerts"]) await expect(reader.getByTestId(id)).toHaveCount(0);
  await expect(reader.locator('a[href^="/fanouts/"], a[href^="/analyses/"], a[href^="/monitors/"]')).toHaveCount(0);
  await screenshots(reader, testInfo, "monitor-shared-charts");
  await context.close();
});

test("the share control on the monitor page makes a new link and stops sharing, asking first", async ({ request }, testInfo) => {
  test.setTimeout(90_000);
  await page.goto(`/monitors/${monitorId}`);
  const control = page.getByTestId("share-control");
  await expect(control.getByTestId("share-url")).toHaveValue(link.url);
  await control.getByRole("button", { name: "New link" }).click();
  await expect(control.getByTestId("share-confirm")).toContainText(/current link stops working/i);
  await control.getByTestId("share-confirm").getByRole("button", { name: "Make a new link" }).click();
  await expect(control.getByTestId("share-url")).not.toHaveValue(link.url);
  const second = await control.getByTestId("share-url").inputValue();
  expect(await statusOf(request, link.url)).toBe(404);
  expect(await statusOf(request, second)).toBe(200);
  await control.getByRole("button", { name: "Stop sharing" }).click();
  await control.getByTestId("share-confirm").getByRole("button", { name: "Stop sharing" }).click();
  await expect(control.getByRole("button", { name: "Create share link" })).toBeVisible();
  expect(await statusOf(request, second)).toBe(404);
  await control.getByRole("button", { name: "Create share link" }).click();
  const third = await control.getByTestId("share-url").inputValue();
  expect(third).toMatch(/\/s\/[0-9A-Za-z]{43}$/);
  expect(await statusOf(request, third)).toBe(200);
  link = { ...link, url: third };
  await screenshots(page, testInfo, "monitor-signed-in-charts");
});

test("no email, project id, charge, budget or webhook URL in the public page or its .json; share headers and robots meta", async ({ browser }) => {
  const context = await signedOut(browser);
  const reader = await context.newPage();
  await expectNothingOfTheWorkspace(reader, pathOf(link), [EMAIL, project, HOOK_PATH]);
  const text = await reader.locator("body").innerText();
  expect(text).not.toMatch(/Spent|budget|\$\d/i);
  const json = (await (await reader.request.get(`${pathOf(link)}.json`)).json()) as Record<string, unknown>;
  expect(json).toMatchObject({ id: monitorId, name: NAME, project: null, created_by: null, monthly_budget_usd: null, spend_month_to_date_usd: null, alerts: null });
  expect(JSON.stringify(json)).not.toContain("webhook");
  await context.close();
});
