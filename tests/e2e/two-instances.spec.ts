// Two `next start` instances of the built app on one PostgreSQL database, as a scaled-out
// deployment runs: each with its local driver sweeping the same jobs table, each calling its own
// engine simulator (so every engine call says which instance made it). Both drivers share the
// work of one fanout without ever running a step twice, and a waiter on instance A is woken by a
// run that instance B finished (LISTEN/NOTIFY), not by its deadline.
import { expect, test } from "@playwright/test";
import { startSimulator, type RunningSimulator } from "../../lib/engines/simulator/server";
import { createTestDatabase, type TestDatabase } from "../helpers/pg-database";
import { freePort, nextServer, runScript, serverTestEnv, type NextServer } from "../helpers/processes";
import { serverApi } from "./support";

const FANOUT_PROMPTS = 20;
const FANOUT_ENGINES = ["chatgpt", "gemini"];
const FANOUT_RUNS = FANOUT_PROMPTS * FANOUT_ENGINES.length;
// The SQL of the waiter's "is it finished yet?" read (lib/runs/read.ts runFinished, its statement
// RUN_OPEN), as PostgreSQL shows it for the connection that ran it last.
const WAITER_READ = `SELECT 1 FROM runs r WHERE r.id = $1 AND r.status IN ('queued', 'running')`;

type Call = { engine: string; prompt: string };

/** A gate a simulated engine call waits at until the test opens it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

test("two instances on one PostgreSQL: the drivers share a fanout without running a step twice, and a waiter on A is woken by a run B finished", async () => {
  test.setTimeout(240_000);
  const database: TestDatabase = await createTestDatabase();
  const calls: Record<"a" | "b", Call[]> = { a: [], b: [] };
  // A's first fanout calls wait until B is up, so B's start-up sweep finds queued jobs to take.
  const bIsUp = gate();
  // The waiter's run is held at B's engine until the waiter on A is seen asleep.
  const waiterPrompt = "who wakes the waiter";
  const waiterHeld = gate();
  const waiterCalled = gate();
  const simulators: RunningSimulator[] = [];
  const servers: NextServer[] = [];
  try {
    for (const name of ["a", "b"] as const) {
      simulators.push(
        await startSimulator({
          onCall: async (call) => {
            calls[name].push(call);
            if (call.prompt === waiterPrompt) {
              waiterCalled.open();
              await waiterHeld.opened;
            } else if (name === "a") {
              await bIsUp.opened;
            }
            // Slow enough that each driver has several runs queued in its lanes at once.
            await new Promise((resolve) => setTimeout(resolve, 200));
          },
        }),
      );
    }
    const setup = serverTestEnv({ DATABASE_URL: database.url });
    await runScript("db-migrate", [], setup);
    const created = JSON.parse(await runScript("admin", ["user:create", "--email", "two@example.com", "--api-key", "k"], setup)) as { api_key: { key: string } };
    for (const [i, name] of (["a", "b"] as const).entries()) {
      servers.push(
        nextServer(
          await freePort(),
          serverTestEnv({
            DATABASE_URL: database.urlAs(`geoscope-instance-${name}`),
            GEOSCOPE_SIMULATOR_URL: simulators[i]!.url,
            ENGINE_CONCURRENCY: "2",
          }),
        ),
      );
    }
    const [a, b] = servers as [NextServer, NextServer];
    const api = serverApi(created.api_key.key);

    // The fanout is accepted by A alone; B starts while A's driver has taken only its first runs.
    await a.start();
    const project = (await api(a, "POST", "/projects", { name: "Two instances" })).id as string;
    const prompts = Array.from({ length: FANOUT_PROMPTS }, (_, i) => ({ text: `shared fanout ${i}` }));
    const fanout = (await api(a, "POST", "/fanouts", { prompts, engines: FANOUT_ENGINES, runs: 1, project })).id as string;
    await b.start();
    bIsUp.open();
    await expect
      .poll(async () => (await api(b, "GET", `/fanouts/${fanout}?wait=30`)).status as string, { timeout: 120_000, intervals: [0] })
      .toBe("completed");

    // Every run's engine was called exactly once, by one instance or the other, and both worked.
    const fanoutCalls = [...calls.a, ...calls.b].filter((c) => c.prompt.startsWith("shared fanout"));
    const perRun = new Map<string, number>();
    for (const c of fanoutCalls) perRun.set(`${c.engine} ${c.prompt}`, (perRun.get(`${c.engine} ${c.prompt}`) ?? 0) + 1);
    expect(perRun.size).toBe(FANOUT_RUNS);
    expect([...perRun.values()].every((n) => n === 1)).toBe(true);
    expect(calls.a.length).toBeGreaterThan(0);
    expect(calls.b.length).toBeGreaterThan(0);
    // In the tables: each job and each run was claimed once and finished once, and each run paid once.
    const jobs = await database.query<{ status: string; attempts: number }>(`SELECT status, attempts FROM jobs`);
    expect(jobs).toHaveLength(FANOUT_RUNS);
    expect(jobs.every((j) => j.status === "completed" && j.attempts === 1)).toBe(true);
    const runs = await database.query<{ status: string; attempts: number }>(`SELECT status, attempts FROM runs WHERE fanout_id = $1`, [fanout]);
    expect(runs.every((r) => r.status === "completed" && r.attempts === 1)).toBe(true);
    const ledger = await database.query<{ held: string; captured: string; usage: string }>(
      `SELECT (SELECT count(*) FROM credit_holds WHERE status = 'held') AS held,
              (SELECT coalesce(sum(captured_micros), 0) FROM credit_holds WHERE status = 'captured') AS captured,
              (SELECT coalesce(-sum(amount_micros), 0) FROM ledger_transactions WHERE kind = 'usage') AS usage`,
    );
    expect(ledger[0]).toEqual({ held: "0", captured: "700000", usage: "700000" });
    const detail = await api(a, "GET", `/fanouts/${fanout}`);
    expect([detail.charged_usd, detail.held_usd]).toEqual(["0.70", "0.00"]);

    // The waiter: B accepts and runs the prompt (A never calls an engine for it); A is asked to wait.
    const batch = await api(b, "POST", "/prompts", { prompt: waiterPrompt, project, engines: ["chatgpt"] });
    const runId = batch.runs[0].id as string;
    await waiterCalled.opened;
    const asked = Date.now();
    const waiting = api(a, "GET", `/runs/${runId}?wait=30`).then((run) => ({ run, at: Date.now() }));
    waiting.catch(() => undefined);
    // A is asleep once its "is it finished?" read has been answered (running: B's engine is held).
    await expect
      .poll(
        async () =>
          (
            await database.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = 'geoscope-instance-a' AND state = 'idle' AND query = $1`, [WAITER_READ])
          ).length,
        { intervals: [20], timeout: 30_000 },
      )
      .toBeGreaterThan(0);
    expect((await api(a, "GET", `/runs/${runId}`)).status).toBe("running");
    waiterHeld.open();
    const { run, at } = await waiting;
    expect(run.status).toBe("completed");
    // Woken, not timed out: the answer came before the 30 s deadline, and only B's engine ran it.
    expect(at).toBeLessThan(asked + 30_000);
    expect(calls.a.filter((c) => c.prompt === waiterPrompt)).toEqual([]);
    expect(calls.b.filter((c) => c.prompt === waiterPrompt).map(({ engine, prompt }) => ({ engine, prompt }))).toEqual([{ engine: "chatgpt", prompt: waiterPrompt }]);
  } finally {
    for (const server of servers) await server.kill();
    for (const simulator of simulators) await simulator.close();
    await database.drop();
  }
});
