// What every public share response must be (decisions.md "Sharing"): the headers that keep it out
// of search engines, caches and referrers, the robots meta tag on a page, and nothing that
// identifies or bills the workspace in a page or a `.json`.
import { expect, type APIResponse, type Page } from "@playwright/test";

export function expectShareHeaders(response: { headers(): Record<string, string> } | null) {
  const headers = response!.headers();
  expect(headers["x-robots-tag"]).toBe("noindex, nofollow");
  expect(headers["referrer-policy"]).toBe("no-referrer");
  expect(headers["cache-control"]).toBe("no-store");
}

/** Calls `visit` with every key of every object in `value`, its value and the key it sits under. */
function walk(value: unknown, visit: (key: string, value: unknown, parent: string) => void, parent = ""): void {
  if (Array.isArray(value)) value.forEach((v) => walk(v, visit, parent));
  else if (value && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) {
      visit(key, v, parent);
      walk(v, visit, key);
    }
  }
}

/**
 * A share's page and its `.json`, fetched signed out: 200 with the share headers, the robots meta
 * on the page; neither holds an email, the project's id or a charge (`secrets`: the emails and
 * ids that must not show). The JSON's person, project and money fields are all null, and no input
 * names its project.
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

  const json: APIResponse = await page.request.get(`${path}.json`);
  expect(json.status(), `${path}.json`).toBe(200);
  expectShareHeaders(json);
  const text = await json.text();
  for (const secret of secrets) expect(text, `${path}.json: ${secret}`).not.toContain(secret);
  expect(text, `${path}.json`).not.toMatch(/"amount_usd"|"unit_price_usd"|"pricing_version"/);
  walk(JSON.parse(text), (key, value, parent) => {
    if (["charge", "held_usd", "charged_usd", "cost_usd", "project_id", "created_by"].includes(key)) expect(value, `${path}.json: ${parent}.${key}`).toBeNull();
    if (key === "input") expect(Object.keys(value as object), `${path}.json: ${parent}.input`).not.toContain("project");
  });
}
