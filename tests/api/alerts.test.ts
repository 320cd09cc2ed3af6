// Alerts and webhooks through the route handlers and the jobs (issue #37), with a real receiver on
// loopback (listed in WEBHOOK_ALLOW_HOSTS) and the clock injected into the deliveries' sweep, so
// no test waits for a retry: a ping delivered and signed as the README verifies; a receiver that
// fails three times then answers gets the same event four times and it ends delivered; one that
// never answers 2xx ends failed after the five retries; unlisted loopback, link-local, private
// and loopback-resolving URLs refused at creation, and never delivered when they come later (a
// name resolving elsewhere, a redirect); the secret's rotation; tick_failed and tick_skipped once
// per cause until a tick completes; significant changes raised once per cell however often the
// raise runs; one email per tick, mailed or logged.
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as testRoute } from "@/app/api/v1/monitors/[monitor_id]/alerts/test/route";
import { GET as alertsRoute } from "@/app/api/v1/monitors/[monitor_id]/alerts/route";
import { DELETE as deleteRoute, PATCH as patchRoute } from "@/app/api/v1/monitors/[monitor_id]/route";
import { POST as runRoute } from "@/app/api/v1/monitors/[monitor_id]/run/route";
import { POST as rotateRoute } from "@/app/api/v1/monitors/[monitor_id]/webhook-secret/rotate/route";
import { POST as createRoute } from "@/app/api/v1/monitors/route";
import { attemptDelivery, MAX_ATTEMPTS, RETRY_WAITS_MS, sweepDeliveries, WEBHOOK_TIMEOUT_MS } from "@/lib/alerts/deliver";
import { raiseAlerts, type SignificantChange } from "@/lib/alerts/raise";
import { resetConfig } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { checkMonitors } from "@/lib/monitors/ticks";
import { createProject } from "@/lib/projects/create";
import { localDriver } from "@/lib/work/local-driver";
import { heldBack, useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { call } from "../helpers/http";
import { person, principalOf, type Person } from "../helpers/people";
import { readmeVerifier, startReceiver, type Receiver } from "../helpers/webhook-receiver";

useSimulatedEngines({ billing: true });
useTestDatabase();

let receiver: Receiver;
/** A second real server on loopback, NOT listed: nothing may ever reach it. */
let unlisted: Receiver;
let verify: Awaited<ReturnType<typeof readmeVerifier>>;
let alice: Person;
let bob: Person;
let project: string;
let smtp: SMTPServer;
const mails: string[] = [];

const MINUTE = 60_000;

function create(token: string, body: Record<string, unknown>) {
  return call(createRoute, "POST", "/monitors", { token, body });
}
function alerts(token: string, id: string, query: Record<string, string | number> = {}) {
  return call(alertsRoute, "GET", `/monitors/${id}/alerts`, { token, params: { monitor_id: id }, query });
}
function ping(token: string, id: string) {
  return call(testRoute, "POST", `/monitors/${id}/alerts/test`, { token, params: { monitor_id: id } });
}
function patch(token: string, id: string, body: unknown) {
  return call(patchRoute, "PATCH", `/monitors/${id}`, { token, params: { monitor_id: id }, body });
}
function runNow(token: string, id: string) {
  return call(runRoute, "POST", `/monitors/${id}/run`, { token, params: { monitor_id: id } });
}

/** A monitor of one prompt on Gemini once per tick (0.015 USD a tick), alerts as given. */
async function monitor(alertsSettings: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const res = await create(alice.cliToken, { project, prompts: [{ text: "best crm for agencies" }], engines: ["gemini"], runs: 1, alerts: alertsSettings, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; webhook_secret: string; next_run_at: string };
}

/** The monitor's newest alert's webhook delivery. */
async function webhookOf(monitorId: string, alertId: string) {
  const list = (await alerts(alice.cliToken, monitorId, { limit: 200 })).body.items as any[];
  return list.find((a) => a.id === alertId).deliveries.find((d: { channel: string }) => d.channel === "webhook");
}

/** The sweep at `at` (the injected clock), then every job it queued. */
async function sweepAt(at: number) {
  const swept = await sweepDeliveries(new Date(at));
  await localDriver().drained();
  return swept;
}

/** Every queued job run, then the scheduler's sweep (which closes ticks whose fanout finished), then its jobs. */
async function settle(now = new Date()) {
  await localDriver().drained();
  await checkMonitors(now);
  await localDriver().drained();
}

beforeAll(async () => {
  receiver = await startReceiver();
  unlisted = await startReceiver();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        mails.push(Buffer.concat(chunks).toString("utf8").replace(/=\r?\n/g, ""));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  process.env.WEBHOOK_ALLOW_HOSTS = `hooks.test.invalid,127.0.0.1:${receiver.port}`;
  resetConfig();
  verify = await readmeVerifier();
  alice = await person("alerts-alice@example.com");
  bob = await person("alerts-bob@example.com");
  project = (await createProject(principalOf(alice), { name: "Alerts", workspace_id: alice.workspaceId, context: { brands: ["Acme CRM"], competitors: ["HubSpot"] } })).id;
});

afterEach(async () => {
  // Drained before the clean-up below, which no job still running may undo (setup-api.ts drains only after it).
  await localDriver().drained();
  await db().monitor.updateMany({ data: { status: "paused" } });
  // Each test's deliveries end with it, so a later test's clock does not retry them.
  await db().alertDelivery.updateMany({ where: { status: "pending" }, data: { status: "failed" } });
  delete process.env.SMTP_URL;
  resetConfig();
});

afterAll(async () => {
  await receiver?.close();
  await unlisted?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  delete process.env.WEBHOOK_ALLOW_HOSTS;
  resetConfig();
});

describe("POST /monitors/{id}/alerts/test and GET /monitors/{id}/alerts", () => {
  it("sends a signed ping now (202), delivered on a 2xx and listed with its delivery; the README's verifier accepts it and nothing else", async () => {
    const m = await monitor({ webhook_url: receiver.url("/ping") });
    const res = await ping(alice.cliToken, m.id);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ kind: "ping", tick_id: null, entity: null, engine: null, before: null, interval: null });
    expect(res.body.id).toMatch(/^al_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(res.body.deliveries).toHaveLength(1);
    expect(res.body.deliveries[0]).toMatchObject({ channel: "webhook" });
    await localDriver().drained();

    const [got] = receiver.to("/ping");
    expect(receiver.to("/ping")).toHaveLength(1);
    const event = JSON.parse(got!.body);
    expect(event).toEqual({
      id: res.body.id,
      type: "ping",
      created_at: res.body.created_at,
      monitor_id: m.id,
      data: expect.objectContaining({ monitor_name: "best crm for agencies", tick_id: null, summary: res.body.summary }),
    });
    expect(got!.headers["content-type"]).toBe("application/json");
    const header = got!.headers["geoscope-signature"] as string;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    // The README's verifier, run as written: the real delivery passes; a changed body, another
    // secret or a replay an hour old does not.
    expect(verify(got!.body, header, m.webhook_secret)).toBe(true);
    expect(verify(got!.body.replace("ping", "pong"), header, m.webhook_secret)).toBe(false);
    expect(verify(got!.body, header, `whsec_${"x".repeat(40)}`)).toBe(false);
    const hourAgo = Math.floor(Date.now() / 1000) - 3600;
    expect(verify(got!.body, header.replace(/^t=\d+/, `t=${hourAgo}`), m.webhook_secret)).toBe(false);
    expect(verify(got!.body, undefined, m.webhook_secret)).toBe(false);

    const listed = await alerts(alice.cliToken, m.id);
    expect(listed.status).toBe(200);
    expect(listed.body.next_cursor).toBeNull();
    expect(listed.body.items).toHaveLength(1);
    const [alert] = listed.body.items;
    expect(alert).toMatchObject({ id: res.body.id, kind: "ping", summary: res.body.summary });
    expect(alert.deliveries).toEqual([
      {
        channel: "webhook",
        status: "delivered",
        attempts: 1,
        last_status: "200",
        last_error: null,
        last_attempt_at: expect.any(String),
        next_attempt_at: null,
        history: [{ attempt: 1, at: alert.deliveries[0].last_attempt_at, status: "200", error: null }],
      },
    ]);
    // The signature's time is the attempt's.
    expect(Number(/^t=(\d+)/.exec(header)![1])).toBe(Math.floor(Date.parse(alert.deliveries[0].last_attempt_at) / 1000));
    // Once final, the copy of the sealed secret the delivery kept is gone.
    expect((await db().alertDelivery.findFirstOrThrow({ where: { alertId: res.body.id } })).secret).toBeNull();
  });

  it("pages newest first, answers 404 for a monitor out of reach exactly as for a missing one, and 409 without a webhook URL", async () => {
    const m = await monitor({ webhook_url: receiver.url("/paged") });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await ping(alice.cliToken, m.id)).body.id);
    await localDriver().drained();
    const first = await alerts(alice.cliToken, m.id, { limit: 2 });
    expect(first.body.items.map((a: { id: string }) => a.id)).toEqual([ids[2], ids[1]]);
    const second = await alerts(alice.cliToken, m.id, { limit: 2, cursor: first.body.next_cursor });
    expect(second.body.items.map((a: { id: string }) => a.id)).toEqual([ids[0]]);
    expect(second.body.next_cursor).toBeNull();
    expect((await alerts(alice.cliToken, m.id, { cursor: "nope" })).status).toBe(400);

    const missing = newId("monitor");
    for (const [res, id] of [
      [await alerts(bob.cliToken, m.id), m.id],
      [await ping(bob.cliToken, m.id), m.id],
      [await alerts(alice.cliToken, missing), missing],
      [await ping(alice.cliToken, missing), missing],
    ] as const) {
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: "not_found", message: `No such monitor "${id}".` });
    }
    expect(receiver.to("/paged")).toHaveLength(3);

    const quiet = await monitor({ email: true });
    const refused = await ping(alice.cliToken, quiet.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain("alerts.webhook_url: the monitor has no webhook URL");
    expect((await alerts(alice.cliToken, quiet.id)).body.items).toEqual([]);
  });
});

describe("retries, on the injected clock", () => {
  it("a receiver that fails three times then answers gets the same event four times, at 1, 5 and 30 minutes, and it ends delivered", async () => {
    receiver.plan("/flaky", (n) => (n <= 3 ? 503 : 200));
    const m = await monitor({ webhook_url: receiver.url("/flaky") });
    const alertId = (await ping(alice.cliToken, m.id)).body.id as string;
    await localDriver().drained();
    let d = await webhookOf(m.id, alertId);
    expect(d).toMatchObject({ status: "pending", attempts: 1, last_status: "503", last_error: "answered 503" });
    const first = Date.parse(d.last_attempt_at);
    expect(Date.parse(d.next_attempt_at) - first).toBe(RETRY_WAITS_MS[0]);

    // Before the minute is up the sweep leaves it alone.
    expect(await sweepAt(first + 59_000)).toEqual({ queued: 0, failed: 0 });
    expect(receiver.to("/flaky")).toHaveLength(1);
    for (const [attempt, wait] of [[2, RETRY_WAITS_MS[0]], [3, RETRY_WAITS_MS[1]], [4, RETRY_WAITS_MS[2]]] as const) {
      d = await webhookOf(m.id, alertId);
      expect(await sweepAt(Date.parse(d.last_attempt_at) + wait + 1)).toEqual({ queued: 1, failed: 0 });
      expect(receiver.to("/flaky")).toHaveLength(attempt);
    }
    d = await webhookOf(m.id, alertId);
    expect(d).toMatchObject({ status: "delivered", attempts: 4, last_status: "200", last_error: null, next_attempt_at: null });
    expect(d.history.map((h: { attempt: number; status: string }) => [h.attempt, h.status])).toEqual([[1, "503"], [2, "503"], [3, "503"], [4, "200"]]);

    // The same event every time: one id, the same bytes, each attempt signed anew and verifiable.
    const got = receiver.to("/flaky");
    expect(new Set(got.map((r) => JSON.parse(r.body).id))).toEqual(new Set([alertId]));
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    for (const r of got) expect(verify(r.body, r.headers["geoscope-signature"] as string, m.webhook_secret)).toBe(true);
    // Nothing more after it was delivered, however late the sweep looks.
    expect(await sweepAt(Date.now() + 24 * 60 * MINUTE)).toEqual({ queued: 0, failed: 0 });
    expect(receiver.to("/flaky")).toHaveLength(4);
  });

  it("a receiver that never answers 2xx is tried six times (the first and the retries at 1 min, 5 min, 30 min, 2 h and 6 h), then the delivery is failed", async () => {
    receiver.plan("/down", () => 500);
    const m = await monitor({ webhook_url: receiver.url("/down") });
    const alertId = (await ping(alice.cliToken, m.id)).body.id as string;
    await localDriver().drained();
    for (const wait of RETRY_WAITS_MS) {
      const d = await webhookOf(m.id, alertId);
      expect(d.status).toBe("pending");
      expect(Date.parse(d.next_attempt_at) - Date.parse(d.last_attempt_at)).toBe(wait);
      await sweepAt(Date.parse(d.next_attempt_at));
    }
    const d = await webhookOf(m.id, alertId);
    expect(d).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, last_status: "500", last_error: "answered 500", next_attempt_at: null });
    expect(d.history).toHaveLength(6);
    expect(receiver.to("/down")).toHaveLength(6);
    expect(new Set(receiver.to("/down").map((r) => JSON.parse(r.body).id))).toEqual(new Set([alertId]));
    await sweepAt(Date.now() + 48 * 60 * MINUTE);
    expect(receiver.to("/down")).toHaveLength(6);
  });

  it("an answer that does not come in time is a failed attempt (timeout), retried like any", async () => {
    receiver.plan("/slow", (n) => (n === 1 ? "hold" : 200));
    const m = await monitor({ webhook_url: receiver.url("/slow") });
    const alertId = (await heldBack(() => ping(alice.cliToken, m.id))).body.id as string;
    const { id } = await db().alertDelivery.findFirstOrThrow({ where: { alertId } });
    expect(WEBHOOK_TIMEOUT_MS).toBe(10_000);
    // The job's attempt with the 10 s limit shortened, so the test does not wait for it.
    expect(await attemptDelivery(id, 1, new Date(), { timeoutMs: 300 })).toBe("pending");
    receiver.release();
    const d = await webhookOf(m.id, alertId);
    expect(d).toMatchObject({ status: "pending", attempts: 1, last_status: "timeout" });
    expect(d.last_error).toMatch(/^timeout: no complete answer from 127\.0\.0\.1:\d+ within 300 ms$/);
    await sweepAt(Date.parse(d.next_attempt_at));
    expect(await webhookOf(m.id, alertId)).toMatchObject({ status: "delivered", attempts: 2, last_status: "200" });
  });

  it("a delivery whose attempt was claimed but never recorded (its server died in it) is retried at its time, and failed when it was the last", async () => {
    receiver.plan("/lost", () => 200);
    const m = await monitor({ webhook_url: receiver.url("/lost") });
    // As a server killed mid-attempt leaves it: claimed (attempts 1, the next due a minute later), no outcome.
    const lost = async (attempts: number, claimedAt: Date) => {
      const alertId = (await heldBack(() => ping(alice.cliToken, m.id))).body.id as string;
      const row = await db().alertDelivery.findFirstOrThrow({ where: { alertId } });
      await db().alertDelivery.update({ where: { id: row.id }, data: { attempts, lastAttemptAt: claimedAt, nextAttemptAt: new Date(claimedAt.getTime() + (RETRY_WAITS_MS[attempts - 1] ?? MINUTE)) } });
      return alertId;
    };
    const claimedAt = new Date();
    const retried = await lost(1, claimedAt);
    expect(await sweepAt(claimedAt.getTime() + RETRY_WAITS_MS[0] - 1)).toEqual({ queued: 0, failed: 0 });
    expect(await sweepAt(claimedAt.getTime() + RETRY_WAITS_MS[0])).toEqual({ queued: 1, failed: 0 });
    expect(await webhookOf(m.id, retried)).toMatchObject({ status: "delivered", attempts: 2 });
    expect(receiver.to("/lost").map((r) => JSON.parse(r.body).id)).toEqual([retried]);

    const last = await lost(MAX_ATTEMPTS, claimedAt);
    expect(await sweepAt(claimedAt.getTime() + MINUTE)).toEqual({ queued: 0, failed: 1 });
    expect(await webhookOf(m.id, last)).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, last_status: "interrupted", next_attempt_at: null });
    expect(receiver.to("/lost")).toHaveLength(1);
  });
});

describe("the address rules", () => {
  it("refuses at creation and at PATCH an unlisted loopback, link-local, IPv6 loopback, private or loopback-resolving URL, naming the field", async () => {
    const refused: [string, string][] = [
      [unlisted.url("/hook"), "127.0.0.1 is a private or reserved address"],
      ["http://169.254.169.254/latest/meta-data", "169.254.169.254 is a private or reserved address"],
      ["http://[::1]:8080/hook", "[::1] is a private or reserved address"],
      ["http://10.20.30.40/hook", "10.20.30.40 is a private or reserved address"],
      [`http://localhost:${unlisted.port}/hook`, "localhost resolves to a private or reserved address"],
      ["ftp://hooks.test.invalid/hook", "only http and https URLs are fetched, not ftp:"],
    ];
    const before = await db().monitor.count();
    for (const [url, words] of refused) {
      const res = await create(alice.cliToken, { project, prompts: [{ text: "x" }], engines: ["gemini"], alerts: { webhook_url: url } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.message).toBe(`alerts.webhook_url: ${words}`);
    }
    expect(await db().monitor.count()).toBe(before);
    const m = await monitor({});
    for (const [url, words] of refused) {
      const res = await patch(alice.cliToken, m.id, { alerts: { webhook_url: url } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.message).toBe(`alerts.webhook_url: ${words}`);
    }
    expect(unlisted.received).toHaveLength(0);
  });

  it("checks the URL again at every attempt: one that now points at a loopback, link-local or loopback-resolving address is never delivered there", async () => {
    // As a URL accepted when it was set and pointing elsewhere later: written where PATCH would have refused it.
    const m = await monitor({ webhook_url: receiver.url("/fine") });
    for (const [url, status] of [
      [unlisted.url("/hook"), "blocked"],
      [`http://localhost:${unlisted.port}/hook`, "blocked"],
      ["http://169.254.169.254/latest/meta-data", "blocked"],
      ["http://[::1]:9/hook", "blocked"],
    ] as const) {
      await db().monitor.update({ where: { id: m.id }, data: { alerts: { webhook_url: url, email: false, min_change: 10 } } });
      const alertId = (await ping(alice.cliToken, m.id)).body.id as string;
      await localDriver().drained();
      const d = await webhookOf(m.id, alertId);
      expect(d, url).toMatchObject({ status: "pending", attempts: 1, last_status: status });
      expect(d.last_error).toMatch(/private or reserved address/);
    }
    expect(unlisted.received).toHaveLength(0);
  });

  it("a 3xx is a failed attempt: a redirect to a loopback server is never followed, on any retry", async () => {
    receiver.plan("/redirect", () => ({ status: 302, location: unlisted.url("/stolen") }));
    const m = await monitor({ webhook_url: receiver.url("/redirect") });
    const alertId = (await ping(alice.cliToken, m.id)).body.id as string;
    await localDriver().drained();
    expect(await webhookOf(m.id, alertId)).toMatchObject({
      status: "pending",
      last_status: "302",
      last_error: `answered 302, a redirect to ${unlisted.url("/stolen")}: redirects are not followed`,
    });
    // Its retries go the same way; the unlisted server never hears a thing.
    let d = await webhookOf(m.id, alertId);
    while (d.status === "pending") {
      await sweepAt(Date.parse(d.next_attempt_at));
      d = await webhookOf(m.id, alertId);
    }
    expect(d).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, last_status: "302" });
    expect(receiver.to("/redirect")).toHaveLength(MAX_ATTEMPTS);
    expect(unlisted.received).toHaveLength(0);
  });

  it("a monitor whose webhook URL was removed fails its pending deliveries at their next attempt, sending nothing", async () => {
    receiver.plan("/removed", () => 503);
    const m = await monitor({ webhook_url: receiver.url("/removed") });
    const alertId = (await ping(alice.cliToken, m.id)).body.id as string;
    await localDriver().drained();
    expect((await patch(alice.cliToken, m.id, { alerts: { webhook_url: null } })).status).toBe(200);
    await sweepAt(Date.now() + RETRY_WAITS_MS[0] + 1000);
    expect(await webhookOf(m.id, alertId)).toMatchObject({ status: "failed", attempts: 2, last_status: "no_webhook_url" });
    expect(receiver.to("/removed")).toHaveLength(1);
  });
});

describe("the webhook secret's rotation", () => {
  it("signs each alert with the secret current when it was raised: a retry after the rotation verifies with the old secret only, a new alert with the new one only", async () => {
    receiver.plan("/rotated", (n) => (n === 1 ? 503 : 200));
    const m = await monitor({ webhook_url: receiver.url("/rotated") });
    const before = (await ping(alice.cliToken, m.id)).body.id as string;
    await localDriver().drained();
    const rotated = await call(rotateRoute, "POST", `/monitors/${m.id}/webhook-secret/rotate`, { token: alice.cliToken, params: { monitor_id: m.id } });
    expect(rotated.status).toBe(201);
    const newSecret = rotated.body.webhook_secret as string;
    expect(newSecret).not.toBe(m.webhook_secret);
    const after = (await ping(alice.cliToken, m.id)).body.id as string;
    await localDriver().drained();
    await sweepAt(Date.now() + RETRY_WAITS_MS[0] + 1000);
    expect((await webhookOf(m.id, before)).status).toBe("delivered");
    expect((await webhookOf(m.id, after)).status).toBe("delivered");

    const got = receiver.to("/rotated");
    const of = (id: string) => got.filter((r) => JSON.parse(r.body).id === id);
    expect(of(before)).toHaveLength(2);
    expect(of(after)).toHaveLength(1);
    for (const r of of(before)) {
      expect(verify(r.body, r.headers["geoscope-signature"] as string, m.webhook_secret)).toBe(true);
      expect(verify(r.body, r.headers["geoscope-signature"] as string, newSecret)).toBe(false);
    }
    expect(verify(of(after)[0]!.body, of(after)[0]!.headers["geoscope-signature"] as string, newSecret)).toBe(true);
    expect(verify(of(after)[0]!.body, of(after)[0]!.headers["geoscope-signature"] as string, m.webhook_secret)).toBe(false);
  });
});

describe("tick alerts", () => {
  const kinds = async (id: string) =>
    ((await alerts(alice.cliToken, id, { limit: 200 })).body.items as { kind: string; reason: string | null }[]).map((a) => `${a.kind}:${a.reason}`).reverse();

  it("tick_skipped and tick_failed alert once per cause, by the scheduler's jobs and by a run now, until a tick completes", async () => {
    receiver.plan("/ticks", () => 200);
    // 0.015 USD a tick against a 0.01 budget: every tick is skipped (budget_exhausted).
    const m = await monitor({ webhook_url: receiver.url("/ticks") }, { monthly_budget_usd: "0.01" });
    // The scheduler's tick at its slot, skipped by its job: an alert.
    await settle(new Date(Date.parse(m.next_run_at) + 1000));
    expect(await kinds(m.id)).toEqual(["tick_skipped:budget_exhausted"]);
    // The same cause again, by a run now and by the next slot: no new alert.
    expect((await runNow(alice.cliToken, m.id)).body.skip_reason).toBe("budget_exhausted");
    await settle(new Date(Date.parse(m.next_run_at) + 86_400_000 + 1000));
    expect(await db().monitorTick.count({ where: { monitorId: m.id, status: "skipped" } })).toBe(3);
    expect(await kinds(m.id)).toEqual(["tick_skipped:budget_exhausted"]);

    // Another cause alerts: credit (10 prompts × 3 engines × 10 runs = 6.50 USD against 5.00).
    expect((await patch(alice.cliToken, m.id, { monthly_budget_usd: null, engines: ["chatgpt", "claude", "gemini"], runs: 10, prompts: Array.from({ length: 10 }, (_, i) => ({ text: `costly ${i}` })) })).status).toBe(200);
    expect((await runNow(alice.cliToken, m.id)).body.skip_reason).toBe("insufficient_credit");
    expect((await runNow(alice.cliToken, m.id)).body.skip_reason).toBe("insufficient_credit");
    // A tick whose every run fails: tick_failed (runs_failed), closed by its finish job.
    expect((await patch(alice.cliToken, m.id, { engines: ["gemini"], runs: 1, prompts: [{ text: "broken [[sim:bad_request]]" }] })).status).toBe(200);
    await runNow(alice.cliToken, m.id);
    await settle();
    await runNow(alice.cliToken, m.id);
    await settle();
    expect(await kinds(m.id)).toEqual(["tick_skipped:budget_exhausted", "tick_skipped:insufficient_credit", "tick_failed:runs_failed"]);

    // A completed tick ends the silence: the same causes alert again.
    expect((await patch(alice.cliToken, m.id, { prompts: [{ text: "best crm for agencies" }] })).status).toBe(200);
    const ok = await runNow(alice.cliToken, m.id);
    await settle();
    expect((await db().monitorTick.findUniqueOrThrow({ where: { id: ok.body.id } })).status).toBe("completed");
    await patch(alice.cliToken, m.id, { monthly_budget_usd: "0.01" });
    await runNow(alice.cliToken, m.id);
    await runNow(alice.cliToken, m.id);
    expect(await kinds(m.id)).toEqual(["tick_skipped:budget_exhausted", "tick_skipped:insufficient_credit", "tick_failed:runs_failed", "tick_skipped:budget_exhausted"]);

    // Each went to the webhook once, with its words and its tick.
    await localDriver().drained();
    const events = receiver.to("/ticks").map((r) => JSON.parse(r.body));
    expect(events.map((e) => `${e.type}:${e.data.reason}`)).toEqual(["tick_skipped:budget_exhausted", "tick_skipped:insufficient_credit", "tick_failed:runs_failed", "tick_skipped:budget_exhausted"]);
    expect(events[0].data.summary).toBe("A tick was skipped: it would have taken the monitor past its monthly budget, so nothing was started. Until a tick completes, this is said once.");
    expect(events[2].data.summary).toBe("A tick failed: every run of its fanout failed. Until a tick completes, this is said once.");
    for (const e of events) expect(e.data.tick_id).toMatch(/^mt_/);
  });
});

describe("significant changes and email", () => {
  const change = (entity: string, engine: string, before: number, after: number): SignificantChange => ({
    entity,
    engine,
    metric: "visibility",
    before,
    after,
    diff: Math.round((after - before) * 1e4) / 1e4,
    interval: [0.1034, 0.6025],
    before_runs: 30,
    after_runs: 30,
    confidence: 0.9964,
  });

  /** A completed tick of a monitor with these alert settings. */
  async function completedTick(alertsSettings: Record<string, unknown>) {
    const m = await monitor(alertsSettings);
    const tick = (await runNow(alice.cliToken, m.id)).body;
    await settle();
    expect((await db().monitorTick.findUniqueOrThrow({ where: { id: tick.id } })).status).toBe("completed");
    return { monitorId: m.id, tickId: tick.id as string, secret: m.webhook_secret };
  }

  it("raises one alert per cell however often the raise runs, each with its figures and n, a webhook each and one email for the tick, mailed once", async () => {
    process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`;
    resetConfig();
    receiver.plan("/changes", () => 200);
    const { monitorId, tickId, secret } = await completedTick({ webhook_url: receiver.url("/changes"), email: true });
    const cells = [change("Acme CRM", "all", 0.3333, 0.7333), change("HubSpot", "gemini", 0.6, 0.2)];
    const raised = await raiseAlerts(tickId, cells);
    expect(raised).toHaveLength(2);
    // A retried step raises them again: nothing new, nothing sent twice.
    expect(await raiseAlerts(tickId, cells)).toEqual([]);
    await localDriver().drained();

    const items = (await alerts(alice.cliToken, monitorId)).body.items as any[];
    expect(items).toHaveLength(2);
    const acme = items.find((a) => a.entity === "Acme CRM");
    expect(acme).toMatchObject({
      kind: "significant_change",
      tick_id: tickId,
      reason: null,
      engine: "all",
      metric: "visibility",
      before: 0.3333,
      after: 0.7333,
      diff: 0.4,
      interval: [0.1034, 0.6025],
      before_runs: 30,
      after_runs: 30,
      confidence: 0.9964,
      summary: "Acme CRM's visibility on all engines rose from 33% (n=30) to 73% (n=30): +40 points (99.64% interval +10 to +61 points).",
    });
    expect(items.find((a) => a.entity === "HubSpot").summary).toBe(
      "HubSpot's visibility on Gemini (API) fell from 60% (n=30) to 20% (n=30): −40 points (99.64% interval +10 to +61 points).",
    );
    for (const a of items) {
      expect(a.deliveries.map((d: { channel: string; status: string; last_status: string }) => [d.channel, d.status, d.last_status])).toEqual([
        ["webhook", "delivered", "200"],
        ["email", "delivered", "sent"],
      ]);
    }
    // A webhook each, signed; the data carries the figures and their n.
    const got = receiver.to("/changes");
    expect(got.map((r) => JSON.parse(r.body).id).sort()).toEqual(raised.sort());
    for (const r of got) expect(verify(r.body, r.headers["geoscope-signature"] as string, secret)).toBe(true);
    expect(JSON.parse(got.find((r) => r.body.includes("Acme CRM"))!.body).data).toMatchObject({ entity: "Acme CRM", engine: "all", before: 0.3333, after: 0.7333, before_runs: 30, after_runs: 30 });

    // One email for the tick, to the monitor's creator, listing both.
    const toAlice = mails.filter((m) => m.includes(`To: ${alice.email}`));
    expect(toAlice).toHaveLength(1);
    expect(toAlice[0]).toContain("Acme CRM's visibility on all engines rose from 33%");
    expect(toAlice[0]).toContain("HubSpot's visibility on Gemini (API) fell from 60%");

    // A cell raised after the tick's email went: an alert and its webhook, no second email.
    const late = await raiseAlerts(tickId, [change("Acme CRM", "gemini", 0.2, 0.8)]);
    await localDriver().drained();
    const lateAlert = ((await alerts(alice.cliToken, monitorId)).body.items as any[]).find((a) => a.id === late[0]);
    expect(lateAlert.deliveries.map((d: { channel: string }) => d.channel)).toEqual(["webhook"]);
    expect(mails.filter((m) => m.includes(`To: ${alice.email}`))).toHaveLength(1);
  });

  it("without SMTP_URL the tick's email is written to the server log, once, and recorded as logged", async () => {
    const { monitorId, tickId } = await completedTick({ email: true });
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      // Raised twice before the email's first attempt (a retried step, then a cell more): one email listing both cells.
      await raiseAlerts(tickId, [change("Acme CRM", "all", 0.1, 0.5)]);
      await raiseAlerts(tickId, [change("Acme CRM", "all", 0.1, 0.5), change("HubSpot", "all", 0.5, 0.1)]);
      await localDriver().drained();
      // A cell raised after the email went is in none.
      await raiseAlerts(tickId, [change("Acme CRM", "gemini", 0.1, 0.6)]);
      await localDriver().drained();
    } finally {
      spy.mockRestore();
    }
    const logged = written.filter((line) => line.includes("monitor alert email (no SMTP_URL set"));
    expect(logged).toHaveLength(1);
    const entry = JSON.parse(logged[0]!);
    expect(entry.to).toBe(alice.email);
    expect(entry.text).toContain("raised 2 alerts at its tick for");
    expect(entry.text).toContain("Acme CRM's visibility on all engines rose from 10%");
    expect(entry.text).toContain("HubSpot's visibility on all engines fell from 50%");
    expect(entry.text).not.toContain("on Gemini");
    const items = (await alerts(alice.cliToken, monitorId)).body.items as any[];
    expect(items).toHaveLength(3);
    for (const a of items.filter((a) => a.engine === "all")) {
      expect(a.deliveries).toEqual([expect.objectContaining({ channel: "email", status: "delivered", attempts: 1, last_status: "logged", last_error: null })]);
    }
    expect(items.find((a) => a.engine === "gemini").deliveries).toEqual([]);
  });

  it("deleting the monitor removes its alerts and deliveries", async () => {
    const { monitorId, tickId } = await completedTick({ webhook_url: receiver.url("/gone"), email: true });
    await raiseAlerts(tickId, [change("Acme CRM", "all", 0.1, 0.5)]);
    await localDriver().drained();
    expect(await db().monitorAlert.count({ where: { monitorId } })).toBe(1);
    expect((await call(deleteRoute, "DELETE", `/monitors/${monitorId}`, { token: alice.cliToken, params: { monitor_id: monitorId } })).status).toBe(204);
    expect(await db().monitorAlert.count({ where: { monitorId } })).toBe(0);
    expect(await db().alertDelivery.count({ where: { monitorId } })).toBe(0);
    expect(await raiseAlerts(tickId, [change("HubSpot", "all", 0.1, 0.5)])).toEqual([]);
  });
});
