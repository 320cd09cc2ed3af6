// Durability of accepted work: the built server is SIGKILLed while runs (of prompt batches and of
// a 100-execution fanout) are queued and running, and while a job of three steps is inside its third, then started again on the same PGlite
// folder. Every run must complete exactly once and be charged exactly once, and the job's first
// two steps must not run again. This spec starts its own server (own port, own data folder) besides
// the shared e2e one, because it has to kill and restart it.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort, nextServer, runScript, serverTestEnv } from "../helpers/processes";
import { serverApi } from "./support";

const PROMPTS = 4;
const ENGINES = ["chatgpt", "claude", "gemini"];
// 50 prompts × chatgpt, gemini × 1 run.
const FANOUT_PROMPTS = 50;
const FANOUT_ENGINES = ["chatgpt", "gemini"];
const FANOUT_RUNS = FANOUT_PROMPTS * FANOUT_ENGINES.length;

type Run = { id: string; status: string; batch_id: string | null; fanout_id: string | null };

/** A USD decimal string as integer micro-dollars. */
const micros = (usd: string) => {
  const [whole, fraction = ""] = usd.split(".");
  return BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, "0"));
};

const linesOf = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : []);

test("runs and jobs survive a SIGKILL of the server: each run completes once and is charged once, no finished step runs again", async () => {
  // Killed runs keep their lease (60 s) until it expires and the restarted server's next sweep picks them up.
  test.setTimeout(300_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), "geoscope-durability-"));
  const jobDir = mkdtempSync(path.join(tmpdir(), "geoscope-durability-job-"));
  const server = nextServer(
    await freePort(),
    serverTestEnv({
      GEOSCOPE_DATA_DIR: dataDir,
      // Slow engines and two calls per engine at a time: at the kill, some runs are running and some queued.
      GEOSCOPE_SIMULATOR_LATENCY_MS: "2500",
      ENGINE_CONCURRENCY: "2",
      // The three-step job (lib/work/testing/three-steps.ts) is registered.
      GEOSCOPE_TEST_JOBS: "1",
    }),
  );
  const base = server.base;
  const env = serverTestEnv({ GEOSCOPE_DATA_DIR: dataDir, GEOSCOPE_TEST_JOBS: "1" });
  const start = () => server.start();
  const kill = () => server.kill();

  try {
    // PGlite is one process at a time: set up the database and the account before the server starts.
    await runScript("db-migrate", [], env);
    const created = JSON.parse(await runScript("admin", ["user:create", "--email", "durable@example.com", "--api-key", "k"], env)) as {
      api_key: { key: string };
    };
    // Recorded before the server starts; its worker picks it up at start.
    await runScript("admin", ["job:send", "--event", "geoscope/test.three-steps", "--id", "durable-job", "--data", JSON.stringify({ dir: jobDir })], env);
    const call = serverApi(created.api_key.key);
    const api = (method: string, url: string, body?: unknown) => call({ base }, method, url, body);
    const allRuns = async (): Promise<Run[]> => {
      const runs: Run[] = [];
      let cursor: string | null = null;
      do {
        const page: { items: Run[]; next_cursor: string | null } = await api("GET", `/runs?limit=100${cursor ? `&cursor=${cursor}` : ""}`);
        runs.push(...page.items);
        cursor = page.next_cursor;
      } while (cursor);
      return runs;
    };

    await start();
    const project = (await api("POST", "/projects", { name: "Durability" })).id as string;
    const batches: string[] = [];
    for (let i = 0; i < PROMPTS; i++) {
      batches.push((await api("POST", "/prompts", { prompt: `durable ${i}`, project, engines: ENGINES })).batch.id as string);
    }
    const fanoutPrompts = Array.from({ length: FANOUT_PROMPTS }, (_, i) => ({ text: `durable fanout ${i}` }));
    const fanout = (await api("POST", "/fanouts", { prompts: fanoutPrompts, engines: FANOUT_ENGINES, runs: 1, project })).id as string;

    // Kill as soon as the driver has started some runs while others still wait their turn, and
    // the job is inside step three (which waits for the release file).
    await expect
      .poll(async () => {
        const runs = await allRuns();
        return runs.some((r) => r.status === "running") && runs.some((r) => r.status === "queued") && linesOf(path.join(jobDir, "starts.log")).length > 0;
      }, { intervals: [50] })
      .toBe(true);
    const atKill = await allRuns();
    await kill();
    expect(atKill).toHaveLength(PROMPTS * ENGINES.length + FANOUT_RUNS);
    expect(atKill.filter((r) => r.status === "completed" || r.status === "failed").length).toBeLessThan(atKill.length);
    // The killed server could not remove its PGlite lock; the next one must take it over.
    expect(existsSync(path.join(dataDir, "pglite.lock"))).toBe(true);

    expect(linesOf(path.join(jobDir, "effects.log"))).toEqual(["one", "two"]);

    await start();
    writeFileSync(path.join(jobDir, "release"), "");
    for (const batch of batches) {
      await expect
        .poll(async () => (await api("GET", `/batches/${batch}?wait=30`)).batch.status as string, { timeout: 180_000, intervals: [0] })
        .toBe("completed");
    }

    await expect
      .poll(async () => (await api("GET", `/fanouts/${fanout}?wait=30`)).status as string, { timeout: 240_000, intervals: [0] })
      .toBe("completed");

    const runs = await allRuns();
    expect(runs).toHaveLength(PROMPTS * ENGINES.length + FANOUT_RUNS);
    expect(new Set(runs.map((r) => r.id)).size).toBe(runs.length);
    for (const run of runs) expect(run.status).toBe("completed");

    const usage = new Map<string, number>();
    let cursor: string | null = null;
    do {
      const page: { items: { kind: string; run_id: string | null }[]; next_cursor: string | null } = await api(
        "GET",
        `/billing/transactions?limit=100${cursor ? `&cursor=${cursor}` : ""}`,
      );
      for (const t of page.items) if (t.kind === "usage" && t.run_id) usage.set(t.run_id, (usage.get(t.run_id) ?? 0) + 1);
      cursor = page.next_cursor;
    } while (cursor);
    expect(Object.fromEntries(usage)).toEqual(Object.fromEntries(runs.map((r) => [r.id, 1])));

    // The fanout's totals are its runs' own: every run counted once, charged once, nothing held.
    const detail = await api("GET", `/fanouts/${fanout}`);
    const observed = detail.prompts.flatMap((p: any) => p.engines.flatMap((e: any) => e.runs));
    expect(detail.counts).toEqual({ queued: 0, running: 0, completed: FANOUT_RUNS, failed: 0 });
    expect(observed.map((r: any) => r.run_id).sort()).toEqual(runs.filter((r) => r.fanout_id === fanout).map((r) => r.id).sort());
    for (const r of observed) expect(r.charge.status).toBe("captured");
    const charged = observed.reduce((sum: bigint, r: any) => sum + micros(r.charge.amount_usd), 0n);
    expect(micros(detail.charged_usd)).toBe(charged);
    // 50 runs at chatgpt's 0.02 and 50 at gemini's 0.015 (rate card 2026-11-29).
    expect(detail.charged_usd).toBe("1.75");
    expect(detail.held_usd).toBe("0.00");
    expect(detail.query_count).toBe(detail.prompts.reduce((n: number, p: any) => n + p.query_count, 0));

    // The job resumed in step three: steps one and two ran once, three was started twice and finished once.
    await expect.poll(() => linesOf(path.join(jobDir, "effects.log")), { timeout: 120_000 }).toEqual(["one", "two", "three"]);
    expect(linesOf(path.join(jobDir, "starts.log"))).toEqual(["three", "three"]);
  } finally {
    await kill();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(jobDir, { recursive: true, force: true });
  }
});
