import { expect, test } from "@playwright/test";

test("GET /api/v1/version answers min_cli_version without a credential", async ({ request }) => {
  const response = await request.get("/api/v1/version");
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({ min_cli_version: expect.stringMatching(/^\d+\.\d+\.\d+$/) });
});

test("GET /api/v1/pricing answers the rate card with decimal-string prices", async ({ request }) => {
  const response = await request.get("/api/v1/pricing");
  expect(response.status()).toBe(200);
  const card = await response.json();
  expect(card.version).toBe("2026-11-29");
  expect(card.prices).toContainEqual({ product: "prompt", engine: "claude", unit: "prompt", unit_price_usd: "0.03" });
});

test("an unknown path under /api/v1 is a 404 in the error envelope, not an HTML page", async ({ request }) => {
  const response = await request.get("/api/v1/no/such/thing");
  expect(response.status()).toBe(404);
  expect(response.headers()["content-type"]).toContain("application/json");
  expect(await response.json()).toEqual({
    error: { code: "not_found", message: expect.stringContaining("/api/v1/no/such/thing"), engine: null, retryable: false },
  });
});

test("a known path with the wrong method is a 405 in the envelope naming the allowed methods", async ({ request }) => {
  const response = await request.delete("/api/v1/version");
  expect(response.status()).toBe(405);
  expect(response.headers()["allow"]).toBe("GET");
  expect((await response.json()).error.code).toBe("method_not_allowed");
});

test("OPTIONS names only the methods a path serves, and /api/v1 itself is a 404 in the envelope", async ({ request }) => {
  const options = await request.fetch("/api/v1/runs", { method: "OPTIONS" });
  expect(options.status()).toBe(204);
  expect(options.headers()["allow"]).toBe("GET, HEAD, OPTIONS");
  const root = await request.get("/api/v1");
  expect(root.status()).toBe(404);
  expect((await root.json()).error.code).toBe("not_found");
});

test("an outdated CLI is refused with 426 by the running server", async ({ request }) => {
  const response = await request.get("/api/v1/pricing", { headers: { "User-Agent": "geoscope-cli/0.0.1" } });
  expect(response.status()).toBe(426);
  expect((await response.json()).error.code).toBe("cli_outdated");
});

test("the API explorer at /api/v1/docs shows every operation, with assets served by the app", async ({ page }) => {
  const offsite: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.hostname !== "127.0.0.1") offsite.push(r.url());
  });
  await page.goto("/api/v1/docs");
  await expect(page.getByText("geoscope research API")).toBeVisible();
  await expect(page.locator(".opblock-summary-path", { hasText: "/version" })).toBeVisible();
  await expect(page.locator(".opblock-summary-path", { hasText: "/pricing" })).toBeVisible();
  // Try it out against the running server, from the browser.
  const pricing = page.locator("#operations-Billing-getPricing");
  await pricing.getByRole("button", { name: /GET \/pricing/ }).click();
  await pricing.getByRole("button", { name: "Execute" }).click();
  await expect(pricing.locator(".live-responses-table tbody .response-col_status")).toHaveText("200");
  await expect(pricing.locator(".live-responses-table")).toContainText("unit_price_usd");
  expect(offsite).toEqual([]);
});
