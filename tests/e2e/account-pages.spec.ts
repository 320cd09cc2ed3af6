// The browser pages' rough edges (issue #13): favicon, styled 404 and sign-out pages, the account
// page at phone width, CLI logins, project editing, member actions, transaction paging, and
// invitation and device-login pages that say what they are about. Real sign-in through the
// emailed link, in Debian's Chromium.
import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { signIn } from "./support";
import { lineBreaksIn } from "./screens";

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

/** Creates an API key on /account and answers its secret. */
async function createKey(page: Page, name: string): Promise<string> {
  const keys = page.locator("#api-keys");
  await keys.getByLabel("Name").fill(name);
  await keys.getByRole("button", { name: "Create key" }).click();
  return (await page.getByTestId("secret-once").textContent())!.trim();
}

/** A CLI token from the real device login: started through the API, approved in the browser, polled. */
async function cliLogin(page: Page, request: APIRequestContext, clientName: string) {
  const start = await (await request.post("/api/v1/cli/auth/start", { data: { client_name: clientName } })).json();
  await page.goto(start.verification_uri_complete.replace(/^http:\/\/[^/]+/, ""));
  await expect(page.getByTestId("client-name")).toHaveText(clientName);
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText(/Approved\. The CLI is signed in/)).toBeVisible();
  const poll = await (await request.post("/api/v1/cli/auth/poll", { data: { device_code: start.device_code } })).json();
  expect(poll.status).toBe("approved");
  return poll as { token: string; token_id: string };
}

async function expectNoSideways(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, `page is ${scrollWidth}px wide in a ${clientWidth}px window`).toBeLessThanOrEqual(clientWidth);
}

test("a favicon is served, and an unknown page is a styled 404 with the app's header", async ({ page, request }) => {
  const ico = await request.get("/favicon.ico");
  expect(ico.status()).toBe(200);
  expect(ico.headers()["content-type"]).toMatch(/image\//);

  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/geoscope\s*\/\s*Not found/);
  await expect(page.getByRole("link", { name: "Your account" })).toBeVisible();
  // Every icon the page links to is served.
  const icons = await page.locator('link[rel~="icon"]').evaluateAll((links) => links.map((l) => (l as HTMLLinkElement).href));
  expect(icons.length).toBeGreaterThan(0);
  for (const href of icons) expect((await request.get(href)).status(), href).toBe(200);
});

test("signing out goes through the app's own sign-out page", async ({ page }) => {
  const email = `signout-${unique()}@example.com`;
  await signIn(page, email, "/account");
  await expect(page.getByTestId("signed-in-as")).toHaveText(email);
  await page.getByRole("link", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signout$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/geoscope\s*\/\s*Sign out/);
  await expect(page.getByText(`You are signed in as ${email}`)).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByText("You are signed out.")).toBeVisible();
  // next-auth's own address for it leads to the same page.
  await page.goto("/api/auth/signout");
  await expect(page).toHaveURL(/\/signout$/);
  await page.goto("/account");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
});

test("CLI logins are listed on the account page, and revoking one answers 401 at once", async ({ page, request }) => {
  const email = `cli-${unique()}@example.com`;
  await signIn(page, email, "/account");
  await expect(page.locator("#cli-logins").getByText("No CLI is signed in.")).toBeVisible();

  const clientName = `geoscope CLI on e2e ${unique()}`;
  const cli = await cliLogin(page, request, clientName);
  const auth = { Authorization: `Bearer ${cli.token}` };
  expect((await request.get("/api/v1/me", { headers: auth })).status()).toBe(200);

  await page.goto("/account");
  const row = page.getByTestId(`cli-login-${cli.token_id}`);
  await expect(row).toContainText(clientName);
  await expect(row).not.toContainText("—"); // created, and last used by the GET /me above
  await row.getByRole("button", { name: "Revoke" }).click();
  await expect(row).toHaveCount(0);
  const after = await request.get("/api/v1/me", { headers: auth });
  expect(after.status()).toBe(401);
  expect((await after.json()).error.code).toBe("unauthenticated");
});

test("the account page: projects edited, the sole admin offered no self-demotion, older transactions, nothing sideways at 390 px", async ({ page, request }) => {
  test.setTimeout(120_000);
  const email = `phone-${unique()}@example.com`;
  await signIn(page, email, "/account");
  const secret = await createKey(page, "phone test key");
  const auth = { Authorization: `Bearer ${secret}` };

  // Work that fills the billing tables: four prompts on three engines, 12 charges after the grant.
  const project = await (await request.post("/api/v1/projects", { headers: auth, data: { name: "Phone research" } })).json();
  for (let i = 0; i < 4; i++) {
    const queued = await request.post("/api/v1/prompts", { headers: auth, data: { prompt: `best crm number ${i}`, project: project.id, engines: ["chatgpt", "claude", "gemini"] } });
    expect(queued.status()).toBe(202);
    const { batch } = await queued.json();
    const done = await (await request.get(`/api/v1/batches/${batch.id}?wait=30`, { headers: auth })).json();
    expect(done.batch.status).toBe("completed");
  }
  await cliLogin(page, request, "geoscope CLI on a phone test");

  // A team workspace, with a pending invitation: its only admin is offered no demotion or removal.
  await page.goto("/account");
  const team = `Phone team ${unique()}`;
  await page.getByLabel("New workspace name").fill(team);
  await page.getByRole("button", { name: "Create workspace" }).click();
  const teamSection = page.locator('[data-testid^="workspace-"]', { hasText: team });
  await expect(teamSection).toBeVisible();
  await teamSection.getByLabel("Email to invite").fill(`invitee-${unique()}@example.com`);
  await teamSection.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByTestId("secret-once")).toBeVisible();
  await page.reload();
  const self = teamSection.locator("li", { hasText: email });
  await expect(self).toContainText("the only admin");
  await expect(self.getByRole("button")).toHaveCount(0);
  for (const name of ["Make member", "Remove", "Leave", "Set role"]) {
    await expect(page.locator("#workspaces").getByRole("button", { name, exact: true })).toHaveCount(0);
  }

  // Edit the project: new name and context; then a domain that is no domain is refused, with the reason.
  const item = page.getByTestId(`project-${project.id}`);
  await item.getByText("Edit", { exact: true }).click();
  await item.getByLabel("Name").fill("Phone research, renamed");
  await item.getByLabel("Primary domain").fill("https://www.acme-phone.com/pricing");
  await item.getByLabel("Other domains").fill("docs.acme-phone.com");
  await item.getByLabel("Brands").fill("Acme, Acme Phone");
  await item.getByLabel("Competitors").fill("Globex");
  await item.getByRole("button", { name: "Save" }).click();
  await expect(item.getByRole("status")).toContainText("saved");
  await expect(item.getByTestId("project-name")).toHaveText("Phone research, renamed");
  await expect(item.getByTestId("project-context")).toHaveText(
    "www.acme-phone.com, docs.acme-phone.com · brands: Acme, Acme Phone · competitors: Globex",
  );
  const viaApi = await (await request.get(`/api/v1/projects/${project.id}`, { headers: auth })).json();
  expect(viaApi).toMatchObject({ name: "Phone research, renamed", context: { primary_domain: "www.acme-phone.com", brands: ["Acme", "Acme Phone"] } });

  await item.getByLabel("Primary domain").fill("not a domain");
  await item.getByRole("button", { name: "Save" }).click();
  await expect(item.getByRole("alert")).toContainText("Primary domain: must be a domain name");
  await expect(item.getByLabel("Primary domain")).toHaveValue("not a domain");
  await expect(item.getByTestId("project-context")).toContainText("www.acme-phone.com");

  // The ten newest transactions, then the older ones, down to the signup grant.
  const billing = page.locator('[data-testid^="billing-"]', { hasText: "Recent transactions" }).first();
  await expect(billing.locator('[data-testid^="transaction-"]')).toHaveCount(10);
  await expect(billing.getByText("promo_grant")).toHaveCount(0);
  await billing.getByRole("link", { name: "Show older transactions" }).click();
  await expect(page).toHaveURL(/\/account\/transactions\?workspace=ws_\w+&cursor=/);
  await expect(page.locator('[data-testid^="transaction-"]')).toHaveCount(3);
  await expect(page.getByTestId(/^transaction-/).filter({ hasText: "promo_grant" })).toContainText("Signup promotional credit");
  await expect(page.getByRole("link", { name: "Show older transactions" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Newest transactions" })).toBeVisible();
  // At a tablet's width, where the table is tight, who made a charge wraps after the "@" or a
  // hyphen of the address, never mid-word ("phone-17…", "…@", "example.com", not "exa", "mple.com").
  await page.setViewportSize({ width: 660, height: 900 });
  const by = page.getByTestId("actor").filter({ hasText: email });
  await expect(by).toHaveCount(2);
  for (const cell of await by.all()) {
    for (const { around } of await lineBreaksIn(cell)) expect(around, `a line of ${email} breaks at ${around}`).toMatch(/^[@-]\||\|\.$/);
  }

  // At phone width nothing scrolls sideways, with every table filled.
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSideways(page);
  await page.goto("/account");
  await expect(page.locator("#api-keys").getByText("phone test key")).toBeVisible();
  await expect(page.locator("#cli-logins").getByText("geoscope CLI on a phone test")).toBeVisible();
  await expect(billing.locator('[data-testid^="transaction-"]')).toHaveCount(10);
  await expect(page.locator("#projects").getByText("Phone research, renamed")).toBeVisible();
  await expectNoSideways(page);
  // The billing rows stay readable: a description is on one line of its own, not a word a line.
  const description = billing.locator('[data-testid^="transaction-"]').first().locator("td").nth(4);
  const box = await description.boundingBox();
  expect(box!.width).toBeGreaterThan(250);
});

test("an invitation opened signed out names the workspace, and sign-in comes back to it", async ({ page, browser }) => {
  const admin = `inviter-${unique()}@example.com`;
  const invitee = `invitee-${unique()}@example.com`;
  await signIn(page, admin, "/account");
  const team = `Invite team ${unique()}`;
  await page.getByLabel("New workspace name").fill(team);
  await page.getByRole("button", { name: "Create workspace" }).click();
  const teamSection = page.locator('[data-testid^="workspace-"]', { hasText: team });
  await teamSection.getByLabel("Email to invite").fill(invitee);
  await teamSection.getByRole("button", { name: "Invite" }).click();
  const link = (await page.getByTestId("secret-once").textContent())!.trim();
  const token = link.split("/invite/")[1]!;

  const context = await browser.newContext();
  const guest = await context.newPage();
  await guest.goto(link.replace(/^http:\/\/[^/]+/, ""));
  await expect(guest).toHaveURL(/\/invite\//);
  await expect(guest.getByTestId("invitation")).toContainText(`${admin} invited you to ${team} on geoscope as member`);

  const signInLink = await signIn(guest, invitee, link.replace(/^http:\/\/[^/]+/, ""));
  // The sign-in link (written to the log when there is no mail server) does not carry the invitation.
  expect(signInLink).not.toContain(token);
  await expect(guest).toHaveURL(new RegExp(`/invite/${token}$`));
  await guest.getByRole("button", { name: `Join ${team}` }).click();
  await expect(guest).toHaveURL(/\/account#workspaces$/);
  await expect(guest.locator('[data-testid^="workspace-"]', { hasText: team })).toContainText("you are member");
  await context.close();
});

test("the device page without a code says where the code comes from", async ({ page }) => {
  await signIn(page, `device-${unique()}@example.com`, "/device");
  await expect(page.getByTestId("device-help")).toContainText("geoscope login");
  await expect(page.getByLabel("Code shown by the CLI")).toBeVisible();
});
