// Public share pages (/s/<token>, decisions.md "Sharing"), read in a signed-out Chromium: a prompt
// run, a questions analysis and a citation analysis made with an API key against the simulated
// engines and shared; their pages, headers and `.json`; then rotation, revocation and an unknown
// token, which all answer the same 404 page; and a page audit of a page this file serves on
// 127.0.0.1 (E2E_PORT + 1, let through by the server's AUDIT_ALLOW_HOSTS). Screenshots of each page
// at 1280 and 390 px go to the test's output folder.
import { createServer, type Server } from "node:http";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { screenshots } from "./screens";
import { expectNothingOfTheWorkspace, signedInKey, expectShareHeaders, openShare, pathOf, signedOut } from "./share-checks";
import { apiAs, E2E_PORT } from "./support";

test.describe.configure({ mode: "serial" });

const EMAIL = `share-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const PROMPT = "best crm for a small b2b startup";
const TOPIC = "crm for small teams";
const NOT_FOUND_TEXT = "This link does not work: it may have been revoked or replaced";

type Source = { url: string; cited: boolean | null; citation_count: number; search_query_observed: boolean | null };
type Run = {
  id: string;
  batch_id: string;
  project_id: string | null;
  created_by: string | null;
  input: Record<string, unknown>;
  result: { answer: string; sources: Source[]; searches: { query: string; position: number | null }[] };
} & Record<string, unknown>;
type Share = { id: string; url: string; rotated_from: string | null };
type Questions = { id: string; status: string; topic: string; questions: { id: string; text: string }[]; clusters: { id: string; name: string; question_ids: string[] }[]; provenance: { prompt_sha: string } };
type Citations = { id: string; totals: { runs: number }; engines: { engine: string }[]; domains: { domain: string }[]; pages: { url: string }[] };

let auth: Record<string, string> = {};
let project = "";
let run: Run;
let runShare: Share;
let questions: Questions;
let questionsShare: Share;
let citations: Citations;
let citationsShare: Share;

/** The API as the spec's key (set once the first test has made it). */
const api = apiAs(() => auth);

/** The 404 page's visible text, after checking its status and headers. */
async function notFoundText(page: Page, path: string): Promise<string> {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(404);
  expectShareHeaders(response);
  await expect(page.getByText(NOT_FOUND_TEXT)).toBeVisible();
  await expect(page.locator('head meta[name="robots"][content="noindex, nofollow"]')).toHaveCount(1);
  return page.locator("body").innerText();
}

async function expectJsonNotFound(request: APIRequestContext, path: string) {
  const response = await request.get(`${path}.json`);
  expect(response.status()).toBe(404);
  expectShareHeaders(response);
  expect(await response.json()).toEqual({ error: { code: "not_found", message: "No such share link.", engine: null, retryable: false } });
}

test("a prompt run, a questions analysis and a citation analysis are made with an API key and shared", async ({ page, request }) => {
  test.setTimeout(120_000);
  auth = await signedInKey(page, EMAIL, "share pages");
  project = (await api<{ id: string }>(request, "POST", "/projects", { name: "Share pages" }, 201)).id;

  const queued = await api<{ batch: { id: string } }>(request, "POST", "/prompts", { prompt: PROMPT, engines: ["chatgpt"], project }, 202);
  const done = await api<{ batch: { status: string }; runs: Run[] }>(request, "GET", `/batches/${queued.batch.id}?wait=30`);
  expect(done.batch.status).toBe("completed");
  run = await api<Run>(request, "GET", `/runs/${done.runs[0]!.id}`);
  expect(run.result.sources.some((s) => s.cited)).toBe(true);

  const asked = await api<Questions>(request, "POST", "/questions", { topic: TOPIC, count: 12, project }, 202);
  questions = await api<Questions>(request, "GET", `/analyses/${asked.id}?wait=30`);
  expect(questions.status).toBe("completed");
  expect(questions.clusters.length).toBeGreaterThan(0);

  citations = await api<Citations>(request, "POST", "/citation-analyses", { ids: [queued.batch.id] }, 201);

  runShare = await api<Share>(request, "POST", `/runs/${run.id}/share`);
  questionsShare = await api<Share>(request, "POST", `/analyses/${questions.id}/share`);
  citationsShare = await api<Share>(request, "POST", `/analyses/${citations.id}/share`);
  for (const share of [runShare, questionsShare, citationsShare]) expect(pathOf(share)).toMatch(/^\/s\/[0-9A-Za-z]{43}$/);
});

test("the run's page, signed out: prompt, answer with citation links to cited pages, sources, searches, headers", async ({ browser }, testInfo) => {
  const { context, page } = await openShare(browser, runShare, `ChatGPT (API) on: ${PROMPT}`);

  await expect(page.getByRole("heading", { level: 1 })).toHaveText(PROMPT);
  await expect(page.getByText("Shared from geoscope · read-only")).toBeVisible();
  await expect(page.getByText(/can revoke or replace the link/)).toBeVisible();
  // The answer's words up to its first mark or markup.
  const opening = run.result.answer.split(/[[*(\n]/)[0]!.trim();
  expect(opening.length).toBeGreaterThan(10);
  await expect(page.getByTestId("answer")).toContainText(opening);

  // Every mark ChatGPT wrote into the text is a link, and each links to a page the run cited.
  const cited = run.result.sources.filter((s) => s.cited === true);
  const links = page.getByTestId("citation-link");
  await expect(links).toHaveCount(cited.reduce((n, s) => n + s.citation_count, 0));
  for (const link of await links.all()) {
    expect(cited.map((s) => s.url)).toContain(await link.getAttribute("href"));
    expect(await link.getAttribute("rel")).toBe("noopener noreferrer nofollow ugc");
  }
  await expect(page.getByTestId("sources-cited").locator("li")).toHaveCount(cited.length);
  // Each page once: the cited ones, then those only seen in search results.
  await expect(page.getByTestId("sources-search").locator("li")).toHaveCount(run.result.sources.filter((s) => s.search_query_observed === true && s.cited !== true).length);
  await expect(page.getByTestId("searches").locator("li")).toHaveText(run.result.searches.map((s) => new RegExp(`^${s.query.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`)));

  // Who and where are not shown: no batch, project or person.
  const html = await page.content();
  for (const hidden of [run.batch_id, project, EMAIL]) expect(html).not.toContain(hidden);

  await screenshots(page, testInfo, "run");
  await context.close();
});

test("the run's page reads with JavaScript off", async ({ browser }) => {
  const context = await signedOut(browser, { javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(pathOf(runShare));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(PROMPT);
  await expect(page.getByTestId("citation-link").first()).toBeVisible();
  await expect(page.getByTestId("searches")).toBeVisible();
  await context.close();
});

test("the run's .json is GET /runs/{id} without project, person and charge", async ({ browser, request }) => {
  const context = await signedOut(browser);
  const response = await context.request.get(`${pathOf(runShare)}.json`);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/^application\/json/);
  expectShareHeaders(response);
  const { project: _project, ...input } = run.input;
  const fresh = await api<Run>(request, "GET", `/runs/${run.id}`);
  expect(await response.json()).toEqual({ ...fresh, project_id: null, created_by: null, charge: null, input });
  await context.close();
});

test("the questions analysis's page: clusters with their questions, and the generation prompt", async ({ browser }, testInfo) => {
  const { context, page } = await openShare(browser, questionsShare, `Questions people ask about ${TOPIC}`);

  // Fewer came back than were asked for (the simulator writes one twice): why, without the charge.
  expect(questions.questions.length).toBeLessThan(12);
  await expect(page.getByTestId("fewer-questions")).toHaveText(
    `The engine's answer held ${questions.questions.length} different questions, not 12 (a question written twice counts once).`,
  );
  const clusters = page.getByTestId("cluster");
  await expect(clusters).toHaveCount(questions.clusters.length);
  const text = new Map(questions.questions.map((q) => [q.id, q.text]));
  for (const [i, cluster] of questions.clusters.entries()) {
    await expect(clusters.nth(i).getByRole("heading", { level: 2 })).toHaveText(cluster.name);
    await expect(clusters.nth(i).getByTestId("question")).toHaveCount(cluster.question_ids.length);
    await expect(clusters.nth(i).getByTestId("question").first()).toContainText(text.get(cluster.question_ids[0]!)!);
  }
  await expect(page.getByTestId("prompt-sha")).toBeHidden();
  await page.getByText("How these questions were generated").click();
  await expect(page.getByTestId("prompt-sha")).toHaveText(questions.provenance.prompt_sha);

  await screenshots(page, testInfo, "questions");
  await context.close();
});

test("the citation analysis's page: totals, engines, top domains and pages", async ({ browser }, testInfo) => {
  const n = citations.totals.runs;
  const { context, page } = await openShare(browser, citationsShare, `What ${n} ${n === 1 ? "answer" : "answers"} cited`);

  await expect(page.getByTestId("totals")).toContainText("Answers counted");
  const engines = page.locator("#engines tbody tr");
  await expect(engines).toHaveCount(citations.engines.length);
  await expect(engines.first()).toContainText("ChatGPT");
  const domains = page.locator("#domains tbody tr");
  await expect(domains).toHaveCount(Math.min(20, citations.domains.length));
  await expect(domains.first()).toContainText(citations.domains[0]!.domain);
  await expect(page.locator("#pages tbody tr")).toHaveCount(Math.min(20, citations.pages.length));
  await expect(page.locator("#domains")).toContainText(new RegExp(`(All|Top \\d+ of) ${citations.domains.length} domains`));

  await screenshots(page, testInfo, "citations");
  await context.close();
});

test("rotated, revoked and unknown links all answer the same 404 page; the new link works", async ({ browser, request }, testInfo) => {
  const context = await signedOut(browser);
  const page = await context.newPage();

  const rotated = await api<Share>(request, "POST", `/runs/${run.id}/share/rotate`);
  expect(rotated.rotated_from).toBe(runShare.id);
  expect(rotated.url).not.toBe(runShare.url);
  const old = await notFoundText(page, pathOf(runShare));
  await expectJsonNotFound(context.request, pathOf(runShare));
  await screenshots(page, testInfo, "not-found");
  const fresh = await page.goto(pathOf(rotated));
  expect(fresh?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(PROMPT);
  expect((await context.request.get(`${pathOf(rotated)}.json`)).status()).toBe(200);

  await api(request, "DELETE", `/analyses/${questions.id}/share`, undefined, 204);
  expect(await notFoundText(page, pathOf(questionsShare))).toBe(old);
  await expectJsonNotFound(context.request, pathOf(questionsShare));

  const unknown = `/s/${"0123456789abcdefghijABCDEFGHIJklmnopqrstuvw".split("").reverse().join("")}`;
  expect(await notFoundText(page, unknown)).toBe(old);
  await expectJsonNotFound(context.request, unknown);
  expect(await notFoundText(page, "/s/not-a-token")).toBe(old);
  await expectJsonNotFound(context.request, "/s/not-a-token");

  // The citation analysis's link was left alone and still works.
  expect((await page.goto(pathOf(citationsShare)))?.status()).toBe(200);
  await context.close();
});

// ---------- a page audit ----------

/** The audited page: a heading skips a level, no description, and markup-like text that must stay text. Its URL (at most 90 characters, the preview's title keeps it whole) is wider than a phone. */
const AUDITED_PATH = "/blog/choosing-a-crm-for-a-small-b2b-team-and-what-it-must-connect";
const AUDITED = `http://127.0.0.1:${E2E_PORT + 1}${AUDITED_PATH}`;
const AUDITED_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Choosing a CRM for a small B2B team</title></head>
<body><main><article><h1>Choosing a CRM for a small B2B team</h1>
<p>${"Who enters the data, what it must connect to and what you can pay per seat decide which CRM a small team should pick. ".repeat(6)}</p>
<h2>Why &lt;b&gt;bold&lt;/b&gt; claims need sources</h2><h4>Mobile entry</h4><p>Sales people enter notes on their phones between meetings.</p>
</article></main></body></html>`;

type AuditFinding = { key: string; name: string; status: string; reason: string | null };
type AuditRun = { id: string; status: string; result: { findings: AuditFinding[] } };

let site: Server | null = null;
test.afterAll(() => new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve())));

test("an audit run's page, signed out: the URL linked out, the fetch, findings by status with evidence, content, outline, metadata", async ({ browser, request }, testInfo) => {
  test.setTimeout(90_000);
  site = createServer((req, res) => {
    if (req.url === AUDITED_PATH) return void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(AUDITED_HTML);
    res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  });
  await new Promise<void>((resolve, reject) => site!.once("error", reject).listen(E2E_PORT + 1, "127.0.0.1", resolve));

  const queued = await api<AuditRun>(request, "POST", "/audits", { url: AUDITED, project }, 202);
  let audit = queued;
  while (audit.status !== "completed" && audit.status !== "failed") audit = await api<AuditRun>(request, "GET", `/runs/${queued.id}?wait=30`);
  expect(audit.status).toBe("completed");
  const failing = audit.result.findings.filter((f) => f.status === "fail");
  expect(failing.map((f) => f.key), `the e2e server must run with AUDIT_ALLOW_HOSTS=127.0.0.1:${E2E_PORT + 1}`).not.toContain("http_error");
  expect(failing.map((f) => f.key)).toEqual(expect.arrayContaining(["heading_level_skips", "missing_description"]));
  const share = await api<Share>(request, "POST", `/runs/${audit.id}/share`);

  const { context, page } = await openShare(browser, share, `Page audit: ${AUDITED}`);
  const heading = page.getByRole("heading", { level: 1 });
  await expect(heading).toHaveText(AUDITED);
  await expect(heading.getByRole("link")).toHaveAttribute("href", AUDITED);
  await expect(heading.getByRole("link")).toHaveAttribute("rel", "noopener noreferrer nofollow ugc");
  const description = await page.locator('head meta[property="og:description"]').getAttribute("content");
  expect(description).toMatch(new RegExp(`^${failing.length} failing, \\d+ warnings?: `));

  await expect(page.getByTestId("fetch")).toContainText("HTTP 200");
  const cards = page.locator("#failing").getByTestId("finding");
  await expect(cards).toHaveCount(failing.length);
  const skips = page.locator('[data-testid="finding"][data-key="heading_level_skips"]');
  await expect(skips).toContainText("Why it matters");
  await expect(skips).toContainText("What to do");
  await expect(skips.getByTestId("evidence")).toContainText("<h4>Mobile entry</h4>");
  // Text read from the page stays text: no element of it is rendered.
  await expect(page.getByTestId("outline")).toContainText("Why <b>bold</b> claims need sources");
  await expect(page.locator("main b")).toHaveCount(0);
  await expect(page.locator("main h4")).toHaveCount(0);

  // Passing and not applicable findings are folded away, and open on a click.
  const passed = page.getByTestId("passed");
  await expect(passed.getByTestId("folded-finding").first()).toBeHidden();
  await passed.locator("summary").click();
  await expect(passed.getByTestId("folded-finding")).toHaveCount(audit.result.findings.filter((f) => f.status === "pass").length);
  await expect(page.getByTestId("metadata")).toContainText("Choosing a CRM for a small B2B team");

  const html = await page.content();
  for (const hidden of [project, EMAIL]) expect(html).not.toContain(hidden);
  await screenshots(page, testInfo, "audit");
  // Nor in its .json, nor any charge (the audit's hold was captured).
  await expectNothingOfTheWorkspace(page, pathOf(share), [project, EMAIL]);
  await context.close();
});
