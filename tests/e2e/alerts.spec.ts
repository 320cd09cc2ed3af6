// Alerts end to end against the built server (issue #37). A real webhook receiver on E2E_PORT + 1
// (which the e2e server lists in WEBHOOK_ALLOW_HOSTS) checks every signature with the README's own
// verifier. Through the API and the real `geoscope` binary: a ping delivered, listed with its
// delivery, the alerts of a skipped tick sent to the webhook and mailed once (the e2e server's
// SMTP catcher), once per cause. In Chromium: the monitor page's alerts and deliveries tables,
// "Send test webhook" delivered and not, the alert settings refusing a loopback URL in the form's
// words; the weekly digest turned on in the same form, GET /digests and `monitor digests` answering;
// screenshots at 1280 and 390 px. Then, on PostgreSQL with a server of its own, a delivery
// in flight when the server is SIGKILLed is retried by the restarted server, the same event id.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { createTestDatabase } from "../helpers/pg-database";
import { freePort, nextServer, runScript, serverTestEnv, type NextServer } from "../helpers/processes";
import { readmeVerifier, startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { apiWith, approveCliLogin, BIN, cliAs, cliEnv, E2E_PORT, MAILBOX, ROOT, signIn } from "./support";
import { screenshots } from "./screens";

test.describe.configure({ mode: "serial" });

const EMAIL = `alerts-${Date.now()}@example.com`;
const CONFIG_DIR = mkdtempSync(path.join(tmpdir(), "geoscope-alerts-cli-"));

let context: BrowserContext;
let page: Page;
let receiver: Receiver;
let verify: Awaited<ReturnType<typeof readmeVerifier>>;
let monitorId = "";
let secret = "";

const cli = cliAs({ configDir: CONFIG_DIR });

/** The CLI's saved token: the API calls below are made with it, as any client would. */
function token(): string {
  return (JSON.parse(readFileSync(path.join(CONFIG_DIR, "config.json"), "utf8")) as { token: string }).token;
}

const api = apiWith(token);

/** The mails the e2e server's SMTP catcher received for `to`. */
function mailsTo(to: string): string[] {
  return readdirSync(MAILBOX)
    .map((file) => readFileSync(path.join(MAILBOX, file), "utf8").replace(/=\r?\n/g, ""))
    .filter((raw) => raw.toLowerCase().includes(`to: ${to.toLowerCase()}`));
}

const hook = (p: string) => `http://127.0.0.1:${E2E_PORT + 1}${p}`;

test.beforeAll(async ({ browser }) => {
  receiver = await startReceiver(E2E_PORT + 1);
  verify = await readmeVerifier();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
});
test.afterAll(async () => {
  await context?.close();
  await receiver?.close();
});

test("the API and the CLI: a ping delivered and signed, the alerts listed with their deliveries, a skipped tick's alert sent and mailed once per cause", async () => {
  test.setTimeout(180_000);
  await signIn(page, EMAIL);
  const login = await approveCliLogin(page, process.execPath, [BIN], { cwd: ROOT, env: cliEnv({ configDir: CONFIG_DIR }) });
  expect(login.code, login.stderr).toBe(0);
  const project = await api("POST", "/projects", { name: "Alerted", context: { brands: ["Acme CRM"], competitors: ["HubSpot"] } });
  expect(project.status).toBe(201);

  // Refused at creation: an unlisted loopback port, and a name resolving to loopback.
  for (const url of [`http://127.0.0.1:${E2E_PORT + 2}/hook`, `http://localhost:${E2E_PORT + 1}/hook`]) {
    const refused = await cli(["monitor", "create", "best crm", "--project", project.body.id, "--webhook-url", url]);
    expect(refused.code, url).toBe(8);
    expect(refused.stderr).toContain("alerts.webhook_url:");
  }

  const created = await cli([
    "monitor", "create", "best crm for a small agency", "--project", project.body.id, "--engines", "gemini", "--runs", "1",
    "--webhook-url", hook("/cli"), "--email", "--budget", "0.001", "--name", "Alerted monitor",
  ]);
  expect(created.code, created.stderr).toBe(0);
  secret = /webhook secret: (whsec_[0-9A-Za-z]{40})/.exec(created.stdout)![1]!;
  monitorId = /monitor (mo_[0-9A-Z]{26}):/.exec(created.stdout)![1]!;

  // The ping through the binary: sent, answered 200, said so; the receiver's copy verifies with the README's code.
  const pinged = await cli(["monitor", "test-webhook", monitorId]);
  expect(pinged.code, pinged.stderr).toBe(0);
  expect(pinged.stdout).toMatch(/^Ping al_[0-9A-Z]{26}: webhook delivered \(200, 1 attempt\)\n$/);
  const pingId = /Ping (al_[0-9A-Z]{26})/.exec(pinged.stdout)![1]!;
  const got = receiver.to("/cli");
  expect(got).toHaveLength(1);
  expect(JSON.parse(got[0]!.body)).toMatchObject({ id: pingId, type: "ping", monitor_id: monitorId, data: { monitor_name: "Alerted monitor" } });
  expect(verify(got[0]!.body, got[0]!.headers["geoscope-signature"] as string, secret)).toBe(true);

  // The ping through the API: 202 with its delivery, then listed delivered.
  const viaApi = await api("POST", `/monitors/${monitorId}/alerts/test`);
  expect(viaApi.status).toBe(202);
  expect(viaApi.body).toMatchObject({ kind: "ping", tick_id: null, deliveries: [{ channel: "webhook" }] });
  await receiver.waitFor("/cli", 2);
  await expect
    .poll(async () => (await api("GET", `/monitors/${monitorId}/alerts`)).body.items.find((a: { id: string }) => a.id === viaApi.body.id)?.deliveries[0].status)
    .toBe("delivered");
  expect(verify(receiver.to("/cli")[1]!.body, receiver.to("/cli")[1]!.headers["geoscope-signature"] as string, secret)).toBe(true);

  // A tick the budget cannot pay: skipped; its alert goes to the webhook and, once, by email.
  // Run again for the same cause: no second alert, no second email.
  for (let i = 0; i < 2; i++) {
    const ran = await cli(["monitor", "run", monitorId, "--json"]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject({ status: "skipped", skip_reason: "budget_exhausted" });
  }
  await receiver.waitFor("/cli", 3);
  await expect.poll(() => mailsTo(EMAIL).filter((m) => m.includes("raised an alert at its tick")).length, { timeout: 15_000 }).toBe(1);
  const mail = mailsTo(EMAIL).find((m) => m.includes("raised an alert at its tick"))!;
  expect(mail).toContain("A tick was skipped: it would have taken the monitor past its monthly budget");
  expect(mail).toContain(`/monitors/${monitorId}`);
  const skipped = JSON.parse(receiver.to("/cli")[2]!.body);
  expect(skipped).toMatchObject({ type: "tick_skipped", data: { reason: "budget_exhausted" } });
  expect(verify(receiver.to("/cli")[2]!.body, receiver.to("/cli")[2]!.headers["geoscope-signature"] as string, secret)).toBe(true);

  const listed = await cli(["monitor", "alerts", monitorId]);
  expect(listed.code, listed.stderr).toBe(0);
  expect(listed.stdout).toContain("tick_skipped");
  expect(listed.stdout).toContain("webhook delivered (200, 1 attempt); email delivered (sent, 1 attempt)");
  expect(listed.stdout).toContain(`${pingId}  `);
  const json = JSON.parse((await cli(["monitor", "alerts", monitorId, "--json"])).stdout);
  expect(json.items.map((a: { kind: string }) => a.kind)).toEqual(["tick_skipped", "ping", "ping"]);
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(receiver.to("/cli")).toHaveLength(3);
  expect(mailsTo(EMAIL).filter((m) => m.includes("raised an alert at its tick"))).toHaveLength(1);
});

test("the monitor page: its alerts and deliveries, Send test webhook delivered and refused, the settings in the form's words", async ({}, testInfo) => {
  test.setTimeout(120_000);
  await page.goto(`/monitors/${monitorId}`);
  // One prompt on one engine, once: said in the singular.
  await expect(page.getByText("1 prompt × Gemini (API) × 1 = 1 run", { exact: true })).toBeVisible();
  const section = page.locator("#alerts");
  await expect(section.getByTestId("alert-row")).toHaveCount(3);
  await expect(section.getByTestId("alert-row").first()).toHaveAttribute("data-kind", "tick_skipped");
  await expect(section.getByTestId("delivery-row")).toHaveCount(4);
  await expect(section.locator('[data-testid="delivery-row"][data-channel="email"]')).toHaveAttribute("data-status", "delivered");

  await section.getByTestId("test-webhook").click();
  await expect(section.getByTestId("alert-action-outcome")).toContainText("Test webhook delivered: your endpoint answered 200.");
  await expect(section.getByTestId("alert-row")).toHaveCount(4);
  expect(receiver.to("/cli")).toHaveLength(4);
  await screenshots(page, testInfo, "monitor-alerts");

  // The endpoint down: the ping is not delivered, the table says why and when it is tried again.
  receiver.plan("/down", () => 503);
  await section.getByTestId("alert-settings").locator("xpath=..").locator("summary").click();
  const settings = section.getByTestId("alert-settings");
  await settings.getByTestId("alert-webhook-url").fill(hook("/down"));
  await settings.getByTestId("save-alerts").click();
  await expect(section.getByTestId("alert-action-outcome")).toContainText("Alert settings saved.");
  await section.getByTestId("test-webhook").click();
  await expect(section.getByTestId("alert-action-outcome")).toContainText("Test webhook not delivered: answered 503");
  const pendingRow = section.locator('[data-testid="delivery-row"][data-status="pending"]');
  await expect(pendingRow).toHaveCount(1);
  await expect(pendingRow.getByTestId("delivery-last-status")).toHaveText("503");
  await expect(pendingRow).toContainText("next ");
  expect(receiver.to("/down")).toHaveLength(1);

  // A loopback URL outside WEBHOOK_ALLOW_HOSTS is refused in the form's words; what was typed stays.
  if (!(await settings.isVisible())) await section.getByTestId("alert-settings").locator("xpath=..").locator("summary").click();
  await settings.getByTestId("alert-webhook-url").fill(`http://127.0.0.1:${E2E_PORT + 2}/hook`);
  await settings.getByTestId("save-alerts").click();
  await expect(section.getByTestId("alert-action-outcome")).toContainText(`Webhook URL: 127.0.0.1 is a private or reserved address`);
  await expect(settings.getByTestId("alert-webhook-url")).toHaveValue(`http://127.0.0.1:${E2E_PORT + 2}/hook`);
  expect((await api("GET", `/monitors/${monitorId}`)).body.alerts.webhook_url).toBe(hook("/down"));
  await screenshots(page, testInfo, "monitor-alerts-refused");
});

test("the weekly digest: the monitor page's alert settings turn it on (same version), the page says when it goes, GET /digests and the CLI answer", async ({}, testInfo) => {
  test.setTimeout(90_000);
  expect((await api("GET", `/monitors/${monitorId}`)).body.alerts.digest).toBe("off");
  await page.goto(`/monitors/${monitorId}`);
  const digests = page.locator("#digests");
  await expect(digests).toContainText("Off: turn on “Weekly digest” in the alert settings above");
  await expect(digests.getByTestId("no-digests")).toBeVisible();
  const section = page.locator("#alerts");
  const settings = section.getByTestId("alert-settings");
  if (!(await settings.isVisible())) await settings.locator("xpath=..").locator("summary").click();
  await expect(settings.getByTestId("alert-digest")).not.toBeChecked();
  await settings.getByTestId("alert-digest").check();
  await settings.getByTestId("save-alerts").click();
  await expect(section.getByTestId("alert-action-outcome")).toContainText("Alert settings saved.");
  await screenshots(page, testInfo, "monitor-digest-setting");
  const monitor = (await api("GET", `/monitors/${monitorId}`)).body;
  expect(monitor.alerts.digest).toBe("weekly");
  expect(monitor.version).toBe(1);
  await page.reload();
  await expect(page.locator("#digests")).toContainText("On: a digest goes to the monitor's creator on Mondays");
  await expect(page.locator("#alerts").getByTestId("alert-digest")).toBeChecked();
  await screenshots(page, testInfo, "monitor-digests");

  // No Monday tick has run yet: the list is empty, in the API and the CLI alike.
  const listed = await api("GET", `/monitors/${monitorId}/digests`);
  expect([listed.status, listed.body]).toEqual([200, { items: [], next_cursor: null }]);
  const human = await cli(["monitor", "digests", monitorId]);
  expect(human.code, human.stderr).toBe(0);
  expect(human.stdout.trim()).toBe("(no digest yet)");
  expect(JSON.parse((await cli(["monitor", "digests", monitorId, "--json"])).stdout)).toEqual(listed.body);
  expect((await cli(["monitor", "get", monitorId])).stdout).toContain(`weekly digest (geoscope monitor digests ${monitorId})`);
});

test("the CLI changes a monitor's alerts, digest and budget in place (same version), and what it measures (a new version): geoscope monitor update", async () => {
  const before = (await api("GET", `/monitors/${monitorId}`)).body;
  const changed = await cli(["monitor", "update", monitorId, "--digest", "off", "--min-change", "15", "--email", "on", "--budget", "30.00", "--json"]);
  expect(changed.code, changed.stderr).toBe(0);
  const monitor = JSON.parse(changed.stdout);
  expect(monitor.alerts).toEqual({ ...before.alerts, digest: "off", min_change: 15, email: true });
  expect(monitor.monthly_budget_usd).toBe("30.00");
  expect(monitor.version).toBe(before.version);
  // With the digest off, the empty list says so and how to turn it on (the human output only).
  const digests = await cli(["monitor", "digests", monitorId]);
  expect(digests.stdout.trim()).toBe(`(none: its weekly digest is off; turn it on with: geoscope monitor update ${monitorId} --digest weekly)`);
  expect(JSON.parse((await cli(["monitor", "digests", monitorId, "--json"])).stdout)).toEqual({ items: [], next_cursor: null });
  const cleared = await cli(["monitor", "update", monitorId, "--webhook-url", "none", "--budget", "none", "--digest", "weekly"]);
  expect(cleared.code, cleared.stderr).toBe(0);
  expect(cleared.stdout).toContain(`no webhook, email, from 15 points, weekly digest (geoscope monitor digests ${monitorId})`);
  expect(cleared.stdout).toContain("(no budget)");
  const after = (await api("GET", `/monitors/${monitorId}`)).body;
  expect([after.alerts.webhook_url, after.monthly_budget_usd, after.version]).toEqual([null, null, before.version]);
  // Nothing to change, or a setting it does not take: a usage error, nothing sent.
  for (const args of [[], ["--email", "maybe"]]) {
    const refused = await cli(["monitor", "update", monitorId, ...args]);
    expect(refused.code, args.join(" ")).toBe(2);
    expect(refused.stdout).toBe("");
  }
  expect((await cli(["monitor", "update", monitorId])).stderr).toContain("nothing to change: give --name, --every day|week, --at HH:MM");
  expect((await api("GET", `/monitors/${monitorId}`)).body).toEqual(after);
  // A part of the schedule: the rest kept from the monitor's (the API takes a whole one).
  const scheduleAfter = async (...args: string[]) => {
    const moved = await cli(["monitor", "update", monitorId, ...args, "--json"]);
    expect(moved.code, moved.stderr).toBe(0);
    return JSON.parse(moved.stdout).schedule;
  };
  const start = after.schedule;
  expect(await scheduleAfter("--at", "08:15")).toEqual({ ...start, at: "08:15" });
  expect(await scheduleAfter("--weekday", "fri")).toEqual({ every: "week", at: "08:15", weekday: 5 });
  expect(await scheduleAfter("--at", "09:00")).toEqual({ every: "week", at: "09:00", weekday: 5 });
  expect(await scheduleAfter("--every", "day")).toEqual({ every: "day", at: "09:00", weekday: null });
  const both = await cli(["monitor", "update", monitorId, "--every", "day", "--weekday", "2"]);
  expect([both.code, both.stdout]).toEqual([2, ""]);
  expect(both.stderr).toContain("--weekday goes with a weekly schedule (--every week)");
  expect((await api("GET", `/monitors/${monitorId}`)).body.version).toBe(before.version);

  // What it measures: the version goes up (a new series), said on standard error, the old series
  // still readable by its version; what it measures already changes nothing, and says so.
  const v = before.version;
  const measured = await cli(["monitor", "update", monitorId, "--runs", "2", "--language", "de"]);
  expect(measured.code, measured.stderr).toBe(0);
  expect(measured.stderr).toContain(
    `What it measures changed: version ${v + 1}, a new series from the next tick. Version ${v}'s stays readable: geoscope monitor series ${monitorId} --version ${v}`,
  );
  expect(measured.stdout).toContain(`version ${v + 1}`);
  const now = (await api("GET", `/monitors/${monitorId}`)).body;
  expect([now.version, now.runs, now.language, now.alerts]).toEqual([v + 1, 2, "de", after.alerts]);
  const same = await cli(["monitor", "update", monitorId, "--runs", "2", "--json"]);
  expect(same.code, same.stderr).toBe(0);
  expect(same.stderr).toContain(`What it measures is as it was: still version ${v + 1}, its series goes on.`);
  expect(JSON.parse(same.stdout).version).toBe(v + 1);
  const old = await cli(["monitor", "series", monitorId, "--version", String(v), "--entity", before.entities[0].name, "--json"]);
  expect(old.code, old.stderr).toBe(0);
  expect(JSON.parse(old.stdout).version).toBe(v);
  // A refusal of the API's (an unknown engine: exit 8, invalid_request) changes nothing.
  const unknown = await cli(["monitor", "update", monitorId, "--engines", "chatgpt,altavista"]);
  expect(unknown.code).toBe(8);
  expect(unknown.stderr).toContain("altavista");
  expect((await api("GET", `/monitors/${monitorId}`)).body.version).toBe(v + 1);
});

test("a delivery in flight when the server is SIGKILLed is retried by the restarted server: the same event, delivered", async () => {
  // PostgreSQL and a server of its own (its job leases outlive the kill; the retry's time is moved
  // to now in the database, as the clock reaching it would).
  test.setTimeout(180_000);
  const database = await createTestDatabase();
  const held = await startReceiver();
  held.plan("/held", (n) => (n === 1 ? "hold" : 200));
  let server: NextServer | undefined;
  try {
    const setup = serverTestEnv({ DATABASE_URL: database.url });
    await runScript("db-migrate", [], setup);
    const created = JSON.parse(await runScript("admin", ["user:create", "--email", "killed-alerts@example.com", "--api-key", "k"], setup)) as { api_key: { key: string } };
    const headers = { authorization: `Bearer ${created.api_key.key}`, "content-type": "application/json" };
    server = nextServer(await freePort(), serverTestEnv({ DATABASE_URL: database.url, WEBHOOK_ALLOW_HOSTS: `127.0.0.1:${held.port}`, MONITOR_CHECK_SECONDS: "1" }));
    const s = server;
    const call = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(`${s.base}/api/v1${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return (await res.json()) as any;
    };
    await s.start();
    const projectId = (await call("POST", "/projects", { name: "Killed", context: { brands: ["Acme"] } })).id as string;
    const monitor = await call("POST", "/monitors", { project: projectId, prompts: [{ text: "killed ping" }], engines: ["gemini"], runs: 1, alerts: { webhook_url: held.url("/held") } });
    const ping = await call("POST", `/monitors/${monitor.id}/alerts/test`);
    expect(ping.id).toMatch(/^al_/);

    // The first attempt reached the receiver, which holds it: kill the server in the middle of it.
    await held.waitFor("/held", 1);
    await s.kill();
    const [row] = await database.query<{ id: string; status: string; attempts: number; last_status: string | null }>(
      `SELECT id, status::text, attempts, last_status FROM alert_deliveries WHERE alert_id = $1`,
      [ping.id],
    );
    expect(row).toMatchObject({ status: "pending", attempts: 1, last_status: null });
    await database.query(`UPDATE alert_deliveries SET next_attempt_at = (now() AT TIME ZONE 'UTC') - interval '1 second' WHERE id = $1`, [row!.id]);

    await s.start();
    await held.waitFor("/held", 2);
    await expect
      .poll(async () => (await call("GET", `/monitors/${monitor.id}/alerts`)).items[0].deliveries[0].status, { timeout: 60_000, intervals: [500] })
      .toBe("delivered");
    const delivery = (await call("GET", `/monitors/${monitor.id}/alerts`)).items[0].deliveries[0];
    expect(delivery).toMatchObject({ attempts: 2, last_status: "200" });
    expect(delivery.history.map((h: { attempt: number; status: string }) => [h.attempt, h.status])).toEqual([[2, "200"]]);
    // The same event both times, each signed with the monitor's secret.
    const received = held.to("/held");
    expect(received.map((r) => JSON.parse(r.body).id)).toEqual([ping.id, ping.id]);
    expect(received[0]!.body).toBe(received[1]!.body);
    for (const r of received) expect(verify(r.body, r.headers["geoscope-signature"] as string, monitor.webhook_secret)).toBe(true);
    // One job per attempt: the second ran once and completed.
    expect(await database.query(`SELECT id, status::text FROM jobs WHERE job = 'deliver-alert' AND id = $1`, [`${row!.id}.2`])).toEqual([{ id: `${row!.id}.2`, status: "completed" }]);
  } finally {
    await server?.kill();
    await held.close();
    await database.drop();
  }
});
