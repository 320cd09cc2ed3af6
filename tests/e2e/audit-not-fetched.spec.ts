// An audit whose page gives no HTTP answer (issue #32), as a person meets it in Chromium: started
// from the project page's audit form on a private address, the run's page says the page could not
// be fetched and why, that nothing was charged and that asking again will not help; no findings,
// no "completed". The project's list of audits says why, and "nothing charged" rather than "$0.00".
// Its shared page says the same, without the charge. Screenshots at 1280 and 390 px.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { apiAs, signIn } from "./support";
import { screenshots } from "./screens";

test.describe.configure({ mode: "serial" });

const EMAIL = `not-fetched-${Date.now()}@example.com`;
// Refused before anything is sent: no address that is not public is ever asked.
const PRIVATE = "http://192.168.0.1/admin/status";

let auth: Record<string, string> = {};

const api = apiAs(() => auth);

test("an audit of a page that gives no HTTP answer: the run's page says it could not be fetched, why, and that nothing was charged", async ({ page, request, browser }, testInfo) => {
  test.setTimeout(120_000);
  await signIn(page, EMAIL);
  const keys = page.locator("#api-keys");
  await keys.getByLabel("Name").fill("not fetched");
  await keys.getByRole("button", { name: "Create key" }).click();
  auth = { Authorization: `Bearer ${(await page.getByTestId("secret-once").textContent())!.trim()}` };
  const project = (await api<{ id: string }>(request, "POST", "/projects", { name: "Unreachable pages" }, 201)).id;
  const before = await api<{ balance_usd: string; held_usd: string }>(request, "GET", "/billing");

  await page.goto(`/projects/${project}`);
  await page.getByTestId("start-audit-panel").locator("summary").click();
  await page.getByTestId("audit-form").getByLabel("Page URL").fill(PRIVATE);
  await page.getByTestId("start-audit").click();
  await page.waitForURL(/\/runs\/dr_[0-9A-Z]{26}$/);
  const runId = new URL(page.url()).pathname.split("/").pop()!;

  // The page follows the run until it has finished, then says what happened in words.
  const notice = page.getByTestId("not-fetched");
  await expect(notice).toBeVisible({ timeout: 45_000 });
  await expect(notice).toContainText("The page could not be fetched, so there is nothing to report on.");
  await expect(notice).toContainText("192.168.0.1 is a private or reserved address. Audits fetch only public addresses");
  await expect(notice).toContainText("Nothing was charged.");
  await expect(notice).toContainText("Auditing it again will not help until this changes.");
  await expect(notice).toContainText("(page_blocked)");
  await expect(page.getByRole("heading", { level: 1 })).toContainText(PRIVATE);
  await expect(page.getByText("no HTTP answer")).toBeVisible();
  await expect(page.getByText("failed", { exact: true })).toBeVisible();
  await expect(page.getByTestId("counts")).toHaveCount(0);
  await expect(page.getByTestId("finding")).toHaveCount(0);
  await expect(page.getByTestId("live-status")).toHaveCount(0);
  await screenshots(page, testInfo, "audit-not-fetched");

  // The API agrees: failed, the hold released, the balance as it was.
  const run = await api<{ status: string; error: { code: string }; charge: { status: string } }>(request, "GET", `/runs/${runId}`);
  expect([run.status, run.error.code, run.charge.status]).toEqual(["failed", "page_blocked", "released"]);
  const after = await api<{ balance_usd: string; held_usd: string }>(request, "GET", "/billing");
  expect(after).toMatchObject({ balance_usd: before.balance_usd, held_usd: before.held_usd });

  // The project's list of audits says why it failed and that nothing was charged, not "$0.00".
  await page.goto(`/projects/${project}?show=audits`);
  const item = page.getByTestId("audit-item").filter({ hasText: PRIVATE });
  await expect(item).toContainText("failed");
  await expect(item.getByTestId("audit-error")).toContainText("192.168.0.1 is a private or reserved address");
  await expect(item).toContainText("nothing charged");
  await expect(item).not.toContainText("$0.00");
  await screenshots(page, testInfo, "audit-not-fetched-project");

  // Shared (a failed run can be): the same notice, and nothing about money.
  const share = await api<{ url: string }>(request, "POST", `/runs/${runId}/share`);
  const anonymous = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const reader = await anonymous.newPage();
  expect((await reader.goto(new URL(share.url).pathname))?.status()).toBe(200);
  await expect(reader.getByTestId("not-fetched")).toContainText("192.168.0.1 is a private or reserved address.");
  await expect(reader.getByTestId("not-fetched")).not.toContainText("charged");
  await screenshots(reader, testInfo, "audit-not-fetched-shared");
  await anonymous.close();
});
