// Visibility analyses end to end (issue #34) against the built server: in Chromium, the project
// page's brands and competitors form (saved, refused in its own words, the rest of the context
// kept), "Analyse visibility" from a prompt's page and a fanout's, the analysis page (share of
// voice, visibility by engine with bands, places, every figure with its n, the prompt matrix, the
// mentions behind a figure and the answer with its mentions marked), its public share page and
// .json; with the real `geoscope` binary, visibility create|get|mentions (tables, --json, CSV,
// JSON lines) and `geoscope analyses`. Screenshots at 1280 and 390 px.
import path from "node:path";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { apiWith, approveCliLogin, BIN, cliAs, cliEnv, ROOT, signIn } from "./support";
import { screenshots } from "./screens";

test.describe.configure({ mode: "serial" });

const EMAIL = `visibility-${Date.now()}@example.com`;
const CONFIG_DIR = mkdtempSync(path.join(tmpdir(), "geoscope-visibility-cli-"));

// The answer every engine gives (the simulator's exact-answer directive): a quoted prompt (two
// echoes), HubSpot by its alias in a numbered list, Pipedrive, and an absence sentence about Zoho.
const ANSWER = 'Searches for "hubspot vs pipedrive" favour review sites.\n1. **HubSpot CRM** is free to start.\n2. Pipedrive suits small sales teams.\nI couldn\'t find any information about Zoho.';
const directive = (text: string) => `[[sim:answer:${Buffer.from(text, "utf8").toString("base64url")}]]`;
const PROMPT = `hubspot vs pipedrive ${directive(ANSWER)}`;

let context: BrowserContext;
let page: Page;
let projectId = "";
let token = "";
let batchId = "";
let analysisId = "";
let shareUrl = "";

const cli = cliAs({ configDir: CONFIG_DIR });

const api = apiWith(() => token);

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<title>cited page</title>" }));
  page = await context.newPage();
});
test.afterAll(async () => {
  await context?.close();
});

test("the CLI signs in, and the project's brands and competitors are edited on its page, refusals in the form's words", async ({}, testInfo) => {
  test.setTimeout(120_000);
  await signIn(page, EMAIL);
  const projects = page.locator("#projects");
  await projects.getByLabel("Project name").fill("Visibility");
  await projects.getByLabel("Primary domain").fill("hubspot.com");
  await projects.getByRole("button", { name: "Create project" }).click();
  await projects.getByRole("link", { name: "Visibility" }).click();
  projectId = new URL(page.url()).pathname.split("/").pop()!;
  expect(projectId).toMatch(/^pr_/);

  const login = await approveCliLogin(page, process.execPath, [BIN], { cwd: ROOT, env: cliEnv({ configDir: CONFIG_DIR }) });
  expect(login.code, login.stderr).toBe(0);
  token = JSON.parse(readFileSync(path.join(CONFIG_DIR, "config.json"), "utf8")).token;

  await page.goto(`/projects/${projectId}`);
  const form = page.getByTestId("entities-form");
  await form.getByLabel("Name (row 1)").fill("HubSpot");
  await form.locator("#entity-role-0").selectOption("brand");
  await form.locator("#entity-aliases-0").fill("HubSpot CRM");
  await form.getByLabel("Name (row 2)").fill("Pipedrive");
  await form.locator("#entity-domains-1").fill("pipedrive.com, https://www.pipedrive.com/en");
  await form.getByTestId("save-entities").click();
  await expect(form.getByTestId("entities-outcome")).toHaveText("Saved: 1 brand, 1 competitor.");

  // A row with other names but no name is refused in the form's words, and what was typed stays.
  await page.reload();
  await expect(form.getByTestId("entity-row")).toHaveCount(4);
  await form.locator("#entity-aliases-2").fill("Zoho");
  await form.locator("#entity-domains-2").fill("zoho.com");
  await form.getByTestId("save-entities").click();
  await expect(form.getByTestId("entities-outcome")).toHaveText("Row 3, Name: give the name these other names and domains belong to.");
  await expect(form.locator("#entity-aliases-2")).toHaveValue("Zoho");
  await screenshots(page, testInfo, "visibility-entities-refused");
  await form.getByLabel("Name (row 3)").fill("Zoho CRM");
  await form.getByTestId("save-entities").click();
  await expect(form.getByTestId("entities-outcome")).toHaveText("Saved: 1 brand, 2 competitors.");

  // The rest of the context is kept; the domains are stored as hosts.
  const project = await api("GET", `/projects/${projectId}`);
  expect(project.body.context).toEqual({
    primary_domain: "hubspot.com",
    brands: ["HubSpot"],
    competitors: ["Pipedrive", "Zoho CRM"],
    aliases: { HubSpot: ["HubSpot CRM"], "Zoho CRM": ["Zoho"] },
    competitor_domains: { Pipedrive: ["pipedrive.com", "www.pipedrive.com"], "Zoho CRM": ["zoho.com"] },
  });
  await page.reload();
  await expect(form.locator("#entity-aliases-2")).toHaveValue("Zoho");
  await screenshots(page, testInfo, "visibility-entities");

  // A competitor removed on the account page takes its other names and domains with it.
  await page.goto("/account");
  const item = page.getByTestId(`project-${projectId}`);
  await item.getByText("Edit", { exact: true }).click();
  await expect(item.getByLabel("Competitors")).toHaveValue("Pipedrive, Zoho CRM");
  await item.getByLabel("Competitors").fill("Pipedrive, Close");
  await item.getByRole("button", { name: "Save" }).click();
  await expect(item.getByRole("status")).toContainText("saved");
  await expect.poll(async () => (await api("GET", `/projects/${projectId}`)).body.context.competitors).toEqual(["Pipedrive", "Close"]);
  expect((await api("GET", `/projects/${projectId}`)).body.context).toEqual({
    primary_domain: "hubspot.com",
    brands: ["HubSpot"],
    competitors: ["Pipedrive", "Close"],
    aliases: { HubSpot: ["HubSpot CRM"] },
    competitor_domains: { Pipedrive: ["pipedrive.com", "www.pipedrive.com"] },
  });
  // Back as it was, for the analyses below.
  const restored = await api("PATCH", `/projects/${projectId}`, {
    context: { primary_domain: "hubspot.com", brands: ["HubSpot"], competitors: ["Pipedrive", "Zoho CRM"], aliases: { HubSpot: ["HubSpot CRM"], "Zoho CRM": ["Zoho"] }, competitor_domains: { Pipedrive: ["pipedrive.com"], "Zoho CRM": ["zoho.com"] } },
  });
  expect(restored.status).toBe(200);
});

test("Analyse visibility from a prompt's page: the analysis page's figures, each linking to its mentions, marked in the answer", async ({}, testInfo) => {
  test.setTimeout(120_000);
  const queued = await api("POST", "/prompts", { prompt: PROMPT, engines: ["chatgpt", "claude"], project: projectId });
  expect(queued.status).toBe(202);
  batchId = queued.body.batch.id;
  await expect.poll(async () => (await api("GET", `/batches/${batchId}?wait=30`)).body.batch.status, { timeout: 60_000 }).toBe("completed");

  await page.goto(`/batches/${batchId}`);
  await page.getByTestId("batch-analyses").getByRole("button", { name: "Analyse visibility" }).click();
  await page.waitForURL(/\/analyses\/va_/);
  analysisId = new URL(page.url()).pathname.split("/").pop()!;
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("How often 2 answers name HubSpot and 2 competitors");

  // Share of voice: HubSpot and Pipedrive each named by both answers (2 of 4), Zoho only said absent.
  await expect(page.getByTestId("share-segment")).toHaveCount(2);
  await expect(page.getByTestId("share-of-voice")).toContainText("HubSpot 50% (2 of 4)");
  await expect(page.getByTestId("share-of-voice")).toContainText("Zoho CRM 0% (0 of 4)");
  // What a screen reader hears of the bar: 4 namings, not "4 runs" (its analysis has 2).
  await expect(page.getByRole("img", { name: /^Share of voice, of the 4 times an answer named a tracked entity: HubSpot 50%/ })).toBeVisible();
  // Visibility by engine, each rate with its n and its 95% band.
  const hubspot = page.getByTestId("rate-row").and(page.locator('[data-label="HubSpot"]'));
  await expect(hubspot).toContainText("100% (2 of 2; 95% 34–100%)");
  await expect(page.getByTestId("rate-row").and(page.locator('[data-label="ChatGPT (API)"]')).first()).toContainText("100% (1 of 1; 95% 20–100%)");
  await expect(page.getByTestId("positions")).toContainText("average place 1");
  // The means' intervals say how they were made.
  await expect(page.getByTestId("positions")).toContainText("with a 95% interval (Student's t, within places 1 to 3).");
  const zoho = page.getByTestId("figures-row").and(page.locator('[data-entity="Zoho CRM"]'));
  await expect(zoho).toContainText("0% 0/2");
  await expect(zoho).toContainText("0 echo 2 absent");
  await expect(page.getByTestId("prompt-matrix")).toContainText("100% 2/2");
  // Every mention: 2 answers × (2 echoes, HubSpot CRM, Pipedrive, Zoho absent).
  await expect(page.getByTestId("mention")).toHaveCount(10);
  await screenshots(page, testInfo, "visibility-analysis");

  // A figure's link: Zoho's not-counted mentions, then one of them in its answer.
  await zoho.getByRole("link", { name: "2", exact: true }).click();
  await expect(page).toHaveURL(/entity=Zoho\+CRM&counted=false#mentions$/);
  const mentions = page.getByTestId("mention");
  await expect(mentions).toHaveCount(2);
  await expect(mentions.first()).toContainText("not counted: says nothing was found");
  await expect(mentions.first().locator("mark")).toHaveText("Zoho");
  await mentions.first().getByTestId("mention-answer").click();
  await expect(page).toHaveURL(/answer=dr_\w+#answer$/);
  const marks = page.getByTestId("answer-mark");
  await expect(marks).toHaveCount(5);
  await expect(marks.nth(2)).toHaveText("HubSpot CRM");
  await expect(page.getByTestId("answer")).toContainText("2 counted and 3 not counted mentions");
  await screenshots(page, testInfo, "visibility-answer");

  // Listed on the project page with its kind.
  await page.goto(`/projects/${projectId}?show=analyses`);
  await expect(page.getByTestId("analysis-item").first()).toContainText("visibility");
});

test("its public page shows the same charts and mentions, without an account; its .json leaves out who and where", async ({ browser, request }, testInfo) => {
  await page.goto(`/analyses/${analysisId}`);
  const share = page.getByTestId("share-control");
  await share.getByRole("button", { name: "Create share link" }).click();
  shareUrl = await share.getByTestId("share-url").inputValue();
  const visitor = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const outside = await visitor.newPage();
  await outside.goto(shareUrl.replace(/^http:\/\/[^/]+/, ""));
  await expect(outside.getByRole("heading", { level: 1 })).toHaveText("How often 2 answers name HubSpot and 2 competitors");
  await expect(outside.getByTestId("share-of-voice")).toContainText("HubSpot 50% (2 of 4)");
  await expect(outside.getByTestId("mention")).toHaveCount(10);
  await outside.getByTestId("figures-row").and(outside.locator('[data-entity="HubSpot"]')).getByRole("link", { name: "100%" }).click();
  await expect(outside.getByTestId("mention")).toHaveCount(2);
  await outside.getByTestId("mention-answer").first().click();
  await expect(outside.getByTestId("answer-mark")).toHaveCount(5);
  await screenshots(outside, testInfo, "visibility-shared");
  const json = await request.get(`${shareUrl.replace(/^http:\/\/[^/]+/, "")}.json`);
  expect(json.status()).toBe(200);
  const shared = await json.json();
  const own = (await api("GET", `/analyses/${analysisId}`)).body;
  expect(shared).toEqual({ ...own, project_id: null, created_by: null, charge: null });
  await visitor.close();
});

test("Analyse visibility from a fanout's page", async () => {
  test.setTimeout(120_000);
  const fanout = await api("POST", "/fanouts", { project: projectId, prompts: [{ text: PROMPT }], engines: ["gemini"], runs: 2 });
  expect(fanout.status).toBe(202);
  await expect.poll(async () => (await api("GET", `/fanouts/${fanout.body.id}?wait=30`)).body.status, { timeout: 60_000 }).toBe("completed");
  await page.goto(`/fanouts/${fanout.body.id}`);
  await page.locator("#citations").getByRole("button", { name: "Analyse visibility" }).click();
  await page.waitForURL(/\/analyses\/va_/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("How often 2 answers name HubSpot and 2 competitors");
  await expect(page.getByTestId("rate-row").and(page.locator('[data-label="Gemini (API)"]')).first()).toContainText("(2 of 2;");
});

test("the CLI: visibility create, get and mentions as tables, --json, CSV and JSON lines; geoscope analyses lists it", async () => {
  test.setTimeout(120_000);
  const created = await cli(["visibility", "create", batchId, "--brand", "HubSpot", "--alias", "HubSpot=HubSpot CRM", "--competitor", "Pipedrive", "--competitor", "Zoho", "--json"]);
  expect(created.code, created.stderr).toBe(0);
  const body = JSON.parse(created.stdout);
  expect(body.kind).toBe("visibility");
  expect(body.rows.map((r: { name: string; runs_mentioning: number }) => [r.name, r.runs_mentioning])).toEqual([["HubSpot", 2], ["Pipedrive", 2], ["Zoho", 0]]);

  const human = await cli(["visibility", "get", body.id]);
  expect(human.code, human.stderr).toBe(0);
  expect(human.stdout).toContain(`visibility analysis ${body.id}: completed`);
  expect(human.stdout).toMatch(/HubSpot\s+brand\s+2\/2\s+100%\s+34–100%\s+50%/);
  // Of the 4 times its 2 runs named a tracked entity (HubSpot and Pipedrive in each): not "4 runs".
  expect(human.stdout).toContain("share of voice: of the 4 times a run named a tracked entity (a run naming two counts for both)");

  const csv = await cli(["visibility", "get", body.id, "--format", "csv"]);
  expect(csv.code, csv.stderr).toBe(0);
  const lines = csv.stdout.trim().split("\r\n");
  expect(lines[0]).toMatch(/^entity,role,group_by,group,runs,runs_mentioning,visibility,visibility_low,visibility_high,/);
  // As the pages write figures ("34%", rounded outward), which spreadsheets read as numbers.
  expect(lines[1]).toMatch(/^HubSpot,brand,all,,2,2,100%,34%,100%,/);

  const mentions = await cli(["visibility", "mentions", body.id, "--format", "csv"]);
  expect(mentions.code, mentions.stderr).toBe(0);
  const rows = mentions.stdout.trim().split("\r\n");
  expect(rows[0]).toBe("run_id,engine,prompt,entity,alias,start,end,sentence,list_rank,counted,reason");
  expect(rows).toHaveLength(1 + 10);
  const jsonl = await cli(["visibility", "mentions", body.id, "--format", "jsonl", "--counted", "false"]);
  const notCounted = jsonl.stdout.trim().split("\n").map((l) => JSON.parse(l));
  expect(notCounted.map((m: { reason: string }) => m.reason).sort()).toEqual(["absence", "absence", "prompt_echo", "prompt_echo", "prompt_echo", "prompt_echo"]);
  const table = await cli(["visibility", "mentions", body.id, "--entity", "HubSpot", "--limit", "1"]);
  expect(table.code, table.stderr).toBe(0);
  expect(table.stdout).toMatch(/^RUN\s+ENGINE\s+ENTITY\s+AS\s+COUNTED/);
  expect(table.stderr).toMatch(/^more: --cursor \S+/);

  const listed = await cli(["analyses", "--kind", "visibility"]);
  expect(listed.code, listed.stderr).toBe(0);
  expect(listed.stdout).toContain(body.id);
  expect(listed.stdout).toContain(analysisId);

  const foreign = await cli(["visibility", "mentions", "va_01M8ZZZZZZZZZZZZZZZZZZZZZZ"]);
  expect(foreign.code).toBe(4);
  expect(foreign.stderr).toContain('No such analysis "va_01M8ZZZZZZZZZZZZZZZZZZZZZZ"');
});

// ChatGPT's own citation style: the model writes Markdown links and url_citation annotations point
// at them (decisions.md "Mentions and links", visibility-v2).
const LINKED =
  "HubSpot is the usual first pick for a small team ([hubspot.com](https://www.hubspot.com/products/crm?utm_source=openai)). " +
  "Compare it on [G2](https://www.g2.com/compare/hubspot-vs-pipedrive?utm_source=openai); pipedrive.com lists prices in USD.\n" +
  "Write to sales@zoho.com for a Zoho demo.";

test("names inside citation links and URLs are not counted; a bare domain is; sentences show links as their labels", async ({}, testInfo) => {
  test.setTimeout(120_000);
  const queued = await api("POST", "/prompts", { prompt: `best crm ${directive(LINKED)}`, engines: ["chatgpt"], project: projectId });
  expect(queued.status).toBe(202);
  await expect.poll(async () => (await api("GET", `/batches/${queued.body.batch.id}?wait=30`)).body.batch.status, { timeout: 60_000 }).toBe("completed");
  const created = await api("POST", "/visibility-analyses", {
    ids: [queued.body.batch.id],
    entities: [
      { name: "HubSpot", role: "brand", domains: ["hubspot.com"] },
      { name: "Pipedrive", role: "competitor", domains: ["pipedrive.com"] },
      { name: "Zoho", role: "competitor" },
    ],
  });
  expect(created.status, created.text).toBe(201);
  const analysis = created.body;
  expect(analysis.method).toBe("visibility-v2");
  expect(analysis.totals.mentions_not_counted).toEqual({ prompt_echo: 0, absence: 0, link: 1 });
  expect(analysis.rows.map((r: { name: string; runs_mentioning: number }) => [r.name, r.runs_mentioning])).toEqual([["HubSpot", 1], ["Pipedrive", 1], ["Zoho", 1]]);

  const listed = await api("GET", `/analyses/${analysis.id}/mentions?limit=200`);
  const first = "HubSpot is the usual first pick for a small team (hubspot.com).";
  const second = "Compare it on G2; pipedrive.com lists prices in USD.";
  expect(listed.body.items.map((m: { entity: string; alias: string; counted: boolean; reason: string | null; sentence: string }) => [m.entity, m.alias, m.counted, m.reason, m.sentence])).toEqual([
    ["HubSpot", "HubSpot", true, null, first],
    ["HubSpot", "HubSpot", false, "link", first],
    // hubspot and pipedrive inside g2.com's URL, zoho inside the e-mail address: no mention at all.
    ["Pipedrive", "pipedrive.com", true, null, second],
    ["Zoho", "Zoho", true, null, "Write to sales@zoho.com for a Zoho demo."],
  ]);

  await page.goto(`/analyses/${analysis.id}?counted=false#mentions`);
  const mention = page.getByTestId("mention");
  await expect(mention).toHaveCount(1);
  await expect(mention).toContainText("not counted: a link's label (a cited page)");
  await expect(mention).toContainText(first);
  await screenshots(page, testInfo, "visibility-link-mention");

  const csv = await cli(["visibility", "mentions", analysis.id, "--format", "jsonl", "--counted", "false"]);
  expect(csv.code, csv.stderr).toBe(0);
  expect(csv.stdout.trim().split("\n").map((l) => JSON.parse(l).reason)).toEqual(["link"]);
});

test("an entity whose name has no letter or digit is tracked by its domains alone", async () => {
  test.setTimeout(120_000);
  const queued = await api("POST", "/prompts", { prompt: `crm pricing ${directive(LINKED)}`, engines: ["chatgpt"], project: projectId });
  expect(queued.status).toBe(202);
  await expect.poll(async () => (await api("GET", `/batches/${queued.body.batch.id}?wait=30`)).body.batch.status, { timeout: 60_000 }).toBe("completed");
  // No name to match (the matcher has no term at all), only the domain in the prose.
  const created = await api("POST", "/visibility-analyses", { ids: [queued.body.batch.id], entities: [{ name: "🭏", role: "brand", domains: ["pipedrive.com"] }] });
  expect(created.status, created.text).toBe(201);
  expect(created.body.rows).toMatchObject([{ name: "🭏", runs: 1, runs_mentioning: 1, mentions: 1 }]);
  const listed = await api("GET", `/analyses/${created.body.id}/mentions`);
  expect(listed.body.items.map((m: { alias: string; counted: boolean }) => [m.alias, m.counted])).toEqual([["pipedrive.com", true]]);
});
