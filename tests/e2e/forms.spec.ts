// The browser's forms as a new user meets them (issue #32): every form keeps what was typed when
// the server refuses it, refusals speak in the form's labels (402: a "Go to billing" link, no raw
// URL), project forms have labels and editing one field never wipes another, share controls ask
// before they break a link, long names fit a phone, and a run whose engine hangs says which
// attempt it is and when it gives up. Real sign-in, the built server, Debian's Chromium.
import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { apiWith, onlyEngines, signIn } from "./support";
import { screenshots } from "./screens";

const unique = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
const EMAIL = `forms-${unique}@example.com`;
/** Team workspaces get no promotional credit: work started there is refused with 402. */
const BROKE_TEAM = `Broke team ${unique}`;

let page: Page;
let secret = "";
let funded = ""; // a project in the personal workspace (promotional credit)
let broke = ""; // a project in the team workspace (no credit)

const api = apiWith(() => secret);

async function expectNoSideways(target: Page, what: string) {
  const { scrollWidth, clientWidth } = await target.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
  expect(scrollWidth, `${what} is ${scrollWidth}px wide in a ${clientWidth}px window`).toBe(clientWidth);
}

/** The refusal under a form: in the form's words, never an API field path or a raw URL. */
async function expectRefusal(form: Locator, text: RegExp) {
  const refusal = form.getByRole("alert");
  await expect(refusal).toContainText(text);
  await expect(refusal).not.toContainText(/https?:\/\//);
  await expect(refusal).not.toContainText(/\b(context|engines|prompts|topic|url|count)(\.[a-z_]+|\[\d+\])*: /);
  return refusal;
}

let teamSecret = "";

/** An API key made on /account for the workspace named (the personal one: the first). */
async function createKey(name: string, workspace?: string): Promise<string> {
  const keys = page.locator("#api-keys");
  await keys.getByLabel("Name").fill(name);
  if (workspace) await keys.getByLabel("Workspace").selectOption({ label: workspace });
  await keys.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByTestId("secret-once")).toContainText("gsk_");
  const key = (await page.getByTestId("secret-once").textContent())!.trim();
  await page.reload();
  return key;
}

test.beforeAll(async ({ browser, request }) => {
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await signIn(page, EMAIL);
  await page.getByLabel("New workspace name").fill(BROKE_TEAM);
  await page.getByRole("button", { name: "Create workspace" }).click();
  await expect(page.locator('[data-testid^="workspace-"]', { hasText: BROKE_TEAM })).toBeVisible();
  secret = await createKey("forms test");
  teamSecret = await createKey("forms team", BROKE_TEAM);
  const context = { primary_domain: "acme.com", domains: ["docs.acme.com", "acme.io"], brands: ["Acme"], competitors: ["Globex", "Initech"] };
  funded = (await api("POST", "/projects", { name: "Forms research", context })).body.id;
  const team = await request.post("/api/v1/projects", { headers: { Authorization: `Bearer ${teamSecret}` }, data: { name: "Broke research" } });
  expect(team.status()).toBe(201);
  broke = (await team.json()).id;
});

test.afterAll(async () => {
  await page?.close();
});

test("project forms: labelled fields, Other domains when creating, refusals in the form's words", async ({ request }, testInfo) => {
  await page.goto("/account");
  // Every field of the new-project form is labelled, Other domains included.
  const create = page.getByTestId("project-create");
  await create.getByLabel("Project name").fill("Labelled project");
  await create.getByLabel("Primary domain").fill("acme.net");
  await create.getByLabel("Other domains").fill("docs.acme.net, acme.org");
  await create.getByLabel("Brands").fill("Acme");
  await create.getByLabel("Competitors").fill("Globex, Initech");
  await screenshots(page, testInfo, "account-project-create");
  await create.getByRole("button", { name: "Create project" }).click();
  await expect(create.getByRole("status")).toContainText("Labelled project");
  const made = (await api("GET", "/projects")).body.items.find((p: { name: string }) => p.name === "Labelled project");
  expect(made.context).toMatchObject({ primary_domain: "acme.net", domains: ["docs.acme.net", "acme.org"], brands: ["Acme"], competitors: ["Globex", "Initech"] });
  // What was typed is cleared once the project exists.
  await expect(create.getByLabel("Project name")).toHaveValue("");

  // A refusal names the field by its label and keeps what was typed.
  await create.getByLabel("Project name").fill("Refused project");
  await create.getByLabel("Other domains").fill("not a domain");
  await create.getByRole("button", { name: "Create project" }).click();
  await expectRefusal(create, /^Other domains \(item 1\): must be a domain name/);
  await expect(create.getByLabel("Project name")).toHaveValue("Refused project");
  await expect(create.getByLabel("Other domains")).toHaveValue("not a domain");
});

test("editing one field of a project keeps every other, even one changed elsewhere since the page was shown", async ({ request }, testInfo) => {
  await page.goto("/account");
  const item = page.getByTestId(`project-${funded}`);
  await item.getByText("Edit", { exact: true }).click();
  await expect(item.getByLabel("Competitors")).toHaveValue("Globex, Initech");
  // Meanwhile (the CLI, a colleague) the competitors and the name change.
  const patched = await api("PATCH", `/projects/${funded}`, {
    name: "Forms research (renamed elsewhere)",
    context: { primary_domain: "acme.com", domains: ["docs.acme.com", "acme.io"], brands: ["Acme"], competitors: ["Globex", "Initech", "Umbrella"] },
  });
  expect(patched.status).toBe(200);
  // Here only the brands are edited.
  await item.getByLabel("Brands").fill("Acme, Acme Cloud");
  await item.getByRole("button", { name: "Save" }).click();
  await expect(item.getByRole("status")).toContainText("saved");
  const after = await api("GET", `/projects/${funded}`);
  expect(after.body.name).toBe("Forms research (renamed elsewhere)");
  expect(after.body.context).toEqual({ primary_domain: "acme.com", domains: ["docs.acme.com", "acme.io"], brands: ["Acme", "Acme Cloud"], competitors: ["Globex", "Initech", "Umbrella"] });

  // A refused edit speaks in labels and keeps the input.
  await item.getByLabel("Primary domain").fill("not a domain");
  await item.getByRole("button", { name: "Save" }).click();
  await expectRefusal(item, /^Primary domain: must be a domain name/);
  await expect(item.getByLabel("Primary domain")).toHaveValue("not a domain");
  await screenshots(page, testInfo, "account-project-edit-refused");
});

test("the prompt form keeps what was typed on 402 and 400, with a Go to billing link and errors in words", async ({}, testInfo) => {
  await page.goto(`/projects/${broke}`);
  const form = page.getByTestId("prompt-form");
  await form.getByLabel("Prompt").fill("best crm for a tiny team");
  await onlyEngines(form, ["chatgpt", "claude", "gemini"]);
  await form.getByLabel("Claude (API)").uncheck();
  await form.getByTestId("start-prompt").click();
  await expect(form.getByRole("alert")).toBeVisible();
  await expect(form.getByLabel("Prompt")).toHaveValue("best crm for a tiny team");
  await expect(form.getByLabel("Claude (API)")).not.toBeChecked();
  await expect(form.getByLabel("ChatGPT (API)")).toBeChecked();
  const refusal = await expectRefusal(form, /Not enough credit/);
  await expect(refusal.getByRole("link", { name: "Go to billing" })).toHaveAttribute("href", "/account#billing");
  await screenshots(page, testInfo, "prompt-refused-402");

  for (const engine of ["ChatGPT (API)", "Gemini (API)"]) await form.getByLabel(engine).uncheck();
  await form.getByTestId("start-prompt").click();
  await expectRefusal(form, /^Tick at least one engine/);
  await expect(form.getByLabel("Prompt")).toHaveValue("best crm for a tiny team");
});

test("the questions, audit and fanout forms keep what was typed when refused", async ({}, testInfo) => {
  await page.goto(`/projects/${broke}`);
  await page.getByTestId("start-questions-panel").locator("summary").click();
  const questions = page.getByTestId("questions-form");
  await questions.getByLabel("Topic").fill("crm for dentists");
  await questions.getByLabel("Questions").fill("7");
  await questions.getByTestId("start-questions").click();
  await expect(questions.getByRole("alert")).toBeVisible();
  await expect(questions.getByLabel("Topic")).toHaveValue("crm for dentists");
  await expect(questions.getByLabel("Questions")).toHaveValue("7");
  await expect((await expectRefusal(questions, /Not enough credit/)).getByRole("link", { name: "Go to billing" })).toBeVisible();

  await page.getByTestId("start-audit-panel").locator("summary").click();
  const audit = page.getByTestId("audit-form");
  await audit.getByLabel("Page URL").fill("ftp://example.com/pricing");
  await audit.getByTestId("start-audit").click();
  await expect(audit.getByRole("alert")).toBeVisible();
  await expect(audit.getByLabel("Page URL")).toHaveValue("ftp://example.com/pricing");
  await expectRefusal(audit, /^Page URL: /);
  await audit.getByLabel("Page URL").fill("https://example.com/pricing");
  await audit.getByTestId("start-audit").click();
  await expectRefusal(audit, /Not enough credit/);
  await expect(audit.getByLabel("Page URL")).toHaveValue("https://example.com/pricing");

  await page.getByTestId("start-fanout-panel").locator("summary").click();
  const fanout = page.getByTestId("fanout-form");
  await fanout.getByTestId("fanout-prompts").fill("best crm\ncrm for dentists");
  await onlyEngines(fanout, ["chatgpt", "claude"]);
  await fanout.getByTestId("fanout-runs").fill("2");
  await fanout.getByLabel(/^Name/).fill("Dentist CRMs");
  await expect(fanout.getByTestId("fanout-estimate")).toHaveAttribute("data-state", "ready");
  await fanout.getByTestId("start-fanout").click();
  await expect(fanout.getByTestId("start-refusal")).toBeVisible();
  await expect(fanout.getByTestId("fanout-prompts")).toHaveValue("best crm\ncrm for dentists");
  await expect(fanout.getByLabel("Gemini (API)")).not.toBeChecked();
  await expect(fanout.getByTestId("fanout-runs")).toHaveValue("2");
  await expect(fanout.getByLabel(/^Name/)).toHaveValue("Dentist CRMs");
  await expectRefusal(fanout.getByTestId("start-refusal"), /Not enough credit/);
  await screenshots(page, testInfo, "project-forms-refused");
});

test("a wrong CLI login code stays in the field, to be corrected", async ({}, testInfo) => {
  await page.goto("/device");
  await page.getByLabel("Code shown by the CLI").fill("BCDF-GHJX");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText(/No pending login has that code/)).toBeVisible();
  await expect(page.getByLabel("Code shown by the CLI")).toHaveValue("BCDF-GHJX");
  await screenshots(page, testInfo, "device-wrong-code");
});

test("share controls ask before rotating or revoking, and Copy is fresh for a new link", async ({ request, context }, testInfo) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const queued = await api("POST", "/prompts", { prompt: "best crm for a law firm", engines: ["gemini"], project: funded });
  expect(queued.status).toBe(202);
  const runId = queued.body.runs[0].id;
  expect((await api("GET", `/runs/${runId}?wait=30`)).body.status).toBe("completed");

  await page.goto(`/runs/${runId}`);
  const share = page.getByTestId("share-control");
  await share.getByRole("button", { name: "Create share link" }).click();
  const first = await share.getByTestId("share-url").inputValue();
  expect(first).toMatch(/\/s\/\w{32,}$/);

  // New link: asked first; cancelling changes nothing.
  await share.getByRole("button", { name: "New link" }).click();
  await expect(share.getByTestId("share-confirm")).toContainText(/current link stops working/i);
  await screenshots(page, testInfo, "share-confirm-rotate");
  await share.getByRole("button", { name: "Cancel" }).click();
  await expect(share.getByTestId("share-confirm")).toHaveCount(0);
  await expect(share.getByTestId("share-url")).toHaveValue(first);
  expect((await request.get(first.replace(/^http:\/\/[^/]+/, ""))).status()).toBe(200);

  await share.getByRole("button", { name: "New link" }).click();
  await share.getByRole("button", { name: "Copy link" }).click();
  await expect(share.getByRole("button", { name: "Copied" })).toBeVisible();
  await share.getByTestId("share-confirm").getByRole("button", { name: "Make a new link" }).click();
  await expect(share.getByTestId("share-url")).not.toHaveValue(first);
  // The copy button is for the new link, not copied yet (read at once: "Copied" fades after 2 s anyway).
  expect(await share.getByTestId("copy-share-link").textContent()).toBe("Copy link");
  const second = await share.getByTestId("share-url").inputValue();
  expect((await request.get(first.replace(/^http:\/\/[^/]+/, ""))).status()).toBe(404);

  // Stop sharing: asked first too.
  await share.getByRole("button", { name: "Stop sharing" }).click();
  await expect(share.getByTestId("share-confirm")).toContainText(/stops working/i);
  await share.getByRole("button", { name: "Cancel" }).click();
  expect((await request.get(second.replace(/^http:\/\/[^/]+/, ""))).status()).toBe(200);
  await share.getByRole("button", { name: "Stop sharing" }).click();
  await share.getByTestId("share-confirm").getByRole("button", { name: "Stop sharing" }).click();
  await expect(share.getByRole("button", { name: "Create share link" })).toBeVisible();
  expect((await request.get(second.replace(/^http:\/\/[^/]+/, ""))).status()).toBe(404);
});

test("a long project name fits a phone: projects list, account page and the project's page", async ({ request }, testInfo) => {
  const long = `Acme${"Cloud".repeat(19)}!`; // 100 characters, no space to break at
  const made = await api("POST", "/projects", { name: long });
  expect(made.status).toBe(201);
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of ["/projects", "/account", `/projects/${made.body.id}`]) {
    await page.goto(path);
    await expect(page.getByText(long).first()).toBeVisible();
    await expectNoSideways(page, path);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/projects");
  await screenshots(page, testInfo, "projects-long-name");
  await page.goto("/account");
  await screenshots(page, testInfo, "account-long-name");
  await page.goto(`/projects/${made.body.id}`);
  await screenshots(page, testInfo, "project-long-name");
});

test("a run whose engine does not answer says which attempt it is and when it gives up", async ({ request }, testInfo) => {
  // ChatGPT refuses the first attempt with a 15 s Retry-After, then never answers.
  const queued = await api("POST", "/prompts", { prompt: "crm for plumbers [[sim:rate_limit:15*1]] [[sim:timeout]]", engines: ["chatgpt"], project: funded });
  expect(queued.status).toBe(202);
  const runId = queued.body.runs[0].id;

  await page.goto(`/batches/${queued.body.batch.id}`);
  const card = page.getByTestId("batch-run");
  // Between attempts: which failed, and when the next starts.
  await expect(card.getByTestId("run-attempt")).toContainText(/Attempt 1 of 3 failed.*Attempt 2 of 3 at \d\d:\d\d:\d\d UTC/s, { timeout: 20_000 });
  await screenshots(page, testInfo, "batch-run-retrying");
  // Then, on the same page without reloading, the attempt under way and when it gives up.
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  await expect(card.getByTestId("run-attempt")).toContainText(/Attempt 2 of 3, asking since \d\d:\d\d:\d\d UTC/, { timeout: 30_000 });
  await expect(card.getByTestId("run-attempt")).toContainText(/gives up at \d\d:\d\d:\d\d UTC/);
  await expect(card.getByTestId("run-attempt")).toContainText(/fails by about \d\d:\d\d UTC/);
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  await expect(card).not.toContainText("Asking the engine…");
  await screenshots(page, testInfo, "batch-run-attempt-2");

  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("run-attempt")).toContainText(/Attempt 2 of 3, asking since/);
  await screenshots(page, testInfo, "run-attempt-2");
});
