// Waiting on PostgreSQL: LISTEN/NOTIFY carries changed ids from one instance's connection to
// another's, and hundreds of waiters hold no database connection while they sleep: only the one
// listener connection and the pool's idle ones. A waiter on one real server woken by a run another
// finished is tests/e2e/two-instances.spec.ts.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getBatchRoute } from "@/app/api/v1/batches/[batch_id]/route";
import { POST as postPrompts } from "@/app/api/v1/prompts/route";
import type { Principal } from "@/lib/auth/principal";
import { waiterCount } from "@/lib/changes/wait";
import { createProject } from "@/lib/projects/create";
import { LocalDriver } from "@/lib/work/local-driver";
import { PgNotifier, stopNotifier } from "@/lib/changes/notify";
import { usePostgresDatabase } from "../helpers/app";
import { call } from "../helpers/http";
import { person, type Person } from "../helpers/people";
import { useSimulatedEngines } from "../helpers/engines";

useSimulatedEngines();

const POOL_SIZE = 10;
const WAITERS = 500;

const database = usePostgresDatabase({ poolSize: POOL_SIZE });
let monitor: pg.Client;
let carol: Person;
let project: string;

beforeAll(async () => {
  // The process's driver accepts prompts but starts none (no capacity): the waiters sleep until
  // the test has a driver of its own run them.
  (globalThis as { __geoscopeLocalDriver?: LocalDriver }).__geoscopeLocalDriver = new LocalDriver({ concurrency: () => 0 });
  monitor = new pg.Client({ connectionString: database().url, application_name: "geoscope-test-monitor" });
  await monitor.connect();
  carol = await person("carol@example.com");
  const principal: Principal = { user: { id: carol.id, email: carol.email }, credential: { kind: "cli_token", id: carol.cliTokenId, name: "t" }, workspaceId: null, apiKeyId: null };
  project = (await createProject(principal, { name: "Across instances", workspace_id: carol.workspaceId, context: null })).id;
});

afterAll(async () => {
  delete (globalThis as { __geoscopeLocalDriver?: LocalDriver }).__geoscopeLocalDriver;
  await stopNotifier();
  await monitor?.end();
});

async function start(prompt: string, engines?: string[]) {
  const res = await call(postPrompts, "POST", "/prompts", { token: carol.apiKey, body: { prompt, project, ...(engines ? { engines } : {}) } });
  expect(res.status).toBe(202);
  return res.body as { batch: { id: string }; runs: { id: string }[] };
}

/** Connections to the test database other than the monitor's own, by state. */
async function connections() {
  const { rows } = await monitor.query<{ application_name: string; state: string | null; query: string }>(
    `SELECT application_name, state, query FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
  );
  return {
    total: rows.length,
    active: rows.filter((r) => r.state === "active").length,
    listeners: rows.filter((r) => r.application_name === "geoscope-listener").length,
  };
}

describe("PgNotifier", () => {
  it("carries ids from one instance's connection to another's, and not back to the sender", async () => {
    const heardByA: string[] = [];
    const heardByB: string[] = [];
    let heard: () => void = () => undefined;
    const a = new PgNotifier(database().url, (id) => {
      heardByA.push(id);
      heard();
    });
    const b = new PgNotifier(database().url, (id) => heardByB.push(id));
    try {
      await Promise.all([a.listening(), b.listening()]);
      const arrived = new Promise<void>((resolve) => (heard = resolve));
      b.publish(["run_x", "batch_y"]);
      // How fast is bench/wake-latency.ts's to measure; here only that they arrive, in order.
      await arrived;
      await expect.poll(() => heardByA, { timeout: 30_000 }).toEqual(["run_x", "batch_y"]);
      // B emits its own changes locally; its echo must not wake its waiters a second time.
      await b.stop();
      expect(heardByB).toEqual([]);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});

describe("many waiters", () => {
  it(`wakes ${WAITERS} waiters on one batch, which hold no database connection while they sleep`, async () => {
    const { batch, runs } = await start("many waiters");
    const asked = Date.now();
    const waiters = Array.from({ length: WAITERS }, () =>
      call(getBatchRoute, "GET", `/batches/${batch.id}`, { token: carol.apiKey, params: { batch_id: batch.id }, query: { wait: 30 } }).then((res) => ({ res, at: Date.now() })),
    );
    {
      await expect.poll(() => waiterCount(batch.id), { interval: 20, timeout: 60_000 }).toBe(WAITERS);
      // A waiter subscribes before its first read, so the last reads may still be running; once
      // they are done, all 500 sleep with no query running for them, and the connections are the
      // pool's (at most POOL_SIZE, idle) plus this process's one listener, however many wait.
      const samples: Awaited<ReturnType<typeof connections>>[] = [];
      await expect.poll(async () => (samples[samples.length] = await connections()).active, { interval: 20, timeout: 60_000 }).toBe(0);
      for (const sample of samples) expect(sample.total).toBeLessThanOrEqual(POOL_SIZE + 1);
      expect(samples.at(-1)!.listeners).toBe(1);
      expect(waiterCount(batch.id)).toBe(WAITERS);

      // Another driver (in this process) runs them; how instances wake each other is
      // tests/e2e/two-instances.spec.ts's to prove, with two real servers.
      const worker = new LocalDriver();
      expect(await worker.sweep()).toBe(runs.length);
      await worker.drained();
      const answers = await Promise.all(waiters);
      for (const { res } of answers) {
        expect(res.status).toBe(200);
        expect(res.body.batch.status).toBe("completed");
      }
      // Woken, not timed out: every answer came before the 30 s deadline.
      expect(Math.max(...answers.map((a) => a.at))).toBeLessThan(asked + 30_000);
      expect(waiterCount(batch.id)).toBe(0);
    }
  });
});
