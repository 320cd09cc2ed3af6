// Weekly digests (issue #47) through the route handlers, the scheduler's and the digests' checks on
// an injected clock, and the jobs on the local driver, with a real SMTP receiver in process
// (smtp-server, as tests/api/alerts.test.ts): off by default and turned on by PATCH (same version);
// a weekly monitor's two scheduled ticks, one a week apart, with a real change between them: the
// second week's digest lists the tick's summary, its significant changes (the alerts' own
// sentences), the lost prompts and citation targets POST /opportunity-analyses finds on the same
// analysis, and the link; the digests' check run by two "instances" at once makes one digest and
// one mail; a retried attempt sends nothing twice; without SMTP_URL it is logged; an SMTP server
// that refuses it makes it pending, retried, then failed with its error; a daily
// monitor's digest goes on Monday only; a creator who left the workspace gets none (not_sent).
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as alertsRoute } from "@/app/api/v1/monitors/[monitor_id]/alerts/route";
import { GET as digestsRoute } from "@/app/api/v1/monitors/[monitor_id]/digests/route";
import { PATCH as patchRoute } from "@/app/api/v1/monitors/[monitor_id]/route";
import { GET as ticksRoute } from "@/app/api/v1/monitors/[monitor_id]/ticks/route";
import { POST as createRoute } from "@/app/api/v1/monitors/route";
import { POST as opportunitiesRoute } from "@/app/api/v1/opportunity-analyses/route";
import { config, resetConfig } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { checkDigests } from "@/lib/digests/claim";
import { attemptDigest, NO_SMTP, NOT_MEMBER } from "@/lib/digests/deliver";
import { answerDirective } from "@/lib/engines/simulator/directive";
import { checkMonitors } from "@/lib/monitors/ticks";
import { createProject } from "@/lib/projects/create";
import { removeMember } from "@/lib/workspaces/create";
import { localDriver } from "@/lib/work/local-driver";
import { citationTargetSentence, lostPromptSentence } from "@/lib/words/opportunities";
import { useTestDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { call } from "../helpers/http";
import { person, principalOf, type Person } from "../helpers/people";

useSimulatedEngines({ billing: true });
useTestDatabase();

const DAY = 86_400_000;

let alice: Person;
let bob: Person;
let project: string;
let smtp: SMTPServer;
const mails: string[] = [];

function create(token: string, body: Record<string, unknown>) {
  return call(createRoute, "POST", "/monitors", { token, body });
}
function patch(token: string, id: string, body: unknown) {
  return call(patchRoute, "PATCH", `/monitors/${id}`, { token, params: { monitor_id: id }, body });
}
function digests(token: string, id: string, query: Record<string, string | number> = {}) {
  return call(digestsRoute, "GET", `/monitors/${id}/digests`, { token, params: { monitor_id: id }, query });
}

/** The ISO 8601 week of a moment, computed here on its own (its Thursday's year and week), not by the server's SQL. */
function isoWeek(d: Date): string {
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  const thursday = new Date(day + (3 - ((d.getUTCDay() + 6) % 7)) * DAY);
  const year = thursday.getUTCFullYear();
  const week = 1 + Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / DAY / 7);
  return `${year}-W${String(week).padStart(2, "0")}`;
}

/** Every queued job run, then the scheduler's check at `now` (claims due slots, closes finished ticks), then its jobs; twice, so a tick claimed now is also closed. */
async function settle(now: Date) {
  for (let i = 0; i < 2; i++) {
    await localDriver().drained();
    await checkMonitors(now);
    await localDriver().drained();
  }
}

/** The digests' check at `now` by `instances` at once, then every job it queued. */
async function digestCheck(now: Date, instances = 1) {
  const results = await Promise.all(Array.from({ length: instances }, () => checkDigests(now)));
  await localDriver().drained();
  return results;
}

const toWhom = (who: Person) => mails.filter((m) => m.includes(`To: ${who.email}`));
/** The mails that link this monitor. */
const mailsOf = (monitorId: string) => mails.filter((m) => m.includes(`/monitors/${monitorId}`));

function useSmtp() {
  process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`;
  resetConfig();
}

/** A weekly monitor (on `weekday`, 06:00 UTC) whose every tick is skipped for its budget: cheap ticks that end at once. */
async function skippingMonitor(token: string, alerts: Record<string, unknown>, schedule: Record<string, unknown> = { every: "week", at: "06:00", weekday: 3 }, projectId = project) {
  const res = await create(token, { project: projectId, prompts: [{ text: "best crm for agencies" }], engines: ["gemini"], runs: 1, monthly_budget_usd: "0.001", schedule, alerts });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; name: string; next_run_at: string };
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        // Quoted-printable soft line breaks undone, so sentences can be looked for whole.
        mails.push(Buffer.concat(chunks).toString("utf8").replace(/=\r?\n/g, "").replace(/=E2=80=9C/g, "“").replace(/=E2=80=9D/g, "”").replace(/=E2=80=93/g, "–").replace(/=E2=88=92/g, "−").replace(/=E2=80=A6/g, "…").replace(/=3D/g, "="));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  alice = await person("digest-alice@example.com");
  bob = await person("digest-bob@example.com");
  project = (
    await createProject(principalOf(alice), {
      name: "Digests",
      workspace_id: alice.workspaceId,
      context: { primary_domain: "acme.example", brands: ["Acme CRM"], competitors: ["HubSpot", "Pipedrive"] },
    })
  ).id;
});

afterEach(async () => {
  await localDriver().drained();
  await db().monitor.updateMany({ data: { status: "paused" } });
  await db().monitorDigest.updateMany({ where: { status: "pending" }, data: { status: "failed" } });
  delete process.env.SMTP_URL;
  resetConfig();
});

afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe("alerts.digest", () => {
  it("is off by default; PATCH turns it on and keeps the version and the other alert settings; anything else is 400 naming the field", async () => {
    const m = await skippingMonitor(alice.cliToken, { email: true });
    const created = await create(alice.cliToken, { project, prompts: [{ text: "a prompt" }], engines: ["gemini"], runs: 1 });
    expect(created.body.alerts).toEqual({ webhook_url: null, email: false, min_change: 10, digest: "off" });
    const on = await patch(alice.cliToken, m.id, { alerts: { digest: "weekly" } });
    expect(on.status).toBe(200);
    expect(on.body.version).toBe(1);
    expect(on.body.alerts).toEqual({ webhook_url: null, email: true, min_change: 10, digest: "weekly" });
    const bad = await patch(alice.cliToken, m.id, { alerts: { digest: "daily" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("alerts.digest");
    expect(bad.body.error.message).toContain('"off" or "weekly"');
  });

  it("a monitor with the digest off gets none on its day; turned on later in the week, that week's digest goes at the next check", async () => {
    useSmtp();
    const m = await skippingMonitor(alice.cliToken, {});
    const slot = new Date(m.next_run_at);
    await settle(new Date(slot.getTime() + 1000));
    expect(await db().monitorTick.count({ where: { monitorId: m.id, status: "skipped" } })).toBe(1);
    await digestCheck(new Date(slot.getTime() + 60_000));
    expect((await digests(alice.cliToken, m.id)).body.items).toEqual([]);
    expect((await patch(alice.cliToken, m.id, { alerts: { digest: "weekly" } })).status).toBe(200);
    await digestCheck(new Date(slot.getTime() + 2 * DAY));
    const items = (await digests(alice.cliToken, m.id)).body.items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ week: isoWeek(slot), status: "sent", recipient: alice.email, reason: null });
  });
});

describe("the weekly digest's content, once per week", () => {
  it("lists the latest tick's summary, the week's significant changes, the top opportunities and the link; made once by two instances at once, and sent once", async () => {
    useSmtp();
    // Two Acme prompts that refuse their first ten attempts (so the first tick names Acme in none
    // of its answers) and one HubSpot prompt: the second tick's change is real (tests/api/monitor-series.test.ts).
    const acme = answerDirective("Acme CRM is the best pick for agencies.");
    const hubspot = answerDirective("HubSpot is the most popular CRM, see hubspot.com.");
    const prompts = [
      { text: `which crm should an agency pick weekly ${acme} [[sim:bad_request*10]]` },
      { text: `which crm suits a small agency weekly ${acme} [[sim:bad_request*10]]` },
      { text: `most popular crm weekly ${hubspot}` },
    ];
    const res = await create(alice.cliToken, {
      project, name: "Digest <weekly> & co", prompts, engines: ["gemini"], runs: 10, schedule: { every: "week", at: "06:00", weekday: 1 }, alerts: { digest: "weekly" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.id as string;
    const first = new Date(res.body.next_run_at);
    expect(first.getUTCDay()).toBe(1);

    // Week one: its Monday tick, then its digest (nothing to compare yet).
    await settle(new Date(first.getTime() + 1000));
    await digestCheck(new Date(first.getTime() + 3_600_000));
    expect(mailsOf(id)).toHaveLength(1);
    expect(mailsOf(id)[0]).toContain(`To: ${alice.email}`);
    expect(mailsOf(id)[0]).toContain("No tick this week had an earlier completed tick of its version to compare with");

    // Week two: the next Monday's tick, then the check run by two instances at once, and again.
    const second = new Date(first.getTime() + 7 * DAY);
    await settle(new Date(second.getTime() + 1000));
    const ticks = (await call(ticksRoute, "GET", `/monitors/${id}/ticks`, { token: alice.cliToken, params: { monitor_id: id } })).body.items as any[];
    const tick = ticks.find((t) => t.scheduled_for === second.toISOString());
    expect(tick.status).toBe("completed");
    const checks = await digestCheck(new Date(second.getTime() + 3_600_000), 2);
    expect(checks.map((c) => c.claimed).sort()).toEqual([0, 1]);
    await digestCheck(new Date(second.getTime() + 2 * 3_600_000), 2);
    expect(await db().monitorDigest.count({ where: { monitorId: id } })).toBe(2);
    const list = (await digests(alice.cliToken, id)).body;
    expect(list.items.map((d: any) => d.week)).toEqual([isoWeek(second), isoWeek(first)]);
    const digest = list.items[0];
    expect(digest).toMatchObject({
      monitor_id: id, tick_id: tick.id, status: "sent", reason: null, recipient: alice.email, attempts: 1,
      subject: `Weekly digest: Digest <weekly> & co (week ${isoWeek(second)})`,
    });
    expect(digest.sent_at).not.toBeNull();
    // A retried attempt (its job run again) sends nothing.
    expect(await attemptDigest(digest.id, 1)).toBe("skipped");
    await localDriver().drained();
    const sent = mailsOf(id);
    expect(sent).toHaveLength(2);
    const mail = sent[1]!;
    expect(mail).toContain(`Subject: Weekly digest: Digest <weekly> & co (week ${isoWeek(second)})`);
    expect(mail).toMatch(/Content-Type: text\/html/);
    expect(mail).toContain("&lt;weekly&gt; &amp; co");

    // The latest completed tick's summary, as GET …/ticks says it.
    expect(tick.summary.length).toBeGreaterThan(0);
    for (const sentence of tick.summary) expect(mail).toContain(sentence);
    // Every significant change of the week, in the words of its alert (the same test raised them).
    const alerts = ((await call(alertsRoute, "GET", `/monitors/${id}/alerts`, { token: alice.cliToken, params: { monitor_id: id }, query: { limit: 200 } })).body.items as any[]).filter(
      (a) => a.kind === "significant_change" && a.tick_id === tick.id,
    );
    expect(alerts.map((a) => a.entity).sort()).toEqual(expect.arrayContaining(["Acme CRM", "HubSpot"]));
    for (const a of alerts) expect(mail).toContain(`${second.toISOString().slice(0, 10)}: ${a.summary}`);
    // The top lost prompts and citation targets, as an opportunity list of the same analysis says them.
    const opportunities = await call(opportunitiesRoute, "POST", "/opportunity-analyses", { token: alice.cliToken, body: { analysis: tick.analysis_id } });
    expect(opportunities.status).toBe(201);
    const o = opportunities.body;
    expect(o.lost_prompts.length).toBeGreaterThan(0);
    expect(o.lost_prompts[0].competitor.name).toBe("HubSpot");
    expect(o.citation_targets.length).toBeGreaterThan(0);
    expect(mail).toContain("Prompts where a competitor is named more often than Acme CRM:");
    o.lost_prompts.slice(0, 3).forEach((l: any, i: number) => expect(mail).toContain(`${i + 1}. ${lostPromptSentence("Acme CRM", l)}`));
    o.citation_targets.slice(0, 3).forEach((t: any, i: number) => expect(mail).toContain(`${i + 1}. ${citationTargetSentence("Acme CRM", t)}`));
    expect(mail).toContain(`The monitor: ${config().PUBLIC_BASE_URL}/monitors/${id}`);
  });

  it("a daily monitor's digest goes on Mondays only; a paused monitor's is not made", async () => {
    useSmtp();
    const m = await skippingMonitor(alice.cliToken, { digest: "weekly" }, { every: "day", at: "06:00" });
    const slot = new Date(m.next_run_at);
    const notMonday = slot.getUTCDay() === 1 ? new Date(slot.getTime() + DAY) : slot;
    const monday = new Date(notMonday.getTime() + ((8 - notMonday.getUTCDay()) % 7) * DAY);
    expect(monday.getUTCDay()).toBe(1);
    await settle(new Date(notMonday.getTime() + 1000));
    await digestCheck(new Date(notMonday.getTime() + 60_000));
    expect((await digests(alice.cliToken, m.id)).body.items).toEqual([]);
    await settle(new Date(monday.getTime() + 1000));
    expect(await db().monitorTick.count({ where: { monitorId: m.id, scheduledFor: monday } })).toBe(1);
    await digestCheck(new Date(monday.getTime() + 60_000));
    expect((await digests(alice.cliToken, m.id)).body.items.map((d: any) => [d.week, d.status])).toEqual([[isoWeek(monday), "sent"]]);

    // The next Monday's tick ends, but the monitor is paused before the check: no digest that week.
    const next = new Date(monday.getTime() + 7 * DAY);
    await settle(new Date(next.getTime() + 1000));
    expect((await patch(alice.cliToken, m.id, { status: "paused" })).status).toBe(200);
    await digestCheck(new Date(next.getTime() + 60_000));
    expect((await digests(alice.cliToken, m.id)).body.items).toHaveLength(1);
  });
});

describe("who receives it", () => {
  it("without SMTP_URL the digest is written to the server log, once, and listed as logged with the reason", async () => {
    const m = await skippingMonitor(alice.cliToken, { digest: "weekly" });
    const slot = new Date(m.next_run_at);
    await settle(new Date(slot.getTime() + 1000));
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      await digestCheck(new Date(slot.getTime() + 60_000), 2);
      await digestCheck(new Date(slot.getTime() + 120_000));
    } finally {
      spy.mockRestore();
    }
    const logged = written.filter((line) => line.includes("monitor weekly digest (no SMTP_URL set"));
    expect(logged).toHaveLength(1);
    const entry = JSON.parse(logged[0]!);
    expect(entry.to).toBe(alice.email);
    expect(entry.subject).toBe(`Weekly digest: ${m.name} (week ${isoWeek(slot)})`);
    expect(entry.text).toContain(`Its tick of ${slot.toISOString().slice(0, 16).replace("T", " ")} UTC was skipped: it would have taken the monitor past its monthly budget.`);
    expect(entry.text).toContain("No tick of this monitor has completed yet");
    expect(entry.text).toContain("No completed tick has a visibility analysis yet, so there are no opportunities to list.");
    const items = (await digests(alice.cliToken, m.id)).body.items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ status: "logged", reason: NO_SMTP, recipient: alice.email, attempts: 1 });
    expect(items[0].sent_at).not.toBeNull();
  });

  it("an SMTP server that refuses it keeps it pending with the error, retried at its times, then failed after the sixth attempt with the last error", async () => {
    // A port nothing listens on: every attempt's connection is refused.
    const closed = new SMTPServer({ authOptional: true, disabledCommands: ["STARTTLS", "AUTH"], logger: false });
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.server.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
    resetConfig();
    const m = await skippingMonitor(alice.cliToken, { digest: "weekly" });
    const slot = new Date(m.next_run_at);
    await settle(new Date(slot.getTime() + 1000));
    await digestCheck(new Date(slot.getTime() + 60_000));
    let [d] = (await digests(alice.cliToken, m.id)).body.items;
    expect(d).toMatchObject({ status: "pending", attempts: 1, recipient: alice.email, sent_at: null });
    expect(d.reason).toMatch(/^The SMTP server did not accept attempt 1: .*ECONNREFUSED.*\. It is tried again at \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\.$/);
    // Each retry when the clock reaches it (the waits add up to under 9 hours): attempts 2 to 6.
    for (let attempt = 2; attempt <= 6; attempt++) {
      await digestCheck(new Date(Date.now() + 7 * 3_600_000));
      [d] = (await digests(alice.cliToken, m.id)).body.items;
      expect(d.attempts).toBe(attempt);
    }
    expect(d.status).toBe("failed");
    expect(d.reason).toMatch(/^The SMTP server did not accept it at any of 6 attempts; the last answer: .*ECONNREFUSED/);
    // Nothing more is tried.
    await digestCheck(new Date(Date.now() + 24 * 3_600_000));
    expect((await digests(alice.cliToken, m.id)).body.items[0]).toMatchObject({ status: "failed", attempts: 6 });
  });

  it("a monitor whose creator left the workspace gets its digest not_sent, saying why, mailed to nobody; another workspace's monitor is 404", async () => {
    useSmtp();
    // Bob joins Alice's workspace, makes a monitor in her project, then leaves.
    const membership = await db().membership.create({ data: { workspaceId: alice.workspaceId, userId: bob.id, role: "member" } });
    const m = await skippingMonitor(bob.cliToken, { digest: "weekly" });
    await removeMember(principalOf(alice), alice.workspaceId, membership.id);
    const slot = new Date(m.next_run_at);
    await settle(new Date(slot.getTime() + 1000));
    await digestCheck(new Date(slot.getTime() + 60_000));
    const items = (await digests(alice.cliToken, m.id)).body.items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ status: "not_sent", reason: NOT_MEMBER, recipient: null, sent_at: null });
    expect(toWhom(bob)).toHaveLength(0);
    // Bob, out of the workspace now, cannot list them: 404 as for a missing monitor.
    const foreign = await digests(bob.cliToken, m.id);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("not_found");
  });
});
