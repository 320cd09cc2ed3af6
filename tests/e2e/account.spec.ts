// A person signs in through the emailed link, creates an API key on /account and uses it, then
// approves a CLI device login started through the API — all in Debian's Chromium.
import { expect, test, type Page } from "@playwright/test";
import { latestLinkTo, signIn } from "./support";

const EMAIL = `e2e-${Date.now()}@example.com`;

test("sign in by email link, create an API key, approve a device login", async ({ page, request }) => {
  await page.goto("/account");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Faccount/);
  await page.getByPlaceholder("you@example.com").fill(EMAIL);
  await page.getByRole("button", { name: "Send sign-in link" }).click();
  await expect(page.getByRole("heading", { name: /Check your email/ })).toBeVisible();

  let link: string | null = null;
  await expect.poll(() => (link = latestLinkTo(EMAIL, /http:\/\/127\.0\.0\.1:\d+\/api\/auth\/callback\/email\?\S+/)), { timeout: 15_000 }).not.toBeNull();
  await page.goto(link!);
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByTestId("signed-in-as")).toHaveText(EMAIL);
  await expect(page.getByText(/This server is simulated/)).toBeVisible();
  // A new person's personal workspace starts with the promotional credit.
  await expect(page.locator("#billing").getByTestId("billing-promotional").first()).toHaveText("$5.00");

  // Create a key: its secret is shown once, and it works against the API.
  const keys = page.locator("#api-keys");
  await keys.getByLabel("Name").fill("from the browser");
  await keys.getByRole("button", { name: "Create key" }).click();
  const secret = (await page.getByTestId("secret-once").textContent())!.trim();
  expect(secret).toMatch(/^gsk_[0-9A-Za-z]{32,}$/);
  const me = await request.get("/api/v1/me", { headers: { Authorization: `Bearer ${secret}` } });
  expect(me.status()).toBe(200);
  expect((await me.json()).email).toBe(EMAIL);
  // With the key: a project, then a prompt on every engine (simulated: all eight), run by the server's own driver.
  const auth = { Authorization: `Bearer ${secret}` };
  const project = await (await request.post("/api/v1/projects", { headers: auth, data: { name: "E2E research" } })).json();
  const queued = await request.post("/api/v1/prompts", { headers: auth, data: { prompt: "best crm for a startup", project: project.id } });
  expect(queued.status()).toBe(202);
  const { batch } = await queued.json();
  const done = await (await request.get(`/api/v1/batches/${batch.id}?wait=30`, { headers: auth })).json();
  expect(done.batch.status).toBe("completed");
  expect(done.runs.map((r: { engine: string }) => r.engine).sort()).toEqual(["chatgpt", "chatgpt_app", "claude", "gemini", "gemini_app", "google_ai_mode", "google_ai_overview", "perplexity"]);
  for (const run of done.runs) {
    // Google's results page names no model; Google shows an AI Overview for some queries only.
    if (run.engine.startsWith("google_")) expect(run.model).toBeNull();
    else expect(run.model).toMatch(/-simulated$/);
    if (run.result.shown !== false) expect(run.result.answer.length).toBeGreaterThan(0);
    expect(run.charge).toMatchObject({ status: "captured" });
  }

  await page.reload();
  await expect(page.getByText("from the browser")).toBeVisible();
  await expect(page.getByTestId("secret-once")).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);

  // A CLI starts a device login through the API; the person approves it in the browser.
  const start = await (await request.post("/api/v1/cli/auth/start", { data: { client_name: "geoscope CLI on e2e" } })).json();
  await page.goto(start.verification_uri_complete.replace(/^http:\/\/[^/]+/, ""));
  await expect(page.getByTestId("client-name")).toHaveText("geoscope CLI on e2e");
  await expect(page.getByTestId("user-code")).toHaveText(start.user_code);
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText(/Approved\. The CLI is signed in/)).toBeVisible();

  const approved = await (await request.post("/api/v1/cli/auth/poll", { data: { device_code: start.device_code } })).json();
  expect(approved).toMatchObject({ status: "approved", email: EMAIL });
  const cli = await request.get("/api/v1/me", { headers: { Authorization: `Bearer ${approved.token}` } });
  expect((await cli.json()).credential).toEqual({ kind: "cli_token", id: approved.token_id, name: "geoscope CLI on e2e" });
});

test("device codes typed by hand: a wrong one is refused, and guessing is throttled", async ({ page }) => {
  await signIn(page, `guesser-${Date.now()}@example.com`, "/device");
  for (let left = 4; left >= 1; left--) {
    await page.getByLabel("Code shown by the CLI").fill("BCDF-GHJK");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByText(`(${left} more ${left === 1 ? "try" : "tries"} before a pause)`)).toBeVisible();
  }
  await page.getByLabel("Code shown by the CLI").fill("BCDF-GHJK");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("Too many wrong codes. Wait a few minutes, then try again.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Continue" })).toBeDisabled();
});

test("signed-out visitors of a device link are sent to sign in, and come back to it", async ({ page }) => {
  // Signed-out visitors are sent to sign in first, and come back to the code afterwards.
  await page.goto("/device?code=BBBB-BBBB");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fdevice%3Fcode%3DBBBB-BBBB/);
});
