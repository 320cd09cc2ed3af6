// What every public share response must be (decisions.md "Sharing"): the headers that keep it out
// of search engines, caches and referrers, the robots meta and the link preview on a page, and
// nothing that identifies or bills the workspace in a page or a `.json`; and how the specs open a
// share as anyone the link was sent to.
import { expect, type APIRequestContext, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { workspaceLeaks } from "../helpers/share-leaks";
import { signIn } from "./support";

export function expectShareHeaders(response: { headers(): Record<string, string> } | null) {
  const headers = response!.headers();
  expect(headers["x-robots-tag"]).toBe("noindex, nofollow");
  expect(headers["referrer-policy"]).toBe("no-referrer");
  expect(headers["cache-control"]).toBe("no-store");
}

/** Signs `email` in on `page` and makes an API key named `name` on the account page: its Authorization header. */
export async function signedInKey(page: Page, email: string, name: string): Promise<Record<string, string>> {
  await signIn(page, email);
  const keys = page.locator("#api-keys");
  await keys.getByLabel("Name").fill(name);
  await keys.getByRole("button", { name: "Create key" }).click();
  return { Authorization: `Bearer ${(await page.getByTestId("secret-once").textContent())!.trim()}` };
}

export const pathOf = (share: { url: string } | string) => new URL(typeof share === "string" ? share : share.url).pathname;

/** A browser context with no session: what anyone the link was sent to has. */
export async function signedOut(browser: Browser, options: { javaScriptEnabled?: boolean } = {}): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
}

/** The page's robots and referrer meta, and its link preview titled `title` with a description of at most 200 characters. */
export async function expectPreview(page: Page, title: string) {
  await expect(page.locator('head meta[name="robots"][content="noindex, nofollow"]')).toHaveCount(1);
  await expect(page.locator('head meta[name="referrer"]')).toHaveAttribute("content", "no-referrer");
  await expect(page.locator('head meta[property="og:title"]')).toHaveAttribute("content", title);
  await expect(page.locator('head meta[name="twitter:card"]')).toHaveAttribute("content", "summary");
  const description = (await page.locator('head meta[property="og:description"]').getAttribute("content")) ?? "";
  expect(description.length).toBeGreaterThan(0);
  expect(Array.from(description).length).toBeLessThanOrEqual(200);
  await expect(page).toHaveTitle(title);
}

/** A share's page opened signed out: 200, the share headers, and the preview titled `title`. */
export async function openShare(browser: Browser, share: { url: string }, title: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await signedOut(browser);
  const page = await context.newPage();
  const response = await page.goto(pathOf(share));
  expect(response?.status()).toBe(200);
  expectShareHeaders(response);
  await expectPreview(page, title);
  return { context, page };
}

/**
 * A share's page and its `.json`, fetched signed out: 200 with the share headers, the robots meta
 * on the page; neither holds any of `secrets` (emails, the project's id) nor a charge, and the
 * JSON's person, project and money fields are null with no input naming its project.
 */
export async function expectNothingOfTheWorkspace(page: Page, path: string, secrets: readonly string[]) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(200);
  expectShareHeaders(response);
  await expect(page.locator('head meta[name="robots"][content="noindex, nofollow"]')).toHaveCount(1);
  const html = await page.content();
  for (const secret of secrets) expect(html, `${path}: ${secret}`).not.toContain(secret);
  // No money: the signed-in pages say a run's "Charge", a card's "· $0.03", a fanout's "Charged $…"
  // (an answer's own text may name prices, so a bare $ is no sign).
  expect(await page.locator("body").innerText(), path).not.toMatch(/\bCharged?\b|· \$\d|Billing is off|held for/);

  const json = await page.request.get(`${path}.json`);
  expect(json.status(), `${path}.json`).toBe(200);
  expectShareHeaders(json);
  expect(workspaceLeaks(await json.json(), secrets), `${path}.json`).toEqual([]);
}
