// Monitors through the route handlers: create, read, list, change (a series kept or a new one),
// delete, the webhook secret shown once, 404 outside the caller's workspaces; ticks made now and
// by the scheduler with an injected clock (a due slot makes one tick, downtime one catch-up tick,
// a version bump a new series), each a fanout made by the same code as POST /fanouts, skipped for
// credit or budget with nothing started, and closed once its fanout finished.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET as getAnalysisRoute } from "@/app/api/v1/analyses/[analysis_id]/route";
import { GET as getBilling } from "@/app/api/v1/billing/route";
import { GET as getFanoutRoute } from "@/app/api/v1/fanouts/[fanout_id]/route";
import { GET as listFanoutsRoute } from "@/app/api/v1/fanouts/route";
import { DELETE as deleteRoute, GET as getRoute, PATCH as patchRoute } from "@/app/api/v1/monitors/[monitor_id]/route";
import { POST as runRoute } from "@/app/api/v1/monitors/[monitor_id]/run/route";
import { GET as ticksRoute } from "@/app/api/v1/monitors/[monitor_id]/ticks/route";
import { GET as tickRoute } from "@/app/api/v1/monitors/[monitor_id]/ticks/[tick_id]/route";
import { POST as rotateRoute } from "@/app/api/v1/monitors/[monitor_id]/webhook-secret/rotate/route";
import { GET as listRoute, POST as createRoute } from "@/app/api/v1/monitors/route";
import { resetConfig } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { openWebhookSecret } from "@/lib/monitors/secret";
import { compareTick } from "@/lib/monitors/analysis";
import { checkMonitors, startTick } from "@/lib/monitors/ticks";
import { createProject } from "@/lib/projects/create";
import { localDriver } from "@/lib/work/local-driver";
import { heldBack, useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { call } from "../helpers/http";
import { person, principalOf, type Person } from "../helpers/people";

useSimulatedEngines({ billing: true });
process.env.WEBHOOK_ALLOW_HOSTS = "hooks.test.invalid";
useTestDatabase();

const DAY = 86_400_000;
let alice: Person;
let bob: Person;
let project: string;
let bareProject: string;
let bobProject: string;

const context = { primary_domain: "acme.example", brands: ["Acme CRM"], competitors: ["HubSpot", "Pipedrive"] };

async function projectOf(p: Person, name: string, ctx: typeof context | null) {
  return (await createProject(principalOf(p), { name, workspace_id: p.workspaceId, context: ctx })).id;
}

const prompts = (...texts: string[]) => texts.map((text) => ({ text }));

function create(token: string, body: unknown) {
  return call(createRoute, "POST", "/monitors", { token, body });
}
function get(token: string, id: string) {
  return call(getRoute, "GET", `/monitors/${id}`, { token, params: { monitor_id: id } });
}
function patch(token: string, id: string, body: unknown) {
  return call(patchRoute, "PATCH", `/monitors/${id}`, { token, params: { monitor_id: id }, body });
}
function runNow(token: string, id: string) {
  return call(runRoute, "POST", `/monitors/${id}/run`, { token, params: { monitor_id: id } });
}
function ticks(token: string, id: string, query: Record<string, string | number> = {}) {
  return call(ticksRoute, "GET", `/monitors/${id}/ticks`, { token, params: { monitor_id: id }, query });
}

/** A small monitor: one prompt on Gemini once per tick (0.015 USD a tick). */
async function small(token = alice.cliToken, extra: Record<string, unknown> = {}) {
  const res = await create(token, { project, prompts: prompts("best crm for agencies"), engines: ["gemini"], runs: 1, ...extra });
  expect(res.status).toBe(201);
  return res.body;
}

/** Every queued job run, then the scheduler's sweep at `now` (which closes ticks whose fanout finished), then those jobs. */
async function settle(now = new Date()) {
  await localDriver().drained();
  await checkMonitors(now);
  await localDriver().drained();
}

beforeAll(async () => {
  alice = await person("alice@example.com");
  bob = await person("bob@example.com");
  project = await projectOf(alice, "Acme", context);
  bareProject = await projectOf(alice, "Bare", null);
  bobProject = await projectOf(bob, "Bob's", context);
});

afterEach(async () => {
  // Drained before the clean-up below, which no job still running may undo (setup-api.ts drains only after it).
  await localDriver().drained();
  // Each test's monitors stop here, so a later test's clock does not make their ticks.
  await db().monitor.updateMany({ data: { status: "paused" } });
});

/** The ticks the scheduler made for one monitor. */
const tickCount = (monitorId: string) => db().monitorTick.count({ where: { monitorId } });

afterAll(() => {
  delete process.env.WEBHOOK_ALLOW_HOSTS;
  resetConfig();
});

describe("POST /monitors", () => {
  it("creates a monitor with its defaults, the project's entities frozen, the next slot after now and its webhook secret shown once", async () => {
    const before = Date.now();
    const res = await create(alice.cliToken, { project, prompts: prompts("best crm for agencies", "pipedrive vs hubspot") });
    expect(res.status).toBe(201);
    const m = res.body;
    expect(m.id).toMatch(/^mo_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(m).toMatchObject({
      project,
      name: "best crm for agencies",
      status: "active",
      version: 1,
      // Every enabled engine (simulated: all eight), resolved when the monitor is made.
      engines: ["chatgpt", "claude", "gemini", "perplexity", "chatgpt_app", "gemini_app", "google_ai_overview", "google_ai_mode"],
      runs: 3,
      schedule: { every: "day", at: "06:00", weekday: null },
      location: null,
      language: null,
      monthly_budget_usd: null,
      alerts: { webhook_url: null, email: false, min_change: 10 },
      last_tick: null,
      spend_month_to_date_usd: "0.00",
      created_by: alice.email,
    });
    expect(m.prompts).toEqual([
      { text: "best crm for agencies", source: null, location: null, language: null },
      { text: "pipedrive vs hubspot", source: null, location: null, language: null },
    ]);
    expect(m.entities).toEqual([
      { name: "Acme CRM", role: "brand", aliases: [], domains: ["acme.example"], case_sensitive: false },
      { name: "HubSpot", role: "competitor", aliases: [], domains: [], case_sensitive: false },
      { name: "Pipedrive", role: "competitor", aliases: [], domains: [], case_sensitive: false },
    ]);
    // The first 06:00 UTC after now: nothing runs at creation.
    const next = Date.parse(m.next_run_at);
    expect(new Date(next).toISOString().slice(11)).toBe("06:00:00.000Z");
    expect(next).toBeGreaterThan(before);
    expect(next - before).toBeLessThanOrEqual(DAY);
    expect(await db().monitorTick.count({ where: { monitorId: m.id } })).toBe(0);

    // The secret: shown in this answer only, never stored as it is, never in a later answer.
    expect(m.webhook_secret).toMatch(/^whsec_[0-9A-Za-z]{40}$/);
    const row = await db().monitor.findUniqueOrThrow({ where: { id: m.id } });
    expect(row.webhookSecret).not.toContain(m.webhook_secret.slice(6));
    expect(openWebhookSecret(row.webhookSecret)).toBe(m.webhook_secret);
    const again = await get(alice.cliToken, m.id);
    expect(again.status).toBe(200);
    expect(again.text).not.toContain(m.webhook_secret);
    expect(again.body.webhook_secret).toBeUndefined();
    const { webhook_secret: _, ...shown } = m;
    expect(again.body).toEqual(shown);
    const listed = await call(listRoute, "GET", "/monitors", { token: alice.cliToken, query: { project } });
    expect(listed.text).not.toContain(m.webhook_secret);
  });

  it("keeps what it is given: engines, runs, a weekly schedule, a market, entities, a budget and alerts", async () => {
    const res = await create(alice.apiKey, {
      project,
      name: "  Weekly CRM  ",
      prompts: [{ text: "crm pricing" }, { text: "crm für agenturen", location: { country: "de" }, language: "de" }],
      engines: ["claude", "chatgpt", "claude"],
      runs: 2,
      schedule: { every: "week", at: "07:30", weekday: 3 },
      location: { country: "us", city: "Austin" },
      language: "en-us",
      entities: [{ name: "Acme", role: "brand", aliases: ["Acme CRM", "acme"], domains: ["https://www.Acme.example/pricing"] }, { name: "Monday", role: "competitor", case_sensitive: true }],
      monthly_budget_usd: "12.5",
      alerts: { webhook_url: "https://hooks.test.invalid/geoscope", email: true, min_change: 15 },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "Weekly CRM",
      engines: ["claude", "chatgpt"],
      runs: 2,
      schedule: { every: "week", at: "07:30", weekday: 3 },
      location: { country: "US", city: "Austin" },
      language: "en-US",
      monthly_budget_usd: "12.50",
      alerts: { webhook_url: "https://hooks.test.invalid/geoscope", email: true, min_change: 15 },
    });
    expect(res.body.prompts[1]).toEqual({ text: "crm für agenturen", source: null, location: { country: "DE" }, language: "de" });
    expect(res.body.entities).toEqual([
      { name: "Acme", role: "brand", aliases: ["Acme CRM"], domains: ["www.acme.example"], case_sensitive: false },
      { name: "Monday", role: "competitor", aliases: [], domains: [], case_sensitive: true },
    ]);
    // Wednesday 07:30 UTC.
    const next = new Date(res.body.next_run_at);
    expect([next.getUTCDay(), next.toISOString().slice(11)]).toEqual([3, "07:30:00.000Z"]);
  });

  it("refuses bad input with a 400 naming the field and the rule, and creates nothing", async () => {
    const cases: [unknown, string][] = [
      [{ prompts: prompts("x") }, "project"],
      [{ project, prompts: [] }, "prompts: must have at least 1 prompt"],
      [{ project, prompts: prompts(...Array.from({ length: 501 }, (_, i) => `p${i}`)) }, "prompts: must have at most 500 prompts"],
      [{ project, prompts: [{ text: "   " }] }, "prompts[0].text"],
      [{ project, prompts: prompts("x"), runs: 11 }, "runs: must be a whole number from 1 to 10"],
      [{ project, prompts: prompts("x"), runs: 0 }, "runs: must be a whole number from 1 to 10"],
      [{ project, prompts: prompts("x"), name: "n".repeat(101) }, "name: must be 1 to 100 characters"],
      [{ project, prompts: prompts("x"), engines: ["bing"] }, "engines[0]"],
      [{ project, prompts: prompts("x"), schedule: { every: "day", at: "24:00" } }, "schedule.at: must be a UTC time of day HH:MM"],
      [{ project, prompts: prompts("x"), schedule: { every: "day", at: "6:00" } }, "schedule.at"],
      [{ project, prompts: prompts("x"), schedule: { every: "month", at: "06:00" } }, "schedule.every"],
      [{ project, prompts: prompts("x"), schedule: { every: "day", at: "06:00", weekday: 2 } }, 'schedule.weekday: is only for every: "week"'],
      [{ project, prompts: prompts("x"), schedule: { every: "week", at: "06:00", weekday: 8 } }, "schedule.weekday: must be a whole number from 1 (Monday) to 7 (Sunday)"],
      [{ project, prompts: prompts("x"), monthly_budget_usd: 25 }, "monthly_budget_usd"],
      [{ project, prompts: prompts("x"), monthly_budget_usd: "0" }, "monthly_budget_usd: must be an amount in USD above 0"],
      [{ project, prompts: prompts("x"), monthly_budget_usd: "1.1234567" }, "monthly_budget_usd"],
      [{ project, prompts: prompts("x"), alerts: { min_change: 0 } }, "alerts.min_change: must be a whole number from 1 to 100"],
      [{ project, prompts: prompts("x"), alerts: { min_change: 101 } }, "alerts.min_change"],
      [{ project, prompts: prompts("x"), alerts: { sms: true } }, "alerts"],
      [{ project, prompts: prompts("x"), alerts: { webhook_url: "ftp://hooks.test.invalid/x" } }, "alerts.webhook_url: only http and https"],
      [{ project, prompts: prompts("x"), alerts: { webhook_url: "http://127.0.0.1:9/hook" } }, "alerts.webhook_url: 127.0.0.1 is a private or reserved address"],
      [{ project, prompts: prompts("x"), alerts: { webhook_url: "http://169.254.169.254/latest" } }, "alerts.webhook_url: 169.254.169.254 is a private or reserved address"],
      [{ project, prompts: prompts("x"), alerts: { webhook_url: "http://[::1]/hook" } }, "alerts.webhook_url: [::1] is a private or reserved address"],
      [{ project, prompts: prompts("x"), alerts: { webhook_url: "http://10.1.2.3/hook" } }, "alerts.webhook_url: 10.1.2.3 is a private or reserved address"],
      [{ project, prompts: prompts("x"), alerts: { webhook_url: "https://user:pw@hooks.test.invalid/x" } }, "alerts.webhook_url: URLs with credentials"],
      [{ project, prompts: prompts("x"), alerts: { webhook_url: "not a url" } }, "alerts.webhook_url: not an absolute URL"],
      [{ project, prompts: prompts("x"), entities: [] }, "entities: must have at least 1 entity when given"],
      [{ project, prompts: prompts("x"), entities: [{ name: "Acme", role: "brand" }, { name: "ACME", role: "competitor" }] }, "entities[1].name: repeats entities[0].name"],
      [{ project, prompts: prompts("x"), entities: [{ name: "Acme", role: "owner" }] }, "entities[0].role"],
      [{ project, prompts: prompts("x"), location: { country: "XX" } }, "location.country"],
      [{ project, prompts: prompts("x"), language: "xx-XX-bad" }, "language"],
      [{ project, prompts: prompts("x"), prompts_file: "a" }, "prompts_file"],
      [{ project: bareProject, prompts: prompts("x") }, "entities: the project's context names no brand or competitor"],
      [{ project, prompts: [{ text: "x", source: { analysis_id: "fa_01M7YSMA19P8CZYH8D2A912D4F", question_id: "q1" } }] }, "prompts[0].source: no questions analysis"],
      [{ project, prompts: prompts(...Array.from({ length: 120 }, (_, i) => `p${i}`)), runs: 3 }, "= 2880 executions"],
    ];
    const before = await db().monitor.count();
    for (const [body, expected] of cases) {
      const res = await create(alice.cliToken, body);
      expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      expect(res.body.error.message, JSON.stringify(body).slice(0, 120)).toContain(expected);
    }
    expect(await db().monitor.count()).toBe(before);
  });

  it("answers 404 for a project outside the caller's workspaces, exactly as for a missing one", async () => {
    const foreign = await create(alice.cliToken, { project: bobProject, prompts: prompts("x") });
    const missing = await create(alice.cliToken, { project: newId("project"), prompts: prompts("x") });
    expect([foreign.status, missing.status]).toEqual([404, 404]);
    expect(foreign.body.error.message).toBe(`No such project "${bobProject}".`);
    expect(missing.body.error.message).toMatch(/^No such project "pr_/);
  });
});

describe("GET, PATCH and DELETE /monitors/{id}", () => {
  it("answers 404 for every operation on a monitor outside the caller's workspaces, exactly as for a missing one", async () => {
    const bobs = await small(bob.cliToken, { project: bobProject });
    const missing = newId("monitor");
    for (const id of [bobs.id, missing]) {
      const answers = [
        await get(alice.cliToken, id),
        await get(alice.apiKey, id),
        await patch(alice.cliToken, id, { name: "mine" }),
        await call(deleteRoute, "DELETE", `/monitors/${id}`, { token: alice.cliToken, params: { monitor_id: id } }),
        await runNow(alice.cliToken, id),
        await ticks(alice.cliToken, id),
        await call(rotateRoute, "POST", `/monitors/${id}/webhook-secret/rotate`, { token: alice.cliToken, params: { monitor_id: id } }),
      ];
      for (const [i, res] of answers.entries()) {
        expect(res.status, `${i}: ${res.text}`).toBe(404);
        expect(res.body.error).toEqual({ code: "not_found", message: `No such monitor "${id}".`, engine: null, retryable: false });
      }
    }
    // Bob's monitor is untouched and made no tick.
    expect((await get(bob.cliToken, bobs.id)).body.name).toBe(bobs.name);
    expect(await db().monitorTick.count({ where: { monitorId: bobs.id } })).toBe(0);
    const list = await call(listRoute, "GET", "/monitors", { token: alice.cliToken, query: { project: bobProject } });
    expect(list.status).toBe(404);
  });

  it("lists monitors newest first without prompts, a page at a time, narrowed by project", async () => {
    const a = await small(alice.cliToken, { name: "list one" });
    const b = await small(alice.cliToken, { name: "list two" });
    const first = await call(listRoute, "GET", "/monitors", { token: alice.cliToken, query: { project, limit: 1 } });
    expect(first.status).toBe(200);
    expect(first.body.items.map((m: { id: string }) => m.id)).toEqual([b.id]);
    expect(first.body.items[0].prompt_count).toBe(1);
    expect(first.body.items[0].prompts).toBeUndefined();
    const second = await call(listRoute, "GET", "/monitors", { token: alice.cliToken, query: { project, limit: 1, cursor: first.body.next_cursor } });
    expect(second.body.items.map((m: { id: string }) => m.id)).toEqual([a.id]);
    const bare = await call(listRoute, "GET", "/monitors", { token: alice.cliToken, query: { project: bareProject } });
    expect(bare.body).toEqual({ items: [], next_cursor: null });
    const bobs = await call(listRoute, "GET", "/monitors", { token: bob.cliToken });
    expect(bobs.body.items.every((m: { project: string }) => m.project === bobProject)).toBe(true);
    const bad = await call(listRoute, "GET", "/monitors", { token: alice.cliToken, query: { cursor: "nope" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("cursor");
  });

  it("keeps the version when when or how much changes, and starts a new series when what is measured changes", async () => {
    const m = await small();
    const keep = [
      { name: "Renamed" },
      { status: "paused" },
      { status: "active" },
      { schedule: { every: "week", at: "09:15", weekday: 5 } },
      { monthly_budget_usd: "3.00" },
      { monthly_budget_usd: null },
      { alerts: { email: true } },
      { alerts: { webhook_url: "https://hooks.test.invalid/a", min_change: 20 } },
      { runs: 1, engines: ["gemini"], prompts: prompts("best crm for agencies") },
    ];
    for (const body of keep) {
      const res = await patch(alice.cliToken, m.id, body);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.body.version, JSON.stringify(body)).toBe(1);
    }
    const kept = (await get(alice.cliToken, m.id)).body;
    expect(kept).toMatchObject({
      name: "Renamed",
      status: "active",
      schedule: { every: "week", at: "09:15", weekday: 5 },
      monthly_budget_usd: null,
      alerts: { webhook_url: "https://hooks.test.invalid/a", email: true, min_change: 20 },
    });
    const bump = [
      { prompts: prompts("best crm for agencies", "crm pricing") },
      { engines: ["gemini", "claude"] },
      { runs: 2 },
      { location: { country: "GB" } },
      { language: "en-GB" },
      { location: null },
      { entities: [{ name: "Acme CRM", role: "brand" }] },
    ];
    let version = 1;
    for (const body of bump) {
      const res = await patch(alice.cliToken, m.id, body);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.body.version, JSON.stringify(body)).toBe(++version);
    }
    const after = (await get(alice.cliToken, m.id)).body;
    expect(after).toMatchObject({ version: 8, engines: ["gemini", "claude"], runs: 2, location: null, language: "en-GB" });
    expect(after.prompts.map((p: { text: string }) => p.text)).toEqual(["best crm for agencies", "crm pricing"]);

    const refused = [
      [{ project: bareProject }, "project"],
      [{ status: "stopped" }, "status"],
      [{ runs: 11 }, "runs"],
      [{ schedule: { every: "week", at: "25:00" } }, "schedule.at"],
      [{ alerts: { webhook_url: "http://192.168.1.1/x" } }, "alerts.webhook_url: 192.168.1.1 is a private or reserved address"],
      [{ prompts: prompts(...Array.from({ length: 300 }, (_, i) => `p${i}`)) }, "= 1200 executions"],
    ] as const;
    for (const [body, expected] of refused) {
      const res = await patch(alice.cliToken, m.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toContain(expected);
    }
    expect((await get(alice.cliToken, m.id)).body).toEqual(after);
  });

  it("pausing stops the schedule; resuming runs from the next slot after now, not the slots missed", async () => {
    const m = await small();
    const paused = await patch(alice.cliToken, m.id, { status: "paused" });
    expect(paused.body.status).toBe("paused");
    // Paused through its slot: the scheduler claims nothing.
    const slot = Date.parse(m.next_run_at);
    await checkMonitors(new Date(slot + 60_000));
    expect(await tickCount(m.id)).toBe(0);
    const resumed = await patch(alice.cliToken, m.id, { status: "active", schedule: { every: "day", at: "06:00" } });
    expect(resumed.body.status).toBe("active");
    expect(Date.parse(resumed.body.next_run_at)).toBeGreaterThan(Date.now());
  });

  it("deletes a monitor and its ticks: 204, then 404; the fanouts its ticks made stay", async () => {
    const m = await small();
    const tick = await runNow(alice.cliToken, m.id);
    expect(tick.status).toBe(202);
    await settle();
    const del = await call(deleteRoute, "DELETE", `/monitors/${m.id}`, { token: alice.cliToken, params: { monitor_id: m.id } });
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await get(alice.cliToken, m.id)).status).toBe(404);
    const again = await call(deleteRoute, "DELETE", `/monitors/${m.id}`, { token: alice.cliToken, params: { monitor_id: m.id } });
    expect(again.status).toBe(404);
    expect(await db().monitorTick.count({ where: { monitorId: m.id } })).toBe(0);
    const fanout = await call(getFanoutRoute, "GET", `/fanouts/${tick.body.fanout_id}`, { token: alice.cliToken, params: { fanout_id: tick.body.fanout_id } });
    expect(fanout.status).toBe(200);
    expect(fanout.body.status).toBe("completed");
  });

  it("rotates the webhook secret: the new one shown once, the old one no longer kept", async () => {
    const m = await small();
    const res = await call(rotateRoute, "POST", `/monitors/${m.id}/webhook-secret/rotate`, { token: alice.cliToken, params: { monitor_id: m.id } });
    expect(res.status).toBe(201);
    expect(res.body.webhook_secret).toMatch(/^whsec_[0-9A-Za-z]{40}$/);
    expect(res.body.webhook_secret).not.toBe(m.webhook_secret);
    expect(res.body.version).toBe(1);
    const row = await db().monitor.findUniqueOrThrow({ where: { id: m.id } });
    expect(openWebhookSecret(row.webhookSecret)).toBe(res.body.webhook_secret);
    expect((await get(alice.cliToken, m.id)).text).not.toContain(res.body.webhook_secret);
  });
});

describe("ticks", () => {
  it("POST /monitors/{id}/run makes a tick now: a fanout of the monitor's prompts, engines and runs, closed once it finished", async () => {
    const m = await small(alice.cliToken, { prompts: prompts("crm for agencies", "crm pricing"), engines: ["gemini", "chatgpt"], runs: 2 });
    const res = await runNow(alice.cliToken, m.id);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ monitor_id: m.id, version: 1, trigger: "manual", skip_reason: null, analysis_id: null, completed_at: null, error: null });
    expect(["queued", "running"]).toContain(res.body.status);
    const fanout = await call(getFanoutRoute, "GET", `/fanouts/${res.body.fanout_id}`, { token: alice.cliToken, params: { fanout_id: res.body.fanout_id }, query: { wait: 30 } });
    expect(fanout.body).toMatchObject({ project_id: project, engines: ["gemini", "chatgpt"], runs: 2, prompt_count: 2, execution_count: 8, created_by: alice.email });
    expect(fanout.body.name).toMatch(new RegExp(`^${m.name} · \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC$`));
    // It is a fanout like any other: listed with the project's.
    const listed = await call(listFanoutsRoute, "GET", "/fanouts", { token: alice.cliToken, query: { project } });
    expect(listed.body.items.map((f: { id: string }) => f.id)).toContain(res.body.fanout_id);

    await settle();
    const page = await ticks(alice.cliToken, m.id);
    expect(page.status).toBe(200);
    expect(page.body.items).toHaveLength(1);
    const closed = page.body.items[0];
    const done = (await call(getFanoutRoute, "GET", `/fanouts/${res.body.fanout_id}`, { token: alice.cliToken, params: { fanout_id: res.body.fanout_id } })).body;
    expect(closed).toMatchObject({ id: res.body.id, status: done.status, charged_usd: done.charged_usd, fanout_id: done.id });
    expect(closed.charged_usd).toBe("0.14");
    expect(closed.completed_at).not.toBeNull();
    // Gemini's API and ChatGPT's: no API and app pair, so no comparison.
    expect(closed.comparisons).toEqual([]);
    const monitor = (await get(alice.cliToken, m.id)).body;
    expect(monitor.last_tick).toEqual((({ monitor_id: _, ...rest }) => rest)(closed));
    expect(monitor.spend_month_to_date_usd).toBe("0.14");
  });

  it("a monitor of an API and its app links each tick to their comparison (decisions.md \"Comparison analyses\")", async () => {
    const m = await small(alice.cliToken, { prompts: prompts("crm for agencies", "crm pricing"), engines: ["chatgpt", "chatgpt_app", "claude"], runs: 2 });
    const res = await runNow(alice.cliToken, m.id);
    expect(res.body.comparisons).toEqual([]);
    await settle();
    const closed = (await ticks(alice.cliToken, m.id)).body.items[0];
    expect(closed.status).toBe("completed");
    expect(closed.comparisons).toEqual([{ a: "chatgpt", b: "chatgpt_app", analysis_id: expect.stringMatching(/^cm_/) }]);
    const id = closed.comparisons[0].analysis_id as string;
    const comparison = (await call(getAnalysisRoute, "GET", `/analyses/${id}`, { token: alice.cliToken, params: { analysis_id: id } })).body;
    // The tick's fanout, the monitor's entities (the project context's, frozen), both prompts on both engines; claude's runs left out.
    expect(comparison).toMatchObject({ kind: "comparison", a: "chatgpt", b: "chatgpt_app", prompts_compared: 2, run_count: 12 });
    expect(comparison.entities.map((e: { name: string }) => e.name)).toEqual(m.entities.map((e: { name: string }) => e.name));
    expect(comparison.excluded_runs.map((x: { reason: string }) => x.reason)).toEqual(Array(4).fill("other_engine"));
    expect((await get(alice.cliToken, m.id)).body.last_tick.comparisons).toEqual(closed.comparisons);
    // Another person's token reads neither.
    expect((await call(getAnalysisRoute, "GET", `/analyses/${id}`, { token: bob.cliToken, params: { analysis_id: id } })).status).toBe(404);
  });

  it("a tick's comparisons step run twice at once, or again after some were made, links one comparison per pair and stores no other", async () => {
    const m = await small(alice.cliToken, { prompts: prompts("crm for agencies"), engines: ["chatgpt", "chatgpt_app", "gemini", "gemini_app"], runs: 1 });
    await runNow(alice.cliToken, m.id);
    await settle();
    const closed = (await ticks(alice.cliToken, m.id)).body.items[0];
    const pairs = [{ a: "chatgpt", b: "chatgpt_app" }, { a: "gemini", b: "gemini_app" }];
    expect(closed.comparisons.map(({ a, b }: { a: string; b: string }) => ({ a, b }))).toEqual(pairs);
    const stored = () => db().analysis.count({ where: { projectId: project, kind: "comparison" } });
    // The step again before any was linked (as a worker that picked it up again finds it), twice at once.
    await db().monitorTick.update({ where: { id: closed.id }, data: { comparisons: [] } });
    const before = await stored();
    const [first, second] = await Promise.all([compareTick(closed.id), compareTick(closed.id)]);
    expect(first).toEqual(second);
    expect(first.map(({ a, b }) => ({ a, b }))).toEqual(pairs);
    expect(await stored()).toBe(before + 2);
    // Again with only the second pair linked (a step that failed after it): the first is made, in the pairs' order.
    await db().monitorTick.update({ where: { id: closed.id }, data: { comparisons: [first[1]!] } });
    const again = await compareTick(closed.id);
    expect(again.map(({ a, b }) => ({ a, b }))).toEqual(pairs);
    expect(again[1]).toEqual(first[1]);
    expect(await stored()).toBe(before + 3);
    expect((await ticks(alice.cliToken, m.id)).body.items[0].comparisons).toEqual(again);
    // Linked already: nothing is made.
    expect(await compareTick(closed.id)).toEqual(again);
    expect(await stored()).toBe(before + 3);
  });

  it("GET /monitors/{id}/ticks/{tick_id}?wait=N returns the tick once it has closed, with its figures; 404 through another monitor", async () => {
    const m = await small(alice.cliToken, { prompts: prompts("crm for agencies", "crm pricing"), engines: ["gemini", "chatgpt"], runs: 1 });
    const tickOf = (monitorId: string, tickId: string, query: Record<string, string | number> = {}) =>
      call(tickRoute, "GET", `/monitors/${monitorId}/ticks/${tickId}`, { token: alice.cliToken, params: { monitor_id: monitorId, tick_id: tickId }, query });
    const run = await runNow(alice.cliToken, m.id);
    expect(run.status).toBe(202);
    // Without a wait: as it is now, open.
    const now = await tickOf(m.id, run.body.id);
    expect(now.status).toBe(200);
    expect(now.body).toMatchObject({ id: run.body.id, monitor_id: m.id, trigger: "manual", fanout_id: run.body.fanout_id });
    // With one: the last run's job closes the tick (no scheduler's look here) and the wait returns closed, with its summary.
    const closed = await tickOf(m.id, run.body.id, { wait: 30 });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ id: run.body.id, status: "completed", charged_usd: "0.07" });
    expect(closed.body.completed_at).not.toBeNull();
    expect(closed.body.summary[0]).toMatch(/^Acme CRM is named in \d+ of 4 answers/);
    // The same as the list shows it.
    expect((await ticks(alice.cliToken, m.id)).body.items[0]).toEqual(closed.body);

    // Through another monitor of the same workspace, or another person's: 404 as for a missing tick.
    const other = await small();
    const missing = await tickOf(other.id, "mt_01M8RA0000000000000000000A");
    expect(missing.status).toBe(404);
    const through = await tickOf(other.id, run.body.id);
    expect(through.status).toBe(404);
    expect(through.text.replace(run.body.id, "<ID>")).toBe(missing.text.replace("mt_01M8RA0000000000000000000A", "<ID>"));
    const bobs = await call(tickRoute, "GET", `/monitors/${m.id}/ticks/${run.body.id}`, { token: bob.cliToken, params: { monitor_id: m.id, tick_id: run.body.id } });
    expect(bobs.status).toBe(404);
    expect(bobs.body.error.message).toBe(`No such monitor "${m.id}".`);
    // A malformed id names nothing (404, as every path id); a wait past 30 is 400 naming it.
    const bad = await tickOf(m.id, "not-a-tick");
    expect(bad.status).toBe(404);
    const long = await tickOf(m.id, run.body.id, { wait: 31 });
    expect(long.status).toBe(400);
    expect(long.text).toContain("wait");
  });

  it("a tick the workspace's credit cannot pay is skipped (insufficient_credit) and starts nothing", async () => {
    // 10 prompts × 8 engines × 10 runs = 16.50 USD against the 5.00 promotional credit.
    const res = await create(alice.cliToken, { project, prompts: prompts(...Array.from({ length: 10 }, (_, i) => `costly ${i}`)), runs: 10 });
    expect(res.status).toBe(201);
    const m = res.body;
    const billing = async () => (await call(getBilling, "GET", "/billing", { token: alice.cliToken })).body;
    const before = await billing();
    const fanouts = await db().fanout.count();
    const tick = await runNow(alice.cliToken, m.id);
    expect(tick.status).toBe(202);
    expect(tick.body).toMatchObject({ status: "skipped", skip_reason: "insufficient_credit", fanout_id: null, charged_usd: "0.00", trigger: "manual" });
    expect(tick.body.completed_at).not.toBeNull();
    // The scheduler's tick too: claimed, then skipped by its job; nothing held, no fanout, no run.
    const slot = Date.parse(m.next_run_at);
    await checkMonitors(new Date(slot + 1000));
    expect(await tickCount(m.id)).toBe(2);
    await localDriver().drained();
    const all = (await ticks(alice.cliToken, m.id)).body.items;
    expect(all.map((t: { status: string; skip_reason: string; trigger: string }) => [t.trigger, t.status, t.skip_reason])).toEqual([
      ["schedule", "skipped", "insufficient_credit"],
      ["manual", "skipped", "insufficient_credit"],
    ]);
    expect(await db().fanout.count()).toBe(fanouts);
    expect(await billing()).toEqual(before);
    expect((await get(alice.cliToken, m.id)).body.spend_month_to_date_usd).toBe("0.00");
  });

  it("a tick that would pass the monthly budget (captured plus held this month) is skipped (budget_exhausted) and starts nothing", async () => {
    // 0.015 USD a tick, 0.02 USD a month: the first fits, the second does not, held or captured.
    const m = await small(alice.cliToken, { monthly_budget_usd: "0.02" });
    const first = await heldBack(() => runNow(alice.cliToken, m.id));
    expect(first.body).toMatchObject({ status: "queued", skip_reason: null });
    expect((await get(alice.cliToken, m.id)).body.spend_month_to_date_usd).toBe("0.015");
    const fanouts = await db().fanout.count();
    const second = await runNow(alice.cliToken, m.id);
    expect(second.body).toMatchObject({ status: "skipped", skip_reason: "budget_exhausted", fanout_id: null, charged_usd: "0.00" });
    expect(await db().fanout.count()).toBe(fanouts);
    // Once the first is paid (captured, no longer held) it still counts.
    await localDriver().sweep();
    await settle();
    expect((await get(alice.cliToken, m.id)).body.spend_month_to_date_usd).toBe("0.015");
    expect((await runNow(alice.cliToken, m.id)).body.skip_reason).toBe("budget_exhausted");
    // The scheduler's tick at the slot is skipped alike by its job.
    const slot = Date.parse(m.next_run_at);
    await checkMonitors(new Date(slot + 1000));
    await localDriver().drained();
    expect((await ticks(alice.cliToken, m.id)).body.items[0]).toMatchObject({ trigger: "schedule", status: "skipped", skip_reason: "budget_exhausted", fanout_id: null });
    expect(await db().fanout.count()).toBe(fanouts);
    // A larger budget lets it run again: the budget is read when the tick is made.
    await patch(alice.cliToken, m.id, { monthly_budget_usd: "0.03" });
    expect((await runNow(alice.cliToken, m.id)).body).toMatchObject({ status: expect.stringMatching(/queued|running/), skip_reason: null });
  });

  it("a scheduled tick that finds the workspace at its in-flight limit starts nothing and stays queued for its job's retry", async () => {
    const dave = await person("dave@example.com");
    const daveProject = await projectOf(dave, "Dave's", context);
    const m = await small(dave.cliToken, { project: daveProject });
    process.env.RUNS_IN_FLIGHT_LIMIT = "1";
    process.env.FANOUT_MAX_EXECUTIONS = "1";
    resetConfig();
    let tickId: string;
    try {
      expect((await heldBack(() => runNow(dave.cliToken, m.id))).status).toBe(202);
      const slot = Date.parse(m.next_run_at);
      await checkMonitors(new Date(slot + 1000));
      await localDriver().drained();
      const tick = await db().monitorTick.findFirstOrThrow({ where: { monitorId: m.id, trigger: "schedule" } });
      tickId = tick.id;
      expect([tick.status, tick.fanoutId, tick.completedAt]).toEqual(["queued", null, null]);
      const job = await db().job.findUniqueOrThrow({ where: { id: tick.id } });
      expect(job.status).toBe("queued");
      expect(job.error).toContain("Too many runs at once");
      expect(await db().fanout.count({ where: { workspaceId: dave.workspaceId } })).toBe(1);
    } finally {
      delete process.env.RUNS_IN_FLIGHT_LIMIT;
      delete process.env.FANOUT_MAX_EXECUTIONS;
      resetConfig();
    }
    // Its retry, once the workspace has room: the tick gets its fanout.
    await localDriver().sweep();
    await localDriver().drained();
    expect(await startTick(tickId)).toMatchObject({ kind: expect.stringMatching(/started|done/) });
    expect((await db().monitorTick.findUniqueOrThrow({ where: { id: tickId } })).fanoutId).toMatch(/^fo_/);
  });

  it("a tick claimed for a version the monitor has left fails, naming why, and starts nothing", async () => {
    const m = await small();
    const slot = Date.parse(m.next_run_at);
    await heldBack(() => checkMonitors(new Date(slot + 1000)));
    await patch(alice.cliToken, m.id, { runs: 2 });
    const tick = await db().monitorTick.findFirstOrThrow({ where: { monitorId: m.id } });
    expect(await startTick(tick.id)).toEqual({ kind: "failed" });
    const shown = (await ticks(alice.cliToken, m.id)).body.items[0];
    expect(shown).toMatchObject({ version: 1, status: "failed", fanout_id: null, skip_reason: null });
    expect(shown.error.message).toContain("changed (version 1 to 2)");
    expect(shown.completed_at).not.toBeNull();
  });

  it("429 past the in-flight limit: run now creates no tick and nothing else", async () => {
    const carol = await person("carol@example.com");
    const carolProject = await projectOf(carol, "Carol's", context);
    process.env.RUNS_IN_FLIGHT_LIMIT = "2";
    process.env.FANOUT_MAX_EXECUTIONS = "2";
    resetConfig();
    try {
      const m = await small(carol.cliToken, { project: carolProject });
      // Two ticks' runs queued and not started: the workspace is at its limit.
      for (let i = 0; i < 2; i++) expect((await heldBack(() => runNow(carol.cliToken, m.id))).status).toBe(202);
      const ticksBefore = await db().monitorTick.count({ where: { monitorId: m.id } });
      const fanoutsBefore = await db().fanout.count({ where: { workspaceId: carol.workspaceId } });
      const res = await runNow(carol.cliToken, m.id);
      expect(res.status).toBe(429);
      expect(res.body.error).toMatchObject({ code: "rate_limited", retryable: true });
      expect(await db().monitorTick.count({ where: { monitorId: m.id } })).toBe(ticksBefore);
      expect(await db().fanout.count({ where: { workspaceId: carol.workspaceId } })).toBe(fanoutsBefore);
    } finally {
      delete process.env.RUNS_IN_FLIGHT_LIMIT;
      delete process.env.FANOUT_MAX_EXECUTIONS;
      resetConfig();
      await localDriver().sweep();
    }
  });
});

describe("the scheduler, with an injected clock", () => {
  it("a due slot makes exactly one tick, however often and however concurrently the check runs", async () => {
    const m = await small();
    const slot = Date.parse(m.next_run_at);
    // Not due a minute before its slot.
    await checkMonitors(new Date(slot - 60_000));
    expect(await tickCount(m.id)).toBe(0);
    const now = new Date(slot + 5_000);
    const results = await Promise.all(Array.from({ length: 5 }, () => checkMonitors(now)));
    expect(results.reduce((n, r) => n + r.claimed, 0)).toBe(1);
    await checkMonitors(now);
    const rows = await db().monitorTick.findMany({ where: { monitorId: m.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ version: 1, trigger: "schedule" });
    expect(rows[0]!.scheduledFor.toISOString()).toBe(m.next_run_at);
    expect((await get(alice.cliToken, m.id)).body.next_run_at).toBe(new Date(slot + DAY).toISOString());
    // Its job made the fanout; the sweep closes the tick once the fanout finished.
    await localDriver().drained();
    const started = await db().monitorTick.findUniqueOrThrow({ where: { id: rows[0]!.id } });
    expect(started.fanoutId).toMatch(/^fo_/);
    await settle(now);
    const tick = (await ticks(alice.cliToken, m.id)).body.items[0];
    expect(tick).toMatchObject({ id: rows[0]!.id, status: "completed", fanout_id: started.fanoutId, charged_usd: "0.015" });
    // A start run again (a resumed job) makes no second fanout.
    expect(await startTick(rows[0]!.id)).toEqual({ kind: "done" });
    expect(await db().fanout.count({ where: { id: started.fanoutId! } })).toBe(1);
  });

  it("after downtime over three slots, only the latest missed slot runs", async () => {
    const m = await small();
    const first = Date.parse(m.next_run_at);
    const now = new Date(first + 3 * DAY + 2 * 3_600_000);
    expect((await checkMonitors(now)).claimed).toBe(1);
    await checkMonitors(now);
    const rows = await db().monitorTick.findMany({ where: { monitorId: m.id } });
    expect(rows.map((r) => r.scheduledFor.toISOString())).toEqual([new Date(first + 3 * DAY).toISOString()]);
    expect((await get(alice.cliToken, m.id)).body.next_run_at).toBe(new Date(first + 4 * DAY).toISOString());
    await settle(now);
  });

  it("a version bump starts a new series: the next slot's tick carries the new version", async () => {
    const m = await small();
    const first = Date.parse(m.next_run_at);
    await checkMonitors(new Date(first + 1000));
    await settle(new Date(first + 1000));
    const bumped = await patch(alice.cliToken, m.id, { runs: 2 });
    expect(bumped.body.version).toBe(2);
    await checkMonitors(new Date(first + DAY + 1000));
    await settle(new Date(first + DAY + 1000));
    const page = (await ticks(alice.cliToken, m.id)).body.items;
    expect(page.map((t: { version: number; scheduled_for: string; status: string }) => [t.version, t.scheduled_for, t.status])).toEqual([
      [2, new Date(first + DAY).toISOString(), "completed"],
      [1, new Date(first).toISOString(), "completed"],
    ]);
    // The new series' tick ran the new settings: 1 prompt × 1 engine × 2 runs.
    const fanout = await db().fanout.findUniqueOrThrow({ where: { id: page[0].fanout_id } });
    expect(fanout.runsPerPrompt).toBe(2);
  });

  it("pages ticks newest first", async () => {
    const m = await small();
    const first = Date.parse(m.next_run_at);
    for (let d = 0; d < 3; d++) await checkMonitors(new Date(first + d * DAY + 1000));
    await settle(new Date(first + 2 * DAY + 2000));
    const one = await ticks(alice.cliToken, m.id, { limit: 2 });
    expect(one.body.items.map((t: { scheduled_for: string }) => t.scheduled_for)).toEqual([new Date(first + 2 * DAY).toISOString(), new Date(first + DAY).toISOString()]);
    const two = await ticks(alice.cliToken, m.id, { limit: 2, cursor: one.body.next_cursor });
    expect(two.body.items.map((t: { scheduled_for: string }) => t.scheduled_for)).toEqual([new Date(first).toISOString()]);
    expect(two.body.next_cursor).toBeNull();
  });
});
