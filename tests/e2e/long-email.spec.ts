// A long email address, at the widths where it cannot fit on one line (640 and 390 px): it wraps
// after its @ or before one of its dots, never inside a name ("department.e" /
// "xampleenterprise.com" before), reads and copies as written, and nothing scrolls sideways. On the
// account page (signed in as, members), and where the research pages say who started something:
// a project's prompt list, a prompt's page and a run's page ("…@ma" / "rketing-and-growth…" before).
// Sign-in by the mailed link also finds a mail whose To: header a long address folded.
import { expect, test, type Locator } from "@playwright/test";
import { signIn } from "./support";
import { lineBreaksIn, screenshots } from "./screens";
import { signedInKey } from "./share-checks";

const EMAIL = `maximiliane.schneiderhohenzollern.${Date.now()}@marketing-and-growth.department.exampleenterprise.com`;

/**
 * The address (or a name made of one) in `element` is written whole and wraps (it cannot fit), and
 * each of its lines but its last ends at its @, a hyphen or a space, or before a dot (a break
 * before the address, after "by ", is not inside it).
 */
async function expectWrapsAtSeams(element: Locator, address: string, where: string) {
  const text = (await element.textContent())!;
  const from = text.indexOf(address);
  expect(from, `${where}: ${JSON.stringify(text)}`).toBeGreaterThanOrEqual(0);
  const breaks = (await lineBreaksIn(element)).filter((b) => b.at > from && b.at < from + address.length);
  expect(breaks.length, where).toBeGreaterThan(0);
  for (const { at: inText, around } of breaks) {
    const at = inText - from;
    const ok = address[at - 1] === "@" || address[at - 1] === "-" || address[at - 1] === " " || address[at] === ".";
    expect(ok, `${where} breaks "${address.slice(Math.max(0, at - 12), at)}|${address.slice(at, at + 12)}" (${around})`).toBe(true);
  }
}

test("a long email address wraps after its @ or before a dot, never inside a name, at 640 and 390 px", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 640, height: 900 });
  await signIn(page, EMAIL);
  // The member's line says " (you)" after the address.
  const places = { "signed in as": page.getByTestId("signed-in-as"), member: page.locator('[data-testid^="member-"] > span').first() };
  for (const width of [640, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const [where, element] of Object.entries(places)) await expectWrapsAtSeams(element, EMAIL, `${where} at ${width} px`);
  }
  await screenshots(page, testInfo, "account-long-email");
  // The personal workspace is named after the address ("maximiliane.….com's workspace"): its
  // transactions page's heading wraps before a dot or at a space too, and nothing scrolls sideways.
  await page.goto("/account/transactions");
  const heading = page.locator("#transactions-title");
  const name = (await heading.textContent())!;
  expect(name).toBe(`${EMAIL.split("@")[0]}'s workspace`);
  await page.setViewportSize({ width: 390, height: 900 });
  await expectWrapsAtSeams(heading, name, "the transactions page's heading at 390 px");
  await screenshots(page, testInfo, "transactions-long-email");
});

test("who started a prompt and its runs, and a workspace named after them: wrapped at their seams on the project, prompt and run pages at 390 px", async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const author = EMAIL.replace("@", ".author@");
  await page.setViewportSize({ width: 1280, height: 900 });
  const headers = await signedInKey(page, author, "long email");
  const project = (await (await request.post("/api/v1/projects", { headers, data: { name: "Long addresses" } })).json()) as { id: string; workspace_name: string };
  const queued = await request.post("/api/v1/prompts", { headers, data: { prompt: "best crm for a small agency", project: project.id, engines: ["chatgpt"] } });
  expect(queued.status(), await queued.text()).toBe(202);
  const { batch, runs } = (await queued.json()) as { batch: { id: string }; runs: { id: string }[] };
  await expect
    .poll(async () => ((await (await request.get(`/api/v1/batches/${batch.id}?wait=30`, { headers })).json()) as { batch: { status: string } }).batch.status, { timeout: 60_000 })
    .toBe("completed");
  // At 390 px (screenshots() leaves the page at 1280).
  const seams = async (where: string, element: Locator) => {
    await page.setViewportSize({ width: 390, height: 900 });
    await expect(element).toBeVisible();
    await expectWrapsAtSeams(element, author, `${where} at 390 px`);
  };
  await page.goto(`/runs/${runs[0]!.id}`);
  await seams("the run's page", page.locator("dt", { hasText: "Started by" }).locator("xpath=following-sibling::dd"));
  await screenshots(page, testInfo, "run-long-email");
  await page.goto(`/batches/${batch.id}`);
  await seams("the prompt's page", page.getByTestId("batch-by"));
  await page.goto(`/projects/${project.id}`);
  await seams("the project's prompt list", page.getByTestId("batch-by").first());
  // The personal workspace is named after the address's local part: "maximiliane.….author's workspace".
  expect(project.workspace_name).toContain(author.split("@")[0]);
  await page.setViewportSize({ width: 390, height: 900 });
  await expectWrapsAtSeams(page.getByTestId("project-workspace"), project.workspace_name, "the project's workspace at 390 px");
  await screenshots(page, testInfo, "project-long-email");
  // The project list ("in …'s workspace") and the account page's API keys (each key's workspace)
  // keep the window's width too (screenshots() fails on anything past its edge at 390 px).
  await page.goto("/projects");
  await screenshots(page, testInfo, "projects-long-email");
  await page.goto("/account");
  await expect(page.locator('[data-testid^="api-key-"]').first()).toContainText(project.workspace_name);
  await screenshots(page, testInfo, "account-keys-long-email");
});
