// Alerts on a PostgreSQL server, as several instances and retried jobs raise and send them at once:
// a tick's cells raised by many calls together make one alert each and one webhook each; skipped
// ticks of one cause racing each other alert once; an attempt run by several workers at once is
// sent once; the deliveries' sweep run by many instances queues each due attempt once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attemptDelivery, sweepDeliveries } from "@/lib/alerts/deliver";
import { alertTickOutcome, raiseAlerts, raisePing, type SignificantChange } from "@/lib/alerts/raise";
import { resetConfig } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { reachableMonitorRow } from "@/lib/monitors/read";
import { createMonitor, runMonitor } from "@/lib/monitors/create";
import { runTickNow } from "@/lib/monitors/ticks";
import { createProject } from "@/lib/projects/create";
import { LocalDriver, localDriver } from "@/lib/work/local-driver";
import { usePostgresDatabase } from "../helpers/app";
import { useSimulatedEngines } from "../helpers/engines";
import { person, principalOf } from "../helpers/people";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

useSimulatedEngines({ billing: true });
process.env.WEBHOOK_ALLOW_HOSTS = "127.0.0.1";
resetConfig();

let receiver: Receiver;

usePostgresDatabase({ poolSize: 24 });

beforeAll(async () => {
  receiver = await startReceiver();
});

afterAll(async () => {
  await localDriver().drained();
  await receiver.close();
  delete process.env.WEBHOOK_ALLOW_HOSTS;
  resetConfig();
});

/** `fn` with a driver that accepts jobs and starts none: the test runs the attempts itself. */
async function withoutWorkers<T>(fn: () => Promise<T>): Promise<T> {
  const holder = globalThis as { __geoscopeLocalDriver?: LocalDriver };
  const previous = holder.__geoscopeLocalDriver;
  holder.__geoscopeLocalDriver = new LocalDriver({ concurrency: () => 0 });
  try {
    return await fn();
  } finally {
    holder.__geoscopeLocalDriver = previous;
  }
}

async function setUp(email: string, webhookPath: string, extra: Record<string, unknown> = {}) {
  const who = await person(email);
  const principal = principalOf(who);
  const project = (await createProject(principal, { name: "Alerts", workspace_id: who.workspaceId, context: { brands: ["Acme"], competitors: ["Globex"] } })).id;
  const monitor = await createMonitor(principal, { project, prompts: [{ text: "raced" }], engines: ["gemini"], runs: 1, alerts: { webhook_url: receiver.url(webhookPath), email: true }, ...extra });
  return { principal, monitor };
}

const cell = (entity: string, engine: string): SignificantChange => ({
  entity, engine, metric: "visibility", before: 0.2, after: 0.7, diff: 0.5, interval: [0.2, 0.8], before_runs: 30, after_runs: 30, confidence: 0.99,
});

describe("alerts on PostgreSQL", () => {
  it("a tick's cells raised by 12 calls at once make one alert, one webhook and one email each, and each attempt run by 4 workers at once is sent once", async () => {
    const { principal, monitor } = await setUp("raced-cells@example.com", "/cells");
    const tick = await runMonitor(principal, monitor.id);
    await localDriver().drained();
    const cells = [cell("Acme", "all"), cell("Acme", "gemini"), cell("Globex", "all")];
    const made = (await withoutWorkers(() => Promise.all(Array.from({ length: 12 }, () => raiseAlerts(tick.id, cells))))).flat();
    expect(made).toHaveLength(3);
    expect(await db().monitorAlert.count({ where: { monitorId: monitor.id } })).toBe(3);
    const deliveries = await db().alertDelivery.findMany({ where: { monitorId: monitor.id } });
    expect(deliveries.map((d) => d.channel).sort()).toEqual(["email", "webhook", "webhook", "webhook"]);
    // The email lists every alert: all joined it before its first attempt.
    expect(await db().monitorAlert.count({ where: { monitorId: monitor.id, emailDeliveryId: deliveries.find((d) => d.channel === "email")!.id } })).toBe(3);

    const outcomes = await Promise.all(deliveries.flatMap((d) => Array.from({ length: 4 }, () => attemptDelivery(d.id, 1))));
    expect(outcomes.filter((o) => o === "delivered")).toHaveLength(4);
    expect(outcomes.filter((o) => o === "skipped")).toHaveLength(12);
    expect(receiver.to("/cells").map((r) => JSON.parse(r.body).id).sort()).toEqual([...made].sort());
  });

  it("skipped ticks of one cause racing each other alert once", async () => {
    const { principal, monitor } = await setUp("raced-skips@example.com", "/skips", { monthly_budget_usd: "0.001" });
    // Eight skipped ticks (made by the tick code itself, which raises nothing), then every tick's
    // alert raised at once, each by 3 callers (its job, a retry, a resumed one).
    const row = await reachableMonitorRow(principal, monitor.id);
    const ticks: string[] = [];
    for (let i = 0; i < 8; i++) ticks.push(await runTickNow(row, { userId: principal.user.id, apiKeyId: null }));
    expect(await db().monitorTick.count({ where: { monitorId: monitor.id, skipReason: "budget_exhausted" } })).toBe(8);
    await withoutWorkers(() => Promise.all(ticks.flatMap((t) => [alertTickOutcome(t), alertTickOutcome(t), alertTickOutcome(t)])));
    const alerts = await db().monitorAlert.findMany({ where: { monitorId: monitor.id } });
    expect(alerts.map((a) => `${a.kind}:${a.reason}`)).toEqual(["tick_skipped:budget_exhausted"]);
  });

  it("the deliveries' sweep run by 10 instances at once queues each due attempt once", async () => {
    receiver.plan("/swept", (n) => (n === 1 ? 500 : 200));
    const { monitor } = await setUp("swept@example.com", "/swept");
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await raisePing(monitor.id));
    await localDriver().drained();
    expect(receiver.to("/swept")).toHaveLength(3);
    const later = new Date(Date.now() + 61_000);
    await Promise.all(Array.from({ length: 10 }, () => sweepDeliveries(later)));
    await localDriver().drained();
    // The first answer of the path was a 500: that ping's retry, once; the others were delivered.
    expect(receiver.to("/swept")).toHaveLength(4);
    // This monitor's: the sweep also queues any earlier test's delivery still pending and due by then.
    const states = await db().alertDelivery.findMany({ where: { monitorId: monitor.id } });
    expect(await db().job.count({ where: { job: "deliver-alert", id: { in: states.map((d) => `${d.id}.2`) } } })).toBe(1);
    expect(states.every((d) => d.status === "delivered")).toBe(true);
  });
});
