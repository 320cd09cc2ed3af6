// Monitors on PostgreSQL through the built server (issue #36), as a deployment runs them.
// Two `next start` instances on one database, both looking for due slots every second: each due
// slot makes exactly one tick, one fanout, one engine call per run (the unique key of monitor,
// version and slot decides, not a lock in memory). Then one server SIGKILLed while a tick's
// fanout runs and started again: the tick finishes once, its fanout is not made twice, and every
// run is paid once.
import { expect, test } from "@playwright/test";
import { startSimulator, type RunningSimulator } from "../../lib/engines/simulator/server";
import { createTestDatabase, type TestDatabase } from "../helpers/pg-database";
import { freePort, nextServer, runScript, serverTestEnv, type NextServer } from "../helpers/processes";
import { serverApi } from "./support";

/** Makes a monitor's next slot come now: what a clock reaching it would do (the slot is the schedule's latest, before now). */
const MAKE_DUE = `UPDATE monitors SET next_run_at = (now() AT TIME ZONE 'UTC') - interval '1 minute' WHERE id = ANY($1)`;

async function setUp(database: TestDatabase) {
  const setup = serverTestEnv({ DATABASE_URL: database.url });
  await runScript("db-migrate", [], setup);
  const created = JSON.parse(await runScript("admin", ["user:create", "--email", "monitors@example.com", "--api-key", "k"], setup)) as { api_key: { key: string } };
  return created.api_key.key;
}

test("two instances on one PostgreSQL: each due slot makes exactly one tick, one fanout and one engine call per run", async () => {
  test.setTimeout(240_000);
  const database = await createTestDatabase();
  const calls: Record<"a" | "b", string[]> = { a: [], b: [] };
  const simulators: RunningSimulator[] = [];
  const servers: NextServer[] = [];
  try {
    for (const name of ["a", "b"] as const) simulators.push(await startSimulator({ onCall: async ({ engine, prompt }) => void calls[name].push(`${engine} ${prompt}`) }));
    const api = serverApi(await setUp(database));
    for (const [i, name] of (["a", "b"] as const).entries()) {
      servers.push(
        nextServer(
          await freePort(),
          serverTestEnv({ DATABASE_URL: database.urlAs(`geoscope-monitors-${name}`), GEOSCOPE_SIMULATOR_URL: simulators[i]!.url, MONITOR_CHECK_SECONDS: "1" }),
        ),
      );
    }
    const [a, b] = servers as [NextServer, NextServer];
    await Promise.all([a.start(), b.start()]);
    const project = (await api(a, "POST", "/projects", { name: "Two schedulers", context: { brands: ["Acme"], competitors: ["Globex"] } })).id as string;
    const monitors: string[] = [];
    for (let m = 0; m < 4; m++) {
      const prompts = Array.from({ length: 3 }, (_, i) => ({ text: `monitor ${m} prompt ${i}` }));
      monitors.push((await api(m % 2 ? b : a, "POST", "/monitors", { project, prompts, engines: ["chatgpt", "gemini"], runs: 1 })).id as string);
    }
    // Nothing runs at creation: the first slot is tomorrow.
    expect(await database.query(`SELECT id FROM monitor_ticks`)).toEqual([]);

    // Every slot due at once, both instances looking every second.
    await database.query(MAKE_DUE, [monitors]);
    for (const id of monitors) {
      await expect
        .poll(async () => ((await api(b, "GET", `/monitors/${id}/ticks`)).items as { status: string }[]).map((t) => t.status).join(","), { timeout: 120_000, intervals: [500] })
        .toBe("completed");
    }

    // One tick per monitor (one version, one slot), one fanout per tick, one start job per tick.
    const ticks = await database.query<{ monitor_id: string; fanout_id: string; trigger: string }>(`SELECT monitor_id, fanout_id, trigger FROM monitor_ticks ORDER BY monitor_id`);
    expect(ticks.map((t) => t.monitor_id)).toEqual([...monitors].sort());
    expect(ticks.every((t) => t.trigger === "schedule" && t.fanout_id?.startsWith("fo_"))).toBe(true);
    expect((await database.query(`SELECT count(*)::int AS n FROM fanouts`))[0].n).toBe(4);
    expect(await database.query(`SELECT status, attempts FROM jobs WHERE job = 'start-tick'`)).toEqual(Array(4).fill({ status: "completed", attempts: 1 }));
    // Each of the 24 runs went to its engine once, from one instance or the other.
    const all = [...calls.a, ...calls.b].filter((c) => c.includes("monitor "));
    expect(all).toHaveLength(24);
    expect(new Set(all).size).toBe(24);
    // The monitors' next slots moved on: tomorrow's, not one already passed.
    for (const id of monitors) expect(Date.parse((await api(a, "GET", `/monitors/${id}`)).next_run_at)).toBeGreaterThan(Date.now());
  } finally {
    for (const server of servers) await server.kill();
    for (const simulator of simulators) await simulator.close();
    await database.drop();
  }
});

test("the server SIGKILLed while a tick's fanout runs: after a restart the tick finishes once, its fanout is not made twice, nothing is charged twice", async () => {
  // The killed server's job leases (60 s) must expire before the restarted one takes its work over.
  test.setTimeout(300_000);
  const PROMPTS = 10;
  const ANSWERED_BEFORE_KILL = 6;
  const database = await createTestDatabase();
  const engineCalls = new Map<string, number>();
  let answered = 0;
  let killed!: () => void;
  const serverDead = new Promise<void>((resolve) => (killed = resolve));
  let simulator: RunningSimulator | undefined;
  let server: NextServer | undefined;
  try {
    simulator = await startSimulator({
      onCall: async ({ engine, prompt }) => {
        engineCalls.set(`${engine} ${prompt}`, (engineCalls.get(`${engine} ${prompt}`) ?? 0) + 1);
        if (++answered > ANSWERED_BEFORE_KILL) await serverDead;
      },
    });
    const api = serverApi(await setUp(database));
    server = nextServer(await freePort(), serverTestEnv({ DATABASE_URL: database.url, GEOSCOPE_SIMULATOR_URL: simulator.url, ENGINE_CONCURRENCY: "2", MONITOR_CHECK_SECONDS: "1" }));
    const s = server;
    await s.start();
    const project = (await api(s, "POST", "/projects", { name: "Killed", context: { brands: ["Acme"] } })).id as string;
    const prompts = Array.from({ length: PROMPTS }, (_, i) => ({ text: `killed tick ${i}` }));
    const monitor = (await api(s, "POST", "/monitors", { project, prompts, engines: ["chatgpt", "claude"], runs: 1 })).id as string;
    await database.query(MAKE_DUE, [[monitor]]);

    // Kill once some of the tick's runs completed, others are at the engine and the rest wait.
    const tickNow = async () => ((await api(s, "GET", `/monitors/${monitor}/ticks`)).items as any[])[0];
    await expect.poll(async () => (await tickNow())?.fanout_id ?? null, { timeout: 60_000, intervals: [200] }).not.toBeNull();
    const { id: tickId, fanout_id: fanoutId } = await tickNow();
    await expect
      .poll(async () => {
        const c = (await api(s, "GET", `/fanouts/${fanoutId}`)).counts;
        return c.completed >= ANSWERED_BEFORE_KILL && c.running > 0 && c.queued > 0;
      }, { intervals: [50], timeout: 60_000 })
      .toBe(true);
    const atKill = (await api(s, "GET", `/runs?fanout=${fanoutId}&limit=100`)).items as { status: string; subject: string; engine: string }[];
    expect((await tickNow()).status).toBe("running");
    await s.kill();
    killed();
    const completedBeforeKill = atKill.filter((r) => r.status === "completed");

    await s.start();
    await expect.poll(async () => (await tickNow()).status as string, { timeout: 240_000, intervals: [1000] }).toBe("completed");

    // One tick for the slot, the same fanout, made once; every run completed.
    const ticks = await database.query(`SELECT id, fanout_id, completed_at FROM monitor_ticks`);
    expect(ticks).toHaveLength(1);
    expect(ticks[0]).toMatchObject({ id: tickId, fanout_id: fanoutId });
    expect((await database.query(`SELECT count(*)::int AS n FROM fanouts`))[0].n).toBe(1);
    const detail = await api(s, "GET", `/fanouts/${fanoutId}`);
    expect(detail.counts).toEqual({ queued: 0, running: 0, completed: PROMPTS * 2, failed: 0 });
    // A run completed before the kill was not sent to its engine again; none more than twice.
    for (const run of completedBeforeKill) expect(engineCalls.get(`${run.engine} ${run.subject}`)).toBe(1);
    expect(engineCalls.size).toBe(PROMPTS * 2);
    for (const n of engineCalls.values()) expect(n === 1 || n === 2).toBe(true);

    // Paid once: one captured hold per run, their sum the usage transactions, nothing held, and the
    // tick's charge the fanout's (10 runs at chatgpt's 0.02, 10 at claude's 0.03).
    const holds = await database.query<{ run_id: string; status: string; captured_micros: string }>(`SELECT run_id, status, captured_micros FROM credit_holds`);
    expect(holds).toHaveLength(PROMPTS * 2);
    expect(holds.every((h) => h.status === "captured")).toBe(true);
    const usage = await database.query<{ run_id: string; micros: string }>(`SELECT run_id, (-sum(amount_micros))::text AS micros FROM ledger_transactions WHERE kind = 'usage' GROUP BY run_id`);
    expect(Object.fromEntries(usage.map((u) => [u.run_id, u.micros]))).toEqual(Object.fromEntries(holds.map((h) => [h.run_id, h.captured_micros])));
    expect((await database.query(`SELECT held_micros FROM credit_balances`))[0].held_micros).toBe("0");
    const tick = await tickNow();
    expect([tick.charged_usd, detail.charged_usd]).toEqual(["0.50", "0.50"]);
    expect((await api(s, "GET", `/monitors/${monitor}`)).spend_month_to_date_usd).toBe("0.50");
    // The tick was closed once: one close job, done.
    expect(await database.query(`SELECT status FROM jobs WHERE job = 'finish-tick'`)).toEqual([{ status: "completed" }]);
  } finally {
    await server?.kill();
    await simulator?.close();
    await database.drop();
  }
});

test("a tick closes as soon as its fanout's last run finishes, not at the scheduler's next look", async () => {
  test.setTimeout(180_000);
  const database = await createTestDatabase();
  let simulator: RunningSimulator | undefined;
  let server: NextServer | undefined;
  try {
    simulator = await startSimulator();
    const api = serverApi(await setUp(database));
    // The scheduler looks at start and then once an hour: only the last run's own close can end the tick within the test.
    server = nextServer(await freePort(), serverTestEnv({ DATABASE_URL: database.url, GEOSCOPE_SIMULATOR_URL: simulator.url, MONITOR_CHECK_SECONDS: "3600" }));
    const s = server;
    await s.start();
    const project = (await api(s, "POST", "/projects", { name: "Closed at once", context: { brands: ["Acme"], competitors: ["Globex"] } })).id as string;
    // One prompt the engine refuses: a partial tick closes at once too, whichever run finishes last.
    const prompts = [{ text: "crm for a studio" }, { text: "crm for a clinic" }, { text: "crm for a school [[sim:bad_request]]" }];
    const monitor = (await api(s, "POST", "/monitors", { project, prompts, engines: ["chatgpt", "gemini"], runs: 2 })).id as string;
    const tick = await api(s, "POST", `/monitors/${monitor}/run`);
    expect(tick.trigger).toBe("manual");

    const ticks = async () => (await api(s, "GET", `/monitors/${monitor}/ticks`)).items as { id: string; status: string; charged_usd: string | null; summary: string[] }[];
    await expect.poll(async () => (await ticks())[0]!.status, { timeout: 90_000, intervals: [500] }).toBe("partial");
    const [closed] = await ticks();
    expect(closed!.id).toBe(tick.id);
    // Closed with its figures and its charge: 8 answered runs (chatgpt 0.02, gemini 0.015, 4 each), the refused ones free.
    expect(closed!.summary[0]).toMatch(/^Acme is named in \d+ of 8 answers/);
    expect(closed!.charged_usd).toBe("0.14");
    expect(await database.query(`SELECT status FROM jobs WHERE job = 'finish-tick'`)).toEqual([{ status: "completed" }]);
  } finally {
    await server?.kill();
    await simulator?.close();
    await database.drop();
  }
});
