// Sharing every kind end to end against the built server (decisions.md "Sharing", "Sharing, wave
// 3"): a fanout in two markets and a prompt batch on two engines, with a questions analysis and a
// citation analysis beside them, made with an API key. Each kind is shared, rotated and revoked
// through the API; the fanout and batch pages' share control does the same in a signed-in
// Chromium, asking before a new link or stopping. Signed out, the fanout's page shows the
// signed-in page's matrix and queries with their intervals, by country; the batch's page each
// answer with its sources; the citation analysis's page the signed-in page's charts. No public
// page or `.json` of any kind holds an email, the project's id or a charge, and each sends the
// share headers and the robots meta. Screenshots of each page at 1280 and 390 px go to the
// test's output folder.
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from "@playwright/test";
import { apiAs } from "./support";
import { screenshots } from "./screens";
import { expectNothingOfTheWorkspace, signedInKey, openShare, pathOf, signedOut } from "./share-checks";
import { percent, percentRange } from "../../lib/words/format";

test.describe.configure({ mode: "serial" });

const EMAIL = `share-kinds-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const PROMPT = "best crm for a small b2b startup";
const MARKET_PROMPT = "which crm do small agencies use";
const FANOUT_NAME = "CRM searches in two markets";

type Share = { id: string; url: string; rotated_from: string | null; target_kind: string; target_id: string };
type QueryShare = { query: string; runs: number; share: number; share_interval: [number, number] };
type Fanout = {
  id: string;
  name: string;
  status: string;
  query_count: number;
  prompts: { index: number; text: string; engines: { engine: string; runs: { run_id: string }[] }[] }[];
};
type Report = { groups: { prompt_index: number; engine: string; completed_runs: number; queries: QueryShare[] }[]; by_country: { country: string | null }[] };
type Source = { url: string; cited: boolean | null };
type Batch = { batch: { id: string; status: string }; runs: { id: string; engine: string; result: { answer: string; sources: Source[]; searches: { query: string }[] } }[] };
type Citations = { id: string; totals: { runs: number }; domains: { domain: string; citations: number }[]; domain_coverage: unknown[] };

let auth: Record<string, string> = {};
let project = "";
let batch: Batch;
let fanout: Fanout;
let report: Report;
let questionsId = "";
let citations: Citations;
/** The working link of each kind, for the signed-out pages. */
const links: Record<string, Share> = {};

/** Signed in as EMAIL: the share controls. */
let signedIn: BrowserContext;
let page: Page;

/** The API as the spec's key (set once the first test has made it). */
const api = apiAs(() => auth);

async function statusOf(request: APIRequestContext, url: string): Promise<number> {
  return (await request.get(pathOf(url), { maxRedirects: 0 })).status();
}

test.afterAll(async () => {
  await signedIn?.close();
});

test("a fanout in two markets, a prompt batch on two engines, a questions and a citation analysis are made with an API key", async ({ browser, request }) => {
  test.setTimeout(180_000);
  signedIn = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await signedIn.newPage();
  auth = await signedInKey(page, EMAIL, "share kinds");
  project = (await api<{ id: string }>(request, "POST", "/projects", { name: "Share kinds" }, 201)).id;

  const queued = await api<Batch>(request, "POST", "/prompts", { prompt: PROMPT, engines: ["chatgpt", "claude"], project }, 202);
  batch = await api<Batch>(request, "GET", `/batches/${queued.batch.id}?wait=30`);
  expect(batch.batch.status).toBe("completed");

  const prompts = [
    { text: MARKET_PROMPT, location: { country: "DE" } },
    { text: MARKET_PROMPT, location: { country: "FR" } },
    { text: "crm with the best email sync" },
  ];
  const created = await api<Fanout>(request, "POST", "/fanouts", { name: FANOUT_NAME, prompts, engines: ["chatgpt", "claude"], runs: 2, project }, 202);
  fanout = created;
  for (let i = 0; i < 6 && !["completed", "partial", "failed"].includes(fanout.status); i++) fanout = await api<Fanout>(request, "GET", `/fanouts/${created.id}?wait=30`);
  expect(fanout.status).toBe("completed");
  report = await api<Report>(request, "GET", `/fanouts/${fanout.id}/queries`);

  const asked = await api<{ id: string; status: string }>(request, "POST", "/questions", { topic: "crm for agencies", count: 6, project }, 202);
  questionsId = asked.id;
  expect((await api<{ status: string }>(request, "GET", `/analyses/${questionsId}?wait=30`)).status).toBe("completed");

  // Covering the domain the fanout's answers cited most, so the coverage chart has a row.
  const first = await api<Citations>(request, "POST", "/citation-analyses", { ids: [fanout.id] }, 201);
  const top = first.domains.find((d) => d.citations > 0)!.domain;
  citations = await api<Citations>(request, "POST", "/citation-analyses", { ids: [fanout.id], domains: [top] }, 201);
  expect(citations.domain_coverage.length).toBe(1);
});

test("every kind is shared, rotated and revoked through the API: the old link stops at once, a revoked one never works again", async ({ request }) => {
  test.setTimeout(90_000);
  const kinds: Array<[string, string, string]> = [
    ["run", "runs", batch.runs[0]!.id],
    ["analysis", "analyses", questionsId],
    ["analysis", "analyses", citations.id],
    ["batch", "batches", batch.batch.id],
    ["fanout", "fanouts", fanout.id],
  ];
  for (const [kind, collection, id] of kinds) {
    const base = `/${collection}/${id}/share`;
    expect(await api(request, "GET", base)).toEqual({ shared: false, share: null });
    const first = await api<Share>(request, "POST", base);
    expect(first).toMatchObject({ target_kind: kind, target_id: id, rotated_from: null });
    expect(await api<Share>(request, "POST", base)).toEqual(first);
    expect(await statusOf(request, first.url)).toBe(200);

    const rotated = await api<Share>(request, "POST", `${base}/rotate`);
    expect(rotated.rotated_from).toBe(first.id);
    expect(await statusOf(request, first.url), `${kind} ${id}: the rotated-away link`).toBe(404);
    expect(await statusOf(request, rotated.url)).toBe(200);

    await api(request, "DELETE", base, undefined, 204);
    expect(await statusOf(request, rotated.url), `${kind} ${id}: the revoked link`).toBe(404);
    expect(await statusOf(request, `${rotated.url}.json`)).toBe(404);
    expect(await api<{ shared: boolean }>(request, "GET", base)).toMatchObject({ shared: false, share: { id: rotated.id } });
    await api(request, "POST", `${base}/rotate`, undefined, 409);

    // Shared again: a new link; the old ones stay dead. Kept for the pages below.
    const again = await api<Share>(request, "POST", base);
    expect(again.url).not.toBe(rotated.url);
    expect(await statusOf(request, rotated.url)).toBe(404);
    links[id] = again;
  }
});

test("the share control on the fanout's and the batch's pages shares, asks before a new link or stopping, and revokes", async ({ request }, testInfo) => {
  test.setTimeout(90_000);
  for (const [name, path, id] of [["fanout", `/fanouts/${fanout.id}`, fanout.id], ["batch", `/batches/${batch.batch.id}`, batch.batch.id]] as const) {
    // Start from an object that is not shared.
    await api(request, "DELETE", `/${name === "fanout" ? "fanouts" : "batches"}/${id}/share`, undefined, 204);
    await page.goto(path);
    const control = page.getByTestId("share-control");
    await expect(control).toBeVisible();
    await control.getByRole("button", { name: "Create share link" }).click();
    const first = await control.getByTestId("share-url").inputValue();
    expect(first).toMatch(/\/s\/[0-9A-Za-z]{43}$/);
    expect(await statusOf(request, first)).toBe(200);
    await screenshots(page, testInfo, `${name}-signed-in-shared`);

    // A new link: asked first; Cancel changes nothing.
    await control.getByRole("button", { name: "New link" }).click();
    await expect(control.getByTestId("share-confirm")).toContainText(/current link stops working/i);
    await control.getByRole("button", { name: "Cancel" }).click();
    await expect(control.getByTestId("share-url")).toHaveValue(first);
    await control.getByRole("button", { name: "New link" }).click();
    await control.getByTestId("share-confirm").getByRole("button", { name: "Make a new link" }).click();
    await expect(control.getByTestId("share-url")).not.toHaveValue(first);
    const second = await control.getByTestId("share-url").inputValue();
    expect(await statusOf(request, first)).toBe(404);
    expect(await statusOf(request, second)).toBe(200);

    // Stopping: asked first too.
    await control.getByRole("button", { name: "Stop sharing" }).click();
    await expect(control.getByTestId("share-confirm")).toContainText(/stops working/i);
    await control.getByTestId("share-confirm").getByRole("button", { name: "Stop sharing" }).click();
    await expect(control.getByRole("button", { name: "Create share link" })).toBeVisible();
    expect(await statusOf(request, second)).toBe(404);

    // Shared again for the pages below, and the page, reloaded, shows the working link.
    links[id] = await api<Share>(request, "POST", `/${name === "fanout" ? "fanouts" : "batches"}/${id}/share`);
    await page.reload();
    await expect(control.getByTestId("share-url")).toHaveValue(links[id]!.url);
  }
});

test("the fanout's page, signed out: the matrix, each engine's queries with their share and interval, by country; no run, cost or control", async ({ browser }, testInfo) => {
  const { context, page: reader } = await openShare(browser, links[fanout.id]!, `Fanout: ${FANOUT_NAME}`);
  await expect(reader.getByRole("heading", { level: 1 })).toHaveText(FANOUT_NAME);
  await expect(reader.getByTestId("fanout-matrix").getByTestId("matrix-row")).toHaveCount(3);
  await expect(reader.getByTestId("matrix-cell")).toHaveCount(6);
  await expect(reader.getByTestId("matrix-cell").first()).toContainText("2/2 runs");

  // Each engine's queries, with the runs that issued each and the share's 95% interval, as the report says.
  const group = report.groups.find((g) => g.queries.length > 0)!;
  const cell = reader.getByTestId("prompt-queries").nth(group.prompt_index - 1).locator(`[data-testid="cell-queries"][data-engine="${group.engine}"]`);
  const query = group.queries[0]!;
  const first = cell.getByTestId("cell-query").first();
  await expect(first).toContainText(query.query);
  await expect(first).toContainText(`${query.runs}/${group.completed_runs} runs`);
  await expect(first.getByTestId("query-interval")).toHaveText(`${percent(query.share)} (${percentRange(query.share_interval)})`);

  // The prompt run in Germany and in France: each engine's searches side by side per country.
  await expect(reader.getByTestId("country-comparison")).toHaveCount(1);
  await expect(reader.getByTestId("country-cell")).toHaveCount(4);
  await expect(reader.locator('[data-testid="country-cell"][data-engine="chatgpt"][data-country="DE"]')).toContainText("ChatGPT (API) · Germany");
  await expect(reader.locator('[data-testid="country-cell"][data-engine="claude"][data-country="FR"]')).toContainText("Claude (API) · France");
  await expect(reader.getByTestId("prompt-market").first()).toContainText("Germany");

  // Nothing that belongs to the signed-in page: links to runs or analyses, cost, CSV, live refresh, the control.
  await expect(reader.locator('a[href^="/runs/"], a[href^="/analyses/"], a[href^="/fanouts/"]')).toHaveCount(0);
  for (const id of ["fanout-cost", "queries-csv", "share-control"]) await expect(reader.getByTestId(id)).toHaveCount(0);
  await expect(reader.getByText("run 1").first()).toBeVisible();

  await screenshots(reader, testInfo, "fanout-shared");
  await context.close();
});

test("the prompt batch's page, signed out: each engine's card, then its answer in full with its sources and searches", async ({ browser }, testInfo) => {
  const { context, page: reader } = await openShare(browser, links[batch.batch.id]!, `ChatGPT (API), Claude (API) on: ${PROMPT}`);
  await expect(reader.getByRole("heading", { level: 1 })).toHaveText(PROMPT);
  await expect(reader.getByTestId("batch-run")).toHaveCount(2);
  for (const run of batch.runs) {
    const card = reader.locator(`[data-testid="batch-run"][data-engine="${run.engine}"]`);
    await expect(card.getByTestId("open-run")).toHaveAttribute("href", `#${run.engine}-answer`);
    const answer = reader.locator(`[data-testid="batch-answer"][data-engine="${run.engine}"]`);
    const opening = run.result.answer.split(/[[*(\n]/)[0]!.trim();
    await expect(answer.getByTestId("answer")).toContainText(opening);
    await expect(answer.getByTestId("sources-cited").locator("li")).toHaveCount(run.result.sources.filter((s) => s.cited === true).length);
    await expect(answer.getByTestId("searches").locator("li")).toHaveCount(run.result.searches.length);
  }
  // The card's link goes to the answer on this page.
  await reader.locator('[data-testid="batch-run"][data-engine="claude"]').getByTestId("open-run").click();
  await expect(reader).toHaveURL(/#claude-answer$/);
  await expect(reader.locator("#claude-answer")).toBeInViewport();
  await expect(reader.locator('a[href^="/runs/"], a[href^="/batches/"]')).toHaveCount(0);
  await expect(reader.getByTestId("share-control")).toHaveCount(0);

  await screenshots(reader, testInfo, "batch-shared");
  await context.close();
});

test("the citation analysis's page, signed out, has the signed-in page's charts: domains by engine, coverage, overlap", async ({ browser }, testInfo) => {
  // The signed-in page first: what it charts.
  await page.goto(`/analyses/${citations.id}`);
  const bars = await page.getByTestId("domains-chart-bar").count();
  const rows = await page.getByTestId("coverage-chart-row").count();
  expect(bars).toBeGreaterThan(0);
  expect(rows).toBeGreaterThan(1);

  const n = citations.totals.runs;
  const { context, page: reader } = await openShare(browser, links[citations.id]!, `What ${n} ${n === 1 ? "answer" : "answers"} cited`);
  await expect(reader.getByTestId("domains-chart")).toBeVisible();
  await expect(reader.getByTestId("domains-chart-bar")).toHaveCount(bars);
  for (const [i, bar] of (await page.getByTestId("domains-chart-bar").all()).entries()) {
    const [domain, total] = await Promise.all([bar.getAttribute("data-domain"), bar.getAttribute("data-total")]);
    await expect(reader.getByTestId("domains-chart-bar").nth(i)).toHaveAttribute("data-domain", domain!);
    await expect(reader.getByTestId("domains-chart-bar").nth(i)).toHaveAttribute("data-total", total!);
  }
  await expect(reader.getByTestId("coverage-chart")).toBeVisible();
  await expect(reader.getByTestId("coverage-chart-row")).toHaveCount(rows);
  await expect(reader.getByTestId("overlap")).toBeVisible();
  // What only the signed-in page says: how to give the project its domains, the runs left out.
  await expect(reader.locator('a[href^="/account"], a[href^="/runs/"]')).toHaveCount(0);

  await screenshots(reader, testInfo, "citations-charts-shared");
  await context.close();
});

test("no public page or .json of any kind holds an email, the project's id or a charge; each has the share headers and the robots meta", async ({ browser }) => {
  const context = await signedOut(browser);
  const reader = await context.newPage();
  const secrets = [EMAIL, project];
  expect(Object.keys(links)).toHaveLength(5);
  for (const share of Object.values(links)) await expectNothingOfTheWorkspace(reader, pathOf(share), secrets);
  await context.close();
});
