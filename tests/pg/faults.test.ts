// Faults on a PostgreSQL server: the database connection dropped in the middle of the transaction
// that holds credit for new work (the backend terminated by the server, and the TCP connection
// cut), the same while a run stores its outcome and settles its hold, and an engine that never
// answers. Accepted work and money must come out whole: a failed request leaves nothing behind and
// answers the envelope with its request id, the same request then works, a run's outcome is stored
// and charged once without asking its engine again, and a hung engine fails its run with
// engine_timeout and frees its hold and its slot.
import { createServer, Socket, type Server } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { GET as getBatchRoute } from "@/app/api/v1/batches/[batch_id]/route";
import { POST as postFanouts } from "@/app/api/v1/fanouts/route";
import { GET as getFanoutRoute } from "@/app/api/v1/fanouts/[fanout_id]/route";
import { POST as postPrompts } from "@/app/api/v1/prompts/route";
import { readBalance, recordPurchase } from "@/lib/billing/ledger";
import { parseUsd } from "@/lib/billing/money";
import { resetConfig } from "@/lib/config/env";
import { engineConfig } from "@/lib/config/engines";
import { db, openDb, setCurrentDb, type Db } from "@/lib/db/client";
import { startSimulator, type EngineId, type RunningSimulator } from "@/lib/engines";
import { log } from "@/lib/log";
import { localDriver } from "@/lib/work/local-driver";
import { createProject } from "@/lib/projects/create";
import { usePostgresDatabase } from "../helpers/app";
import { withDatabase } from "../helpers/pg-database";
import { call } from "../helpers/http";
import { person, principalOf, type Person } from "../helpers/people";
import { useSimulatedEngines } from "../helpers/engines";

useSimulatedEngines({ billing: true });
// A hung engine call is abandoned after 1 s (the default is 2 minutes).
process.env.ENGINE_TIMEOUT_MS = "1000";
resetConfig();

const database = usePostgresDatabase({ poolSize: 4 });
let monitor: pg.Client;
let dana: Person;
let project: string;

/** Engine calls the simulator answered, by `${engine} ${prompt}`. */
const engineCalls = new Map<string, number>();
/** While set, an engine call whose prompt contains `prompt` is announced, then answered once `answer` resolves. */
let heldCall: { prompt: string; arrived: () => void; answer: Promise<void> } | null = null;
const globalForSimulator = globalThis as { __geoscopeSimulator?: Promise<RunningSimulator> };

beforeAll(async () => {
  // The in-process simulator the runs use (lib/engines prepareEngineConfig takes the one on
  // globalThis), started here with a hook: engine calls are counted, and one can be held open.
  const simulated = engineConfig().simulator;
  globalForSimulator.__geoscopeSimulator = startSimulator({
    seed: simulated.seed,
    latencyMs: simulated.latencyMs,
    unref: true,
    onCall: async ({ engine, prompt }: { engine: EngineId; prompt: string }) => {
      engineCalls.set(`${engine} ${prompt}`, (engineCalls.get(`${engine} ${prompt}`) ?? 0) + 1);
      const held = heldCall;
      if (held && prompt.includes(held.prompt)) {
        held.arrived();
        await held.answer;
      }
    },
  });
  await globalForSimulator.__geoscopeSimulator;
  monitor = new pg.Client({ connectionString: database().url, application_name: "geoscope-test-monitor" });
  await monitor.connect();
  dana = await person("dana@example.com");
  await db().$transaction((tx) => recordPurchase(tx, { workspaceId: dana.workspaceId, amountMicros: parseUsd("10.00") }));
  project = (await createProject(principalOf(dana), { name: "Faults", workspace_id: dana.workspaceId, context: null })).id;
});

afterAll(async () => {
  await localDriver().drained();
  await monitor?.end();
  await (await globalForSimulator.__geoscopeSimulator)?.close();
});

/** Engine calls answered for prompts containing `text`, by engine. */
function callsFor(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, n] of engineCalls) {
    const [engine, ...prompt] = key.split(" ");
    if (prompt.join(" ").includes(text)) out[engine!] = (out[engine!] ?? 0) + n;
  }
  return out;
}

/** Everything a request that starts work writes, and the workspace's balance. */
async function snapshot() {
  // Settled: no job of an earlier request is still writing.
  await localDriver().drained();
  const ws = dana.workspaceId;
  const balance = await readBalance(db(), ws);
  return {
    balance,
    holds: await db().creditHold.count({ where: { workspaceId: ws } }),
    held: await db().creditHold.count({ where: { workspaceId: ws, status: "held" } }),
    runs: await db().run.count({ where: { workspaceId: ws } }),
    batches: await db().batch.count({ where: { workspaceId: ws } }),
    fanouts: await db().fanout.count({ where: { workspaceId: ws } }),
    jobs: await db().job.count(),
    transactions: await db().ledgerTransaction.count({ where: { workspaceId: ws } }),
  };
}

/** The 500 a user sees: the envelope, retryable, its message naming the request id of its X-Request-Id header. */
function expectInternalError(res: { status: number; body: any; headers: Headers }) {
  expect(res.status).toBe(500);
  const requestId = res.headers.get("x-request-id");
  expect(requestId).toMatch(/^req_[0-9A-Z]{26}$/);
  expect(res.body.error).toEqual({ code: "internal_error", message: expect.stringContaining(requestId!), engine: null, retryable: true });
}

/** Waits (long-polling, as a client would) until the batch has finished. */
async function batchWhenFinished(batchId: string) {
  for (;;) {
    const res = await call(getBatchRoute, "GET", `/batches/${batchId}`, { token: dana.apiKey, params: { batch_id: batchId }, query: { wait: 30 } });
    expect(res.status).toBe(200);
    if (res.body.batch.status !== "queued" && res.body.batch.status !== "running") return res.body;
  }
}

/**
 * A TCP proxy in front of the PostgreSQL server that cuts a connection (both sides, before
 * forwarding) as soon as the client sends bytes containing `cutOn`, once armed.
 */
async function cuttingProxy(target: { host: string; port: number }) {
  let cutOn: string | null = null;
  let cuts = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = new Socket();
    sockets.add(client).add(upstream);
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    upstream.connect(target.port, target.host);
    client.on("data", (chunk: Buffer) => {
      if (cutOn !== null && chunk.includes(cutOn)) {
        cutOn = null;
        cuts += 1;
        close();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => client.write(chunk));
    client.on("error", close).on("close", close);
    upstream.on("error", close).on("close", close);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    arm: (text: string) => (cutOn = text),
    get cuts() {
      return cuts;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Waits for the backend of this database blocked on a lock at a statement like `pattern` (ILIKE),
 * checks that its transaction holds what a write holding credit holds at that moment (the
 * balance row's lock and the runs it wrote), and terminates it.
 */
async function terminateBlocked(pattern: string): Promise<void> {
  let blocked: { pid: number } | undefined;
  await expect
    .poll(
      async () => {
        const { rows } = await monitor.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE $1`,
          [pattern],
        );
        blocked = rows[0];
        return rows.length;
      },
      { interval: 20, timeout: 30_000 },
    )
    .toBe(1);
  const { rows: locks } = await monitor.query<{ relname: string; mode: string }>(
    `SELECT c.relname, l.mode FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE l.pid = $1 AND l.granted`,
    [blocked!.pid],
  );
  expect(locks).toContainEqual({ relname: "credit_balances", mode: "RowShareLock" });
  expect(locks).toContainEqual({ relname: "runs", mode: "RowExclusiveLock" });
  const { rows: terminated } = await monitor.query<{ ok: boolean }>("SELECT pg_terminate_backend($1) AS ok", [blocked!.pid]);
  expect(terminated[0]!.ok).toBe(true);
}

describe("the database connection dropped while a request holds credit", () => {
  it("POST /prompts whose backend is terminated while writing its holds: 500 with a request id, nothing held or created, and the same request then works", async () => {
    const body = { prompt: "connection lost while holding credit", project, engines: ["chatgpt", "gemini"] };
    const before = await snapshot();

    // Hold off writes to credit_holds: the request's transaction stops at its hold insert, with
    // the workspace's balance row locked and its batch and runs written, where it is terminated.
    // (On a connection of its own: the monitor's view of pg_stat_activity must not be a transaction's snapshot.)
    const locker = new pg.Client({ connectionString: database().url });
    await locker.connect();
    await locker.query("BEGIN");
    await locker.query("LOCK TABLE credit_holds IN SHARE MODE");
    const answer = call(postPrompts, "POST", "/prompts", { token: dana.apiKey, body });
    try {
      await terminateBlocked("%INSERT INTO credit_holds%");
    } finally {
      await locker.query("ROLLBACK");
      await locker.end();
    }

    expectInternalError(await answer);
    expect(await snapshot()).toEqual(before);

    // The pool lost a connection; the same request is accepted now, runs, and is charged once.
    const retried = await call(postPrompts, "POST", "/prompts", { token: dana.apiKey, body });
    expect(retried.status).toBe(202);
    const finished = await batchWhenFinished(retried.body.batch.id);
    expect(finished.runs.map((r: any) => [r.engine, r.status, r.charge.status])).toEqual([
      ["chatgpt", "completed", "captured"],
      ["gemini", "completed", "captured"],
    ]);
    const after = await snapshot();
    expect(after.held).toBe(0);
    expect(after.balance.heldMicros).toBe(0n);
    // 0.02 (chatgpt) + 0.015 (gemini), on the rate card of 2026-11-29.
    expect(before.balance.purchasedMicros + before.balance.promoMicros - after.balance.purchasedMicros - after.balance.promoMicros).toBe(parseUsd("0.035"));
  });

  it("POST /fanouts whose TCP connection is cut as it sends its holds: 500 with a request id, nothing held or created, and the same request then works", async () => {
    const server = new URL(database().url);
    const proxy = await cuttingProxy({ host: server.hostname, port: Number(server.port || 5432) });
    const proxied: Db = openDb({ kind: "postgres", url: withDatabase(`postgresql://${server.username}@127.0.0.1:${proxy.port}/postgres`, database().name) }, { poolSize: 2 });
    const direct = setCurrentDb(proxied);
    const body = { prompts: [{ text: "cut while holding" }, { text: "cut while holding, again" }], engines: ["chatgpt", "claude"], runs: 2, project };
    try {
      const before = await snapshot();
      proxy.arm("INSERT INTO credit_holds");
      expectInternalError(await call(postFanouts, "POST", "/fanouts", { token: dana.apiKey, body }));
      expect(proxy.cuts).toBe(1);
      expect(await snapshot()).toEqual(before);

      const retried = await call(postFanouts, "POST", "/fanouts", { token: dana.apiKey, body });
      expect(retried.status).toBe(202);
      expect(retried.body.held_usd).toBe("0.20");
      let fanout: any;
      do {
        fanout = (await call(getFanoutRoute, "GET", `/fanouts/${retried.body.id}`, { token: dana.apiKey, params: { fanout_id: retried.body.id }, query: { wait: 30 } })).body;
      } while (fanout.status === "queued" || fanout.status === "running");
      expect(fanout.counts).toEqual({ queued: 0, running: 0, completed: 8, failed: 0 });
      expect(fanout.charged_usd).toBe("0.20");
      expect(fanout.held_usd).toBe("0.00");
      const after = await snapshot();
      expect(after.held).toBe(0);
      expect(after.holds).toBe(before.holds + 8);
    } finally {
      await localDriver().drained();
      setCurrentDb(direct);
      await proxied.close();
      await proxy.close();
    }
  });

  it("a run whose backend is terminated while it stores its outcome and settles its hold: stored on the next attempt without asking the engine again, charged once, no hold left", async () => {
    const prompt = "connection lost while storing the outcome";
    const before = await snapshot();
    const warn = vi.spyOn(log, "warn");
    onTestFinished(() => warn.mockRestore());

    // The engine's answer is held until credit_holds is locked: the request itself inserts its
    // hold (it would wait on the lock), and the run must not finish before the lock is taken.
    // Held longer than this file's 1 s engine timeout allows on a busy machine: that timeout
    // would abandon the call and ask the engine again, so it is lifted for this test.
    const engineTimeout = process.env.ENGINE_TIMEOUT_MS;
    process.env.ENGINE_TIMEOUT_MS = "60000";
    resetConfig();
    onTestFinished(() => {
      process.env.ENGINE_TIMEOUT_MS = engineTimeout;
      resetConfig();
    });
    let arrived!: () => void;
    const engineCalled = new Promise<void>((resolve) => (arrived = resolve));
    let answer!: () => void;
    heldCall = { prompt, arrived, answer: new Promise<void>((resolve) => (answer = resolve)) };
    const locker = new pg.Client({ connectionString: database().url });
    let batchId!: string;
    try {
      await locker.connect();
      const started = await call(postPrompts, "POST", "/prompts", { token: dana.apiKey, body: { prompt, project, engines: ["chatgpt"] } });
      expect(started.status).toBe(202);
      batchId = started.body.batch.id;
      await engineCalled;

      // Hold off writes to credit_holds: the run's final transaction stops at its hold's update,
      // with the balance row locked and the run's row written, where it is terminated.
      await locker.query("BEGIN");
      await locker.query("LOCK TABLE credit_holds IN SHARE MODE");
      answer();
      try {
        await terminateBlocked("UPDATE credit_holds%");
      } finally {
        await locker.query("ROLLBACK");
      }
    } finally {
      heldCall = null;
      answer?.();
      await locker.end();
    }

    const finished = await batchWhenFinished(batchId);
    expect(finished.runs.map((r: any) => [r.engine, r.status, r.charge.status])).toEqual([["chatgpt", "completed", "captured"]]);
    const runId: string = finished.runs[0].id;
    // Stored by the same execution, on its next attempt: the engine was asked once, the job ran once.
    expect(callsFor(prompt)).toEqual({ chatgpt: 1 });
    const storeRetries = warn.mock.calls.filter(([message, fields]) => message.includes("storing a run's outcome failed") && fields?.run_id === runId);
    expect(storeRetries.map(([, fields]) => fields?.attempt)).toEqual([1]);

    // Charged once: 0.02 (chatgpt, on the rate card of 2026-11-29), nothing still held.
    const after = await snapshot();
    // (After snapshot(), which waits for the job to record its end.)
    expect(await db().job.findUnique({ where: { id: runId }, select: { status: true, attempts: true } })).toEqual({ status: "completed", attempts: 1 });
    expect(after.held).toBe(0);
    expect(after.balance.heldMicros).toBe(0n);
    expect(before.balance.purchasedMicros + before.balance.promoMicros - after.balance.purchasedMicros - after.balance.promoMicros).toBe(parseUsd("0.02"));
    const hold = await db().creditHold.findUnique({ where: { runId }, select: { id: true, status: true, capturedMicros: true } });
    expect(hold).toMatchObject({ status: "captured", capturedMicros: parseUsd("0.02") });
    // One settlement's usage rows (one per credit bucket it drew on), all of this hold, and nothing else.
    const usage = await db().ledgerTransaction.findMany({ where: { runId }, select: { kind: true, bucket: true, holdId: true, amountMicros: true } });
    expect(usage.length).toBeGreaterThan(0);
    expect(usage.every((t) => t.kind === "usage" && t.holdId === hold!.id)).toBe(true);
    expect(new Set(usage.map((t) => t.bucket)).size).toBe(usage.length);
    expect(usage.reduce((sum, t) => sum + t.amountMicros, 0n)).toBe(-parseUsd("0.02"));
    expect(after.transactions).toBe(before.transactions + usage.length);
    expect(after.runs).toBe(before.runs + 1);
  });
});

describe("an engine that never answers", () => {
  it("fails its run with engine_timeout after the retries, releases its hold, and leaves nothing stuck", async () => {
    const simulator = await (globalThis as { __geoscopeSimulator?: Promise<RunningSimulator> }).__geoscopeSimulator!;
    const before = await snapshot();
    const started = await call(postPrompts, "POST", "/prompts", { token: dana.apiKey, body: { prompt: "a hanging engine [[sim:timeout@claude]]", project, engines: ["chatgpt", "claude"] } });
    expect(started.status).toBe(202);
    const finished = await batchWhenFinished(started.body.batch.id);
    expect(finished.batch.status).toBe("partial");
    const [chatgpt, claude] = finished.runs;
    expect([chatgpt.engine, chatgpt.status, chatgpt.charge.status]).toEqual(["chatgpt", "completed", "captured"]);
    expect([claude.engine, claude.status]).toEqual(["claude", "failed"]);
    expect(claude.error).toEqual({ code: "engine_timeout", message: expect.stringContaining("did not answer in time"), engine: "claude", retryable: true });
    expect([claude.charge.status, claude.charge.amount_usd]).toEqual(["released", "0.00"]);

    // Nothing charged for the hung run, nothing still held; only chatgpt's usage was recorded.
    const after = await snapshot();
    expect(after.held).toBe(0);
    expect(after.balance.heldMicros).toBe(0n);
    const usage = await db().ledgerTransaction.findMany({ where: { workspaceId: dana.workspaceId, kind: "usage", operationId: started.body.batch.id } });
    expect(usage.map((t) => t.runId)).toEqual([chatgpt.id]);
    expect(after.transactions).toBe(before.transactions + 1);

    // Nothing stuck: the abandoned calls are closed at the engine, both jobs are finished, and the
    // engine's slot is free: the next claude run completes.
    expect(simulator.callsInFlight("claude").now).toBe(0);
    const jobs = await db().job.findMany({ where: { id: { in: [chatgpt.id, claude.id] } }, select: { status: true, leaseExpiresAt: true } });
    expect(jobs).toEqual([{ status: "completed", leaseExpiresAt: null }, { status: "completed", leaseExpiresAt: null }]);
    const next = await call(postPrompts, "POST", "/prompts", { token: dana.apiKey, body: { prompt: "claude answers again", project, engines: ["claude"] } });
    const nextFinished = await batchWhenFinished(next.body.batch.id);
    expect(nextFinished.runs.map((r: any) => [r.status, r.charge.status])).toEqual([["completed", "captured"]]);
    expect(await db().run.count({ where: { workspaceId: dana.workspaceId, status: { in: ["queued", "running"] } } })).toBe(0);
  });
});
